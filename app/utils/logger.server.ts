/**
 * The process's log: pino, one JSON object a line on stdout, written off the event loop through
 * the line log (app/utils/line-log.server.ts, which drops lines rather than stall requests when
 * the reader falls behind); pretty when a person runs `npm run dev` on a terminal. Every line goes
 * through the one scrubber (app/utils/redact.server.ts) with the values of every variable the
 * configuration declares secret, besides the token shapes it always removes (ADR 0041).
 */
import { pino, type Logger } from "pino";
import { CONFIG_FAMILIES, CONFIG_VARS, type ConfigVar, type EnvLike, configEnv, getEnv } from "#app/utils/env.server.ts";
import { stdoutLineLog } from "#app/utils/line-log.server.ts";
import { secretScrubber } from "#app/utils/redact.server.ts";

/** The values of the declared secrets that are set: DATABASE_URL, HF_TOKEN, keys, the metrics token. */
export function secretValues(env: EnvLike): string[] {
  const out: string[] = [];
  const families = Object.entries(CONFIG_FAMILIES).filter(([, f]) => "secret" in f && f.secret);
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    const spec = (CONFIG_VARS as Record<string, ConfigVar | undefined>)[name];
    if (spec?.secret || families.some(([prefix]) => name.startsWith(prefix))) out.push(value);
  }
  return out;
}

export interface LoggerOptions {
  level: string;
  /** Human-readable lines (pino-pretty, a dev dependency, in a worker thread) instead of JSON. */
  pretty: boolean;
  /** Where JSON lines go, one call per line without its line feed. */
  write: (line: string) => void;
  secrets: string[];
}

export function createLogger(opts: LoggerOptions): Logger {
  const scrub = secretScrubber(opts.secrets);
  const options = {
    level: opts.level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Not "msg" alone: an operator's query reads level names better than pino's numbers.
    formatters: { level: (label: string) => ({ level: label }) },
    hooks: { streamWrite: scrub },
  };
  if (opts.pretty) return pino({ ...options, transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" } } });
  return pino(options, { write: (line: string) => opts.write(line.endsWith("\n") ? line.slice(0, -1) : line) });
}

let logger: Logger | undefined;

/** The process's logger, made on first use from LOG_LEVEL and NODE_ENV. */
export function log(): Logger {
  logger ??= createLogger({
    level: getEnv().LOG_LEVEL,
    pretty: getEnv().NODE_ENV === "development" && process.stdout.isTTY === true,
    write: stdoutLineLog(),
    secrets: secretValues(configEnv()),
  });
  return logger;
}
