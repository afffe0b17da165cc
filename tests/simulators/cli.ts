// Runs the provider SIMULATOR (a test tool) on its own:
//   npx tsx tests/simulators/cli.ts --port 9999 [--host 127.0.0.1] [--token-delay-ms 50] [--asset-urls override|real-host] [--bfl-pending-polls 2]
// Prints its base URL on the first stdout line, then keeps serving until SIGINT/SIGTERM.
// Point the app at it with MODELYARD_UPSTREAM_OVERRIDE=<printed URL>.
import { parseArgs } from "node:util";
import { z } from "zod";
import { startProviderSimulator } from "./provider-simulator.ts";

const argsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(0),
  host: z.enum(["127.0.0.1", "localhost", "::1"]).default("127.0.0.1"),
  "token-delay-ms": z.coerce.number().int().min(0).max(60_000).default(0),
  "asset-urls": z.enum(["override", "real-host"]).default("override"),
  // 3.13.1 polls Black Forest Labs five times at most, so more than 4 pending polls always fails.
  "bfl-pending-polls": z.coerce.number().int().min(0).max(10).default(2),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "token-delay-ms": { type: "string" },
      "asset-urls": { type: "string" },
      "bfl-pending-polls": { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      "Modelyard provider SIMULATOR (test tool, not a provider)\n" +
        "  --port N              port to bind on loopback (default: a free port)\n" +
        "  --host ADDR           127.0.0.1 | localhost | ::1\n" +
        "  --token-delay-ms N    delay between streamed chat chunks\n" +
        "  --asset-urls MODE     override (default) | real-host\n" +
        "  --bfl-pending-polls N Black Forest Labs result polls answered Pending before Ready (default 2)\n",
    );
    return;
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    process.stderr.write(`Invalid arguments: ${z.prettifyError(parsed.error)}\n`);
    process.exitCode = 2;
    return;
  }
  const args = parsed.data;
  const sim = await startProviderSimulator({
    port: args.port,
    host: args.host === "localhost" ? "127.0.0.1" : args.host,
    tokenDelayMs: args["token-delay-ms"],
    assetUrls: args["asset-urls"],
    bflPendingPolls: args["bfl-pending-polls"],
  });
  process.stdout.write(`${sim.url}\n`);
  process.stderr.write(
    `Provider SIMULATOR (test tool) listening. Control API: ${sim.url}/__simulator/{health,requests,faults,reset,hub-models}\n`,
  );
  const stop = (): void => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
