import { describe, expect, it } from "vitest";
import type { StreamSummary } from "#app/inference/stream.server.ts";
import { chatStreamEncoder, completionFinishReason, completionStreamEncoder, v1Answer } from "#app/openai-api/v1-answers.server.ts";
import type { V1Kind, V1Request } from "#app/openai-api/v1-bodies.server.ts";
import { makeFlac, makeWav } from "#tests/simulators/media.ts";

const request = (kind: V1Kind, extra: Partial<V1Request> = {}): V1Request => ({
  kind,
  ref: { kind: "catalogue", id: "org/model", choice: { kind: "policy" } },
  parsed: { body: { model: "org/model" }, file: null },
  stream: false,
  includeUsage: false,
  encoding: "float",
  transcriptFormat: "json",
  inputCount: 1,
  speechFormat: null,
  ...extra,
});

async function json(kind: V1Kind, output: unknown): Promise<Record<string, unknown>> {
  const answer = await v1Answer(request(kind), output, null, "org/model:together", "req-1");
  if (answer.kind !== "json") throw new Error("expected a JSON answer");
  return JSON.parse(answer.body) as Record<string, unknown>;
}

/** An Ogg page whose first packet is `head` ("OpusHead" or "\x01vorbis"), as an encoder writes it. */
function oggWith(head: string): Blob {
  const page = Buffer.alloc(64);
  page.write("OggS", 0, "latin1");
  page.write(head, 28, "latin1");
  return new Blob([new Uint8Array(page)], { type: "audio/ogg" });
}

describe("chat answers", () => {
  it("keep OpenAI's required fields valid whatever the provider sent, and the provider's when they are", async () => {
    const odd = await json("chat", { id: null, object: "text_completion", created: "yesterday", model: "upstream-name", choices: [{ index: 0, message: { role: "assistant", content: "hi" } }], usage: { prompt_tokens: 1 } });
    expect(odd).toMatchObject({ id: "chatcmpl-req-1", object: "chat.completion", model: "org/model:together", usage: { prompt_tokens: 1 } });
    expect(odd["created"]).toBeGreaterThan(1_700_000_000);
    const kept = await json("chat", { id: "chatcmpl-abc", object: "chat.completion", created: 1_700_000_123, choices: [] });
    expect(kept).toMatchObject({ id: "chatcmpl-abc", created: 1_700_000_123 });
  });

  it("stream chunks with the same valid id and time throughout, the provider's once it sends one", () => {
    const encoder = chatStreamEncoder(request("chat", { stream: true }), "org/model:together", "req-1");
    const sent = (raw: unknown) => JSON.parse(encoder.chunk({ kind: "chat", delta: "", finishReason: null, usage: null, model: null, raw }, 0).slice("data: ".length)) as Record<string, unknown>;
    const first = sent({ id: null, object: "odd", created: null, choices: [{ index: 0, delta: { content: "a" } }] });
    expect(first).toMatchObject({ id: "chatcmpl-req-1", object: "chat.completion.chunk", model: "org/model:together" });
    expect(typeof first["created"]).toBe("number");
    expect(sent({ id: "chatcmpl-up", created: 1_700_000_000, choices: [{ index: 0, delta: { content: "b" } }] })).toMatchObject({ id: "chatcmpl-up", created: 1_700_000_000 });
  });
});

describe("text completions", () => {
  it("say why TGI stopped, in OpenAI's words, and 'stop' when the provider said nothing", async () => {
    const choice = async (output: unknown) => ((await json("completions", output))["choices"] as Array<Record<string, unknown>>)[0];
    expect(await choice({ generated_text: "x", details: { finish_reason: "length", generated_tokens: 3 } })).toMatchObject({ text: "x", finish_reason: "length" });
    expect(await choice({ generated_text: "x", details: { finish_reason: "eos_token" } })).toMatchObject({ finish_reason: "stop" });
    expect(await choice({ generated_text: "x", details: { finish_reason: "stop_sequence" } })).toMatchObject({ finish_reason: "stop" });
    expect(await choice({ generated_text: "x" })).toMatchObject({ finish_reason: "stop" });
    expect(completionFinishReason("content_filter")).toBe("content_filter");
    expect(completionFinishReason(null)).toBe("stop");
  });

  it("carry usage only as the provider counted it", async () => {
    expect(await json("completions", { generated_text: "x", usage: { prompt_tokens: 4, completion_tokens: 2 } })).toMatchObject({ usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } });
    expect(await json("completions", { generated_text: "x" })).not.toHaveProperty("usage");
    // Half a count is not OpenAI's usage: left out rather than filled in.
    expect(await json("completions", { generated_text: "x", usage: { completion_tokens: 2 } })).not.toHaveProperty("usage");
  });

  it("end a stream with the provider's usage only when it counted both sides", () => {
    const encoder = completionStreamEncoder(request("completions", { stream: true, includeUsage: true }), "org/model:hf-inference", "req-1");
    const usageOf = (usage: StreamSummary["usage"]) => {
      const summary: StreamSummary = { content: "x", finishReason: "length", usage, timing: { timeToFirstTokenMs: 1, totalMs: 2, tokensPerSecond: null }, provider: "hf-inference", model: "org/model" };
      const first = encoder.end(summary).split("\n\n")[0] ?? "";
      return (JSON.parse(first.slice("data: ".length)) as { usage: unknown }).usage;
    };
    expect(usageOf({ promptTokens: 4, completionTokens: 3, totalTokens: null, source: "provider" })).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    // TGI's details give the generated tokens; with no prompt count that is not OpenAI's usage.
    expect(usageOf({ promptTokens: null, completionTokens: 3, totalTokens: null, source: "provider" })).toBeNull();
    expect(usageOf({ promptTokens: null, completionTokens: 3, totalTokens: null, source: "counted" })).toBeNull();
  });
});

describe("speech", () => {
  const speak = (blob: Blob, speechFormat: V1Request["speechFormat"]) => v1Answer(request("speech", { speechFormat }), null, blob, "org/model:hf-inference", "req-1");

  it("sends the audio when no format was asked for or the model made the one asked for", async () => {
    const wav = new Blob([new Uint8Array(makeWav("hi"))], { type: "audio/wav" });
    expect(await speak(wav, null)).toMatchObject({ kind: "bytes", contentType: "audio/wav" });
    expect(await speak(wav, "wav")).toMatchObject({ kind: "bytes", contentType: "audio/wav" });
    expect(await speak(new Blob([new Uint8Array(makeFlac("hi"))], { type: "audio/flac" }), "flac")).toMatchObject({ kind: "bytes" });
    expect(await speak(oggWith("OpusHead"), "opus")).toMatchObject({ kind: "bytes", contentType: "audio/ogg" });
  });

  it("refuses by name a format the model did not make, saying which it made", async () => {
    const refused = await speak(new Blob([new Uint8Array(makeFlac("hi"))], { type: "audio/flac" }), "mp3");
    expect(refused).toMatchObject({ kind: "json", status: 400 });
    const body = JSON.parse(refused.kind === "json" ? refused.body : "{}") as { error: { param: string; message: string } };
    expect(body.error.param).toBe("response_format");
    expect(body.error.message).toMatch(/FLAC audio, not mp3.*ask for "flac"/);
    // Ogg Vorbis is not OpenAI's "opus", and has no OpenAI name to suggest.
    const vorbis = await speak(oggWith("\x01vorbis"), "opus");
    expect(vorbis).toMatchObject({ kind: "json", status: 400 });
    expect(vorbis.kind === "json" ? vorbis.body : "").not.toMatch(/ask for/);
  });
});
