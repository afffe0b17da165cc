/**
 * POST /api/inference over real sockets: the gateway served on loopback, a real SQLite catalogue
 * (the simulator's Hub fixture imported through the importer), and the provider SIMULATOR as
 * MODELYARD_UPSTREAM_OVERRIDE. Nothing leaves the machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listUsageRecords } from "#app/db/queries/usage.server.ts";
import { createInferenceGateway, type GatewayDeps } from "#app/inference/gateway.server.ts";
import { gatewayLabelSets } from "#app/inference/resolve-target.server.ts";
import { type GatewayObservation, gatewayObserver, metricsText } from "#app/utils/metrics.server.ts";
import { createStreamEventParser, type StreamEvent } from "#app/inference/stream-events.ts";
import { buildTestCatalog, serveGateway, type ServedGateway, type TestCatalog } from "#tests/inference/serve-gateway.ts";
import { HUB_FIXTURE_MODELS, type HubFixtureModel } from "#tests/simulators/hub-fixture.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

const VISITOR_TOKEN = "hf_visitorSecretToken1234567890";
const SERVER_TOKEN = "hf_serverSecretToken0987654321";
const CHAT_MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const CLASSIFIER = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";

// A fal-ai text-to-speech mapping (fal serves Kokoro as fal-ai/kokoro/american-english); the
// fixture only has Kokoro on replicate, so the test adds fal to both the catalogue and the simulator.
const KOKORO_BASE = HUB_FIXTURE_MODELS.find((m) => m.id === "hexgrad/Kokoro-82M");
if (!KOKORO_BASE) throw new Error("fixture lacks hexgrad/Kokoro-82M");
const KOKORO: HubFixtureModel = {
  ...KOKORO_BASE,
  inferenceProviderMapping: {
    ...KOKORO_BASE.inferenceProviderMapping,
    "fal-ai": { status: "live", providerId: "fal-ai/kokoro/american-english", task: "text-to-speech" },
  },
};
const CATALOGUE = HUB_FIXTURE_MODELS.map((m) => (m.id === KOKORO.id ? KOKORO : m));

let sim: ProviderSimulator;
let catalogue: TestCatalog;
const servers: ServedGateway[] = [];
const logs: string[] = [];

async function start(env: Record<string, string> = {}, deps: Partial<GatewayDeps> = {}): Promise<string> {
  const gateway = createInferenceGateway({
    catalog: catalogue.catalog,
    database: catalogue.database,
    env: {
      MODELYARD_UPSTREAM_OVERRIDE: sim.url,
      MODELYARD_INFERENCE_RETRY_BASE_MS: "20",
      MODELYARD_INFERENCE_RATE_LIMIT: "10000",
      ...env,
    },
    log: (line) => logs.push(line),
    ...deps,
  });
  const served = await serveGateway(gateway);
  servers.push(served);
  return served.url;
}

let gw: string;
let gwServerToken: string;

beforeAll(async () => {
  sim = await startProviderSimulator({ assetUrls: "real-host" });
  catalogue = await buildTestCatalog(CATALOGUE.map((m) => ({ ...m })));
  gw = await start();
  // Anonymous calls on the server's keys, as before sign-in existed: only by explicit choice (ADR 0038).
  gwServerToken = await start({
    MODELYARD_ACCESS: "open",
    HF_TOKEN: SERVER_TOKEN,
    MODELYARD_PROVIDER_KEY_OPENAI: "sk-openaiServerKey123456",
    MODELYARD_ENDPOINTS: JSON.stringify([
      { name: "lab-together", label: "Lab (OpenAI-compatible)", url: `${sim.url}/api.together.xyz/v1`, models: [{ id: CHAT_MODEL, served: "meta-llama/Llama-3.3-70B-Instruct-Turbo" }], keyEnv: "MODELYARD_ENDPOINT_KEY_LAB" },
      { name: "sst2-box", url: `${sim.url}/router.huggingface.co/hf-inference/models/${CLASSIFIER}`, models: [CLASSIFIER], keyEnv: "MODELYARD_ENDPOINT_KEY_SST2" },
    ]),
    MODELYARD_ENDPOINT_KEY_LAB: "together_labKey_abcdef123",
    MODELYARD_ENDPOINT_KEY_SST2: "hf_sst2EndpointKey123456",
  });
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await sim?.close();
  await catalogue?.drop();
});

beforeEach(() => {
  sim.reset();
  sim.addHubModel(KOKORO);
});

interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

async function post(base: string, body: unknown, opts: { token?: string; headers?: Record<string, string> } = {}): Promise<JsonAnswer> {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...opts.headers };
  if (opts.token) headers["X-Provider-Token"] = opts.token;
  const res = await fetch(`${base}/api/inference`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = {};
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

function errorOf(a: JsonAnswer): { message: string; code: string; hint?: string; upstreamStatus?: number } {
  const e = a.body["error"];
  if (typeof e !== "object" || e === null) throw new Error(`no error object in ${a.status} ${a.text}`);
  return e as { message: string; code: string; hint?: string; upstreamStatus?: number };
}

async function streamEvents(base: string, body: unknown, token?: string): Promise<{ status: number; contentType: string | null; events: StreamEvent[]; text: string }> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers["X-Provider-Token"] = token;
  const res = await fetch(`${base}/api/inference`, { method: "POST", headers, body: JSON.stringify({ ...(body as object), stream: true }) });
  const text = await res.text();
  const events: StreamEvent[] = [];
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) createStreamEventParser((e) => events.push(e))(text);
  return { status: res.status, contentType: res.headers.get("content-type"), events, text };
}

const chat = (extra: Record<string, unknown> = {}) => ({ model: CHAT_MODEL, messages: [{ role: "user", content: "Hello there" }], ...extra });

function providerRequests() {
  return sim.requests.filter((r) => r.service === "router" || r.service === "provider");
}

describe("routing through the library", () => {
  it("runs a chat call through the HF router with the visitor's hf_ token, answered via the override", async () => {
    const a = await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN });
    expect(a.status).toBe(200);
    const output = a.body["output"] as { choices: Array<{ message: { content: string } }> };
    expect(output.choices[0]?.message.content).toContain('you said "Hello there"');
    expect(a.body["provider"]).toBe("together");
    const req = providerRequests()[0];
    expect(req?.originalUrl).toBe("https://router.huggingface.co/together/v1/chat/completions");
    expect(req?.authorization.tokenKind).toBe("hf-token");
    expect((req?.bodyJson as { model: string }).model).toBe("meta-llama/Llama-3.3-70B-Instruct-Turbo");
    // The mapping lookup was answered in-process: no Hub request reached the simulator.
    expect(sim.requests.filter((r) => r.service === "hub")).toEqual([]);
  });

  it("resolves provider 'auto' from the catalogue (first mapping for the task) without asking the Hub", async () => {
    const a = await post(gw, chat(), { token: VISITOR_TOKEN });
    expect(a.status).toBe(200);
    expect(a.body["provider"]).toBe("cerebras");
    expect(providerRequests()[0]?.originalUrl).toBe("https://router.huggingface.co/cerebras/v1/chat/completions");
    expect(sim.requests.filter((r) => r.service === "hub")).toEqual([]);
  });

  it("runs non-chat tasks (text classification on hf-inference) with the task from the catalogue", async () => {
    const a = await post(gw, { model: CLASSIFIER, inputs: "I love this!" }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(200);
    expect(a.body["task"]).toBe("text-classification");
    expect(Array.isArray(a.body["output"])).toBe(true);
    expect(providerRequests()[0]?.originalUrl).toBe(`https://router.huggingface.co/hf-inference/models/${CLASSIFIER}`);
  });

  it("uses server keys when the visitor sends none: a provider key goes direct, HF_TOKEN via the router", async () => {
    const direct = await post(gwServerToken, { model: "openai/gpt-4o-mini", provider: "openai", messages: [{ role: "user", content: "hi" }] });
    expect(direct.status).toBe(200);
    expect(providerRequests()[0]?.originalUrl).toBe("https://api.openai.com/v1/chat/completions");
    expect(providerRequests()[0]?.authorization.tokenKind).toBe("provider-key");
    sim.reset();
    const routed = await post(gwServerToken, chat({ provider: "groq" }));
    expect(routed.status).toBe(200);
    expect(providerRequests()[0]?.originalUrl).toBe("https://router.huggingface.co/groq/openai/v1/chat/completions");
    expect(providerRequests()[0]?.authorization.tokenKind).toBe("hf-token");
  });

  it("answers 401 without sending anything when there is no token at all", async () => {
    const a = await post(gw, chat({ provider: "together" }));
    expect(a.status).toBe(401);
    expect(errorOf(a).code).toBe("missing_token");
    expect(errorOf(a).hint).toMatch(/Settings/);
    expect(providerRequests()).toEqual([]);
  });

  it("returns media bytes for text-to-image", async () => {
    const res = await fetch(`${gw}/api/inference`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Provider-Token": VISITOR_TOKEN },
      body: JSON.stringify({ model: "black-forest-labs/FLUX.1-dev", provider: "replicate", inputs: "a red fox" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    // The output URL (https://replicate.delivery/...) was fetched through the override, by the scoped global fetch.
    expect(sim.requests.some((r) => r.host === "replicate.delivery" && r.method === "GET")).toBe(true);
  });
});

describe("configured endpoints", () => {
  it("calls an OpenAI-compatible endpoint through endpointUrl with its own key and served model name", async () => {
    const a = await post(gwServerToken, { endpoint: "lab-together", model: CHAT_MODEL, messages: [{ role: "user", content: "Hi lab" }] }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(200);
    expect(a.body["provider"]).toBe("endpoint:lab-together");
    const req = providerRequests()[0];
    expect(req?.originalUrl).toBe("https://api.together.xyz/v1/chat/completions");
    expect(req?.authorization.tokenKind).toBe("provider-key");
    expect((req?.bodyJson as { model: string }).model).toBe("meta-llama/Llama-3.3-70B-Instruct-Turbo");
  });

  it("answers 400 for an endpoint name that is not configured, and never takes a URL", async () => {
    const a = await post(gwServerToken, { endpoint: "nope", model: CHAT_MODEL, messages: [{ role: "user", content: "x" }] });
    expect(a.status).toBe(400);
    expect(errorOf(a)).toMatchObject({ code: "unknown_endpoint", message: 'No endpoint named "nope" is configured on this server.' });
    const url = await post(gwServerToken, { endpoint: "http://169.254.169.254/latest", messages: [{ role: "user", content: "x" }] });
    expect(url.status).toBe(400);
    expect(errorOf(url).code).toBe("invalid_request");
    expect(sim.requests).toEqual([]);
  });

  it("refuses media inputs given as URLs rather than fetching them", async () => {
    const a = await post(gw, { model: "openai/whisper-large-v3", provider: "hf-inference", inputs: "http://127.0.0.1:1/secret.wav" }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(400);
    expect(errorOf(a).message).toMatch(/data: URL/);
    expect(sim.requests).toEqual([]);
  });
});

describe("the library's validation rules reach the visitor unchanged (400)", () => {
  it("an endpoint URL combined with a provider", async () => {
    const a = await post(gwServerToken, { endpoint: "lab-together", provider: "together", model: CHAT_MODEL, messages: [{ role: "user", content: "x" }] });
    expect(a.status).toBe(400);
    // 3.13.1's task functions reject the pair in resolveProvider, before makeRequestOptions'
    // "Cannot use endpointUrl with a third-party provider." is reached.
    expect(errorOf(a).message).toBe("Specifying both endpointUrl and provider is not supported.");
    expect(providerRequests()).toEqual([]);
  });

  it("a model given as a URL or a path breaks the Hub's id grammar: 400 naming model, before any lookup", async () => {
    for (const provider of [undefined, "hf-inference"]) {
      for (const model of ["https://example.com/models/m", "../../etc/passwd", "/models/m"]) {
        const a = await post(gw, { model, provider, task: "text-classification", inputs: "x" }, { token: VISITOR_TOKEN });
        expect(a.status).toBe(400);
        expect(errorOf(a)).toMatchObject({ code: "invalid_request", field: "model" });
        expect(errorOf(a).message).toMatch(/^Invalid request: model: model id must look like/);
        // A URL is told what to do instead, as the library's own message did ("Use endpointUrl").
        if (model.startsWith("https:")) expect(errorOf(a).message).toContain("not a URL. A model on a server of your own runs through a configured endpoint: send \"endpoint\"");
      }
    }
    expect(sim.requests).toEqual([]);
  });

  it("neither model nor task", async () => {
    const explicit = await post(gw, { provider: "hf-inference", inputs: "x" }, { token: VISITOR_TOKEN });
    expect(explicit.status).toBe(400);
    expect(errorOf(explicit).message).toBe("No model provided, and no task has been specified.");
    const auto = await post(gw, { inputs: "x" }, { token: VISITOR_TOKEN });
    expect(auto.status).toBe(400);
    expect(errorOf(auto).message).toBe("Specifying a model is required when provider is 'auto'");
    const thirdParty = await post(gw, { provider: "together", inputs: "x" }, { token: VISITOR_TOKEN });
    expect(thirdParty.status).toBe(400);
    expect(errorOf(thirdParty).message).toBe("you need to provide a task name when using an external provider, e.g. 'text-to-image'");
  });

  it("a provider that needs an explicit model id and got none (openai; 3.13.1 fails on the default model first)", async () => {
    const a = await post(gwServerToken, { provider: "openai", messages: [{ role: "user", content: "x" }] });
    expect(a.status).toBe(400);
    // makeRequestOptions looks up the task's default model before its clientSideRoutingOnly
    // check, and /api/tasks has no "conversational" entry, so this is the message 3.13.1 gives.
    expect(errorOf(a).message).toBe("No default model defined for task conversational, please define the model explicitly.");
    expect(errorOf(a).code).toBe("no_default_model");
  });

  it("a closed-source provider given an hf_ token", async () => {
    const a = await post(gw, { provider: "openai", model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "x" }] }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(400);
    expect(errorOf(a)).toMatchObject({
      message: "Provider openai is closed-source and does not support HF tokens.",
      code: "hf_token_not_accepted",
      hint: "This provider does not accept Hugging Face tokens; use the provider's own key.",
    });
  });

  it("an unsupported provider, and an unsupported task for a provider", async () => {
    const provider = await post(gw, { provider: "acme-ai", model: CHAT_MODEL, messages: [{ role: "user", content: "x" }] }, { token: VISITOR_TOKEN });
    expect(provider.status).toBe(400);
    expect(errorOf(provider).message).toMatch(/^Provider 'acme-ai' not supported\. Available providers: black-forest-labs,cerebras,/);
    const task = await post(gw, { provider: "groq", model: "black-forest-labs/FLUX.1-dev", task: "text-to-image", inputs: "a cat" }, { token: VISITOR_TOKEN });
    expect(task.status).toBe(400);
    expect(errorOf(task).message).toBe("Task 'text-to-image' not supported for provider 'groq'. Available tasks: conversational,text-generation");
  });

  it("an unknown provider or task is refused first, naming the field and what is accepted, and never becomes a metrics label", async () => {
    const observed: GatewayObservation[] = [];
    const env = { MODELYARD_ENDPOINTS: JSON.stringify([{ name: "lab-box", url: `${sim.url}/api.together.xyz/v1`, models: [CHAT_MODEL] }]) };
    const observe = gatewayObserver(gatewayLabelSets({ ...env }));
    const url = await start(env, {
      metrics: (o) => {
        observed.push(o);
        observe(o);
      },
    });
    const provider = await post(url, { provider: "evil-3f9a0c", model: CHAT_MODEL, messages: [{ role: "user", content: "x" }] }, { token: VISITOR_TOKEN });
    expect(provider.status).toBe(400);
    expect(provider.body["error"]).toMatchObject({ field: "provider" });
    expect(errorOf(provider).message).toMatch(/^Provider 'evil-3f9a0c' not supported\. Available providers: black-forest-labs,cerebras,.*together.*\. Or "auto", .* named in "endpoint" instead: lab-box\.$/);
    const task = await post(url, { task: "evil-task-3f9a0c", model: CHAT_MODEL, inputs: "x" }, { token: VISITOR_TOKEN });
    expect(task.status).toBe(400);
    expect(task.body["error"]).toMatchObject({ field: "task" });
    expect(errorOf(task).message).toMatch(/^The gateway does not run the task "evil-task-3f9a0c"\. It runs: .*text-classification/);
    expect(providerRequests()).toEqual([]);
    await expect.poll(() => observed.length).toBe(2);
    expect(observed.map((o) => [o.provider, o.task, o.outcome])).toEqual([
      ["none", "none", "refused"],
      ["none", "none", "refused"],
    ]);
    expect((await metricsText()).body).not.toContain("3f9a0c");
  });

  it("counts a provider's error answer as an error, and its refusal of the request as sent as refused", async () => {
    const observed: GatewayObservation[] = [];
    const url = await start({}, { metrics: (o) => observed.push(o) });
    for (const [status, outcome] of [
      [429, "error"],
      [401, "error"],
      [500, "error"],
      [400, "refused"],
    ] as const) {
      sim.scriptFault({ provider: "together" }, { kind: "error", status });
      const before = observed.length;
      const a = await post(url, chat({ provider: "together" }), { token: VISITOR_TOKEN });
      expect(errorOf(a).upstreamStatus, String(status)).toBe(status);
      await expect.poll(() => observed.length).toBe(before + 1);
      expect(observed.at(-1), String(status)).toMatchObject({ provider: "together", outcome });
    }
  });

  it("a model id lacking the provider prefix", async () => {
    const a = await post(gwServerToken, { provider: "openai", model: "gpt-4o-mini", messages: [{ role: "user", content: "x" }] });
    expect(a.status).toBe(400);
    expect(errorOf(a).message).toBe('Models from openai must be prefixed by "openai/". Got "gpt-4o-mini".');
  });

  it("bad bodies get a JSON 400 naming the field", async () => {
    const notJson = await post(gw, "{nope", { token: VISITOR_TOKEN });
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson).code).toBe("invalid_json");
    const badField = await post(gw, { model: CHAT_MODEL, messages: "hello" }, { token: VISITOR_TOKEN });
    expect(badField.status).toBe(400);
    expect(errorOf(badField).message).toMatch(/^Invalid request: messages:/);
    const extra = await post(gw, { model: CHAT_MODEL, messages: [{ role: "user", content: "x" }], endpointUrl: "http://evil" }, { token: VISITOR_TOKEN });
    expect(extra.status).toBe(400);
    const smuggled = await post(gw, chat({ provider: "together", parameters: { endpointUrl: "http://evil" } }), { token: VISITOR_TOKEN });
    expect(smuggled.status).toBe(400);
    expect(errorOf(smuggled).message).toMatch(/parameters\.endpointUrl is not a chat-completion parameter/);
    expect(errorOf(smuggled)).toMatchObject({ field: "parameters.endpointUrl" });
    expect(sim.requests).toEqual([]);
  });

  it("parameters are checked against the task's input spec before any provider is called", async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, string]> = [
      [chat({ provider: "together" }), { temperature: "hot" }, "parameters.temperature"],
      [chat({ provider: "together" }), { max_tokens: -5 }, "parameters.max_tokens"],
      [chat({ provider: "together" }), { max_tokens: 1.5 }, "parameters.max_tokens"],
      [chat({ provider: "together" }), { temperature: 2.5 }, "parameters.temperature"],
      [chat({ provider: "together" }), { stop: ["a", 3] }, "parameters.stop.1"],
      [{ model: CLASSIFIER, inputs: "x" }, { top_k: "3" }, "parameters.top_k"],
      [{ model: CLASSIFIER, inputs: "x" }, { function_to_apply: "tanh" }, "parameters.function_to_apply"],
    ];
    for (const [body, parameters, field] of cases) {
      const a = await post(gw, { ...body, parameters }, { token: VISITOR_TOKEN });
      expect(a.status, JSON.stringify(parameters)).toBe(400);
      expect(errorOf(a)).toMatchObject({ code: "invalid_request", field });
      expect(errorOf(a).message).toContain(field);
    }
    expect(sim.requests).toEqual([]);
  });

  it("a body that is not UTF-8 is a 400 about the body, not a lookup of a mangled model id", async () => {
    const bytes = Buffer.concat([Buffer.from('{"model":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","inputs":"x"}')]);
    const res = await fetch(`${gw}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", "X-Provider-Token": VISITOR_TOKEN }, body: bytes });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: "The request body is not valid UTF-8.", code: "invalid_request", field: null } });
    expect(sim.requests).toEqual([]);
  });
});

describe("every library error maps to a status and a clear message", () => {
  it("an unexpected response format -> 502 unexpected_output", async () => {
    // The sst2-box endpoint is a text classifier; asking it to summarise gets labels back.
    const a = await post(gwServerToken, { endpoint: "sst2-box", model: CLASSIFIER, task: "summarization", inputs: "A long text to shorten." });
    expect(a.status).toBe(502);
    expect(errorOf(a).code).toBe("unexpected_output");
    expect(errorOf(a).message).toMatch(/^Invalid inference output: Expected Array<\{summary_text: string\}>/);
  });

  it("a failure to fetch an audio URL -> 502 media_fetch_failed", async () => {
    sim.scriptFault({ host: "v3.fal.media" }, { kind: "error", status: 404, style: "text" });
    const a = await post(gw, { model: KOKORO.id, provider: "fal-ai", inputs: "Hello" }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(502);
    expect(errorOf(a).code).toBe("media_fetch_failed");
    expect(errorOf(a).message).toMatch(/Error fetching or processing audio from Fal\.ai Text-to-Speech URL: https:\/\/v3\.fal\.media\/.*Failed to fetch audio/);
    // Without the fault the same call returns the WAV bytes.
    const ok = await fetch(`${gw}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", "X-Provider-Token": VISITOR_TOKEN }, body: JSON.stringify({ model: KOKORO.id, provider: "fal-ai", inputs: "Hello" }) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^audio\//);
  });

  it('"does not seem to support chat completion" on a 404 from a chat endpoint -> 502 chat_not_supported', async () => {
    sim.scriptFault({ provider: "together", path: "/chat/completions" }, { kind: "error", status: 404, message: "no chat here" });
    const a = await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN });
    expect(a.status).toBe(502);
    expect(errorOf(a).code).toBe("chat_not_supported");
    expect(errorOf(a).message).toMatch(/^Server meta-llama\/Llama-3\.3-70B-Instruct does not seem to support chat completion\. Error: /);
    sim.scriptFault({ path: "/chat/completions" }, { kind: "error", status: 404 });
    const s = await streamEvents(gwServerToken, { endpoint: "lab-together", model: CHAT_MODEL, messages: [{ role: "user", content: "x" }] });
    expect(s.status).toBe(502);
    expect(JSON.parse(s.text)).toMatchObject({ error: { code: "chat_not_supported" } });
  });

  it("a provider refusing the request itself (400, 413, 422) -> 400 upstream_bad_request with its own words, streamed or not", async () => {
    // 3.13.1 words a chat call's 422 as "does not seem to support chat completion" and, streamed, drops the message.
    sim.scriptFault({ provider: "together", path: "/chat/completions" }, { kind: "error", status: 422, message: "messages: too long for this model" });
    const a = await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN });
    expect(a.status).toBe(400);
    expect(errorOf(a)).toMatchObject({ code: "upstream_bad_request", upstreamStatus: 422, message: "together refused the request (422): messages: too long for this model" });
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 400, style: "openai", message: "This model's maximum context length is 8192 tokens" });
    const s = await streamEvents(gw, chat({ provider: "together" }), VISITOR_TOKEN);
    expect(s.status).toBe(400);
    expect(JSON.parse(s.text)).toMatchObject({ error: { code: "upstream_bad_request", message: "together refused the request (400): This model's maximum context length is 8192 tokens" } });
    sim.scriptFault({ provider: "hf-inference" }, { kind: "error", status: 413, style: "text", message: "Payload too large" });
    const b = await post(gw, { model: CLASSIFIER, inputs: "x" }, { token: VISITOR_TOKEN });
    expect(b.status).toBe(400);
    expect(errorOf(b)).toMatchObject({ code: "upstream_bad_request", upstreamStatus: 413, message: "hf-inference refused the request (413): Payload too large" });
  });

  it("a server response with an error status -> 502 upstream_error with the provider's message", async () => {
    sim.scriptFault({ provider: "hf-inference" }, { kind: "error", status: 500, message: "CUDA out of memory" });
    const a = await post(gw, { model: CLASSIFIER, inputs: "x" }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(502);
    expect(errorOf(a)).toMatchObject({ code: "upstream_error", message: "CUDA out of memory", upstreamStatus: 500 });
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 500, style: "text", message: "boom" });
    const s = await streamEvents(gw, chat({ provider: "together" }), VISITOR_TOKEN);
    expect(s.status).toBe(502);
    // The provider's words, which 3.13.1 drops from a streamed call's error ("Server response contains error: 500").
    expect(JSON.parse(s.text)).toMatchObject({ error: { code: "upstream_error", message: "boom" } });
  });

  it("a provider rejecting the token -> 401 token_rejected; rate limiting -> 429", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 401 });
    const a = await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN });
    expect(a.status).toBe(401);
    expect(errorOf(a).code).toBe("token_rejected");
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 429 });
    const b = await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN });
    expect(b.status).toBe(429);
    expect(errorOf(b).code).toBe("provider_rate_limited");
  });

  it("an error answer 3.13.1 cannot read keeps its status, the provider's words and its Retry-After", async () => {
    // A chat call's 500 (3.13.1: "does not seem to support chat completion"), streamed or not.
    for (const stream of [false, true]) {
      sim.scriptFault({ provider: "together" }, { kind: "error", status: 500, message: "CUDA out of memory" });
      const a = await post(gw, chat({ provider: "together", stream }), { token: VISITOR_TOKEN });
      expect(a.status).toBe(502);
      expect(errorOf(a)).toMatchObject({ code: "upstream_error", message: "CUDA out of memory", upstreamStatus: 500 });
    }
    // A `{"message"}` body (3.13.1: "[object Object]") and the provider's Retry-After, passed on.
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 429, style: "message", message: "Slow down", retryAfterSec: 7 });
    const limited = await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(errorOf(limited)).toMatchObject({ code: "provider_rate_limited", message: "Slow down" });
    // An empty JSON body (3.13.1's response.json() throws): still the provider's 401, not a broken answer.
    sim.scriptFault({ provider: "hf-inference" }, { kind: "error", status: 401, style: "empty-json" });
    const rejected = await post(gw, { model: CLASSIFIER, inputs: "x" }, { token: VISITOR_TOKEN });
    expect(rejected.status).toBe(401);
    expect(errorOf(rejected)).toMatchObject({ code: "token_rejected", message: "hf-inference answered 401 Unauthorized without saying why." });
    // An HTML error page (3.13.1: "An error occurred while fetching the blob").
    sim.scriptFault({ provider: "hf-inference" }, { kind: "error", status: 502, style: "html", message: "Bad Gateway" });
    const page = await post(gw, { model: CLASSIFIER, inputs: "x" }, { token: VISITOR_TOKEN });
    expect(page.status).toBe(502);
    expect(errorOf(page)).toMatchObject({ code: "upstream_error", message: "hf-inference answered 502 Bad Gateway without saying why.", upstreamStatus: 502 });
  });

  it("a provider refusing the server's own key -> 502 server_key_rejected naming the key, not the caller's 401", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 401, message: "Invalid API key" });
    const a = await post(gwServerToken, chat({ provider: "together" }));
    expect(a.status).toBe(502);
    expect(errorOf(a)).toMatchObject({ code: "server_key_rejected", upstreamStatus: 401, message: "together refused this server's key (HF_TOKEN) with 401: Invalid API key" });
  });

  it("a streaming response that is not an event stream -> 502 not_event_stream", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "wrong-content-type" });
    const s = await streamEvents(gw, chat({ provider: "together" }), VISITOR_TOKEN);
    expect(s.status).toBe(502);
    expect(JSON.parse(s.text)).toMatchObject({
      error: { code: "not_event_stream", message: "Server does not support event stream content type, it returned application/json" },
    });
  });

  it("an error forwarded from the backend inside a stream -> tokens, then an error event, then done", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "mid-stream-error", afterChunks: 3, message: "GPU fell over" });
    const s = await streamEvents(gw, chat({ provider: "together" }), VISITOR_TOKEN);
    expect(s.status).toBe(200);
    const types = s.events.map((e) => e.type);
    expect(types.filter((t) => t === "token")).toHaveLength(3);
    expect(types.slice(-2)).toEqual(["error", "done"]);
    const err = s.events.find((e) => e.type === "error");
    expect(err).toMatchObject({ type: "error", error: { status: 502, code: "backend_error", message: "Error forwarded from backend: GPU fell over" } });
  });

  it("records a stream cut by a provider error with that error's status, not the 200 its first token went out with", async () => {
    const since = new Date().toISOString();
    sim.scriptFault({ provider: "together" }, { kind: "mid-stream-error", afterChunks: 2, message: "GPU fell over" });
    const s = await streamEvents(gw, chat({ provider: "together", messages: [{ role: "user", content: "a stream cut short" }] }), VISITOR_TOKEN);
    expect(s.events.at(-2)).toMatchObject({ type: "error", error: { status: 502 } });
    await expect.poll(() => logs.find((l) => l.includes("code=backend_error"))).toMatch(/status=502 .*outcome=error/);
    // The usage record is what the usage pages count as an error and /v1's "fastest" routing skips.
    await expect.poll(async () => (await listUsageRecords(catalogue.database(), { since, offset: 0, limit: 10 })).map((r) => r.status)).toEqual([502]);
  });

  it("a dropped connection -> 502 upstream_unreachable (before headers) or an error event (mid-stream)", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "drop", when: "before-headers" });
    const a = await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN });
    expect(a.status).toBe(502);
    expect(errorOf(a).code).toBe("upstream_unreachable");
    // Mid-stream: a stand-in that sends three tokens slowly, then destroys the socket.
    const upstream = await slowUpstream({ tokens: 3, dropAfter: true });
    try {
      const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url });
      const s = await streamEvents(url, chat({ provider: "together" }), VISITOR_TOKEN);
      expect(s.status).toBe(200);
      expect(s.events.filter((e) => e.type === "token")).toHaveLength(3);
      expect(s.events.at(-2)).toMatchObject({ type: "error", error: { code: "upstream_unreachable", message: "The provider closed the connection mid-answer." } });
      expect(s.events.at(-1)).toEqual({ type: "done" });
    } finally {
      await upstream.stop();
    }
  });

  it("no default model for a task -> 400 no_default_model", async () => {
    const a = await post(gw, { provider: "together", messages: [{ role: "user", content: "x" }] }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(400);
    expect(errorOf(a)).toMatchObject({ code: "no_default_model", message: "No default model defined for task conversational, please define the model explicitly." });
  });

  it("a task's default model comes from the in-process /api/tasks", async () => {
    const a = await post(gw, { provider: "hf-inference", task: "text-classification", inputs: "great" }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(200);
    expect(providerRequests()[0]?.originalUrl).toBe(`https://router.huggingface.co/hf-inference/models/${CLASSIFIER}`);
  });

  it("an unknown model -> 404 model_not_found, with auto and with an explicit provider", async () => {
    for (const provider of [undefined, "together"]) {
      const a = await post(gw, { model: "nobody/nothing", provider, messages: [{ role: "user", content: "x" }] }, { token: VISITOR_TOKEN });
      expect(a.status).toBe(404);
      expect(errorOf(a)).toMatchObject({ code: "model_not_found", message: "Model nobody/nothing does not exist" });
    }
    const notOnProvider = await post(gw, chat({ provider: "replicate" }), { token: VISITOR_TOKEN });
    expect(notOnProvider.status).toBe(400);
    expect(errorOf(notOnProvider).message).toMatch(/^Task 'conversational' not supported for provider 'replicate'/);
    const unmapped = await post(gw, chat({ provider: "featherless-ai" }), { token: VISITOR_TOKEN });
    expect(unmapped.status).toBe(404);
    expect(errorOf(unmapped).code).toBe("model_not_on_provider");
    expect(sim.requests.filter((r) => r.service === "hub")).toEqual([]);
  });
});

describe("503 is bounded", () => {
  it("retries a short 503 burst with backoff and succeeds", async () => {
    sim.scriptFault({ provider: "hf-inference" }, { kind: "loading", times: 2, estimatedTime: 0.01 });
    const a = await post(gw, { model: CLASSIFIER, inputs: "x" }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(200);
    expect(providerRequests()).toHaveLength(3);
    expect(logs.at(-1)).toMatch(/retries=2/);
  });

  it("gives up on a 503 that never ends after maxRetries, with Retry-After", async () => {
    sim.scriptFault({ provider: "hf-inference" }, { kind: "loading", times: "forever", estimatedTime: 0.01 });
    const url = await start({ MODELYARD_INFERENCE_MAX_RETRIES: "3" });
    const a = await post(url, { model: CLASSIFIER, inputs: "x" }, { token: VISITOR_TOKEN });
    expect(a.status).toBe(503);
    expect(errorOf(a).code).toBe("model_loading");
    expect(errorOf(a).message).toMatch(/currently loading.*gave up after 4 attempts/);
    expect(a.headers.get("retry-after")).toBe("1");
    expect(providerRequests()).toHaveLength(4);
  });

  it("streams retry the 503 too, before the first token", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "loading", times: 1, estimatedTime: 0.01 });
    const s = await streamEvents(gw, chat({ provider: "together" }), VISITOR_TOKEN);
    expect(s.status).toBe(200);
    expect(s.events.at(-1)).toEqual({ type: "done" });
    expect(providerRequests()).toHaveLength(2);
  });

  it("stops at the deadline: 504, and the upstream request is aborted", async () => {
    const upstream = await slowUpstream();
    try {
      const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url, MODELYARD_INFERENCE_DEADLINE_MS: "300" });
      const t0 = performance.now();
      const a = await post(url, chat({ provider: "together" }), { token: VISITOR_TOKEN });
      expect(a.status).toBe(504);
      expect(errorOf(a).code).toBe("deadline_exceeded");
      expect(performance.now() - t0).toBeLessThan(5_000);
      await upstream.closed;
      expect(upstream.sawClose()).toBe(true);
    } finally {
      await upstream.stop();
    }
  });
});

/**
 * A provider stand-in that never finishes its answer and records when the client hangs up. With
 * `flood`, it sends its `tokens` (each `tokenChars` long) as fast as the connection takes them,
 * waiting for drain as a real server does, and then ends the stream.
 */
async function slowUpstream(opts: { tokens?: number; dropAfter?: boolean; stallAfter?: boolean; flood?: boolean; tokenChars?: number } = {}) {
  let closed = false;
  let finished = false;
  let resolveClosed: () => void = () => {};
  const closedPromise = new Promise<void>((r) => (resolveClosed = r));
  let resolveBlocked: () => void = () => {};
  const blockedPromise = new Promise<void>((r) => (resolveBlocked = r));
  let chunksSent = 0;
  let requests = 0;
  const chunkText = (n: number) => {
    const content = `t${n} `.padEnd(opts.tokenChars ?? 0, "x");
    return `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
  };
  const server = http.createServer((req, res) => {
    requests += 1;
    req.resume();
    res.on("finish", () => (finished = true));
    res.on("close", () => {
      closed = true;
      resolveClosed();
    });
    if (opts.tokens === undefined) return; // headers never come
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    if (opts.flood) {
      const total = opts.tokens;
      const send = () => {
        while (chunksSent < total && !res.destroyed) {
          chunksSent += 1;
          if (!res.write(chunkText(chunksSent))) {
            resolveBlocked();
            res.once("drain", send);
            return;
          }
        }
        if (!res.destroyed) res.end("data: [DONE]\n\n");
      };
      send();
      return;
    }
    const timer = setInterval(() => {
      if ((opts.dropAfter || opts.stallAfter) && chunksSent >= (opts.tokens ?? 0)) {
        clearInterval(timer);
        // Dropped: the connection goes. Stalled: it stays open, and nothing more comes.
        if (opts.dropAfter) res.socket?.destroy();
        return;
      }
      chunksSent += 1;
      res.write(chunkText(chunksSent));
    }, 50);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    closed: closedPromise,
    /** Settles the first time a write finds the connection full (flood only). */
    blocked: blockedPromise,
    sawClose: () => closed,
    /** Whether the whole answer was handed to the connection. */
    finished: () => finished,
    chunksSent: () => chunksSent,
    requests: () => requests,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A provider stand-in whose chat answer is `bytes` long, written as fast as the connection takes it. */
async function largeAnswerUpstream(bytes: number) {
  let finished = false;
  let bytesSent = 0;
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const head = '{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"';
  const tail = '"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}';
  const block = "x".repeat(64 * 1024);
  const server = http.createServer((req, res) => {
    req.resume();
    res.on("finish", () => (finished = true));
    res.on("close", () => resolveClosed());
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(bytes) });
    res.write(head);
    bytesSent = head.length;
    const send = () => {
      while (!res.destroyed && bytesSent < bytes - tail.length) {
        const part = block.slice(0, bytes - tail.length - bytesSent);
        bytesSent += part.length;
        if (!res.write(part)) {
          res.once("drain", send);
          return;
        }
      }
      if (!res.destroyed) res.end(tail);
    };
    send();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    closed,
    finished: () => finished,
    bytesSent: () => bytesSent,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A streamed call whose answer the test reads only once `readFrom` settles; its SSE events, as text. */
async function streamReadLater(base: string, body: unknown, readFrom: Promise<unknown>): Promise<{ status: number; events: StreamEvent[] }> {
  const url = new URL(`${base}/api/inference`);
  const req = http.request(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Provider-Token": VISITOR_TOKEN } });
  req.end(JSON.stringify({ ...(body as object), stream: true }));
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => req.once("response", resolve).once("error", reject));
  // Nothing is read until then: the socket's receive window fills, and the gateway's writes back up.
  res.pause();
  await readFrom;
  const events: StreamEvent[] = [];
  const parse = createStreamEventParser((e) => events.push(e));
  res.setEncoding("utf8");
  for await (const text of res) parse(text as string);
  return { status: res.statusCode ?? 0, events };
}

describe("streaming", () => {
  it("answers text/event-stream with token deltas, a final message with usage and timing, then done", async () => {
    const s = await streamEvents(gw, chat({ provider: "together" }), VISITOR_TOKEN);
    expect(s.status).toBe(200);
    expect(s.contentType).toBe("text/event-stream; charset=utf-8");
    expect(s.text).toMatch(/^event: token\ndata: \{"type":"token","index":0,"delta":/);
    const tokens = s.events.filter((e): e is Extract<StreamEvent, { type: "token" }> => e.type === "token");
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.map((t) => t.index)).toEqual(tokens.map((_, i) => i));
    const final = s.events.find((e): e is Extract<StreamEvent, { type: "final" }> => e.type === "final");
    expect(final?.message).toEqual({ role: "assistant", content: tokens.map((t) => t.delta).join("") });
    expect(final?.message.content).toContain('you said "Hello there"');
    expect(final?.finishReason).toBe("stop");
    expect(final?.usage.source).toBe("provider");
    expect(final?.usage.completionTokens).toBe(tokens.length);
    expect(final?.usage.promptTokens).toBeGreaterThan(0);
    expect(final?.timing.timeToFirstTokenMs).toBeGreaterThan(0);
    expect(final?.timing.totalMs).toBeGreaterThanOrEqual(final?.timing.timeToFirstTokenMs ?? 0);
    expect(final?.provider).toBe("together");
    expect(s.events.at(-1)).toEqual({ type: "done" });
  });

  it("reports tokens per second from the token timing", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 20 });
    const s = await streamEvents(gw, chat({ provider: "together", parameters: { max_tokens: 6, temperature: 0.5, top_p: 0.9 } }), VISITOR_TOKEN);
    const final = s.events.find((e): e is Extract<StreamEvent, { type: "final" }> => e.type === "final");
    expect(final?.finishReason).toBe("length");
    expect(final?.usage.completionTokens).toBe(6);
    // 5 intervals of ~20 ms: roughly 50 tokens/s; generous bounds for a loaded machine.
    expect(final?.timing.tokensPerSecond).toBeGreaterThan(5);
    expect(final?.timing.tokensPerSecond).toBeLessThan(60);
    expect(providerRequests()[0]?.bodyJson).toMatchObject({ max_tokens: 6, temperature: 0.5, top_p: 0.9, stream: true });
  });

  it("lets a stream run past the deadline while chunks keep coming: the deadline bounds each silence", async () => {
    const patient = await start({ MODELYARD_INFERENCE_DEADLINE_MS: "300" });
    // Tokens 60 ms apart: more than six of them outlast the deadline.
    sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 60 });
    const s = await streamEvents(patient, chat({ provider: "together", parameters: { max_tokens: 12 } }), VISITOR_TOKEN);
    expect(s.events.filter((e) => e.type === "error")).toEqual([]);
    const final = s.events.find((e): e is Extract<StreamEvent, { type: "final" }> => e.type === "final");
    expect(final?.usage.completionTokens).toBeGreaterThan(6);
    expect(final?.timing.totalMs).toBeGreaterThan(300);
    expect(s.events.at(-1)).toEqual({ type: "done" });
  });

  it("cuts a stream that falls silent for the deadline, and one that outlasts the stream limit", async () => {
    const stalled = await slowUpstream({ tokens: 3, stallAfter: true });
    const endless = await slowUpstream({ tokens: 100_000 });
    try {
      for (const [upstream, env, said] of [
        [stalled, {}, /^The provider sent nothing for 0\.3 s\.$/],
        [endless, { MODELYARD_INFERENCE_STREAM_MAX_MS: "1000" }, /^The streamed answer did not finish within 1 s, the server's limit\.$/],
      ] as const) {
        const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url, MODELYARD_INFERENCE_DEADLINE_MS: "300", ...env });
        const before = logs.length;
        const s = await streamEvents(url, chat({ provider: "together" }), VISITOR_TOKEN);
        expect(s.status).toBe(200);
        expect(s.events.filter((e) => e.type === "token").length).toBeGreaterThanOrEqual(3);
        const error = s.events.find((e): e is Extract<StreamEvent, { type: "error" }> => e.type === "error");
        expect(error?.error).toMatchObject({ status: 504, code: "deadline_exceeded" });
        expect(error?.error.message).toMatch(said);
        await expect.poll(() => logs.slice(before).find((l) => l.includes("code=deadline_exceeded"))).toMatch(/status=504 .*outcome=error/);
        await upstream.closed;
        expect(upstream.sawClose()).toBe(true);
      }
      // The endless one ran past the deadline many times over before the stream limit cut it.
      expect(endless.chunksSent()).toBeGreaterThan(6);
    } finally {
      await stalled.stop();
      await endless.stop();
    }
  });

  it("reads nothing more from the provider while the visitor is not reading, and ends the stream at the deadline", async () => {
    // 100,000 chunks of about 1.1 kB: some 110 MB of answer, far more than the sockets between can
    // hold (about 9 MB were sent here before the provider's connection filled).
    const upstream = await slowUpstream({ tokens: 100_000, flood: true, tokenChars: 1_000 });
    try {
      const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url, MODELYARD_INFERENCE_DEADLINE_MS: "1000" });
      const before = logs.length;
      const s = await streamReadLater(url, chat({ provider: "together" }), upstream.closed);
      // Before, the gateway read the whole answer into its own memory while the visitor read nothing.
      expect(upstream.finished()).toBe(false);
      expect(upstream.chunksSent()).toBeLessThan(50_000);
      const tokens = s.events.filter((e): e is Extract<StreamEvent, { type: "token" }> => e.type === "token");
      expect(tokens.length).toBeGreaterThan(0);
      expect(tokens.length).toBeLessThanOrEqual(upstream.chunksSent());
      expect(tokens.map((t) => t.delta.split(" ")[0])).toEqual(tokens.map((_, i) => `t${i + 1}`));
      expect(s.events.find((e) => e.type === "error")).toMatchObject({ error: { status: 504, code: "deadline_exceeded", message: "The client read nothing for 1 s." } });
      expect(s.events.at(-1)).toEqual({ type: "done" });
      await expect.poll(() => logs.slice(before).find((l) => l.includes("code=deadline_exceeded"))).toMatch(/status=504 .*outcome=error/);
    } finally {
      await upstream.stop();
    }
  });

  it("resumes reading from the provider once a slow visitor drains: the whole answer arrives, in order", async () => {
    const upstream = await slowUpstream({ tokens: 4_000, flood: true, tokenChars: 1_000 });
    try {
      const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url });
      const s = await streamReadLater(url, chat({ provider: "together" }), upstream.blocked);
      expect(s.events.filter((e) => e.type === "error")).toEqual([]);
      const tokens = s.events.filter((e): e is Extract<StreamEvent, { type: "token" }> => e.type === "token");
      expect(tokens).toHaveLength(4_000);
      expect(tokens.map((t) => t.delta.split(" ")[0])).toEqual(tokens.map((_, i) => `t${i + 1}`));
      expect(s.events.at(-1)).toEqual({ type: "done" });
      expect(upstream.finished()).toBe(true);
    } finally {
      await upstream.stop();
    }
  });

  it("logs a visitor who stops before the first token as cancelled, as one who stops after it", async () => {
    const upstream = await slowUpstream();
    try {
      const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url });
      const controller = new AbortController();
      const sent = fetch(`${url}/api/inference`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Provider-Token": VISITOR_TOKEN },
        body: JSON.stringify(chat({ provider: "together", stream: true })),
        signal: controller.signal,
      }).catch(() => undefined);
      // The gateway is waiting for the upstream's first chunk, which never comes.
      await expect.poll(() => upstream.requests()).toBe(1);
      const before = logs.length;
      controller.abort();
      await sent;
      await expect.poll(() => logs.slice(before).find((l) => l.includes("code=client_closed"))).toMatch(/status=499 .*code=client_closed outcome=cancelled/);
      await Promise.race([upstream.closed, new Promise((_, reject) => setTimeout(() => reject(new Error("upstream never closed")), 5_000))]);
    } finally {
      await upstream.stop();
    }
  });

  it("aborts the upstream request when the visitor disconnects mid-stream", async () => {
    const upstream = await slowUpstream({ tokens: 1000 });
    try {
      const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url });
      const controller = new AbortController();
      const res = await fetch(`${url}/api/inference`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Provider-Token": VISITOR_TOKEN },
        body: JSON.stringify(chat({ provider: "together", stream: true })),
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain('"type":"token"');
      controller.abort();
      await Promise.race([upstream.closed, new Promise((_, reject) => setTimeout(() => reject(new Error("upstream never closed")), 5_000))]);
      expect(upstream.sawClose()).toBe(true);
      const sentAtClose = upstream.chunksSent();
      await new Promise((r) => setTimeout(r, 200));
      expect(upstream.chunksSent()).toBe(sentAtClose);
      await expect.poll(() => logs.some((l) => l.includes("outcome=cancelled"))).toBe(true);
    } finally {
      await upstream.stop();
    }
  });
});

describe("limits", () => {
  it("rate-limits per client with a 429 JSON error and Retry-After", async () => {
    // Counters live in the database (shared by instances), so this gateway counts in one of its own.
    const own = await buildTestCatalog([]);
    const url = await start({ MODELYARD_INFERENCE_RATE_LIMIT: "3", MODELYARD_INFERENCE_RATE_WINDOW_MS: "60000" }, { database: own.database });
    const statuses: number[] = [];
    let last: JsonAnswer | null = null;
    for (let i = 0; i < 5; i++) {
      last = await post(url, { model: CLASSIFIER, inputs: "x" }, { token: VISITOR_TOKEN });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(errorOf(last!)).toMatchObject({ code: "rate_limited" });
    expect(errorOf(last!).message).toMatch(/at most 3 per 60 s/);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(providerRequests()).toHaveLength(3);
    await own.drop();
  });

  it("refuses bodies over the size limit with 413, by Content-Length and when streamed without one", async () => {
    const url = await start({ MODELYARD_INFERENCE_MAX_BODY_BYTES: "2048" });
    const big = chat({ provider: "together", messages: [{ role: "user", content: "x".repeat(5000) }] });
    const a = await post(url, big, { token: VISITOR_TOKEN });
    expect(a.status).toBe(413);
    expect(errorOf(a)).toMatchObject({ code: "body_too_large", message: "The request body is larger than 2048 bytes, the gateway's limit." });
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${url}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" } }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      for (let i = 0; i < 10; i++) req.write("x".repeat(500));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { code: "body_too_large" } });
    expect(sim.requests).toEqual([]);
  });

  it("fails an answer past MODELYARD_INFERENCE_MAX_ANSWER_BYTES with 502 answer_too_large, and stops reading it", async () => {
    // A chat answer of 64 MiB, sent as fast as the connection takes it; the gateway reads 1 MiB.
    const upstream = await largeAnswerUpstream(64 * 1024 * 1024);
    try {
      const url = await start({ MODELYARD_UPSTREAM_OVERRIDE: upstream.url, MODELYARD_INFERENCE_MAX_ANSWER_BYTES: "1048576" });
      const a = await post(url, chat({ provider: "together" }), { token: VISITOR_TOKEN });
      // Before, the library read all of it with response.json() and the call answered 200.
      expect(a.status).toBe(502);
      expect(errorOf(a)).toMatchObject({
        code: "answer_too_large",
        message: "The answer from router.huggingface.co is larger than 1.0 MB (1048576 bytes), the limit MODELYARD_INFERENCE_MAX_ANSWER_BYTES sets, so the gateway stopped reading it.",
      });
      expect(errorOf(a).hint).toMatch(/raise MODELYARD_INFERENCE_MAX_ANSWER_BYTES/);
      // The upstream request was aborted: the stand-in never got to hand over its whole answer.
      await upstream.closed;
      expect(upstream.finished()).toBe(false);
      expect(upstream.bytesSent()).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await upstream.stop();
    }
  });

  it("counts media answers too, downloads included, and lets smaller answers through", async () => {
    const url = await start({ MODELYARD_INFERENCE_MAX_ANSWER_BYTES: "1024" });
    // Speech of a quarter second (8 kB of WAV): each provider answers with a small JSON naming its
    // URL, which the library then downloads through the gateway's scoped global fetch. (The 64 MiB
    // answer above is the case of an answer whose body is the whole thing.)
    for (const [provider, host] of [["replicate", "replicate.delivery"], ["fal-ai", "v3.fal.media"]] as const) {
      const a = await post(url, { model: KOKORO.id, provider, inputs: "Hello" }, { token: VISITOR_TOKEN });
      expect(a.status, provider).toBe(502);
      expect(errorOf(a).code, provider).toBe("answer_too_large");
      expect(errorOf(a).message, provider).toMatch(new RegExp(`^The answer from ${host.replace(/\./g, "\\.")} is larger than 1\\.0 kB \\(1024 bytes\\)`));
    }
    const small = await post(url, { model: CLASSIFIER, inputs: "I like it" }, { token: VISITOR_TOKEN });
    expect(small.status).toBe(200);
  });

  it("wants JSON: other content types get a 415", async () => {
    const res = await fetch(`${gw}/api/inference`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hello" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
  });
});

describe("tokens stay secret", () => {
  it("never appear in logs or error bodies, even when a provider echoes them back", async () => {
    logs.length = 0;
    const bodies: string[] = [];
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 400, message: `invalid key ${VISITOR_TOKEN} for Bearer ${VISITOR_TOKEN}` });
    bodies.push((await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN })).text);
    sim.scriptFault({ provider: "together" }, { kind: "mid-stream-error", afterChunks: 1, message: `token ${SERVER_TOKEN} revoked` });
    bodies.push((await streamEvents(gwServerToken, chat({ provider: "together" }))).text);
    bodies.push((await post(gw, { provider: "openai", model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "x" }] }, { token: VISITOR_TOKEN })).text);
    bodies.push((await post(gw, chat({ provider: "together" }), { token: VISITOR_TOKEN })).text);
    expect(bodies[0]).toContain("[redacted]");
    expect(bodies[1]).toContain("[redacted]");
    for (const text of [...bodies, ...logs]) {
      expect(text).not.toContain(VISITOR_TOKEN);
      expect(text).not.toContain(SERVER_TOKEN);
      expect(text).not.toContain("sk-openaiServerKey123456");
    }
    expect(logs.length).toBeGreaterThanOrEqual(4);
    expect(logs.every((l) => l.startsWith("[inference] "))).toBe(true);
  });
});
