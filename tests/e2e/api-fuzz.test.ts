/**
 * Property-based fuzzing of every /api route and the listing page, over real HTTP against the
 * production server (`modelyard serve`). Each case must get a 2xx, or a JSON 4xx whose body names
 * the field at fault (`error.field`, or `parameter` in the Hub-shaped /api/models errors), within
 * a per-request timeout; nothing may answer 5xx or HTML under /api, and the server must still be
 * up at the end. Inference goes to the provider SIMULATOR (MODELYARD_UPSTREAM_OVERRIDE), so no
 * case reaches a real provider. Fixed seed: a failure replays with the same cases.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { setupServer, setupSimulator } from "#tests/e2e/support/journey.ts";

const SEED = 20240711;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 64 * 1024;
const MAX_URL_CHARS = 12_000;
const CHAT_MODEL = "meta-llama/Meta-Llama-3-8B-Instruct";
const CATALOGUE_IDS = [CHAT_MODEL, "gpt2", "distilbert/distilbert-base-uncased-finetuned-sst-2-english", "stabilityai/stable-diffusion-3-medium"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "PURGE"] as const;

let cases = 0;
const statuses = new Map<number, number>();

// Kept across tests: the last one checks that the earlier ones reached the providers.
const sim = setupSimulator({ keepState: true });
const server = setupServer(() => ({
  env: {
    MODELYARD_UPSTREAM_OVERRIDE: sim.url,
    // Open, as before sign-in existed, so random requests reach the providers' code paths too.
    MODELYARD_ACCESS: "open",
    HF_TOKEN: "hf_fuzzServerKey000000000",
    // No configured endpoints: every upstream call is a provider call, rewritten to the simulator.
    MODELYARD_ENDPOINTS: "",
    MODELYARD_INFERENCE_RATE_LIMIT: "100000",
    MODELYARD_INFERENCE_MAX_RETRIES: "0",
    MODELYARD_INFERENCE_DEADLINE_MS: "5000",
    // Small, so "too big" costs little to send.
    MODELYARD_INFERENCE_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  },
}));

afterAll(() => {
  console.log(`[api-fuzz] ${cases} cases, seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
});

// ---------------------------------------------------------------------------------------------
// One request and the invariants every answer must meet.

interface Case {
  method: string;
  /** Path and query exactly as sent: may hold malformed percent-encoding on purpose. */
  path: string;
  body?: string | Uint8Array;
  contentType?: string;
  /** The field a 400 must name, when the case was built to break exactly one. */
  badField?: string;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(c: Case): Promise<Answer> {
  cases += 1;
  const headers: Record<string, string> = {};
  if (c.contentType !== undefined) headers["Content-Type"] = c.contentType;
  const res = await fetch(server.url + c.path, {
    method: c.method,
    headers,
    body: c.body === undefined || c.method === "GET" || c.method === "HEAD" ? undefined : typeof c.body === "string" ? c.body : Buffer.from(c.body),
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text };
}

const describeCase = (c: Case, a: Answer) => `${c.method} ${c.path.length > 400 ? `${c.path.slice(0, 150)}…${c.path.slice(-250)}` : c.path} ${typeof c.body === "string" ? c.body.slice(0, 300) : c.body ? `<${c.body.byteLength} bytes>` : ""} -> ${a.status} ${a.contentType} ${a.text.slice(0, 300)}`;

/** The field a JSON error names: {error: {field}} (null for the body or URL as a whole) or the Hub's {parameter}. */
function namedField(body: unknown): string | null | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  if ("parameter" in body && typeof body.parameter === "string") return body.parameter;
  if ("error" in body && typeof body.error === "object" && body.error !== null && "field" in body.error) {
    const f = body.error.field;
    if (typeof f === "string" || f === null) return f;
  }
  return undefined;
}

function errorMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const e = body.error;
  if (typeof e === "string") return e;
  if (typeof e === "object" && e !== null && "message" in e && typeof e.message === "string") return e.message;
  return undefined;
}

async function checkApi(c: Case): Promise<void> {
  const a = await send(c);
  const where = describeCase(c, a);
  expect(a.status, where).toBeGreaterThanOrEqual(200);
  expect(a.status, where).toBeLessThan(500);
  expect(a.contentType, where).not.toMatch(/html/);
  if (c.method === "HEAD") return;
  if (a.status >= 400) {
    expect(a.contentType, where).toMatch(/^application\/json/);
    const body: unknown = JSON.parse(a.text);
    expect(errorMessage(body), where).toEqual(expect.any(String));
    if (a.status === 400) {
      const field = namedField(body);
      expect(field, `a 400 must name its field: ${where}`).not.toBeUndefined();
      if (c.badField !== undefined) expect(field, where).toBe(c.badField);
    }
  } else if (a.status < 300 && a.contentType.startsWith("application/json")) {
    JSON.parse(a.text);
  }
}

async function checkPage(c: Case): Promise<void> {
  const a = await send(c);
  const where = describeCase(c, a);
  expect(a.status, where).toBeLessThan(500);
  expect([2, 3, 4], where).toContain(Math.floor(a.status / 100));
}

/** fc.assert, with the failure (not a multi-kilobyte counterexample) in the message. */
async function run<T>(arb: fc.Arbitrary<T>, check: (value: T) => Promise<void>, numRuns: number): Promise<void> {
  const out = await fc.check(fc.asyncProperty(arb, check), { seed: SEED, numRuns, endOnFailure: true });
  if (out.failed) {
    const error = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
    throw new Error(`property failed after ${out.numRuns} cases (seed ${out.seed}, path ${out.counterexamplePath}): ${error.slice(0, 1500)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Generators.

const hex = fc.integer({ min: 0, max: 255 }).map((n) => `%${n.toString(16).padStart(2, "0").toUpperCase()}`);
/** Percent-encodings, good and bad: a stray '%', a truncated escape, lone UTF-8 bytes, %00. */
const percentJunk = fc.oneof(fc.constantFrom("%", "%2", "%zz", "%E0", "%C3%28", "%FF%FE", "%00", "%25", "%2F", "%5C", "%%"), hex);
const unicodeText = fc.string({ unit: "binary", maxLength: 40 });
/** A path segment or query value as sent on the wire: encoded text, raw junk, or both. */
const wireText = fc.oneof(
  unicodeText.map(encodeURIComponent),
  fc.array(fc.oneof(percentJunk, fc.constantFrom("a", "B", "0", "-", ".", "_", "..", "~", "+")), { maxLength: 8 }).map((p) => p.join("")),
  fc.integer({ min: 0, max: 5000 }).map((n) => "x".repeat(n)),
  fc.constantFrom("", "true", "false", "1", "-1", "0", "1e9", "NaN", "null", "[]", "{}", "../../etc/passwd", "%2e%2e%2f", "<script>"),
);
// fetch resolves "." and ".." segments (also as %2e) before sending, which would leave /api.
const keepSegment = (s: string): string =>
  s
    .split("/")
    .map((p) => (/^(?:\.|%2e){1,2}$/i.test(p) ? `x${p}` : p))
    .join("/");
const segment = wireText.map(keepSegment);
const idPart = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,20}$/);
const modelId = fc.oneof(
  fc.constantFrom(...CATALOGUE_IDS),
  idPart,
  fc.tuple(idPart, idPart).map(([a, b]) => `${a}/${b}`),
  fc.constantFrom("../../etc/passwd", "https://example.com/m", "a/b/c", "api/x", ".x", "a..b", "é", "a b", "x".repeat(201)),
  unicodeText,
);
const method = fc.constantFrom(...METHODS);
const query = (names: readonly string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names), wireText), wireText), { maxLength: 5 })
    // Under Node's 16 KB limit for the request head, which Node answers itself (431) before any app code.
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`.slice(0, MAX_URL_CHARS) : ""));

const LIST_PARAMS = ["search", "author", "pipeline_tag", "library", "license", "language", "filter", "sort", "direction", "limit", "full", "cardData", "config", "expand", "expand[]", "cursor", "inference_provider", "page", "p"];

// ---------------------------------------------------------------------------------------------

describe("every /api route answers 2xx or a JSON 4xx naming the field, never 5xx or HTML", () => {
  it("GET /api/models with random parameters", async () => {
    await run(query(LIST_PARAMS), (q) => checkApi({ method: "GET", path: `/api/models${q}` }), 250);
  });

  it("/api/models/<id> with random ids, revisions, expand and methods", async () => {
    const arb = fc.record({
      m: fc.oneof({ weight: 4, arbitrary: fc.constant("GET") }, { weight: 1, arbitrary: method }),
      id: fc.oneof(modelId.map((id) => id.split("/").map((p) => keepSegment(encodeURIComponent(p))).join("/")), segment, fc.tuple(segment, segment).map(([a, b]) => `${a}/${b}`)),
      rev: fc.option(segment, { nil: undefined }),
      q: query(["expand", "expand[]"]),
    });
    await run(arb, ({ m, id, rev, q }) => checkApi({ method: m, path: `/api/models/${id}${rev === undefined ? "" : `/revision/${rev}`}${q}` }), 300);
  });

  it("/api/models, /api/tasks and unknown /api/* paths with random methods and paths", async () => {
    const arb = fc.record({
      m: method,
      path: fc.oneof(fc.constantFrom("/api/models", "/api/tasks", "/api", "/api/"), fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/api/${s.join("/")}`)),
      q: query(["x", "model", "limit"]),
      body: fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
    });
    await run(arb, ({ m, path, q, body }) => checkApi({ method: m, path: path + q, body, contentType: "application/json" }), 200);
  });

  it("GET /api/snippets with random model ids and panel settings", async () => {
    const arb = fc.record({
      model: fc.oneof(modelId.map(encodeURIComponent), wireText),
      q: query(["provider", "stream", "bill_to", "lang", "inputs", "parameters"]),
    });
    await run(arb, ({ model, q }) => checkApi({ method: "GET", path: `/api/snippets${q ? `${q}&` : "?"}model=${model}` }), 200);
  });

  it("GET /api/inference?model= with random ids", async () => {
    await run(fc.oneof(modelId.map(encodeURIComponent), wireText), (model) => checkApi({ method: "GET", path: `/api/inference?model=${model}` }), 80);
  });

  it("POST /api/inference with random bodies, parameters, encodings and sizes", async () => {
    const chatBody = { model: CHAT_MODEL, provider: "together", messages: [{ role: "user", content: "hello" }] };
    // One field of a working chat request broken at a time: the 400 must name exactly that field.
    const broken = fc.oneof(
      modelId.filter((id) => !CATALOGUE_IDS.includes(id) && !/^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)?$/.test(id)).map((model) => ({ body: { ...chatBody, model }, badField: "model" })),
      fc.oneof(fc.string(), fc.double({ min: 2.0001, max: 1e9, noNaN: true }), fc.double({ min: -1e9, max: -0.0001, noNaN: true }), fc.boolean(), fc.constant([])).map((temperature) => ({
        body: { ...chatBody, parameters: { temperature } },
        badField: "parameters.temperature",
      })),
      fc.oneof(fc.integer({ max: -1 }), fc.double({ min: 0.1, max: 0.9 }), fc.string()).map((max_tokens) => ({ body: { ...chatBody, parameters: { max_tokens } }, badField: "parameters.max_tokens" })),
      fc.oneof(fc.double({ min: 1.0001, max: 100, noNaN: true }), fc.string()).map((top_p) => ({ body: { ...chatBody, parameters: { top_p } }, badField: "parameters.top_p" })),
      fc.stringMatching(/^[a-z]{1,12}$/).filter((k) => !["temperature", "seed", "stop", "tools", "n"].includes(k)).map((k) => ({ body: { ...chatBody, parameters: { [`x_${k}`]: 1 } }, badField: `parameters.x_${k}` })),
    );
    // Anything at all in the request's fields, working or not.
    const anyBody = fc.record(
      {
        model: modelId,
        provider: fc.oneof(fc.constantFrom("together", "hf-inference", "auto", "groq", "acme"), fc.string({ maxLength: 20 })),
        task: fc.oneof(fc.constantFrom("text-generation", "conversational", "text-classification", "text-to-image", "summarization"), fc.string({ maxLength: 20 })),
        messages: fc.oneof(fc.constant([{ role: "user", content: "hi" }]), fc.array(fc.record({ role: fc.constantFrom("user", "system", "robot"), content: fc.string({ maxLength: 50 }) }), { maxLength: 3 }), fc.anything({ maxDepth: 2 })),
        inputs: fc.oneof(fc.string({ maxLength: 100 }), fc.anything({ maxDepth: 2 })),
        parameters: fc.oneof(fc.dictionary(fc.constantFrom("temperature", "max_tokens", "top_p", "top_k", "stop", "seed", "candidate_labels", "x"), fc.jsonValue({ maxDepth: 2 })), fc.anything({ maxDepth: 1 })),
        stream: fc.oneof(fc.boolean(), fc.anything({ maxDepth: 0 })),
        endpoint: fc.string({ maxLength: 20 }),
        billTo: fc.string({ maxLength: 20 }),
      },
      { requiredKeys: [] },
    );
    const encoder = new TextEncoder();
    const arb = fc.oneof(
      { weight: 3, arbitrary: broken.map((b) => ({ body: JSON.stringify(b.body), badField: b.badField, contentType: "application/json" })) },
      { weight: 4, arbitrary: anyBody.map((b) => ({ body: JSON.stringify(b), badField: undefined, contentType: "application/json" })) },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }),
          // Not UTF-8 inside an otherwise good body.
          fc.constant(new Uint8Array([...encoder.encode('{"model":"'), 0xff, 0xfe, ...encoder.encode('","inputs":"x"}')])),
          // Past the body limit, with and without a declared length.
          fc.integer({ min: MAX_BODY_BYTES + 1, max: MAX_BODY_BYTES * 3 }).map((n) => JSON.stringify({ ...chatBody, messages: [{ role: "user", content: "x".repeat(n) }] })),
        ).map((body) => ({ body, badField: undefined, contentType: "application/json" })),
      },
      { weight: 1, arbitrary: fc.record({ body: fc.string({ maxLength: 50 }), badField: fc.constant(undefined), contentType: fc.constantFrom("text/plain", "", "application/x-www-form-urlencoded", "multipart/form-data") }) },
    );
    await run(arb, ({ body, badField, contentType }) => checkApi({ method: "POST", path: "/api/inference", body, contentType, badField }), 400);
    // The working requests reached the simulator, and only it.
    expect(sim.requests.length).toBeGreaterThan(0);
  });

  it("POST /api/chat-template/render with random templates, messages and bodies", async () => {
    const message = fc.record({ role: fc.oneof(fc.constantFrom("user", "assistant", "system"), fc.string({ maxLength: 10 })), content: fc.oneof(fc.string({ maxLength: 80 }), fc.anything({ maxDepth: 1 })) }, { requiredKeys: [] });
    const body = fc.record(
      {
        template: fc.oneof(
          fc.constantFrom("{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}", "{{ bos_token }}{{ messages[0].content }}", "{% if %}", "{{ raise_exception('no') }}", "{{ messages | length }}"),
          fc.string({ maxLength: 120 }),
        ),
        model: modelId,
        messages: fc.oneof(fc.array(message, { maxLength: 4 }), fc.anything({ maxDepth: 1 })),
        add_generation_prompt: fc.oneof(fc.boolean(), fc.anything({ maxDepth: 0 })),
        bos_token: fc.option(fc.string({ maxLength: 10 })),
        template_name: fc.string({ maxLength: 12 }),
      },
      { requiredKeys: [] },
    );
    const arb = fc.record({
      m: fc.oneof({ weight: 6, arbitrary: fc.constant("POST") }, { weight: 1, arbitrary: method }),
      body: fc.oneof({ weight: 5, arbitrary: body.map((b) => JSON.stringify(b) as string | Uint8Array) }, { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 100 }), fc.uint8Array({ maxLength: 100 })) }),
      contentType: fc.oneof({ weight: 6, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/ld+json", "") }),
    });
    await run(arb, ({ m, body, contentType }) => checkApi({ method: m, path: "/api/chat-template/render", body, contentType }), 200);
  });
});

describe("the listing page", () => {
  it("/models with random parameters is a page or a 4xx page, never a 5xx", async () => {
    await run(query([...LIST_PARAMS, "task", "tag", "view"]), (q) => checkPage({ method: "GET", path: `/models${q}` }), 120);
  });
});

describe("the sign-in, token and admin routes", () => {
  const ACCOUNT_PATHS = ["/login", "/logout", "/auth/oidc", "/auth/oidc/callback", "/settings/tokens", "/settings/usage", "/admin", "/admin/tokens", "/admin/usage", "/admin/usage.csv"];
  const formField = fc.tuple(fc.oneof(fc.constantFrom("email", "password", "confirm", "redirectTo", "intent", "id", "csrf", "name", "expires", "scopes", "role", "rpm", "tokensPerDay", "everywhere", "state", "code"), wireText), wireText);

  it("random methods, queries and form bodies are a page, a redirect or a 4xx, never a 5xx", async () => {
    const arb = fc.record({
      m: fc.oneof({ weight: 3, arbitrary: fc.constantFrom("GET", "POST") }, { weight: 1, arbitrary: method }),
      path: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ACCOUNT_PATHS) }, { weight: 1, arbitrary: segment.map((t) => `/invite/${t || "x"}`) }),
      q: query(["redirectTo", "error", "message", "page", "days", "code", "state", "welcome"]),
      fields: fc.array(formField, { maxLength: 6 }),
      contentType: fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data", "text/plain", ""),
    });
    await run(
      arb,
      ({ m, path, q, fields, contentType }) =>
        checkPage({ method: m, path: `${path}${q}`, body: fields.map(([k, v]) => `${k}=${v}`).join("&"), contentType }),
      250,
    );
  });

  it("POST /api/inference with random Authorization and X-Provider-Token headers is a JSON 2xx or 4xx", async () => {
    const header = fc.oneof(fc.string({ maxLength: 60 }), fc.stringMatching(/^myd_[A-Za-z0-9_-]{0,50}$/), fc.constantFrom("Bearer", "Bearer ", "Bearer myd_", "Basic dXNlcjpwYXNz", "Bearer hf_abc12345678"));
    const arb = fc.record({ auth: fc.option(header, { nil: undefined }), provider: fc.option(fc.string({ maxLength: 60 }), { nil: undefined }) });
    await run(
      arb,
      async ({ auth, provider }) => {
        cases += 1;
        const headers: Record<string, string> = { "Content-Type": "application/json" };
        // Header values fetch cannot send (control characters) are left out; the server never sees them.
        if (auth !== undefined && /^[\t\x20-\x7e]*$/.test(auth)) headers["Authorization"] = auth;
        if (provider !== undefined && /^[\t\x20-\x7e]*$/.test(provider)) headers["X-Provider-Token"] = provider;
        const res = await fetch(`${server.url}/api/inference`, {
          method: "POST",
          headers,
          body: JSON.stringify({ model: CHAT_MODEL, provider: "together", messages: [{ role: "user", content: "hi" }] }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, text).toBeLessThan(500);
        if (res.status >= 400) expect(errorMessage(JSON.parse(text))).toEqual(expect.any(String));
      },
      150,
    );
  });
});

describe("after the fuzzing", () => {
  it("the server is still up", async () => {
    const res = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(res.status).toBe(200);
  });
});
