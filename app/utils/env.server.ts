/**
 * Every environment variable Modelyard reads, declared once: its zod schema, its default (as you
 * would write it in the environment) and a one-line description (ADR 0039). The README's
 * configuration table and `.env.example` are generated from `CONFIG_VARS` and `CONFIG_FAMILIES`
 * by `npm run config:docs`, and scripts/config-docs.test.ts fails when they drift.
 *
 * Feature parsers (readGatewayConfig, readAuthConfig) read their part through `readConfig`; routes
 * get the process's configuration from `getEnv()` (parsed values) or `configEnv()` (the declared
 * variables by name, for features that look a key up by name), never from `process.env`.
 */
import { z } from "zod";

/** An environment, or a test's stand-in for one: names to raw strings. */
export type EnvLike = Readonly<Record<string, string | undefined>>;

/** The Hub's asset host for the task guides' demo media (also read raw by the widgets' examples). */
export const DEFAULT_TASK_ASSET_BASE = "https://huggingface.co/datasets/huggingfacejs/tasks/resolve/main";

/** Sections of the README table and `.env.example`, in their order there. */
export const CONFIG_GROUPS = {
  server: "Server",
  database: "Database",
  catalogue: "Catalogue and live details",
  providers: "Inference providers and endpoints",
  gateway: "Inference gateway",
  caps: "Cost caps per call",
  access: "Access, accounts and quotas",
  operations: "Operations: health, metrics, logs, shutdown",
  startup: "Start-up (`modelyard serve`)",
  development: "Development and tests",
} as const;

export type ConfigGroup = keyof typeof CONFIG_GROUPS;

export interface ConfigVar {
  group: ConfigGroup;
  /** Parses the raw string; a failure names the variable. */
  schema: z.ZodType;
  /** The value when unset or empty, as written in the environment; parsed by `schema` like any other. */
  default?: string;
  /** One line for the README table and `.env.example`. */
  description: string;
  /** Never given a default or an example value in the generated files. */
  secret?: true;
}

/** Variables named by a prefix and a part the operator chooses, such as a provider's name. */
export interface ConfigFamily {
  group: ConfigGroup;
  /** How the README writes the family, e.g. MODELYARD_PROVIDER_KEY_<PROVIDER>. */
  pattern: string;
  /** One member, for `.env.example`. */
  example: string;
  description: string;
  secret?: true;
}

// Helpers for the common shapes. An empty value counts as unset everywhere, so `FOO=` in an
// env file means "the default", as it does for most tools.
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const flag = (name: string) =>
  z.enum(["0", "1", "false", "true"], { error: `${name} must be 1 (on) or 0 (off)` }).transform((v) => v === "1" || v === "true");
const httpUrl = z.url({ protocol: /^https?$/ });
const list = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== ""),
);

export const CONFIG_VARS = {
  PORT: { group: "server", schema: int(0, 65535), default: "3000", description: "Port to listen on." },
  HOST: { group: "server", schema: z.string(), default: "0.0.0.0", description: "Address to listen on." },
  NODE_ENV: {
    group: "server",
    schema: z.enum(["development", "production", "test"]),
    default: "production",
    description: "React's and React Router's builds: `modelyard` sets `production`, `npm run dev` `development`.",
  },
  MODELYARD_PUBLIC_URL: {
    group: "server",
    schema: httpUrl,
    description: "The address people reach the site at: sign-in links, the OIDC redirect URI, Secure cookies when https.",
  },

  DATABASE_URL: {
    group: "database",
    schema: z.string(),
    description: "Unset: SQLite at `./data/modelyard.db`; `sqlite:<path>`; or `postgres://user:pass@host:5432/db` (needs `pg_trgm`).",
    secret: true,
  },
  MODELYARD_SQLITE_READERS: {
    group: "database",
    schema: int(0, 16),
    default: "2",
    description: "SQLite reader threads for catalogue reads; `0` reads on the main thread (ADR 0023).",
  },

  MODELYARD_HUB_URL: {
    group: "catalogue",
    schema: httpUrl,
    default: "https://huggingface.co",
    description: "The Hub for live details, `import --hub` and outbound links.",
  },
  // Off unless asked for, because the catalogue works offline first (ADR 0016).
  MODELYARD_LIVE: { group: "catalogue", schema: flag("MODELYARD_LIVE"), default: "0", description: "`1` fetches a model's missing card, files and record from the Hub when its page is opened." },
  MODELYARD_LIVE_DEADLINE_MS: { group: "catalogue", schema: int(100, 30_000), default: "3000", description: "How long a model page waits for live details." },
  // On unless a small machine needs its ~50 MB back (ADR 0027).
  MODELYARD_LISTING_INDEX: {
    group: "catalogue",
    schema: flag("MODELYARD_LISTING_INDEX"),
    default: "1",
    description: "`0` builds the in-memory index without its listing part (about 50 MB less at 760k models); one plain query per view then answers pages, and a count past 10,000 shows as \"10,000+\" (ADR 0045).",
  },
  MODELYARD_TASK_ASSET_BASE: {
    group: "catalogue",
    schema: httpUrl,
    default: DEFAULT_TASK_ASSET_BASE,
    description: "Where task-guide demo media are loaded from (task pages, and the widgets' \"Example from the task guide\").",
  },
  MODELYARD_PROPOSE_URL_TEMPLATE: {
    group: "catalogue",
    schema: z.string(),
    default: "https://github.com/huggingface/huggingface.js/blob/main/packages/tasks/src/tasks/{task}/{file}",
    description: "The task pages' \"Propose updates\" link, with `{task}` and `{file}`.",
  },
  MODELYARD_UPSTREAM_OVERRIDE: {
    group: "catalogue",
    schema: httpUrl,
    description: "Sends every outbound provider and Hub request to `<base>/<host><path>` (egress proxies, the tests' simulator).",
  },

  HF_TOKEN: {
    group: "providers",
    schema: z.string(),
    description: "The server's Hugging Face token for demos when the visitor sends none (who may spend it: `MODELYARD_ACCESS`).",
    secret: true,
  },
  MODELYARD_ENDPOINTS: {
    group: "providers",
    schema: z.string(),
    description:
      "JSON list of OpenAI-compatible servers offered as extra providers: `[{\"name\",\"url\",\"models\",\"label\"?,\"keyEnv\"?}]` (checked in depth by app/inference/endpoints.server.ts).",
  },
  MODELYARD_BILL_TO_ALLOWED: { group: "providers", schema: list, default: "", description: "Comma-separated organisations `billTo` may name on the server's keys." },

  MODELYARD_INFERENCE_DEADLINE_MS: {
    group: "gateway",
    schema: int(100, 3_600_000),
    default: "60000",
    description: "Deadline for one inference request: a whole answer, or a stream's first chunk and then each silence between its chunks.",
  },
  MODELYARD_INFERENCE_STREAM_MAX_MS: { group: "gateway", schema: int(1_000, 86_400_000), default: "600000", description: "Longest a streamed answer may run, from the request's arrival." },
  MODELYARD_INFERENCE_MAX_RETRIES: { group: "gateway", schema: int(0, 20), default: "4", description: "Retries of a call the provider answered 503 \"model is loading\", within the deadline." },
  MODELYARD_INFERENCE_RETRY_BASE_MS: { group: "gateway", schema: int(1, 60_000), default: "1000", description: "First wait before such a retry; it doubles each time (longer when the provider estimates a load time)." },
  MODELYARD_INFERENCE_MAX_BODY_BYTES: { group: "gateway", schema: int(1_024, 256 * 1024 * 1024), default: "8388608", description: "Largest request body `/api/inference` reads (413 past it)." },
  // Far past any real answer (an image, seconds of video, a long chat answer), yet a bound on
  // what one call may hold: 3.13.1 reads a whole answer with response.json() or .blob().
  MODELYARD_INFERENCE_MAX_ANSWER_BYTES: {
    group: "gateway",
    schema: int(1_024, 2 * 1024 * 1024 * 1024),
    default: "134217728",
    description: "Largest answer the gateway reads from a provider or endpoint (JSON, media and its download, or a stream's whole length); past it the call fails with 502 `answer_too_large` and the upstream request is aborted.",
  },
  MODELYARD_INFERENCE_RATE_LIMIT: { group: "gateway", schema: int(1, 1_000_000), default: "30", description: "Inference requests per window per anonymous address." },
  MODELYARD_INFERENCE_RATE_WINDOW_MS: { group: "gateway", schema: int(1_000, 86_400_000), default: "60000", description: "The window of `MODELYARD_INFERENCE_RATE_LIMIT`." },
  MODELYARD_V1_ROUTING: {
    group: "gateway",
    schema: z.enum(["fastest", "listed"]),
    default: "fastest",
    description: "How `/v1` picks a provider when the model names none: `fastest` (lowest median time to first token over the last day's calls) or `listed` (the catalogue's order). Live providers only.",
  },
  MODELYARD_V1_FAILOVER: { group: "gateway", schema: int(0, 10), default: "2", description: "How many more providers `/v1` tries when the chosen one fails before its first byte (5xx, 429, timeout)." },

  MODELYARD_CAP_MAX_TOKENS: { group: "caps", schema: int(1, 10_000_000), default: "4096", description: "Generated tokens (`max_tokens`, `max_new_tokens`, `max_completion_tokens`, `max_length`)." },
  MODELYARD_CAP_CHOICES: { group: "caps", schema: int(1, 1_000), default: "4", description: "Answers (`n`, `num_return_sequences`, `best_of`, `num_images_per_prompt`)." },
  MODELYARD_CAP_IMAGE_SIDE: { group: "caps", schema: int(64, 100_000), default: "2048", description: "Pixels on either side of a generated image or video." },
  MODELYARD_CAP_STEPS: { group: "caps", schema: int(1, 10_000), default: "100", description: "Diffusion steps." },
  MODELYARD_CAP_FRAMES: { group: "caps", schema: int(1, 100_000), default: "241", description: "Frames of a generated video." },
  MODELYARD_CAP_SPEECH_CHARS: { group: "caps", schema: int(1, 10_000_000), default: "5000", description: "Characters of text turned into speech or audio." },

  MODELYARD_ACCESS: {
    group: "access",
    schema: z.enum(["open", "members", "private"], { error: "MODELYARD_ACCESS must be open, members or private" }),
    default: "members",
    description: "Who may browse and spend the server's keys: `members`, `open` or `private` (ADR 0038; an admin can override it on /admin).",
  },
  MODELYARD_OIDC_ISSUER: { group: "access", schema: httpUrl, description: "OpenID Connect issuer; set all three OIDC variables or none." },
  MODELYARD_OIDC_CLIENT_ID: { group: "access", schema: z.string(), description: "OpenID Connect client id." },
  MODELYARD_OIDC_CLIENT_SECRET: { group: "access", schema: z.string(), description: "OpenID Connect client secret.", secret: true },
  MODELYARD_OIDC_ALLOWED: { group: "access", schema: list, default: "", description: "Comma-separated e-mails and domains let in through OIDC (empty: only invited people)." },
  MODELYARD_ADMIN_EMAILS: { group: "access", schema: list, default: "", description: "Comma-separated e-mails made admins when they sign in through OIDC." },
  MODELYARD_TRUSTED_PROXIES: { group: "access", schema: list, default: "", description: "Comma-separated IPs or CIDR ranges whose `X-Forwarded-For` is believed." },
  MODELYARD_SESSION_DAYS: { group: "access", schema: int(1, 365), default: "30", description: "How long a sign-in lasts." },
  MODELYARD_USAGE_RETENTION_DAYS: { group: "access", schema: int(1, 3650), default: "90", description: "How long usage records are kept." },
  MODELYARD_MEMBER_RPM: { group: "access", schema: int(1, 1_000_000), default: "60", description: "Default requests a minute per person (admins can set it per person)." },
  MODELYARD_MEMBER_TOKENS_PER_DAY: { group: "access", schema: int(1, 1_000_000_000_000), description: "Default tokens a day per person; unset: no daily limit." },
  MODELYARD_ANONYMOUS_DAILY_REQUESTS: {
    group: "access",
    schema: int(0, 100_000_000),
    default: "1000",
    description: "Site-wide anonymous calls a day on the server's keys (only under `open`).",
  },

  LOG_LEVEL: {
    group: "operations",
    schema: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
    default: "info",
    description: "Least severe log level written: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Lines are JSON (pretty under `npm run dev` on a terminal).",
  },
  MODELYARD_METRICS_TOKEN: {
    group: "operations",
    schema: z.string().min(16, { error: "MODELYARD_METRICS_TOKEN must be at least 16 characters" }),
    description: "Serves Prometheus metrics on `GET /metrics` to `Authorization: Bearer <this>`. Without it or `MODELYARD_METRICS_PORT`, /metrics answers 404.",
    secret: true,
  },
  MODELYARD_METRICS_PORT: {
    group: "operations",
    schema: int(1, 65535),
    description: "Serves `/metrics` on a second listener at this port (on `HOST`) instead of the main one; keep that port off the public network.",
  },
  MODELYARD_SHUTDOWN_GRACE_MS: {
    group: "operations",
    schema: int(0, 3_600_000),
    default: "25000",
    description: "On SIGTERM, how long requests and streams in flight may take to finish before streams are ended with an error event and the process exits.",
  },

  MODELYARD_SKIP_BUILD: {
    group: "startup",
    schema: flag("MODELYARD_SKIP_BUILD"),
    default: "0",
    description: "`1` serves `build/` as it is, without building it when missing or older than the sources (tests and benches that built once).",
  },
  MODELYARD_SKIP_BUNDLED: {
    group: "startup",
    schema: flag("MODELYARD_SKIP_BUNDLED"),
    default: "0",
    description: "`1` starts on an empty database instead of loading the bundled catalogue into it.",
  },
  MODELYARD_BUILD_DIR: {
    group: "startup",
    schema: z.string(),
    default: "build",
    description: "Where `react-router build` writes; `modelyard serve` sets it for the build it stages. Leave it unset.",
  },
  MODELYARD_BENCH_EVENT_LOOP: {
    group: "startup",
    schema: flag("MODELYARD_BENCH_EVENT_LOOP"),
    default: "0",
    description: "`1` makes the server report its event-loop delay on SIGUSR2 (`bench:catalog -- --mixed`).",
  },

  TEST_DATABASE_URL: {
    group: "development",
    schema: z.string(),
    description: "`npm test` runs the database tests on this PostgreSQL server too (each test creates and drops its own database).",
    secret: true,
  },
  MODELYARD_SHARED_DATA: {
    group: "development",
    schema: z.string(),
    default: "../shared/data",
    description: "The large reference data for `npm run test:data`, the benches, `catalogue:build` and `fixtures:build`.",
  },
  CHROMIUM_PATH: { group: "development", schema: z.string(), default: "/usr/bin/chromium", description: "The Chromium the browser journeys and Lighthouse run." },
  MODELYARD_BENCH_CPU_PROF: {
    group: "development",
    schema: z.string(),
    description: "A folder: `bench:catalog -- --mixed` writes each server's CPU profile there (`node --cpu-prof`).",
  },
  MODELYARD_BENCH_CPU_PROF_INTERVAL: {
    group: "development",
    schema: z.coerce.number().int().positive(),
    default: "1000",
    description: "The sampling interval of those profiles, in microseconds.",
  },
  LH_SAVE: { group: "development", schema: z.string(), description: "A folder: `bench:lighthouse` saves each Lighthouse report there as JSON." },
  LH_DETAILS: { group: "development", schema: flag("LH_DETAILS"), default: "0", description: "`1` makes `bench:lighthouse` print each failing audit's details." },
  MODELYARD_SUMMARY_FILE: {
    group: "development",
    schema: z.string(),
    description: "Where `npm test`'s reporter writes each test module's result, which the summary reads. `npm test` sets it; leave it unset.",
  },
} as const satisfies Record<string, ConfigVar>;

export const CONFIG_FAMILIES = {
  MODELYARD_PROVIDER_KEY_: {
    group: "providers",
    pattern: "MODELYARD_PROVIDER_KEY_<PROVIDER>",
    example: "MODELYARD_PROVIDER_KEY_TOGETHER",
    description: "The server's key for one provider (its name upper-cased, `-` as `_`: `FIREWORKS_AI`), used before `HF_TOKEN`.",
    secret: true,
  },
  MODELYARD_ENDPOINT_KEY_: {
    group: "providers",
    pattern: "MODELYARD_ENDPOINT_KEY_<NAME>",
    example: "MODELYARD_ENDPOINT_KEY_LAB",
    description: "A configured endpoint's key, named by its `keyEnv` in `MODELYARD_ENDPOINTS`.",
    secret: true,
  },
} as const satisfies Record<string, ConfigFamily>;

export type ConfigName = keyof typeof CONFIG_VARS;

type ValueOf<V> = V extends { schema: infer S extends z.ZodType; default: string } ? z.output<S> : V extends { schema: infer S extends z.ZodType } ? z.output<S> | undefined : never;

/** Every declared variable, parsed: a default filled in, a flag a boolean, a list an array. */
export type ConfigValues = { [K in ConfigName]: ValueOf<(typeof CONFIG_VARS)[K]> };

/** The process's parsed configuration (the old name, kept for its callers). */
export type Env = ConfigValues;

const NAMES = Object.keys(CONFIG_VARS) as ConfigName[];

function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/**
 * The named variables (all when `names` is omitted) parsed from `env`. A bad value throws one
 * error listing every bad variable by name, prefixed "Invalid <what>".
 */
export function readConfig<K extends ConfigName = ConfigName>(env: EnvLike, names?: readonly K[], what = "configuration"): Pick<ConfigValues, K> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of names ?? (NAMES as K[])) {
    const spec: ConfigVar = CONFIG_VARS[name];
    const given = env[name];
    const raw = isSet(given) ? given : spec.default;
    if (raw === undefined) continue;
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) out[name] = parsed.data;
    else problems.push(`${name}: ${parsed.error.issues[0]?.message ?? "invalid value"}`);
  }
  if (problems.length) throw new Error(`Invalid ${what}: ${problems.join("; ")}`);
  // Built from the table above, key by key, with each value checked by its own schema.
  return out as Pick<ConfigValues, K>;
}

/** Whether `name` is a declared variable or a member of a declared family. */
export function isDeclared(name: string): boolean {
  return name in CONFIG_VARS || Object.keys(CONFIG_FAMILIES).some((prefix) => name.startsWith(prefix) && name.length > prefix.length);
}

/** The declared variables and family members that are set in `env`, and nothing else of it. */
export function declaredOnly(env: EnvLike): EnvLike {
  return Object.freeze(Object.fromEntries(Object.entries(env).filter(([name, value]) => isDeclared(name) && isSet(value))));
}

let cached: ConfigValues | undefined;
let cachedEnv: EnvLike | undefined;

/** The process's configuration, validated on first use; a bad value stops start-up naming the variable. */
export function getEnv(): ConfigValues {
  cached ??= readConfig(process.env, undefined, "environment");
  return cached;
}

/**
 * The process's configuration by name (validated as a whole first): what routes hand to features
 * that look a setting up by name, such as a provider's key or an endpoint's `keyEnv`.
 */
export function configEnv(): EnvLike {
  getEnv();
  cachedEnv ??= declaredOnly(process.env);
  return cachedEnv;
}
