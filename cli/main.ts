import { parseArgs } from "node:util";

const HELP = `modelyard — a self-hostable model catalogue

Usage:
  modelyard serve [--port N]            build if needed, migrate, load the bundled catalogue into an empty database, serve
  modelyard import <path>... [options]  load models from Hub dumps (.jsonl, .json, .gz), card folders (<org>__<name>.md) or model folders
  modelyard migrate                     apply database migrations and exit
  modelyard build                       build the web app if the sources changed since the last build

Accounts (ADR 0038):
  modelyard users add <email> [--role admin|member]
                             create the account (or change its role) and print a one-time
                             sign-in link, valid 24 h, that sets a password
  modelyard users list       everyone, with role and state
  modelyard tokens create <email> --name <name> [--expires 30d] [--rpm N] [--tokens-per-day N]
                             [--scopes read,inference]   print a new API token, shown once
  modelyard tokens list [<email>]
  modelyard tokens revoke <id>

Import options:
  --stats-as-of YYYY-MM-DD   date of the download/like snapshot (default: taken from a date in the file name, else live)
  --live                     the counts are live, not a snapshot
  --hub                      the arguments are model ids: fetch each from the Hub (MODELYARD_HUB_URL)
                             with the same client as live details (ADR 0016); counts are live
  --batch N                  records per transaction (default 2000)
  --priority low|normal      CPU priority (default low: nice 10, so a server on the same machine
                             keeps answering promptly; an idle machine imports as fast either way)

Environment:
  DATABASE_URL   unset: SQLite at ./data/modelyard.db; sqlite:<path>; postgres://user:pass@host/db
  PORT           port to serve on (default 3000)
`;

/** What bin/modelyard.mjs hands the CLI beside its arguments. */
export interface CliHost {
  /** Turns off the TypeScript loader bin/modelyard.mjs registered (tsx), for code that needs it no more. */
  stopTypeScript?: () => Promise<void>;
}

async function main(args: string[], host: CliHost): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case "serve":
    case "start": {
      const { values } = parseArgs({ args: rest, options: { port: { type: "string" } } });
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !(values.port?.trim() && Number.isInteger(port) && port >= 0 && port <= 65535)) {
        console.error(`--port must be a whole number from 0 to 65535 (0: any free port), got '${values.port}'`);
        return 2;
      }
      // Each command imports only its own module: `serve` must load no copy of app/ beside the
      // build's (ADR 0019), which a static import of the import command would bring in.
      const { runServe } = await import("#cli/serve-command.ts");
      return runServe({ port, stopTypeScript: host.stopTypeScript });
    }
    case "import": {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          "stats-as-of": { type: "string" },
          live: { type: "boolean" },
          batch: { type: "string" },
          hub: { type: "boolean" },
          priority: { type: "string", default: "low" },
        },
      });
      if (values.priority !== "low" && values.priority !== "normal") {
        console.error(`--priority must be low or normal, got '${values.priority}'`);
        return 2;
      }
      if (values.priority === "low") {
        const { lowerCpuPriority } = await import("#cli/priority.ts");
        lowerCpuPriority();
      }
      if (values.hub) {
        const { runHubImport } = await import("#cli/import-hub-command.ts");
        return runHubImport(positionals);
      }
      const { runImport } = await import("#cli/import-command.ts");
      return runImport(positionals, {
        statsAsOf: values["stats-as-of"],
        live: values.live ?? false,
        batch: values.batch ? Number(values.batch) : undefined,
      });
    }
    case "users": {
      const { runUsers } = await import("#cli/accounts-command.ts");
      return runUsers(rest);
    }
    case "tokens": {
      const { runTokens } = await import("#cli/accounts-command.ts");
      return runTokens(rest);
    }
    case "build": {
      const { ensureBuild } = await import("#cli/serve-command.ts");
      await ensureBuild();
      return 0;
    }
    case "migrate": {
      const { openMigratedDatabase } = await import("#app/db/migrate.server.ts");
      const { getEnv } = await import("#app/utils/env.server.ts");
      const { handle, applied } = await openMigratedDatabase(getEnv().DATABASE_URL);
      console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
      await handle.close();
      return 0;
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(HELP);
      return 0;
    default:
      console.error(`Unknown command '${command}'.\n\n${HELP}`);
      return 2;
  }
}

/** Runs one command and exits with its code, except `serve`, which owns its own lifetime. */
export function runCli(args: string[], host: CliHost = {}): void {
  main(args, host).then(
    (code) => {
      // -1: a long-running command (serve) that owns its own lifetime.
      if (code !== -1) process.exit(code);
    },
    (err: unknown) => {
      // A flag parseArgs does not know, or one missing its value, is a usage error like the others (exit 2).
      if (err instanceof TypeError && "code" in err && typeof err.code === "string" && err.code.startsWith("ERR_PARSE_ARGS_")) {
        console.error(`${err.message}\nRun \`modelyard help\` for the commands and their options.`);
        process.exit(2);
      }
      console.error(err instanceof Error ? err.message : String(err));
      // Worker threads (the chat-template sandbox) would otherwise keep a failed command alive.
      process.exit(1);
    },
  );
}
