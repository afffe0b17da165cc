// Drives @huggingface/inference 3.13.1 against the provider SIMULATOR over real loopback sockets.
// Every upstream URL is rewritten to the simulator with the MODELYARD_UPSTREAM_OVERRIDE scheme,
// through `options.fetch` and, for the follow-up fetches the library makes with the global fetch
// (media URLs, fal queue polling, provider "auto"), through a global fetch guard that also records
// which URLs bypassed `options.fetch`. No request leaves the machine.
import {
  automaticSpeechRecognition,
  chatCompletion,
  chatCompletionStream,
  featureExtraction,
  fillMask,
  imageClassification,
  questionAnswering,
  request,
  summarization,
  tableQuestionAnswering,
  textClassification,
  textGeneration,
  textGenerationStream,
  textToImage,
  textToSpeech,
  textToVideo,
  tokenClassification,
  zeroShotClassification,
} from "@huggingface/inference";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeFlac, makeJpeg, makePng, makeWav, sniffMedia } from "./media.ts";
import { startProviderSimulator, type ProviderSimulator } from "./provider-simulator.ts";
import type { RecordedRequest } from "./common/context.ts";
import { makeOverrideFetch, toOverrideUrl } from "./upstream-override.ts";

const realFetch = globalThis.fetch;
let sim: ProviderSimulator;
let overrideFetch: typeof fetch;
const globalFetchUrls: string[] = [];

beforeAll(async () => {
  sim = await startProviderSimulator();
  overrideFetch = makeOverrideFetch(sim.url, realFetch);
  const guard = makeOverrideFetch(sim.url, realFetch);
  vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
    globalFetchUrls.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    return guard(input, init);
  });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await sim.close();
});

beforeEach(() => {
  sim.reset();
  globalFetchUrls.length = 0;
});

const HF_TOKEN = "hf_simulatortesttoken";
const CHAT_MODEL = "meta-llama/Llama-3.3-70B-Instruct";

function upstream(host: string): RecordedRequest[] {
  return sim.requests.filter((r) => r.host === host);
}

function lastProviderRequest(): RecordedRequest {
  const found = [...sim.requests].reverse().find((r) => r.service === "router" || r.service === "provider");
  if (!found) throw new Error("no provider request recorded");
  return found;
}

describe("upstream override helper", () => {
  it("maps any https URL to <base>/<host><path>?<query> and leaves data: URLs alone", () => {
    expect(toOverrideUrl("https://router.huggingface.co/together/v1/chat/completions", "http://127.0.0.1:9/")).toBe(
      "http://127.0.0.1:9/router.huggingface.co/together/v1/chat/completions",
    );
    expect(toOverrideUrl("https://huggingface.co/api/models/a/b?expand[]=inferenceProviderMapping", "http://127.0.0.1:9")).toBe(
      "http://127.0.0.1:9/huggingface.co/api/models/a/b?expand[]=inferenceProviderMapping",
    );
    expect(toOverrideUrl("data:image/png;base64,AAAA", "http://127.0.0.1:9")).toBe("data:image/png;base64,AAAA");
    expect(toOverrideUrl("http://127.0.0.1:9/api.groq.com/x", "http://127.0.0.1:9")).toBe("http://127.0.0.1:9/api.groq.com/x");
  });
});

// Router mode (hf_ token) and direct mode (provider key): host and route as 3.13.1 builds them.
const CHAT_8B = "meta-llama/Llama-3.1-8B-Instruct";
const CHAT_ROUTES: Array<{ provider: string; providerId: string; router: string; directHost: string; directPath: string; model?: string }> = [
  { provider: "together", providerId: "meta-llama/Llama-3.3-70B-Instruct-Turbo", router: "/together/v1/chat/completions", directHost: "api.together.xyz", directPath: "/v1/chat/completions" },
  { provider: "groq", providerId: "llama-3.3-70b-versatile", router: "/groq/openai/v1/chat/completions", directHost: "api.groq.com", directPath: "/openai/v1/chat/completions" },
  { provider: "fireworks-ai", providerId: "accounts/fireworks/models/llama-v3p3-70b-instruct", router: "/fireworks-ai/inference/v1/chat/completions", directHost: "api.fireworks.ai", directPath: "/inference/v1/chat/completions" },
  { provider: "nebius", providerId: "meta-llama/Llama-3.3-70B-Instruct-fast", router: "/nebius/v1/chat/completions", directHost: "api.studio.nebius.ai", directPath: "/v1/chat/completions" },
  { provider: "sambanova", providerId: "Meta-Llama-3.3-70B-Instruct", router: "/sambanova/v1/chat/completions", directHost: "api.sambanova.ai", directPath: "/v1/chat/completions" },
  { provider: "cerebras", providerId: "llama-3.3-70b", router: "/cerebras/v1/chat/completions", directHost: "api.cerebras.ai", directPath: "/v1/chat/completions" },
  { provider: "novita", providerId: "meta-llama/llama-3.3-70b-instruct", router: "/novita/v3/openai/chat/completions", directHost: "api.novita.ai", directPath: "/v3/openai/chat/completions" },
  { provider: "hyperbolic", providerId: "meta-llama/Llama-3.3-70B-Instruct", router: "/hyperbolic/v1/chat/completions", directHost: "api.hyperbolic.xyz", directPath: "/v1/chat/completions" },
  { provider: "featherless-ai", providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct", router: "/featherless-ai/v1/chat/completions", directHost: "api.featherless.ai", directPath: "/v1/chat/completions", model: CHAT_8B },
  { provider: "nscale", providerId: CHAT_8B, router: "/nscale/v1/chat/completions", directHost: "inference.api.nscale.com", directPath: "/v1/chat/completions", model: CHAT_8B },
  { provider: "ovhcloud", providerId: "Llama-3.1-8B-Instruct", router: "/ovhcloud/v1/chat/completions", directHost: "oai.endpoints.kepler.ai.cloud.ovh.net", directPath: "/v1/chat/completions", model: CHAT_8B },
  { provider: "hf-inference", providerId: CHAT_MODEL, router: `/hf-inference/models/${CHAT_MODEL}/v1/chat/completions`, directHost: "router.huggingface.co", directPath: `/hf-inference/models/${CHAT_MODEL}/v1/chat/completions` },
];

describe("OpenAI-compatible chat through the router and direct", () => {
  for (const route of CHAT_ROUTES) {
    it(`${route.provider}: chatCompletion with an hf_ token goes through router.huggingface.co${route.router}`, async () => {
      const out = await chatCompletion(
        { accessToken: HF_TOKEN, provider: route.provider as "together", model: route.model ?? CHAT_MODEL, messages: [{ role: "user", content: "What is the capital of France?" }], max_tokens: 64 },
        { fetch: overrideFetch },
      );
      expect(out.choices[0]?.message.content).toBe(`Simulated ${route.provider} reply from ${route.providerId}: you said "What is the capital of France?".`);
      expect(out.model).toBe(route.providerId);
      expect(out.usage.completion_tokens).toBeGreaterThan(0);
      expect(out.usage.total_tokens).toBe(out.usage.prompt_tokens + out.usage.completion_tokens);
      const req = lastProviderRequest();
      expect(req.host).toBe("router.huggingface.co");
      expect(req.path).toBe(route.router);
      expect(req.authorization.tokenKind).toBe("hf-token");
      expect(req.headers["authorization"]).toBe("Bearer REDACTED");
      expect(JSON.stringify(sim.requests)).not.toContain(HF_TOKEN);
      expect(req.bodyJson).toMatchObject({ model: route.providerId, max_tokens: 64, messages: [{ role: "user", content: "What is the capital of France?" }] });
      expect(req.headers["user-agent"]).toBe("@huggingface/inference/3.13.1");
    });

    it(`${route.provider}: chatCompletionStream yields OpenAI chunks whose deltas add up to the non-stream answer`, async () => {
      const messages = [{ role: "user", content: "Stream me a short answer" }];
      const whole = await chatCompletion({ accessToken: HF_TOKEN, provider: route.provider as "together", model: route.model ?? CHAT_MODEL, messages }, { fetch: overrideFetch });
      let text = "";
      let finish: string | null | undefined;
      let chunks = 0;
      for await (const chunk of chatCompletionStream({ accessToken: HF_TOKEN, provider: route.provider as "together", model: route.model ?? CHAT_MODEL, messages }, { fetch: overrideFetch })) {
        chunks++;
        expect(chunk.object).toBe("chat.completion.chunk");
        text += chunk.choices[0]?.delta.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(text).toBe(whole.choices[0]?.message.content);
      expect(finish).toBe("stop");
      expect(chunks).toBeGreaterThan(3);
      expect(lastProviderRequest().bodyJson).toMatchObject({ stream: true, model: route.providerId });
    });
  }

  for (const route of CHAT_ROUTES.filter((r) => r.provider !== "hf-inference")) {
    it(`${route.provider}: a provider key goes straight to https://${route.directHost}${route.directPath}`, async () => {
      const out = await chatCompletion(
        { accessToken: "sk-provider-key", provider: route.provider as "together", model: route.model ?? CHAT_MODEL, messages: [{ role: "user", content: "Hello" }] },
        { fetch: overrideFetch },
      );
      expect(out.choices[0]?.message.role).toBe("assistant");
      const req = lastProviderRequest();
      expect(req.host).toBe(route.directHost);
      expect(req.path).toBe(route.directPath);
      expect(req.authorization).toEqual({ scheme: "Bearer", tokenKind: "provider-key" });
    });
  }

  it("cohere: routes to /cohere/compatibility/v1/chat/completions and direct to api.cohere.com", async () => {
    const model = "CohereLabs/c4ai-command-r-plus";
    const viaRouter = await chatCompletion({ accessToken: HF_TOKEN, provider: "cohere", model, messages: [{ role: "user", content: "Bonjour" }] }, { fetch: overrideFetch });
    expect(viaRouter.choices[0]?.message.content).toContain("command-r-plus-04-2024");
    expect(lastProviderRequest().path).toBe("/cohere/compatibility/v1/chat/completions");
    let streamed = "";
    for await (const c of chatCompletionStream({ accessToken: "co-key", provider: "cohere", model, messages: [{ role: "user", content: "Bonjour" }] }, { fetch: overrideFetch })) {
      streamed += c.choices[0]?.delta.content ?? "";
    }
    expect(streamed).toBe(viaRouter.choices[0]?.message.content);
    expect(lastProviderRequest().originalUrl).toBe("https://api.cohere.com/compatibility/v1/chat/completions");
  });

  it("max_tokens caps the reply and reports finish_reason length", async () => {
    const out = await chatCompletion({ accessToken: HF_TOKEN, provider: "together", model: CHAT_MODEL, messages: [{ role: "user", content: "Tell me everything" }], max_tokens: 3 }, { fetch: overrideFetch });
    expect(out.usage.completion_tokens).toBe(3);
    expect(out.choices[0]?.finish_reason).toBe("length");
  });

  it("together and nebius answers carry no system_fingerprint, others do", async () => {
    const together = await chatCompletion({ accessToken: HF_TOKEN, provider: "together", model: CHAT_MODEL, messages: [{ role: "user", content: "x" }] }, { fetch: overrideFetch });
    const groq = await chatCompletion({ accessToken: HF_TOKEN, provider: "groq", model: CHAT_MODEL, messages: [{ role: "user", content: "x" }] }, { fetch: overrideFetch });
    expect(together.system_fingerprint).toBeUndefined();
    expect(typeof groq.system_fingerprint).toBe("string");
  });
});

describe("the Hub API the library calls", () => {
  it("answers /api/models/<id>?expand[]=inferenceProviderMapping from the fixture, once per model (the library caches it)", async () => {
    // A model no other test asks about: the library's cache outlives sim.reset().
    const id = "simulator-test/hub-lookup-once";
    const live = (providerId: string) => ({ status: "live" as const, providerId, task: "conversational" });
    sim.addHubModel({ id, pipeline_tag: "text-generation", tags: ["conversational"], inferenceProviderMapping: { sambanova: live("Meta-Llama-3.1-8B-Instruct"), cerebras: live("llama3.1-8b") } });
    for (const provider of ["sambanova", "cerebras"] as const) {
      await chatCompletion({ accessToken: HF_TOKEN, provider, model: id, messages: [{ role: "user", content: "x" }] }, { fetch: overrideFetch });
    }
    const hub = upstream("huggingface.co");
    expect(hub.map((r) => r.originalUrl)).toEqual([`https://huggingface.co/api/models/${id}?expand[]=inferenceProviderMapping`]);
    expect(hub[0]?.authorization.tokenKind).toBe("hf-token");
    const direct = await realFetch(`${sim.url}/huggingface.co/api/models/${CHAT_MODEL}?expand[]=inferenceProviderMapping`);
    const body: unknown = await direct.json();
    expect(body).toMatchObject({ id: CHAT_MODEL, inferenceProviderMapping: { together: { providerId: "meta-llama/Llama-3.3-70B-Instruct-Turbo", task: "conversational", status: "live" } } });
    expect(Object.keys(body as object).sort()).toEqual(["_id", "id", "inferenceProviderMapping"]);
  });

  it("an unknown model is a 404, which 3.13.1 reports as 'Model <id> does not exist'", async () => {
    await expect(
      chatCompletion({ accessToken: HF_TOKEN, provider: "together", model: "nobody/no-such-model", messages: [{ role: "user", content: "x" }] }, { fetch: overrideFetch }),
    ).rejects.toThrow("Model nobody/no-such-model does not exist");
  });

  it("a model the provider does not serve fails before any provider request", async () => {
    await expect(
      chatCompletion({ accessToken: HF_TOKEN, provider: "cohere", model: "BAAI/bge-small-en-v1.5", messages: [{ role: "user", content: "x" }] }, { fetch: overrideFetch }),
    ).rejects.toThrow("We have not been able to find inference provider information for model BAAI/bge-small-en-v1.5.");
    expect(sim.requests.every((r) => r.service === "hub")).toBe(true);
  });

  it("provider 'auto' resolves the mapping with the GLOBAL fetch and no token (3.13.1 ignores options.fetch there)", async () => {
    const out = await chatCompletion({ accessToken: HF_TOKEN, provider: "auto", model: "deepseek-ai/DeepSeek-R1", messages: [{ role: "user", content: "x" }] }, { fetch: overrideFetch });
    expect(out.choices[0]?.message.content).toContain("Simulated fireworks-ai reply");
    expect(globalFetchUrls).toContain("https://huggingface.co/api/models/deepseek-ai/DeepSeek-R1?expand[]=inferenceProviderMapping");
  });
});

describe("hf-inference task endpoints", () => {
  const opts = (): { fetch: typeof fetch } => ({ fetch: overrideFetch });

  it("text-classification returns [[{label, score}]] and the library unwraps it", async () => {
    const out = await textClassification({ accessToken: HF_TOKEN, provider: "hf-inference", model: "distilbert/distilbert-base-uncased-finetuned-sst-2-english", inputs: "I like you. I love you" }, opts());
    expect(out[0]?.label).toBe("POSITIVE");
    expect(out.reduce((s, x) => s + x.score, 0)).toBeCloseTo(1, 3);
    expect(lastProviderRequest().originalUrl).toBe("https://router.huggingface.co/hf-inference/models/distilbert/distilbert-base-uncased-finetuned-sst-2-english");
  });

  it("token-classification finds capitalised entities with offsets", async () => {
    const inputs = "My name is Sarah Jessica Parker but you can call me Jessica";
    const out = await tokenClassification({ accessToken: HF_TOKEN, provider: "hf-inference", model: "dslim/bert-base-NER", inputs }, opts());
    expect(out.map((e) => e.word)).toEqual(["My", "Sarah Jessica Parker", "Jessica"]);
    for (const e of out) expect(inputs.slice(e.start ?? 0, e.end ?? 0)).toBe(e.word);
  });

  it("fill-mask fills [MASK] and rejects input without it the way hf-inference does", async () => {
    const out = await fillMask({ accessToken: HF_TOKEN, provider: "hf-inference", model: "google-bert/bert-base-uncased", inputs: "The answer to the universe is [MASK]." }, opts());
    expect(out).toHaveLength(5);
    expect(out[0]?.sequence).toBe(`the answer to the universe is ${out[0]?.token_str}.`);
    await expect(fillMask({ accessToken: HF_TOKEN, provider: "hf-inference", model: "google-bert/bert-base-uncased", inputs: "no mask here" }, opts())).rejects.toThrow(
      '"No mask_token ([MASK]) found on the input"',
    );
  });

  it("question-answering returns one span of the context", async () => {
    const context = "My name is Clara and I live in Berkeley.";
    const out = await questionAnswering({ accessToken: HF_TOKEN, provider: "hf-inference", model: "deepset/roberta-base-squad2", inputs: { question: "Where do I live?", context } }, opts());
    expect(out.answer).toBe("Berkeley");
    expect(context.slice(out.start, out.end)).toBe(out.answer);
  });

  it("summarization returns [{summary_text}]", async () => {
    const out = await summarization({ accessToken: HF_TOKEN, provider: "hf-inference", model: "facebook/bart-large-cnn", inputs: "The tower is 324 metres tall. It was the tallest man-made structure for 41 years." }, opts());
    expect(out.summary_text).toBe("The tower is 324 metres tall.");
  });

  it("feature-extraction posts to /pipeline/feature-extraction and returns vectors", async () => {
    const one = await featureExtraction({ accessToken: HF_TOKEN, provider: "hf-inference", model: "BAAI/bge-small-en-v1.5", inputs: "Today is a sunny day" }, opts());
    expect(one.every((x) => typeof x === "number")).toBe(true);
    expect(lastProviderRequest().path).toBe("/hf-inference/models/BAAI/bge-small-en-v1.5/pipeline/feature-extraction");
    const many = await featureExtraction({ accessToken: HF_TOKEN, provider: "hf-inference", model: "BAAI/bge-small-en-v1.5", inputs: ["a", "b"] }, opts());
    expect(many).toHaveLength(2);
    expect(Array.isArray(many[0])).toBe(true);
  });

  it("image-classification takes raw image bytes (no Content-Type header from the library)", async () => {
    const out = await imageClassification({ accessToken: HF_TOKEN, provider: "hf-inference", model: "google/vit-base-patch16-224", data: new Blob([new Uint8Array(makePng("cat"))]) }, opts());
    expect(out).toHaveLength(5);
    const req = lastProviderRequest();
    expect(req.bodyMedia).toBe("png");
    expect(req.contentType).toBeNull();
  });

  it("text-to-image returns real PNG bytes", async () => {
    const blob = await textToImage({ accessToken: HF_TOKEN, provider: "hf-inference", model: "stabilityai/stable-diffusion-2", inputs: "Astronaut riding a horse" }, opts());
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("png");
    expect(blob.type).toBe("image/png");
  });

  it("automatic-speech-recognition accepts FLAC and WAV bytes and refuses non-audio", async () => {
    const flac = await automaticSpeechRecognition({ accessToken: HF_TOKEN, provider: "hf-inference", model: "openai/whisper-large-v3", inputs: new Blob([new Uint8Array(makeFlac("hello"))]) }, opts());
    expect(flac.text).toMatch(/^Simulated transcript of 0\.51 seconds of flac audio/);
    const wav = await automaticSpeechRecognition({ accessToken: HF_TOKEN, provider: "hf-inference", model: "openai/whisper-large-v3", data: new Blob([new Uint8Array(makeWav("hello"))]) }, opts());
    expect(wav.text).toMatch(/0\.25 seconds of wav audio/);
    await expect(
      automaticSpeechRecognition({ accessToken: HF_TOKEN, provider: "hf-inference", model: "openai/whisper-large-v3", inputs: new Blob(["not audio"]) }, opts()),
    ).rejects.toThrow(/Soundfile is either not in the correct format/);
  });

  it("text-to-audio, which 3.13.1 routes but reaches only through request() with the task named, returns WAV bytes", async () => {
    const id = "facebook/musicgen-small";
    sim.addHubModel({ id, pipeline_tag: "text-to-audio", tags: [], inferenceProviderMapping: { "hf-inference": { status: "live", providerId: id, task: "text-to-audio" } } });
    const blob = await request<Blob>({ accessToken: HF_TOKEN, provider: "hf-inference", model: id, inputs: "a calm piano melody" }, { ...opts(), task: "text-to-audio" });
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("wav");
    expect(lastProviderRequest()).toMatchObject({ path: `/hf-inference/models/${id}`, bodyJson: { inputs: "a calm piano melody" } });
  });
});

describe("replicate predictions", () => {
  it("text-to-image via the router: POST /replicate/v1/models/<owner>/<name>/predictions with Prefer: wait, then fetches output[0]", async () => {
    const blob = await textToImage({ accessToken: HF_TOKEN, provider: "replicate", model: "black-forest-labs/FLUX.1-dev", inputs: "a lighthouse" }, { fetch: overrideFetch });
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("png");
    const req = sim.requests.find((r) => r.method === "POST" && r.provider === "replicate");
    expect(req?.path).toBe("/replicate/v1/models/black-forest-labs/flux-dev/predictions");
    expect(req?.headers["prefer"]).toBe("wait");
    expect(req?.bodyJson).toEqual({ input: { prompt: "a lighthouse" } });
    expect(upstream("replicate.delivery")).toHaveLength(1);
  });

  it("a versioned model id posts to /v1/predictions with the version in the body (direct, provider key)", async () => {
    const blob = await textToSpeech({ accessToken: "r8_key", provider: "replicate", model: "hexgrad/Kokoro-82M", inputs: "Hello there" }, { fetch: overrideFetch });
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("wav");
    const req = sim.requests.find((r) => r.method === "POST" && r.provider === "replicate");
    expect(req?.originalUrl).toBe("https://api.replicate.com/v1/predictions");
    expect(req?.bodyJson).toEqual({ input: { text: "Hello there" }, version: "dfdf537ba482b029e0a761699e6f55e9162cfd159270bfe0e44857caa5f275a6" });
  });

  it("text-to-video returns the mp4 at output", async () => {
    const blob = await textToVideo({ accessToken: HF_TOKEN, provider: "replicate", model: "Lightricks/LTX-Video", inputs: "waves" }, { fetch: overrideFetch });
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("mp4");
  });

  it("without Prefer: wait a prediction starts and is polled at urls.get until it succeeds", async () => {
    const created = await realFetch(`${sim.url}/api.replicate.com/v1/models/black-forest-labs/flux-dev/predictions`, {
      method: "POST",
      headers: { Authorization: "Bearer r8_key", "Content-Type": "application/json" },
      body: JSON.stringify({ input: { prompt: "poll me" } }),
    });
    expect(created.status).toBe(201);
    const prediction = (await created.json()) as { status: string; urls: { get: string } };
    expect(prediction.status).toBe("starting");
    const statuses: string[] = [];
    for (let i = 0; i < 2; i++) {
      const polled = await realFetch(toOverrideUrl(prediction.urls.get, sim.url), { headers: { Authorization: "Bearer r8_key" } });
      statuses.push(((await polled.json()) as { status: string }).status);
    }
    expect(statuses).toEqual(["processing", "succeeded"]);
  });

  it("a Prefer: wait that times out leaves output empty, which 3.13.1 cannot handle (no polling)", async () => {
    sim.scriptFault({ provider: "replicate" }, { kind: "replicate-pending" });
    await expect(textToImage({ accessToken: HF_TOKEN, provider: "replicate", model: "black-forest-labs/FLUX.1-dev", inputs: "slow" }, { fetch: overrideFetch })).rejects.toThrow(
      "Invalid inference output: Expected Replicate text-to-image response format. Use the 'request' method with the same parameters to do a custom call with no type checking.",
    );
  });
});

describe("fal-ai", () => {
  it("text-to-image sends sync_mode: true and gets a data: URL image back", async () => {
    const blob = await textToImage({ accessToken: HF_TOKEN, provider: "fal-ai", model: "black-forest-labs/FLUX.1-dev", inputs: "a fox" }, { fetch: overrideFetch });
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("png");
    const req = lastProviderRequest();
    expect(req.originalUrl).toBe("https://router.huggingface.co/fal-ai/fal-ai/flux/dev");
    expect(req.bodyJson).toEqual({ sync_mode: true, prompt: "a fox" });
  });

  it("direct to fal.run uses 'Authorization: Key <key>'; 3.13.1 forces sync_mode: true even when parameters say false", async () => {
    const blob = await textToImage(
      { accessToken: "fal-key", provider: "fal-ai", model: "black-forest-labs/FLUX.1-dev", inputs: "a fox", parameters: { sync_mode: false } },
      { fetch: overrideFetch },
    );
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("png");
    const req = sim.requests.find((r) => r.host === "fal.run");
    expect(req?.authorization).toEqual({ scheme: "Key", tokenKind: "provider-key" });
    expect(req?.bodyJson).toEqual({ sync_mode: true, prompt: "a fox" });
  });

  it("without sync_mode fal answers with a CDN image URL that is served by the simulator", async () => {
    const res = await realFetch(`${sim.url}/fal.run/fal-ai/flux/dev`, {
      method: "POST",
      headers: { Authorization: "Key fal-key", "Content-Type": "application/json" },
      body: JSON.stringify({ prompt: "a fox" }),
    });
    const { images } = (await res.json()) as { images: Array<{ url: string; content_type: string }> };
    expect(images[0]?.url).toMatch(/\/v3\.fal\.media\/files\/sim\/sim-[0-9a-f]+\/image\.png$/);
    const image = await realFetch(images[0]?.url ?? "");
    expect(sniffMedia(new Uint8Array(await image.arrayBuffer()))).toBe("png");
  });

  it("text-to-video runs the queue flow: submit, poll status, fetch result, fetch the video (router)", async () => {
    const blob = await textToVideo({ accessToken: HF_TOKEN, provider: "fal-ai", model: "Lightricks/LTX-Video", inputs: "a cat surfing" }, { fetch: overrideFetch });
    expect(sniffMedia(new Uint8Array(await blob.arrayBuffer()))).toBe("mp4");
    const fal = sim.requests.filter((r) => r.provider === "fal-ai").map((r) => `${r.method} ${r.path}${r.query}`);
    expect(fal[0]).toBe("POST /fal-ai/fal-ai/ltx-video?_subdomain=queue");
    expect(fal[1]).toMatch(/^GET \/fal-ai\/fal-ai\/ltx-video\/requests\/sim-[0-9a-f]+\/status\?_subdomain=queue$/);
    expect(fal[2]).toMatch(/^GET \/fal-ai\/fal-ai\/ltx-video\/requests\/sim-[0-9a-f]+\?_subdomain=queue$/);
    // The status and result polls use the global fetch, not options.fetch.
    expect(globalFetchUrls.some((u) => u.startsWith("https://router.huggingface.co/fal-ai/fal-ai/ltx-video/requests/"))).toBe(true);
  });

  it("text-to-video direct goes to queue.fal.run with the Key header on every poll", async () => {
    await textToVideo({ accessToken: "fal-key", provider: "fal-ai", model: "Lightricks/LTX-Video", inputs: "rain" }, { fetch: overrideFetch });
    const queue = upstream("queue.fal.run");
    expect(queue.map((r) => r.method)).toEqual(["POST", "GET", "GET"]);
    expect(queue.every((r) => r.authorization.scheme === "Key")).toBe(true);
  });

  it("automatic-speech-recognition: the library sends the audio as a data: audio_url", async () => {
    const out = await automaticSpeechRecognition(
      { accessToken: HF_TOKEN, provider: "fal-ai", model: "openai/whisper-large-v3", inputs: new Blob([new Uint8Array(makeWav("speech"))], { type: "audio/wav" }) },
      { fetch: overrideFetch },
    );
    expect(out.text).toMatch(/0\.25 seconds of wav audio/);
    const body = lastProviderRequest().bodyJson as { audio_url: string };
    expect(body.audio_url.startsWith("data:audio/wav;base64,")).toBe(true);
  });

  it("automatic-speech-recognition fetches an http audio_url (mapped to the simulator, never the network)", async () => {
    const tts = await realFetch(`${sim.url}/api.replicate.com/v1/predictions`, {
      method: "POST",
      headers: { Authorization: "Bearer r8_key", "Content-Type": "application/json", Prefer: "wait" },
      body: JSON.stringify({ version: "dfdf537ba482b029e0a761699e6f55e9162cfd159270bfe0e44857caa5f275a6", input: { text: "fetch me" } }),
    });
    const { output } = (await tts.json()) as { output: string };
    const realHostUrl = `https://${output.slice(sim.url.length + 1)}`;
    const res = await realFetch(`${sim.url}/fal.run/fal-ai/whisper`, {
      method: "POST",
      headers: { Authorization: "Key fal-key", "Content-Type": "application/json" },
      body: JSON.stringify({ audio_url: realHostUrl }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { text: string }).text).toMatch(/wav audio/);
    expect(upstream("replicate.delivery").map((r) => r.path)).toHaveLength(1);
  });

  it("a blob type fal does not accept is refused by the library before any request", async () => {
    await expect(
      automaticSpeechRecognition({ accessToken: HF_TOKEN, provider: "fal-ai", model: "openai/whisper-large-v3", inputs: new Blob([new Uint8Array(makeFlac("x"))], { type: "audio/flac" }) }, { fetch: overrideFetch }),
    ).rejects.toThrow("Provider fal-ai does not support blob type audio/flac - supported content types are: audio/mpeg, audio/mp4, audio/wav, audio/x-wav");
  });
});

describe("black-forest-labs", () => {
  const FLUX = "black-forest-labs/FLUX.1-dev";

  it("text-to-image via the router: POST /black-forest-labs/v1/flux-dev answers a polling URL, polled without a key until Ready, then the JPEG sample is downloaded", async () => {
    const blob = await textToImage({ accessToken: HF_TOKEN, provider: "black-forest-labs", model: FLUX, inputs: "a red fox", parameters: { width: 512 } }, { fetch: overrideFetch });
    const bytes = Buffer.from(await blob.arrayBuffer());
    expect(sniffMedia(bytes)).toBe("jpeg");
    expect(bytes.equals(makeJpeg("a red fox"))).toBe(true);
    const [submit, ...rest] = sim.requests;
    expect(`${submit?.method} ${submit?.originalUrl}`).toBe("POST https://router.huggingface.co/black-forest-labs/v1/flux-dev");
    expect(submit?.authorization).toEqual({ scheme: "Bearer", tokenKind: "hf-token" });
    expect(submit?.bodyJson).toEqual({ width: 512, prompt: "a red fox" });
    // Two Pending answers, then Ready: three polls, each with its attempt number and no credential.
    const polls = rest.filter((r) => r.path === "/v1/get_result");
    expect(polls.map((r) => `${r.method} ${r.host} attempt=${new URLSearchParams(r.query).get("attempt")}`)).toEqual([0, 1, 2].map((n) => `GET api.us1.bfl.ai attempt=${n}`));
    expect(polls.every((r) => r.authorization.tokenKind === "none" && r.responseStatus === 200)).toBe(true);
    expect(rest.at(-1)?.host).toBe("delivery-us1.bfl.ai");
    expect(rest.at(-1)?.path).toMatch(/^\/results\/[0-9a-f]{2}\/[0-9a-f-]{36}\/sample\.jpeg$/);
    // The polls and the download use the global fetch, not options.fetch.
    expect(globalFetchUrls.filter((u) => u.includes("/api.us1.bfl.ai/v1/get_result?id="))).toHaveLength(3);
  });

  it("direct with a provider key: 'Authorization: X-Key <key>' to api.us1.bfl.ai; output_format png gives a PNG; outputType url gives the sample URL", async () => {
    const url = await textToImage({ accessToken: "bfl-key", provider: "black-forest-labs", model: FLUX, inputs: "a lighthouse", parameters: { output_format: "png" } }, { fetch: overrideFetch, outputType: "url" });
    const submit = sim.requests[0];
    expect(submit?.originalUrl).toBe("https://api.us1.bfl.ai/v1/flux-dev");
    expect(submit?.authorization).toEqual({ scheme: "X-Key", tokenKind: "provider-key" });
    expect(url).toMatch(/\/delivery-us1\.bfl\.ai\/results\/.+\/sample\.png\?se=.+&sig=simulated$/);
    const image = await realFetch(url);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(sniffMedia(new Uint8Array(await image.arrayBuffer()))).toBe("png");
  });

  it("the API itself: a key in x-key or Authorization: X-Key, none refused; unknown models 404; a missing prompt 422; an unknown id is 'Task not found'", async () => {
    const post = (headers: Record<string, string>, body: unknown, model = "flux-dev") =>
      realFetch(`${sim.url}/api.us1.bfl.ai/v1/${model}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
    const viaHeader = await post({ "x-key": "bfl-key" }, { prompt: "x" });
    expect(viaHeader.status).toBe(200);
    expect(Object.keys((await viaHeader.json()) as object)).toEqual(["id", "polling_url"]);
    expect(sim.requests.at(-1)?.headers["x-key"]).toBe("REDACTED");
    expect((await post({}, { prompt: "x" })).status).toBe(401);
    expect((await post({ Authorization: "Bearer bfl-key" }, { prompt: "x" })).status).toBe(401);
    expect(await (await post({ Authorization: "X-Key bfl-key" }, { prompt: "x" }, "flux-nonexistent")).json()).toEqual({ detail: "Not Found" });
    const missing = await post({ Authorization: "X-Key bfl-key" }, { width: 512 });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({ detail: [{ loc: ["body", "prompt"], msg: "Field required", type: "missing" }] });
    const unknown = await realFetch(`${sim.url}/api.us1.bfl.ai/v1/get_result?id=nope`);
    expect(await unknown.json()).toMatchObject({ id: "nope", status: "Task not found", result: null });
  });

  it("a result that never gets Ready: 3.13.1 gives up after five polls", async () => {
    sim.scriptFault({ path: "/v1/get_result" }, { kind: "wrong-shape", body: { id: "x", status: "Pending", result: null }, times: "forever" });
    await expect(textToImage({ accessToken: HF_TOKEN, provider: "black-forest-labs", model: FLUX, inputs: "slow" }, { fetch: overrideFetch })).rejects.toThrow(
      "Invalid inference output: Failed to fetch result from black forest labs API. Use the 'request' method with the same parameters to do a custom call with no type checking.",
    );
    expect(upstream("api.us1.bfl.ai").map((r) => r.query)).toEqual([0, 1, 2, 3, 4].map((n) => expect.stringMatching(new RegExp(`&attempt=${n}$`)) as unknown));
  });
});

describe("scripted faults and the errors 3.13.1 raises for them", () => {
  const chat = (provider: string, extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) =>
    chatCompletion({ accessToken: HF_TOKEN, provider: provider as "together", model: CHAT_MODEL, messages: [{ role: "user", content: "hi" }], ...extra }, { fetch: overrideFetch, ...options });

  const collect = async (provider: string, options: Record<string, unknown> = {}): Promise<string> => {
    let text = "";
    for await (const c of chatCompletionStream({ accessToken: HF_TOKEN, provider: provider as "together", model: CHAT_MODEL, messages: [{ role: "user", content: "one two three four five" }] }, { fetch: overrideFetch, ...options })) {
      text += c.choices[0]?.delta.content ?? "";
    }
    return text;
  };

  it("a 503 burst is retried by the library (immediately, no backoff) and then succeeds", async () => {
    sim.scriptFault({ provider: "hf-inference", path: "/pipeline/feature-extraction" }, { kind: "loading", times: 3, estimatedTime: 12 });
    const out = await featureExtraction({ accessToken: HF_TOKEN, provider: "hf-inference", model: "BAAI/bge-small-en-v1.5", inputs: "x" }, { fetch: overrideFetch });
    expect(out.length).toBeGreaterThan(0);
    const calls = sim.requests.filter((r) => r.provider === "hf-inference");
    expect(calls.map((r) => r.responseStatus)).toEqual([503, 503, 503, 200]);
  });

  it("a 503 that never ends: with retry_on_error false the loading error surfaces as a JSON-quoted string", async () => {
    sim.scriptFault({ provider: "hf-inference" }, { kind: "loading", times: "forever" });
    await expect(
      textClassification({ accessToken: HF_TOKEN, provider: "hf-inference", model: "distilbert/distilbert-base-uncased-finetuned-sst-2-english", inputs: "x" }, { fetch: overrideFetch, retry_on_error: false }),
    ).rejects.toThrow('"Model distilbert/distilbert-base-uncased-finetuned-sst-2-english is currently loading"');
  });

  it("a 503 that never ends: with the default retry the library loops until the caller aborts", async () => {
    sim.scriptFault({ provider: "hf-inference" }, { kind: "loading", times: "forever" });
    const controller = new AbortController();
    const watcher = setInterval(() => {
      if (sim.requests.filter((r) => r.provider === "hf-inference").length >= 25) controller.abort();
    }, 5);
    try {
      await expect(
        textClassification({ accessToken: HF_TOKEN, provider: "hf-inference", model: "distilbert/distilbert-base-uncased-finetuned-sst-2-english", inputs: "x" }, { fetch: overrideFetch, signal: controller.signal }),
      ).rejects.toMatchObject({ name: "AbortError" });
    } finally {
      clearInterval(watcher);
    }
    expect(sim.requests.filter((r) => r.provider === "hf-inference").length).toBeGreaterThanOrEqual(25);
  });

  it("error bodies in each provider's style become these messages (non-streaming)", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 400, message: "Input validation error" });
    await expect(chat("together")).rejects.toThrow('{"message":"Input validation error","type":"invalid_request_error","param":null,"code":null}');

    sim.scriptFault({ provider: "hf-inference" }, { kind: "error", status: 400, message: "Bad input" });
    await expect(chat("hf-inference")).rejects.toThrow('"Bad input"');

    sim.scriptFault({ provider: "replicate" }, { kind: "error", status: 422, message: "Invalid input" });
    await expect(textToImage({ accessToken: HF_TOKEN, provider: "replicate", model: "black-forest-labs/FLUX.1-dev", inputs: "x" }, { fetch: overrideFetch })).rejects.toThrow('"Invalid input"');

    sim.scriptFault({ provider: "fal-ai" }, { kind: "error", status: 422, message: "Bad prompt" });
    await expect(textToImage({ accessToken: HF_TOKEN, provider: "fal-ai", model: "black-forest-labs/FLUX.1-dev", inputs: "x" }, { fetch: overrideFetch })).rejects.toThrow('"Bad prompt"');

    sim.scriptFault({ provider: "sambanova" }, { kind: "error", status: 429, message: "Rate limit", style: "message" });
    await expect(chat("sambanova")).rejects.toThrow("[object Object]");

    sim.scriptFault({ provider: "groq" }, { kind: "error", status: 502, message: "upstream gateway broke", style: "text" });
    await expect(chat("groq")).rejects.toThrow("upstream gateway broke");
  });

  it("an HTML error page (neither JSON nor text/plain) gives 'An error occurred while fetching the blob'", async () => {
    sim.scriptFault({ provider: "nebius" }, { kind: "error", status: 502, style: "html", message: "Bad Gateway" });
    await expect(chat("nebius")).rejects.toThrow(/^An error occurred while fetching the blob$/);
  });

  it("error bodies in each provider's style become these messages (streaming)", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "error", status: 400, message: "Bad messages" });
    await expect(collect("together")).rejects.toThrow(/^Bad messages$/);
    sim.scriptFault({ provider: "hf-inference" }, { kind: "error", status: 400, message: "Bad hf input" });
    await expect(collect("hf-inference")).rejects.toThrow(/^Bad hf input$/);
    sim.scriptFault({ provider: "sambanova" }, { kind: "error", status: 401, message: "Bad key", style: "message" });
    await expect(collect("sambanova")).rejects.toThrow(/^Bad key$/);
    sim.scriptFault({ provider: "groq" }, { kind: "error", status: 500, message: "plain", style: "text" });
    await expect(collect("groq")).rejects.toThrow(/^Server response contains error: 500$/);
  });

  it("a wrong content type on a stream", async () => {
    sim.scriptFault({ provider: "fireworks-ai" }, { kind: "wrong-content-type" });
    await expect(collect("fireworks-ai")).rejects.toThrow("Server does not support event stream content type, it returned application/json");
  });

  it("an error mid-stream, after some chunks were delivered", async () => {
    sim.scriptFault({ provider: "novita" }, { kind: "mid-stream-error", afterChunks: 2, message: "GPU fell over" });
    let received = "";
    await expect(
      (async () => {
        for await (const c of chatCompletionStream({ accessToken: HF_TOKEN, provider: "novita", model: CHAT_MODEL, messages: [{ role: "user", content: "go" }] }, { fetch: overrideFetch })) {
          received += c.choices[0]?.delta.content ?? "";
        }
      })(),
    ).rejects.toThrow("Error forwarded from backend: GPU fell over");
    expect(received).toBe("Simulated novita ");
    sim.scriptFault({ provider: "hf-inference" }, { kind: "mid-stream-error", afterChunks: 0, message: "TGI error" });
    await expect(collect("hf-inference")).rejects.toThrow("Error forwarded from backend: TGI error");
  });

  it("slow tokens: a caller deadline cuts the stream part-way", async () => {
    sim.scriptFault({ provider: "cerebras" }, { kind: "slow", tokenDelayMs: 400 });
    let chunks = 0;
    await expect(
      (async () => {
        for await (const c of chatCompletionStream({ accessToken: HF_TOKEN, provider: "cerebras", model: CHAT_MODEL, messages: [{ role: "user", content: "go" }] }, { fetch: overrideFetch, signal: AbortSignal.timeout(1000) })) {
          if (c.choices[0]?.delta.content) chunks++;
        }
      })(),
    ).rejects.toMatchObject({ name: "TimeoutError" });
    expect(chunks).toBeGreaterThan(0);
    expect(chunks).toBeLessThan(8);
    expect(sim.requests.at(-1)?.faultApplied).toBe("slow");
  });

  it("a dropped connection before the response: undici's 'fetch failed'", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "drop" });
    await expect(chat("together")).rejects.toThrow("fetch failed");
    expect(sim.requests.at(-1)?.dropped).toBe(true);
  });

  it("a dropped connection mid-stream: 'terminated'", async () => {
    sim.scriptFault({ provider: "groq" }, { kind: "drop", afterChunks: 2 });
    await expect(collect("groq")).rejects.toThrow("terminated");
  });

  it("a dropped connection mid-body on a JSON answer", async () => {
    sim.scriptFault({ provider: "together" }, { kind: "drop", when: "mid-body" });
    await expect(chat("together")).rejects.toThrow("terminated");
  });

  it("no access token: 3.13.1 sends 'Bearer undefined' and the router refuses it", async () => {
    await expect(
      chatCompletion({ provider: "together", model: CHAT_MODEL, messages: [{ role: "user", content: "hi" }] }, { fetch: overrideFetch }),
    ).rejects.toThrow('"Invalid credentials in Authorization header"');
    expect(lastProviderRequest().authorization).toEqual({ scheme: "Bearer", tokenKind: "missing" });
  });

  it("faults match by model and count down", async () => {
    sim.scriptFault({ model: "llama-3.3-70b-versatile" }, { kind: "error", status: 429, times: 2 });
    await expect(chat("together")).resolves.toBeDefined();
    await expect(chat("groq")).rejects.toThrow("Rate limit reached (simulated fault)");
    await expect(chat("groq")).rejects.toThrow("Rate limit reached (simulated fault)");
    await expect(chat("groq")).resolves.toBeDefined();
  });
});

describe("control API over HTTP", () => {
  it("scripts faults, lists requests and resets, with 400s for bad input", async () => {
    const bad = await realFetch(`${sim.url}/__simulator/faults`, { method: "POST", body: JSON.stringify({ match: {}, fault: { kind: "explode" } }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain("kind");
    const notJson = await realFetch(`${sim.url}/__simulator/faults`, { method: "POST", body: "{" });
    expect(notJson.status).toBe(400);
    const ok = await realFetch(`${sim.url}/__simulator/faults`, {
      method: "POST",
      body: JSON.stringify({ match: { host: "api.together.xyz" }, fault: { kind: "error", status: 401, message: "Invalid API key" } }),
    });
    expect(ok.status).toBe(201);
    await expect(
      chatCompletion({ accessToken: "together-key", provider: "together", model: CHAT_MODEL, messages: [{ role: "user", content: "hi" }] }, { fetch: overrideFetch }),
    ).rejects.toThrow('"message":"Invalid API key","type":"authentication_error"');
    const listed = (await (await realFetch(`${sim.url}/__simulator/requests`)).json()) as { requests: RecordedRequest[] };
    expect(listed.requests.some((r) => r.host === "api.together.xyz" && r.responseStatus === 401 && r.faultApplied === "error")).toBe(true);
    expect((await realFetch(`${sim.url}/__simulator/reset`, { method: "POST" })).status).toBe(200);
    expect(((await (await realFetch(`${sim.url}/__simulator/requests`)).json()) as { requests: unknown[] }).requests).toEqual([]);
    expect((await realFetch(`${sim.url}/__simulator/nope`)).status).toBe(404);
    expect((await realFetch(`${sim.url}/not-a-host/path`)).status).toBe(404);
  });

  it("adds Hub models at runtime", async () => {
    const res = await realFetch(`${sim.url}/__simulator/hub-models`, {
      method: "POST",
      body: JSON.stringify({ id: "acme/tiny-chat", pipeline_tag: "text-generation", tags: ["conversational"], inferenceProviderMapping: { groq: { status: "live", providerId: "acme-tiny", task: "conversational" } } }),
    });
    expect(res.status).toBe(201);
    const out = await chatCompletion({ accessToken: HF_TOKEN, provider: "groq", model: "acme/tiny-chat", messages: [{ role: "user", content: "hi" }] }, { fetch: overrideFetch });
    expect(out.model).toBe("acme-tiny");
  });

  it("refuses an hf_ token sent straight to a provider host and a provider key sent to the router", async () => {
    const direct = await realFetch(`${sim.url}/api.groq.com/openai/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${HF_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: "x", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(direct.status).toBe(401);
    expect(await direct.json()).toMatchObject({ error: { type: "authentication_error" } });
    const router = await realFetch(`${sim.url}/router.huggingface.co/groq/openai/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer gsk_key", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "x", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(router.status).toBe(401);
    expect(await router.json()).toEqual({ error: "Invalid credentials in Authorization header" });
  });

  it("bad chat payloads get a provider-style 400, not a 500", async () => {
    const res = await realFetch(`${sim.url}/api.together.xyz/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer key", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "m", messages: "nope" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});

describe("asset URLs in real-host form", () => {
  it("are https URLs on the providers' CDN hosts that a client must rewrite itself", async () => {
    const own = await startProviderSimulator({ assetUrls: "real-host" });
    try {
      const res = await realFetch(`${own.url}/api.replicate.com/v1/models/black-forest-labs/flux-dev/predictions`, {
        method: "POST",
        headers: { Authorization: "Bearer r8_key", "Content-Type": "application/json", Prefer: "wait" },
        body: JSON.stringify({ input: { prompt: "x" } }),
      });
      const { output } = (await res.json()) as { output: string[] };
      expect(output[0]).toMatch(/^https:\/\/replicate\.delivery\/xezq\/sim[0-9a-f]+\/out-0\.png$/);
      const image = await realFetch(toOverrideUrl(output[0] ?? "", own.url));
      expect(image.headers.get("content-type")).toBe("image/png");
    } finally {
      await own.close();
    }
  });
});

describe("hf-inference: zero-shot, table question answering, streamed text generation", () => {
  const hfModel = (id: string, task: string) => ({ id, pipeline_tag: task, tags: [], inferenceProviderMapping: { "hf-inference": { status: "live" as const, providerId: id, task } } });
  const opts = (): { fetch: typeof fetch } => ({ fetch: overrideFetch });

  it("zero-shot scores every candidate label, in the {sequence, labels, scores} shape 3.13.1 checks", async () => {
    sim.addHubModel(hfModel("facebook/bart-large-mnli", "zero-shot-classification"));
    const out = await zeroShotClassification({ accessToken: HF_TOKEN, provider: "hf-inference", model: "facebook/bart-large-mnli", inputs: "Dune is the best movie ever.", parameters: { candidate_labels: ["music", "movie", "art"] } }, opts());
    const first = out[0] as unknown as { labels: string[]; scores: number[]; sequence: string };
    expect(first.labels[0]).toBe("movie");
    expect(first.labels.toSorted()).toEqual(["art", "movie", "music"]);
    expect(first.scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
    await expect(zeroShotClassification({ accessToken: HF_TOKEN, provider: "hf-inference", model: "facebook/bart-large-mnli", inputs: "x", parameters: { candidate_labels: [] } }, opts())).rejects.toThrow(/candidate_labels/);
  });

  it("table question answering answers the cell the query names", async () => {
    sim.addHubModel(hfModel("google/tapas-base-finetuned-wtq", "table-question-answering"));
    const table = { Name: ["Ric Flair", "Harley Race"], "No.of reigns": ["8", "7"] };
    // hf-inference's table pipeline reads `query`; 3.13.1's type names it `question` and sends whatever it is given.
    const inputs = { query: "What is the number of reigns for Harley Race?", table } as unknown as Parameters<typeof tableQuestionAnswering>[0]["inputs"];
    const out = await tableQuestionAnswering({ accessToken: HF_TOKEN, provider: "hf-inference", model: "google/tapas-base-finetuned-wtq", inputs }, opts());
    expect(out).toEqual({ answer: "7", coordinates: [[1, 1]], cells: ["7"], aggregator: "NONE" });
  });

  it("text generation streams TGI events when asked to", async () => {
    sim.addHubModel(hfModel("openai-community/gpt2", "text-generation"));
    let text = "";
    let final: string | null = null;
    for await (const chunk of textGenerationStream({ accessToken: HF_TOKEN, provider: "hf-inference", model: "openai-community/gpt2", inputs: "Once upon a time," }, opts())) {
      text += chunk.token.text;
      if (chunk.generated_text) final = chunk.generated_text;
    }
    expect(text).toMatch(/^ and the simulated model continues \(\w{6}\)\.$/);
    expect(final).toBe(text);
  });

  it("text generation says why it stopped only when asked with details: true, whole or streamed, as TGI does", async () => {
    sim.addHubModel(hfModel("openai-community/gpt2", "text-generation"));
    const args = { accessToken: HF_TOKEN, provider: "hf-inference" as const, model: "openai-community/gpt2", inputs: "Once upon a time," };
    expect(await textGeneration({ ...args, parameters: { max_new_tokens: 2 } }, opts())).not.toHaveProperty("details");
    const whole = await textGeneration({ ...args, parameters: { max_new_tokens: 2, details: true } }, opts());
    expect(whole.details).toMatchObject({ finish_reason: "length", generated_tokens: 2, prefill: [] });
    expect(whole.details?.tokens.map((t) => t.text).join("")).toBe(" and the");
    expect((await textGeneration({ ...args, parameters: { details: true } }, opts())).details?.finish_reason).toBe("eos_token");
    const lastDetails = async (parameters: Record<string, unknown>) => {
      let last: unknown = undefined;
      for await (const chunk of textGenerationStream({ ...args, parameters }, opts())) last = chunk.details;
      return last;
    };
    expect(await lastDetails({ max_new_tokens: 2 })).toBeNull();
    expect(await lastDetails({ max_new_tokens: 2, details: true })).toEqual({ finish_reason: "length", generated_tokens: 2, seed: null, input_length: 4 });
  });
});
