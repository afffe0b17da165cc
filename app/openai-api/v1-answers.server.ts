/**
 * The gateway's answers in OpenAI's shapes: chat completions as the provider sent them (tool
 * calls, logprobs and all) under the model name that says who served; text completions,
 * embeddings, images and transcripts rebuilt from the task's output; streams as OpenAI chunks
 * ending in `data: [DONE]`, with a failure after the first byte sent as an error event.
 */
import type { StreamChunk } from "#app/inference/run-task.server.ts";
import type { StreamEncoder } from "#app/inference/stream.server.ts";
import { openAiErrorText } from "#app/openai-api/openai-errors.ts";
import type { SpeechFormat, V1Request } from "#app/openai-api/v1-bodies.server.ts";

/** A JSON answer, or raw bytes (speech), ready to write. */
export type V1Answer = { kind: "json"; status: number; body: string } | { kind: "bytes"; status: number; contentType: string; blob: Blob };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** "org/name:provider": what served, in a form a client can send back to pin the same provider. */
export function servedModelName(model: string | null, providerLabel: string): string {
  const provider = providerLabel.startsWith("endpoint:") ? providerLabel.slice("endpoint:".length) : providerLabel;
  return model ? `${model}:${provider}` : provider;
}

class BadOutput extends Error {}

function badOutput(what: string): never {
  throw new BadOutput(what);
}

/** A provider answer this route cannot present honestly: a 502 in OpenAI's words. */
export function badOutputAnswer(message: string): V1Answer {
  return { kind: "json", status: 502, body: openAiErrorText({ status: 502, message, code: "unexpected_output", param: null }) };
}

// The provider's id and time are kept when they are usable; some send `id: null` or no
// `created`, which the SDKs' types do not allow.
const usableId = (v: unknown): v is string => typeof v === "string" && v !== "";
const usableTime = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function chatAnswer(output: unknown, model: string, requestId: string): unknown {
  if (!isObject(output)) badOutput("The provider's chat answer is not an object.");
  // After the provider's fields, so its `object` or `id` cannot replace what OpenAI's type requires.
  return { ...output, id: usableId(output["id"]) ? output["id"] : `chatcmpl-${requestId}`, object: "chat.completion", created: usableTime(output["created"]) ? output["created"] : nowSeconds(), model };
}

/**
 * OpenAI's finish_reason for a text completion: TGI's words turned into OpenAI's, an
 * OpenAI-style provider's as it sent them, and "stop" when the provider said nothing (the field
 * is required, and the provider did end its answer).
 */
export function completionFinishReason(reason: string | null): string {
  if (reason === "eos_token" || reason === "stop_sequence") return "stop";
  return reason ?? "stop";
}

/**
 * A provider's token counts in OpenAI's shape, or null unless it counted both the prompt and the
 * completion: OpenAI's type requires both, and half a count filled in would be the gateway's guess.
 */
function openAiUsage(prompt: unknown, completion: unknown, total: unknown): { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null {
  const count = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
  if (!count(prompt) || !count(completion)) return null;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: count(total) ? total : prompt + completion };
}

/** The token counts the provider reported with an answer, in OpenAI's shape; null when it reported none. */
function reportedUsage(output: Record<string, unknown>): ReturnType<typeof openAiUsage> {
  const usage = output["usage"];
  return isObject(usage) ? openAiUsage(usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"]) : null;
}

function completionAnswer(output: unknown, model: string, requestId: string): unknown {
  if (!isObject(output) || typeof output["generated_text"] !== "string") badOutput("The provider's text-generation answer has no generated_text.");
  // TGI says why it stopped in `details`, which the plan asks hf-inference for. 3.13.1 keeps only
  // the text of an OpenAI-style provider's whole completion, its finish_reason dropped: that
  // answer says "stop", as it did, since any other word would be a guess, not the provider's.
  const details = output["details"];
  const reason = isObject(details) && typeof details["finish_reason"] === "string" ? details["finish_reason"] : null;
  const usage = reportedUsage(output);
  return {
    id: `cmpl-${requestId}`,
    object: "text_completion",
    created: nowSeconds(),
    model,
    choices: [{ index: 0, text: output["generated_text"], logprobs: null, finish_reason: completionFinishReason(reason) }],
    // Left out, as a chat answer without the provider's usage is: the gateway's estimate is not a count.
    ...(usage ? { usage } : {}),
  };
}

// OpenAI's names for the audio types the gateway gives generated speech (run-task reads the
// type from the bytes, never from the provider's word): label and format.
const SPEECH_TYPES: Record<string, { label: string; format: SpeechFormat | null }> = {
  "audio/mpeg": { label: "MP3 audio", format: "mp3" },
  "audio/wav": { label: "WAV audio", format: "wav" },
  "audio/flac": { label: "FLAC audio", format: "flac" },
  "audio/ogg": { label: "Ogg audio", format: null },
};

/** OpenAI's name for the audio's format, or null for formats OpenAI has none for. */
async function speechFormatOf(blob: Blob): Promise<{ format: SpeechFormat | null; label: string }> {
  const known = SPEECH_TYPES[blob.type];
  if (!known) return { format: null, label: blob.type ? `audio of type ${blob.type}` : "untyped audio" };
  // OpenAI's "opus" is Ogg Opus; an Ogg stream's first packet names its codec ("OpusHead" or "\x01vorbis").
  if (blob.type === "audio/ogg" && Buffer.from(await blob.slice(0, 64).arrayBuffer()).includes("OpusHead")) return { format: "opus", label: "Ogg Opus audio" };
  return known;
}

/**
 * The audio, or a refusal when it is not the format asked for. Known only now, after the paid call
 * (ADR 0040): the gateway has recorded that one call and tried no other provider, since another
 * call could make the same format again, so the refusal says what to ask for instead.
 */
async function speechAnswer(v1: V1Request, blob: Blob, served: string): Promise<V1Answer> {
  if (v1.speechFormat !== null) {
    const { format, label } = await speechFormatOf(blob);
    if (format !== v1.speechFormat) {
      // Pinned to the provider that made it, as a policy's routing could pick another next time.
      const instead = format ? `ask for "${format}" with model "${served}" (the provider that made it), or ` : "";
      const message =
        `The model answered with ${label}, not ${v1.speechFormat}, and this server does not convert audio. ` +
        `The call was made and is counted; asking for ${v1.speechFormat} again would pay for another call likely refused the same way. ` +
        `Instead, ${instead}leave \`response_format\` out to take the audio as the model makes it (its Content-Type names it).`;
      return { kind: "json", status: 400, body: openAiErrorText({ status: 400, message, code: "response_format_unavailable", param: "response_format" }) };
    }
  }
  return { kind: "bytes", status: 200, contentType: blob.type || "application/octet-stream", blob };
}

/** The first number-list of a feature-extraction answer per input: one vector each, or a refusal. */
function vectorsOf(output: unknown, count: number): number[][] {
  const isVector = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number");
  if (isVector(output) && count === 1) return [output];
  if (Array.isArray(output) && output.length === count && output.every(isVector)) return output;
  // [[vector]] for one input is the batch form of one sentence embedding.
  if (count === 1 && Array.isArray(output) && output.length === 1 && Array.isArray(output[0]) && (output[0] as unknown[]).every(isVector) && (output[0] as unknown[]).length === 1) {
    return [(output[0] as number[][])[0]!];
  }
  badOutput(
    `The model answered with ${Array.isArray(output) && Array.isArray(output[0]) ? "one vector per token" : "an output of another shape"}, not one embedding per input. /v1/embeddings serves sentence-embedding models (feature-extraction models that pool their output).`,
  );
}

function toBase64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString("base64");
}

/** The task output of a successful call, as the route answers it. */
export async function v1Answer(v1: V1Request, output: unknown, blob: Blob | null, served: string, requestId: string): Promise<V1Answer> {
  try {
    switch (v1.kind) {
      case "chat":
        return { kind: "json", status: 200, body: JSON.stringify(chatAnswer(output, served, requestId)) };
      case "completions":
        return { kind: "json", status: 200, body: JSON.stringify(completionAnswer(output, served, requestId)) };
      case "embeddings": {
        const vectors = vectorsOf(output, v1.inputCount);
        const data = vectors.map((v, index) => ({ object: "embedding", index, embedding: v1.encoding === "base64" ? toBase64(v) : v }));
        // OpenAI's type requires usage; the providers' feature-extraction answers carry no token
        // counts (3.13.1 returns the vectors alone) and nothing here counts tokens, so null, as the
        // include_usage chunk of a stream says it.
        return { kind: "json", status: 200, body: JSON.stringify({ object: "list", data, model: served, usage: null }) };
      }
      case "images": {
        if (!blob) badOutput("The provider answered a text-to-image call without an image.");
        const b64 = Buffer.from(await blob.arrayBuffer()).toString("base64");
        return { kind: "json", status: 200, body: JSON.stringify({ created: nowSeconds(), data: [{ b64_json: b64 }], output_format: blob.type.replace(/^image\//, "") }) };
      }
      case "transcriptions": {
        const text = isObject(output) && typeof output["text"] === "string" ? output["text"] : badOutput("The provider's transcript has no text.");
        if (v1.transcriptFormat === "text") return { kind: "bytes", status: 200, contentType: "text/plain; charset=utf-8", blob: new Blob([text]) };
        return { kind: "json", status: 200, body: JSON.stringify({ text }) };
      }
      case "speech":
        if (!blob) badOutput("The provider answered a text-to-speech call without audio.");
        return await speechAnswer(v1, blob, served);
    }
  } catch (error) {
    if (error instanceof BadOutput) return badOutputAnswer(error.message);
    throw error;
  }
}

interface ChunkIdentity {
  id: string;
  created: number;
}

/**
 * OpenAI's chat stream: each provider chunk passed on with the served model's name; usage only
 * in the extra last chunk that `stream_options.include_usage` asks for, and only as the provider
 * reported it (null when it reported none: nothing here counts a provider's tokens).
 */
export function chatStreamEncoder(v1: V1Request, served: string, requestId: string): StreamEncoder {
  const identity: ChunkIdentity = { id: `chatcmpl-${requestId}`, created: nowSeconds() };
  let reported: unknown = null;
  return {
    chunk: (chunk: StreamChunk) => {
      if (chunk.kind !== "chat" || !isObject(chunk.raw)) return "";
      const { usage, ...rest } = chunk.raw;
      if (usage !== undefined && usage !== null) reported = usage;
      if (usableId(rest["id"])) identity.id = rest["id"];
      if (usableTime(rest["created"])) identity.created = rest["created"];
      // A provider's usage-only chunk (no choices) is kept for the end.
      if (!Array.isArray(rest["choices"]) || rest["choices"].length === 0) return "";
      return `data: ${JSON.stringify({ ...rest, id: identity.id, object: "chat.completion.chunk", created: identity.created, model: served })}\n\n`;
    },
    end: () => {
      const usage = v1.includeUsage ? `data: ${JSON.stringify({ id: identity.id, object: "chat.completion.chunk", created: identity.created, model: served, choices: [], usage: reported })}\n\n` : "";
      return `${usage}data: [DONE]\n\n`;
    },
    error: (e) => `data: ${openAiErrorText({ status: e.status, message: e.message, code: e.code, param: null })}\n\n`,
  };
}

/** OpenAI's text-completion stream, made from the text-generation deltas the gateway reads. */
export function completionStreamEncoder(v1: V1Request, served: string, requestId: string): StreamEncoder {
  const head = { id: `cmpl-${requestId}`, object: "text_completion", created: nowSeconds(), model: served };
  return {
    chunk: (chunk: StreamChunk) => {
      const finished = chunk.kind === "text" ? chunk.finished : chunk.finishReason !== null;
      if (chunk.delta === "" && !finished) return "";
      return `data: ${JSON.stringify({ ...head, choices: [{ index: 0, text: chunk.delta, logprobs: null, finish_reason: finished ? completionFinishReason(chunk.finishReason) : null }] })}\n\n`;
    },
    end: (summary) => {
      // A text stream's chunks may carry a completion count alone (TGI's details, an OpenAI-style
      // provider's usage of which only completion_tokens is read): not OpenAI's usage.
      const { source, promptTokens, completionTokens, totalTokens } = summary.usage;
      const usage = v1.includeUsage ? `data: ${JSON.stringify({ ...head, choices: [], usage: source === "provider" ? openAiUsage(promptTokens, completionTokens, totalTokens) : null })}\n\n` : "";
      return `${usage}data: [DONE]\n\n`;
    },
    error: (e) => `data: ${openAiErrorText({ status: e.status, message: e.message, code: e.code, param: null })}\n\n`,
  };
}
