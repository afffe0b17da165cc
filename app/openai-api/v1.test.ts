/**
 * The OpenAI-compatible /v1 through clients nobody here wrote: the official `openai` SDK (pinned)
 * and @huggingface/inference 3.13.1's chatCompletion with `endpointUrl` at this server's /v1,
 * over real sockets against the provider SIMULATOR (ADR 0040). The catalogue, accounts and usage
 * records live in one database, on every engine the suite has.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InferenceClient } from "@huggingface/inference";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addPerson, createPersonalToken } from "#app/auth/accounts.server.ts";
import { setPolicyOverride } from "#app/auth/policy.server.ts";
import { listUsageRecords } from "#app/db/queries/usage.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { databaseCatalog } from "#app/inference/catalog-source.server.ts";
import { createInferenceGateway } from "#app/inference/gateway.server.ts";
import { serveGateway, type ServedGateway } from "#tests/inference/serve-gateway.ts";
import { TASK_MODELS } from "#tests/inference/task-models.ts";
import { HUB_FIXTURE_MODELS, type HubFixtureModel } from "#tests/simulators/hub-fixture.ts";
import { makePng, makeWav } from "#tests/simulators/media.ts";
import { type ProviderSimulator, startProviderSimulator } from "#tests/simulators/provider-simulator.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

const SERVER_TOKEN = "hf_serverV1Key0987654321abcdef";
const LLAMA = "meta-llama/Llama-3.3-70B-Instruct";
const LLAMA_CREATED = "2024-11-26T16:08:47.000Z";
const WEATHER_TOOL = {
  type: "function" as const,
  function: { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

// A speech model two providers serve, both making WAV in the simulator: a refused format must not
// send the request on to the second.
const TWO_VOICES: HubFixtureModel = {
  id: "acme/two-voices-tts",
  pipeline_tag: "text-to-speech",
  tags: [],
  inferenceProviderMapping: {
    "hf-inference": { status: "live", providerId: "acme/two-voices-tts", task: "text-to-speech" },
    "fal-ai": { status: "live", providerId: "fal-ai/two-voices", task: "text-to-speech" },
  },
};
const MODELS = [...TASK_MODELS, ...HUB_FIXTURE_MODELS, TWO_VOICES];

let sim: ProviderSimulator;

beforeAll(async () => {
  const seen = new Set<string>();
  sim = await startProviderSimulator({ assetUrls: "real-host", hubModels: MODELS.filter((m) => !seen.has(m.id) && seen.add(m.id)) });
});

afterAll(async () => {
  await sim?.close();
});

beforeEach(() => sim.reset());

describe.each(testDialects())("/v1 on $name", (dialect) => {
  let db: TestDatabase;
  let url: string;
  let member: string;
  let readOnly: string;
  let limited: string;
  const servers: ServedGateway[] = [];
  const client = (apiKey: string, extra: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) => new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0, ...extra });

  async function start(env: Record<string, string> = {}): Promise<string> {
    const gateway = createInferenceGateway({
      catalog: databaseCatalog(() => db.handle, { ttlMs: 0 }),
      database: () => db.handle.db,
      env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: SERVER_TOKEN, MODELYARD_INFERENCE_MAX_RETRIES: "0", MODELYARD_V1_ROUTING: "listed", MODELYARD_MEMBER_RPM: "500", ...env },
      log: () => {},
    });
    const served = await serveGateway(gateway);
    servers.push(served);
    return served.url;
  }

  beforeAll(async () => {
    db = await dialect.create();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-v1-"));
    const file = path.join(dir, "models.jsonl");
    const seen = new Set<string>();
    // One model with the date the Hub gives, so /v1/models has a `created` to show.
    const records = MODELS.filter((m) => !seen.has(m.id) && seen.add(m.id)).map((m) => (m.id === LLAMA ? { ...m, createdAt: LLAMA_CREATED } : m));
    fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    await importPaths(db.handle, [file]);
    fs.rmSync(dir, { recursive: true, force: true });
    const { user } = await addPerson(db.handle.db, { email: "v1@example.com", role: "member" }, "http://x");
    member = (await createPersonalToken(db.handle.db, user.id, { name: "v1", expiresInDays: 30, scopes: ["read", "inference"], rpm: null, tokensPerDay: null })).token;
    readOnly = (await createPersonalToken(db.handle.db, user.id, { name: "read", expiresInDays: 30, scopes: ["read"], rpm: null, tokensPerDay: null })).token;
    limited = (await createPersonalToken(db.handle.db, user.id, { name: "one a minute", expiresInDays: 30, scopes: ["inference"], rpm: 1, tokensPerDay: null })).token;
    url = await start();
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) await s.close();
    await db?.drop();
  });

  it("lists the models something here can run, with their providers, and one by its id", async () => {
    const page = await client(member).models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toContain(LLAMA);
    expect(ids).toContain("BAAI/bge-small-en-v1.5");
    // Text classification has no /v1 route: not listed.
    expect(ids).not.toContain("distilbert/distilbert-base-uncased-finetuned-sst-2-english");
    const llama = page.data.find((m) => m.id === LLAMA) as unknown as { owned_by: string; architecture: { input_modalities: string[] }; providers: Array<{ provider: string; status: string; task: string }> };
    expect(llama.owned_by).toBe("meta-llama");
    expect(llama.architecture.input_modalities).toContain("text");
    expect(llama.providers).toContainEqual({ provider: "together", status: "live", task: "conversational" });
    const one = await client(member).models.retrieve(LLAMA);
    expect(one.id).toBe(LLAMA);
    // OpenAI's Model requires `created`: the catalogue's date in seconds, or 0 when it has none.
    expect(one.created).toBe(Date.parse(LLAMA_CREATED) / 1000);
    expect(page.data.find((m) => m.id === "BAAI/bge-small-en-v1.5")?.created).toBe(0);
    expect(page.data.every((m) => Number.isInteger(m.created))).toBe(true);
    await expect(client(member).models.retrieve("nobody/nothing")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("chats without streaming, saying which provider served, with a request id", async () => {
    const { data, response } = await client(member).chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "Hello there" }], seed: 7, stop: ["never"] }).withResponse();
    expect(data.choices[0]?.message.content).toContain("Simulated together reply");
    expect(data.model).toBe(`${LLAMA}:together`);
    expect(response.headers.get("x-inference-provider")).toBe("together");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const sent = sim.requests.find((r) => r.provider === "together");
    expect(sent?.bodyJson).toMatchObject({ seed: 7, stop: ["never"] });
  });

  it("streams a chat, with usage at the end when asked for", async () => {
    const stream = await client(member).chat.completions.create({ model: `${LLAMA}:groq`, messages: [{ role: "user", content: "Count" }], stream: true, stream_options: { include_usage: true } });
    let text = "";
    let usage: OpenAI.CompletionUsage | null | undefined;
    let models = new Set<string>();
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
      models.add(chunk.model);
    }
    expect(text).toContain("Simulated groq reply");
    expect([...models]).toEqual([`${LLAMA}:groq`]);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    models = new Set();
  });

  it("takes the chat inputs OpenAI's clients commonly send: developer turns, image detail, one stop string, any seed, nulls for unset", async () => {
    const png = `data:image/png;base64,${makePng("v1 detail").toString("base64")}`;
    const done = await client(member).chat.completions.create({
      model: `${LLAMA}:together`,
      messages: [
        { role: "developer", content: "Answer briefly." },
        { role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: png, detail: "low" } }] },
      ],
      stop: "never",
      seed: -1,
      stream: null,
      stream_options: null,
      max_completion_tokens: null,
    });
    expect(done.choices[0]?.message.content).toContain("Simulated together reply");
    const sent = sim.requests.filter((r) => r.provider === "together").at(-1)?.bodyJson as { messages: Array<{ role: string; content: unknown }>; stop: unknown; seed: unknown; user?: unknown };
    expect(sent.messages[0]).toEqual({ role: "system", content: "Answer briefly." });
    expect(sent.messages[1]?.content).toContainEqual({ type: "image_url", image_url: { url: png, detail: "low" } });
    expect(sent).toMatchObject({ stop: ["never"], seed: -1 });
    // The SDK's types leave `user: null` out; other clients send it.
    const raw = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${member}` },
      body: JSON.stringify({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "x" }], user: null, temperature: null }),
    });
    expect(raw.status).toBe(200);
    const bias = await client(member).chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "x" }], logit_bias: { "50256": -100 } }).catch((e: unknown) => e);
    expect(bias).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bias).toMatchObject({ param: "logit_bias" });
    expect((bias as Error).message).toMatch(/`logit_bias` is not supported here: OpenAI's map of token ids/);
  });

  it("completes greedily at temperature 0 (do_sample false), with seed 0 and nulls for unset fields", async () => {
    const done = await client(member).completions.create({ model: "meta-llama/Llama-3.1-8B:hf-inference", prompt: "Once upon a time", temperature: 0, seed: 0, stream: null, stop: null, max_tokens: null });
    expect(done.choices[0]?.text.length).toBeGreaterThan(5);
    const sent = sim.requests.filter((r) => r.provider === "hf-inference").at(-1)?.bodyJson as { parameters?: Record<string, unknown> };
    expect(sent.parameters).toMatchObject({ do_sample: false, seed: 0 });
    expect(sent.parameters?.["temperature"]).toBeUndefined();
    // An OpenAI-style completion provider gets text generation's parameters as they are and would
    // drop do_sample: refused, never sampled at its own temperature; unnamed, hf-inference serves it.
    const before = sim.requests.length;
    const refused = await client(member).completions.create({ model: "meta-llama/Llama-3.1-8B:together", prompt: "Once upon a time", temperature: 0 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused).toMatchObject({ param: "temperature" });
    expect((refused as Error).message).toMatch(/only hf-inference takes; together would sample/);
    expect(sim.requests.length).toBe(before);
    const routed = await client(member).completions.create({ model: "meta-llama/Llama-3.1-8B", prompt: "Once upon a time", temperature: 0 });
    expect(routed.model).toBe("meta-llama/Llama-3.1-8B:hf-inference");
    const image = await client(member).images.generate({ model: "black-forest-labs/FLUX.1-dev:hf-inference", prompt: "a red fox", n: null, size: null, response_format: null });
    expect(image.data?.[0]?.b64_json?.length).toBeGreaterThan(0);
  });

  it("passes tools and tool_choice through, streamed and not, and the tool's answer back", async () => {
    const c = client(member);
    const first = await c.chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "Weather in Paris?" }], tools: [WEATHER_TOOL], tool_choice: "auto" });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" ? call.function.name : null).toBe("get_weather");
    expect(JSON.parse(call?.type === "function" ? call.function.arguments : "{}")).toEqual({ query: "Weather in Paris?" });
    const stream = await c.chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "Weather in Oslo?" }], tools: [WEATHER_TOOL], stream: true });
    let name = "";
    let args = "";
    for await (const chunk of stream) {
      for (const t of chunk.choices[0]?.delta.tool_calls ?? []) {
        name += t.function?.name ?? "";
        args += t.function?.arguments ?? "";
      }
    }
    expect(name).toBe("get_weather");
    expect(JSON.parse(args)).toEqual({ query: "Weather in Oslo?" });
    const answer = await c.chat.completions.create({
      model: `${LLAMA}:together`,
      messages: [{ role: "user", content: "Weather in Paris?" }, first.choices[0]!.message, { role: "tool", tool_call_id: call!.id, content: "sunny, 21 C" }],
      tools: [WEATHER_TOOL],
    });
    expect(answer.choices[0]?.message.content).toContain("Simulated together reply");
    const upstream = sim.requests.filter((r) => r.provider === "together").at(-1);
    expect((upstream?.bodyJson as { messages: Array<{ role: string; tool_call_id?: string }> }).messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: call!.id });
  });

  it("completes text for a text-generation model, streamed and not", async () => {
    const c = client(member);
    const done = await c.completions.create({ model: "meta-llama/Llama-3.1-8B:together", prompt: "Once upon a time", max_tokens: 20 });
    expect(done.choices[0]?.text.length).toBeGreaterThan(5);
    expect(done.model).toBe("meta-llama/Llama-3.1-8B:together");
    const stream = await c.completions.create({ model: "meta-llama/Llama-3.1-8B:together", prompt: "Once upon a time", stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? "";
    expect(text.length).toBeGreaterThan(5);
    // 3.13.1 nests the length cap in TGI's name, which Together's completions API does not read: it
    // is sent at the top level too, so the answer is cut at it, whole and streamed.
    const capped = await c.completions.create({ model: "meta-llama/Llama-3.1-8B:together", prompt: "Once upon a time", max_tokens: 3, top_p: 0.5 });
    const whole = done.choices[0]?.text ?? "";
    const cut = capped.choices[0]?.text ?? "";
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(whole.length);
    expect(whole.startsWith(cut)).toBe(true);
    const sent = sim.requests.filter((r) => r.provider === "together").at(-1)?.bodyJson as Record<string, unknown>;
    expect(sent).toMatchObject({ max_tokens: 3, top_p: 0.5, parameters: { max_new_tokens: 3, top_p: 0.5 } });
    const cappedStream = await c.completions.create({ model: "meta-llama/Llama-3.1-8B:together", prompt: "Once upon a time", max_tokens: 2, stream: true });
    let streamed = "";
    for await (const chunk of cappedStream) streamed += chunk.choices[0]?.text ?? "";
    expect(streamed.length).toBeGreaterThan(0);
    expect(cut.startsWith(streamed) && streamed.length < cut.length).toBe(true);
  });

  it("says why a completion stopped, from the provider's own word, and gives usage only as the provider counted it", async () => {
    const c = client(member);
    // TGI (hf-inference) says why it stopped in `details`, which it sends only when asked.
    const done = await c.completions.create({ model: "meta-llama/Llama-3.1-8B:hf-inference", prompt: "Once upon a time" });
    expect(done.choices[0]?.finish_reason).toBe("stop");
    expect(done.usage).toBeUndefined();
    const limited = await c.completions.create({ model: "meta-llama/Llama-3.1-8B:hf-inference", prompt: "Once upon a time", max_tokens: 3 });
    expect(limited.choices[0]?.finish_reason).toBe("length");
    expect(limited.usage).toBeUndefined();
    expect(sim.requests.filter((r) => r.provider === "hf-inference").map((r) => (r.bodyJson as { parameters?: { details?: unknown } }).parameters?.details)).toEqual([true, true]);
    // 3.13.1 keeps only the text of an OpenAI-style provider's whole completion, so its "length" is
    // lost and the answer says "stop"; nothing else here would be the provider's word.
    const openAiStyle = await c.completions.create({ model: "meta-llama/Llama-3.1-8B:ovhcloud", prompt: "Once upon a time", max_tokens: 3 });
    expect(openAiStyle.choices[0]?.finish_reason).toBe("stop");
    expect(sim.requests.find((r) => r.provider === "ovhcloud")?.bodyJson).not.toHaveProperty("details");
    const reasons = async (model: string, max_tokens?: number): Promise<Array<string | null>> => {
      const out: Array<string | null> = [];
      const stream = await c.completions.create({ model, prompt: "Once upon a time", stream: true, ...(max_tokens ? { max_tokens } : {}) });
      for await (const chunk of stream) out.push(chunk.choices[0]?.finish_reason ?? null);
      return out;
    };
    // TGI's events (hf-inference): "eos_token" is "stop", its "length" is OpenAI's.
    expect((await reasons("meta-llama/Llama-3.1-8B:hf-inference")).at(-1)).toBe("stop");
    const cut = await reasons("meta-llama/Llama-3.1-8B:hf-inference", 3);
    expect(cut.at(-1)).toBe("length");
    expect(cut.slice(0, -1).every((r) => r === null)).toBe(true);
    // An OpenAI-style provider's own reason, as it sent it.
    expect((await reasons("meta-llama/Llama-3.1-8B:ovhcloud", 3)).at(-1)).toBe("length");
    expect((await reasons("meta-llama/Llama-3.1-8B:ovhcloud")).at(-1)).toBe("stop");
    // Streamed usage is the provider's count, prompt included, where its last event carries one
    // (OpenAI-style completions); TGI's events count only the tokens generated, so none is given.
    const usageOf = async (model: string) => {
      const stream = await c.completions.create({ model, prompt: "Once upon a time", stream: true, stream_options: { include_usage: true } });
      let usage: unknown = "no usage chunk";
      for await (const chunk of stream) if (chunk.usage !== undefined) usage = chunk.usage;
      return usage;
    };
    const counted = await usageOf("meta-llama/Llama-3.1-8B:ovhcloud");
    expect(counted).toMatchObject({ prompt_tokens: 4 });
    expect((counted as { completion_tokens: number }).completion_tokens).toBeGreaterThan(0);
    expect(await usageOf("meta-llama/Llama-3.1-8B:hf-inference")).toBeNull();
  });

  it("embeds text as floats and as base64, the same vectors", async () => {
    const c = client(member);
    const floats = await c.embeddings.create({ model: "BAAI/bge-small-en-v1.5", input: ["one sentence", "another"], encoding_format: "float" });
    expect(floats.data).toHaveLength(2);
    expect(floats.data[1]?.index).toBe(1);
    // The SDK asks for base64 by default and decodes it itself.
    const decoded = await c.embeddings.create({ model: "BAAI/bge-small-en-v1.5", input: ["one sentence", "another"] });
    const a = floats.data[0]!.embedding;
    const b = decoded.data[0]!.embedding;
    expect(b).toHaveLength(a.length);
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 5);
    // OpenAI's type requires usage; the provider counted no tokens, so it is null, not an estimate.
    const raw = await fetch(`${url}/v1/embeddings`, { method: "POST", headers: { Authorization: `Bearer ${member}`, "Content-Type": "application/json" }, body: JSON.stringify({ model: "BAAI/bge-small-en-v1.5", input: "one" }) });
    expect(await raw.json()).toMatchObject({ object: "list", usage: null });
  });

  it("refuses token-id inputs to embeddings by name, as LangChain sends them by default", async () => {
    const c = client(member);
    for (const input of [[1, 2, 3], [[1, 2], [3]]]) {
      const refused = await c.embeddings.create({ model: "BAAI/bge-small-en-v1.5", input }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(refused).toMatchObject({ param: "input" });
      expect((refused as Error).message).toMatch(/must be text.*check_embedding_ctx_length/);
    }
    expect(sim.requests).toHaveLength(0);
  });

  it("generates an image as b64_json and refuses a URL with the reason", async () => {
    const c = client(member);
    const image = await c.images.generate({ model: "black-forest-labs/FLUX.1-dev:hf-inference", prompt: "a red fox", size: "512x512" });
    const bytes = Buffer.from(image.data?.[0]?.b64_json ?? "", "base64");
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    const refused = await c.images.generate({ model: "black-forest-labs/FLUX.1-dev:hf-inference", prompt: "a red fox", response_format: "url" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("response_format");
    expect((refused as Error).message).toMatch(/stores no images/);
  });

  it("transcribes audio as json and as text, and speaks text as audio", async () => {
    const c = client(member);
    const file = await toFile(makeWav("v1 transcription"), "clip.wav", { type: "audio/wav" });
    const json = await c.audio.transcriptions.create({ model: "openai/whisper-large-v3:hf-inference", file });
    expect(json.text.length).toBeGreaterThan(0);
    const text = await c.audio.transcriptions.create({ model: "openai/whisper-large-v3:hf-inference", file: await toFile(makeWav("v1 transcription"), "clip.wav"), response_format: "text" });
    expect(text).toBe(json.text);
    const speech = await c.audio.speech.create({ model: "facebook/mms-tts-eng", input: "Hello", voice: "alloy" });
    const audio = Buffer.from(await speech.arrayBuffer());
    expect(audio.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(speech.headers.get("content-type")).toMatch(/^audio\//);
  });

  it("answers speech in the asked-for format only when the model made that format", async () => {
    const c = client(member);
    const wav = await c.audio.speech.create({ model: "facebook/mms-tts-eng", input: "Hello", voice: "alloy", response_format: "wav" });
    expect(wav.headers.get("content-type")).toBe("audio/wav");
    // The simulated model makes WAV; nothing here converts it to MP3.
    const mp3 = await c.audio.speech.create({ model: "facebook/mms-tts-eng", input: "Hello", voice: "alloy", response_format: "mp3" }).catch((e: unknown) => e);
    expect(mp3).toBeInstanceOf(OpenAI.BadRequestError);
    expect(mp3).toMatchObject({ param: "response_format", code: "response_format_unavailable" });
    expect((mp3 as Error).message).toMatch(/answered with WAV audio, not mp3.*ask for "wav" with model "facebook\/mms-tts-eng:hf-inference"/);
    // No model's audio reaches a client as raw PCM or ADTS AAC: refused before any call, naming what can be asked for.
    sim.reset();
    for (const response_format of ["pcm", "aac"] as const) {
      const never = await c.audio.speech.create({ model: "facebook/mms-tts-eng", input: "Hello", voice: "alloy", response_format }).catch((e: unknown) => e);
      expect(never).toBeInstanceOf(OpenAI.BadRequestError);
      expect(never).toMatchObject({ status: 400, param: "response_format", type: "invalid_request_error" });
      expect((never as Error).message).toMatch(/Possible values: "mp3", "opus", "flac", "wav", each met only when the model makes that format/);
    }
    expect(sim.requests).toHaveLength(0);
  });

  it("refuses a speech format known only from the answer after one paid call: no failover, one record, and what to ask instead", async () => {
    const since = new Date().toISOString();
    const refused = await client(member).audio.speech.create({ model: TWO_VOICES.id, input: "Hello", voice: "alloy", response_format: "flac" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused).toMatchObject({ status: 400, param: "response_format", code: "response_format_unavailable" });
    // The provider planned second makes WAV too: trying it would have been a second paid call.
    const called = sim.requests.filter((r) => r.provider !== null).map((r) => r.provider);
    expect(called).toHaveLength(1);
    const [first] = called;
    expect((refused as Error).message).toMatch(/The call was made and is counted; asking for flac again would pay for another call/);
    expect((refused as Error).message).toContain(`ask for "wav" with model "${TWO_VOICES.id}:${first}"`);
    await expect.poll(async () => (await listUsageRecords(db.handle.db, { since, offset: 0, limit: 20 })).filter((r) => r.model === TWO_VOICES.id).map((r) => `${r.provider}:${r.status}:${r.endpoint}`)).toEqual([
      `${first}:200:/v1/audio/speech`,
    ]);
    const pinned = await client(member).audio.speech.create({ model: `${TWO_VOICES.id}:${first}`, input: "Hello", voice: "alloy", response_format: "wav" });
    expect(pinned.headers.get("content-type")).toBe("audio/wav");
  });

  it("answers each error as OpenAI's error object, which the SDK types", async () => {
    const c = client(member);
    // The demos' cost caps hold here too (MODELYARD_CAP_MAX_TOKENS, 4096 by default).
    const bad = await c.chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "x" }], max_tokens: 100_000 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad).toMatchObject({ status: 400, param: "max_tokens", type: "invalid_request_error" });
    const unknown = await c.chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "x" }], parallel_tool_calls: true }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 400, param: "parallel_tool_calls" });
    const missing = await c.chat.completions.create({ model: "nobody/nothing", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing).toMatchObject({ code: "model_not_found", param: "model" });
    await expect(client("myd_notARealTokenAtAll000000000000000000").models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const noScope = await client(readOnly).chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(noScope).toBeInstanceOf(OpenAI.PermissionDeniedError);
    await client(limited).chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "x" }] });
    const limitedAgain = await client(limited).chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(limitedAgain).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number((limitedAgain as InstanceType<typeof OpenAI.RateLimitError>).headers?.get("retry-after"))).toBeGreaterThan(0);
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 500, message: "upstream broke" });
    const upstream = await c.chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(upstream).toBeInstanceOf(OpenAI.InternalServerError);
    expect(upstream).toMatchObject({ status: 502, type: "api_error" });
    // No token at all under the default `members` policy.
    const anonymous = await fetch(`${url}/v1/models`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error.type).toBe("authentication_error");
  });

  it("answers 504 when the provider is slower than the deadline, which the SDK raises as a server error", async () => {
    const quick = await start({ MODELYARD_INFERENCE_DEADLINE_MS: "300", MODELYARD_V1_FAILOVER: "0" });
    sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 2_000 });
    const late = await new OpenAI({ baseURL: `${quick}/v1`, apiKey: member, maxRetries: 0 })
      .chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "slow" }] })
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(OpenAI.InternalServerError);
    expect(late).toMatchObject({ status: 504, code: "deadline_exceeded", type: "api_error" });
  });

  it("does not fail over after the deadline: the next provider would get no time", async () => {
    const quick = await start({ MODELYARD_INFERENCE_DEADLINE_MS: "300" });
    sim.scriptFault({ provider: "cerebras" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 2_000 });
    const since = new Date().toISOString();
    const late = await new OpenAI({ baseURL: `${quick}/v1`, apiKey: member, maxRetries: 0 })
      .chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "slow, then nobody" }] })
      .catch((e: unknown) => e);
    expect(late).toMatchObject({ status: 504, code: "deadline_exceeded" });
    await expect.poll(async () => (await listUsageRecords(db.handle.db, { since, offset: 0, limit: 20 })).filter((r) => r.model === LLAMA).map((r) => `${r.provider}:${r.status}`)).toEqual(["cerebras:504"]);
  });

  it("sends a failure after the first token as an error event the SDK raises", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "mid-stream-error", afterChunks: 2, message: "GPU fell over" });
    const stream = await client(member).chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "tell me more" }], stream: true });
    let text = "";
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    expect(text.length).toBeGreaterThan(0);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toMatch(/GPU fell over/);
  });

  it("fails over to the next provider when the first answers 503, records both calls, and a named provider is used alone", async () => {
    // Llama 3.3's providers in the catalogue's order: cerebras first, then fireworks-ai.
    sim.scriptFault({ provider: "cerebras" }, { kind: "error", status: 503, message: "over capacity" });
    const since = new Date().toISOString();
    const { data, response } = await client(member).chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "failover please" }] }).withResponse();
    expect(response.headers.get("x-inference-provider")).toBe("fireworks-ai");
    expect(data.model).toBe(`${LLAMA}:fireworks-ai`);
    expect(data.choices[0]?.message.content).toContain("Simulated fireworks-ai reply");
    await expect.poll(async () => (await listUsageRecords(db.handle.db, { since, offset: 0, limit: 20 })).filter((r) => r.model === LLAMA).map((r) => `${r.provider}:${r.status}:${r.endpoint}`).sort()).toEqual([
      "cerebras:503:/v1/chat/completions",
      "fireworks-ai:200:/v1/chat/completions",
    ]);
    sim.scriptFault({ provider: "cerebras" }, { kind: "error", status: 503, message: "over capacity" });
    const pinned = await client(member).chat.completions.create({ model: `${LLAMA}:cerebras`, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(pinned).toBeInstanceOf(OpenAI.InternalServerError);
    expect(pinned).toMatchObject({ status: 503 });
  });

  it("answers a request the provider refuses (400, 422) as 400 in its words, and tries no other provider", async () => {
    sim.scriptFault({ provider: "cerebras" }, { kind: "error", status: 400, style: "openai", message: "This model's maximum context length is 8192 tokens" });
    const since = new Date().toISOString();
    const refused = await client(member, { maxRetries: 2 }).chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "far too long" }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused).toMatchObject({ status: 400, type: "invalid_request_error", code: "upstream_bad_request", param: null });
    expect((refused as Error).message).toContain("cerebras refused the request (400): This model's maximum context length is 8192 tokens");
    // The SDK retries no 400, and the gateway fails over on none: one paid call.
    expect(sim.requests.filter((r) => r.provider !== null).map((r) => r.provider)).toEqual(["cerebras"]);
    await expect.poll(async () => (await listUsageRecords(db.handle.db, { since, offset: 0, limit: 20 })).filter((r) => r.model === LLAMA).map((r) => `${r.provider}:${r.status}`)).toEqual(["cerebras:400"]);
  });

  it("fails over when a provider refuses the server's key, and answers 401 only when the key was the caller's own", async () => {
    sim.scriptFault({ provider: "cerebras" }, { kind: "error", status: 401, message: "Invalid API key" });
    const { response } = await client(member).chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "server key" }] }).withResponse();
    expect(response.headers.get("x-inference-provider")).toBe("fireworks-ai");
    sim.scriptFault({ provider: "cerebras" }, { kind: "error", status: 403, message: "Invalid API key" });
    const pinned = await client(member).chat.completions.create({ model: `${LLAMA}:cerebras`, messages: [{ role: "user", content: "server key" }] }).catch((e: unknown) => e);
    expect(pinned).toBeInstanceOf(OpenAI.InternalServerError);
    expect(pinned).toMatchObject({ status: 502, code: "server_key_rejected", type: "api_error" });
    expect((pinned as Error).message).toContain("cerebras refused this server's key (HF_TOKEN) with 403: Invalid API key");
    sim.scriptFault({ provider: "cerebras" }, { kind: "error", status: 401, message: "Invalid API key" });
    const own = await client(member, { defaultHeaders: { "X-Provider-Token": "hf_callersOwnKey1234567890" } })
      .chat.completions.create({ model: LLAMA, messages: [{ role: "user", content: "my key" }] })
      .catch((e: unknown) => e);
    expect(own).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(own).toMatchObject({ code: "token_rejected" });
  });

  it("routes `:fastest` to the provider with the lowest recent time to first token", async () => {
    // A model no other test calls: its only records are these two streamed calls, one slow.
    const model = "meta-llama/Llama-3.1-8B-Instruct";
    sim.scriptFault({ provider: "nebius" }, { kind: "slow", tokenDelayMs: 5, firstByteDelayMs: 300 });
    for (const provider of ["nebius", "novita"]) {
      const s = await client(member).chat.completions.create({ model: `${model}:${provider}`, messages: [{ role: "user", content: "rank me" }], stream: true });
      for await (const chunk of s) void chunk;
    }
    await expect
      .poll(async () => (await listUsageRecords(db.handle.db, { since: new Date(Date.now() - 60_000).toISOString(), offset: 0, limit: 50 })).filter((r) => r.model === model && r.ttft_ms !== null).length)
      .toBe(2);
    const { data, response } = await client(member).chat.completions.create({ model: `${model}:fastest`, messages: [{ role: "user", content: "who is fastest" }] }).withResponse();
    expect(response.headers.get("x-inference-provider")).toBe("novita");
    expect(data.model).toBe(`${model}:novita`);
  });

  it("serves @huggingface/inference 3.13.1's chatCompletion and chatCompletionStream with endpointUrl at /v1", async () => {
    const hf = new InferenceClient(member);
    const done = await hf.chatCompletion({ endpointUrl: `${url}/v1`, model: `${LLAMA}:sambanova`, messages: [{ role: "user", content: "from huggingface.js" }] });
    expect(done.choices[0]?.message.content).toContain("Simulated sambanova reply");
    let text = "";
    for await (const chunk of hf.chatCompletionStream({ endpointUrl: `${url}/v1`, model: `${LLAMA}:sambanova`, messages: [{ role: "user", content: "streamed" }] })) {
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(text).toContain("Simulated sambanova reply");
  });

  it("lists a configured endpoint's models and runs one by its served name and by `:<endpoint>`", async () => {
    const lab = await start({
      MODELYARD_ENDPOINTS: JSON.stringify([{ name: "lab-llama", url: `${sim.url}/api.together.xyz/v1`, models: [{ id: LLAMA, served: "llama3.3:70b" }], keyEnv: "MODELYARD_ENDPOINT_KEY_LAB" }]),
      MODELYARD_ENDPOINT_KEY_LAB: "together_labKey_abcdef123",
    });
    const c = new OpenAI({ baseURL: `${lab}/v1`, apiKey: member, maxRetries: 0 });
    const listed = (await c.models.retrieve(LLAMA)) as unknown as { providers: Array<{ provider: string; status: string }> };
    expect(listed.providers).toContainEqual({ provider: "lab-llama", status: "endpoint", task: "conversational" });
    for (const model of ["llama3.3:70b", `${LLAMA}:lab-llama`]) {
      const { data, response } = await c.chat.completions.create({ model, messages: [{ role: "user", content: "to the lab" }] }).withResponse();
      expect(response.headers.get("x-inference-provider")).toBe("endpoint:lab-llama");
      expect(data.model).toBe(`${LLAMA}:lab-llama`);
    }
    expect(sim.requests.filter((r) => r.host === "api.together.xyz").map((r) => (r.bodyJson as { model?: string }).model)).toEqual(["llama3.3:70b", "llama3.3:70b"]);
    await expect(c.chat.completions.create({ model: "qwen3:8b", messages: [{ role: "user", content: "x" }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("refuses a browser's cross-site call in OpenAI's error shape, before reading it, and lets the SDK's through", async () => {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${member}`, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
      body: JSON.stringify({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "from elsewhere" }] }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { error: { type: string; code: string; message: string } };
    expect(body.error).toMatchObject({ type: "permission_error", code: "cross_site_refused" });
    expect(body.error.message).toMatch(/^Refused a cross-site request: in a browser, this server accepts changes only from its own pages\./);
    expect(sim.requests).toHaveLength(0);
  });

  it("lets anonymous callers in only under the open policy", async () => {
    await setPolicyOverride(db.handle.db, "open");
    try {
      const open = await start();
      const res = await fetch(`${open}/v1/chat/completions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "anyone" }] }),
      });
      expect(res.status).toBe(200);
    } finally {
      await setPolicyOverride(db.handle.db, null);
    }
  });
});
