/**
 * The bodies of the OpenAI-compatible routes, checked with zod and turned into the gateway's own
 * request (InferenceRequest), so that validation past this point, cost caps, credentials and
 * usage records are the gateway's. Fields the pinned library cannot pass to a provider are
 * refused by name rather than dropped (ADR 0040).
 */
import { z } from "zod";
import { GatewayError } from "#app/inference/errors.server.ts";
import { boundaryOf, type FormShape } from "#app/inference/multipart.server.ts";
import { MAX_JSON_DEPTH, nestingDepth, type ParsedRequest, type RequestBodySource } from "#app/inference/parse-request.server.ts";
import { chatMessageSchema, describeIssues, type InferenceRequest } from "#app/inference/request-schema.ts";
import { type ModelRef, parseModelRef } from "#app/openai-api/model-ref.ts";

export type V1Kind = "chat" | "completions" | "embeddings" | "images" | "transcriptions" | "speech";

/** The mapping task each route serves, as provider mappings name it. */
export const V1_TASKS: Record<V1Kind, string> = {
  chat: "conversational",
  completions: "text-generation",
  embeddings: "feature-extraction",
  images: "text-to-image",
  transcriptions: "automatic-speech-recognition",
  speech: "text-to-speech",
};

/** What the answer needs to know of the request, beyond the gateway's outcome. */
export interface V1Request {
  kind: V1Kind;
  ref: ModelRef;
  /** The body as the gateway takes it; plan() adds the provider or endpoint. */
  parsed: ParsedRequest;
  stream: boolean;
  includeUsage: boolean;
  /** embeddings: "float" or "base64". */
  encoding: "float" | "base64";
  /** transcriptions: "json" or "text". */
  transcriptFormat: "json" | "text";
  /** embeddings: how many inputs were sent, and whether as a list. */
  inputCount: number;
  /** speech: the audio format asked for, which the answer must be (nothing here converts audio). */
  speechFormat: SpeechFormat | null;
}

/**
 * The audio formats of OpenAI's speech route that a model's own audio can be, as the answer types
 * it by its bytes (v1-answers.server.ts). OpenAI's other two, pcm and aac, never can: raw PCM has
 * no header to know it by, and ADTS AAC is not a format the gateway recognises.
 */
const SPEECH_FORMATS = ["mp3", "opus", "flac", "wav"] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];
const isSpeechFormat = (v: string): v is SpeechFormat => (SPEECH_FORMATS as readonly string[]).includes(v);

const invalid = (message: string, field: string | null): GatewayError => new GatewayError({ status: 400, code: "invalid_request", message, field });

function refuse(field: string, why: string): never {
  throw invalid(`\`${field}\` is not supported here: ${why}`, field);
}

/** Refuses the first field of `fields` (name → why) that the body or form sets. */
function refuseAny(given: Record<string, unknown>, fields: Record<string, string>): void {
  for (const [key, why] of Object.entries(fields)) if (given[key] !== undefined) refuse(key, why);
}

async function readJson(source: RequestBodySource, maxBytes: number): Promise<Record<string, unknown>> {
  const type = source.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new GatewayError({ status: 415, code: "unsupported_media_type", message: "Send the request body as JSON with Content-Type: application/json.", field: null });
  }
  let raw: string;
  try {
    raw = await source.readBody(maxBytes);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw invalid("The request body could not be read.", null);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new GatewayError({ status: 400, code: "invalid_json", message: "The request body is not valid JSON.", field: null });
  }
  if (nestingDepth(json, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new GatewayError({ status: 400, code: "invalid_json", message: `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, field: null });
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw invalid("The request body must be a JSON object.", null);
  return json as Record<string, unknown>;
}

function checked<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = describeIssues(parsed.error);
  const first = issues[0];
  throw invalid(`Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, first && first.path !== "(body)" ? first.path : null);
}

function modelOf(raw: unknown): ModelRef {
  if (typeof raw !== "string") throw invalid("`model` is required: a model id (org/name), org/name:<provider>, org/name:fastest, or a configured endpoint's model name.", "model");
  const ref = parseModelRef(raw);
  if (!ref.ok) throw invalid(ref.message, "model");
  return ref.ref;
}

/** Catalogue id for the request (a served name is resolved to one by the plan). */
const modelField = (ref: ModelRef): string | undefined => (ref.kind === "catalogue" ? ref.id : undefined);

const streamOptions = z.strictObject({ include_usage: z.boolean().nullish() }).optional();

/**
 * The body without its top-level nulls: OpenAI reads `"user": null` as `user` not set, and its
 * SDKs and clients send such nulls for fields they leave alone.
 */
function withoutNulls(json: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([, v]) => v !== null));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// `developer` is OpenAI's successor to `system` (its reasoning models take it instead); the
// providers here know `system`, which is what it asks for.
const v1ChatMessage = z.preprocess((m) => (isRecord(m) && m["role"] === "developer" ? { ...m, role: "system" } : m), chatMessageSchema);

// OpenAI's chat body: the fields the chat-completion spec of @huggingface/tasks takes (the
// gateway checks their values against it), plus OpenAI's newer names for two of them.
const chatSchema = z
  .object({
    model: z.unknown(),
    messages: z.array(v1ChatMessage).min(1).max(500),
    stream: z.boolean().optional(),
    stream_options: streamOptions,
    max_completion_tokens: z.number().int().min(1).optional(),
    user: z.string().max(200).optional(),
  })
  .passthrough();

const CHAT_UNSUPPORTED: Record<string, string> = {
  parallel_tool_calls: "@huggingface/inference 3.13.1 does not pass it to providers.",
  store: "this server stores no completions.",
  metadata: "this server stores no completions.",
  modalities: "only text answers are produced.",
  audio: "only text answers are produced.",
  prediction: "@huggingface/inference 3.13.1 does not pass it to providers.",
  service_tier: "providers here have no service tiers.",
  functions: "use `tools` (the deprecated `functions` is not passed on).",
  function_call: "use `tool_choice` (the deprecated `function_call` is not passed on).",
  web_search_options: "@huggingface/inference 3.13.1 does not pass it to providers.",
  logit_bias: "OpenAI's map of token ids to biases has no counterpart at the providers here (the chat-completion spec's own logit_bias is marked unused).",
};

function parseChat(json: Record<string, unknown>): Omit<V1Request, "kind" | "transcriptFormat" | "encoding" | "inputCount" | "speechFormat"> {
  refuseAny(json, CHAT_UNSUPPORTED);
  const body = checked(chatSchema, json);
  const ref = modelOf(body.model);
  const { model: _model, messages, stream, stream_options, max_completion_tokens, user: _user, ...rest } = body;
  const parameters: Record<string, unknown> = { ...rest };
  // OpenAI takes one stop sequence as a string; the chat-completion spec takes a list.
  if (typeof parameters["stop"] === "string") parameters["stop"] = [parameters["stop"]];
  if (max_completion_tokens !== undefined) {
    if (parameters["max_tokens"] !== undefined) throw invalid("Send `max_tokens` or `max_completion_tokens`, not both.", "max_completion_tokens");
    parameters["max_tokens"] = max_completion_tokens;
  }
  const request: InferenceRequest = { model: modelField(ref), task: "conversational", messages, stream: stream === true };
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return { ref, parsed: { body: request, file: null }, stream: stream === true, includeUsage: stream_options?.include_usage === true };
}

const completionSchema = z.strictObject({
  model: z.unknown(),
  prompt: z.string().max(200_000, "prompt is longer than 200,000 characters"),
  max_tokens: z.number().int().min(1).optional(),
  temperature: z.number().min(0).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
  seed: z.number().int().optional(),
  frequency_penalty: z.number().optional(),
  stream: z.boolean().optional(),
  stream_options: streamOptions,
  user: z.string().max(200).optional(),
});

const COMPLETION_UNSUPPORTED: Record<string, string> = {
  echo: "the provider's answer is returned as it comes.",
  logprobs: "@huggingface/inference 3.13.1's textGeneration does not return log probabilities.",
  best_of: "one completion is made per request.",
  n: "one completion is made per request.",
  suffix: "text generation here has no insertion mode.",
  logit_bias: "text generation here takes no logit bias.",
  presence_penalty: "the text-generation spec has no presence penalty.",
};

function parseCompletion(json: Record<string, unknown>): Omit<V1Request, "kind" | "transcriptFormat" | "encoding" | "inputCount" | "speechFormat"> {
  refuseAny(json, COMPLETION_UNSUPPORTED);
  if (Array.isArray(json["prompt"])) refuse("prompt", "send one prompt as a string (lists and token arrays are not taken).");
  const body = checked(completionSchema, json);
  const ref = modelOf(body.model);
  // The text-generation spec's names (TGI's): max_new_tokens, stop as a list, repetition penalty.
  const parameters: Record<string, unknown> = {};
  if (body.max_tokens !== undefined) parameters["max_new_tokens"] = body.max_tokens;
  // Temperature 0 is OpenAI's greedy decoding; the text-generation spec says so with do_sample
  // (its temperature must be above 0).
  if (body.temperature === 0) parameters["do_sample"] = false;
  else if (body.temperature !== undefined) parameters["temperature"] = body.temperature;
  if (body.top_p !== undefined) parameters["top_p"] = body.top_p;
  if (body.stop !== undefined) parameters["stop"] = typeof body.stop === "string" ? [body.stop] : body.stop;
  if (body.seed !== undefined) parameters["seed"] = body.seed;
  if (body.frequency_penalty !== undefined) parameters["frequency_penalty"] = body.frequency_penalty;
  const request: InferenceRequest = { model: modelField(ref), task: "text-generation", inputs: body.prompt, stream: body.stream === true };
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return { ref, parsed: { body: request, file: null }, stream: body.stream === true, includeUsage: body.stream_options?.include_usage === true };
}

const embeddingSchema = z.strictObject({
  model: z.unknown(),
  input: z.union([z.string().min(1).max(200_000), z.array(z.string().min(1).max(200_000)).min(1).max(256)]),
  encoding_format: z.enum(["float", "base64"]).optional(),
  user: z.string().max(200).optional(),
});

/** number[] or number[][]: OpenAI's token-id inputs. */
const isTokenIds = (v: unknown): boolean =>
  Array.isArray(v) && v.length > 0 && (v.every((x) => typeof x === "number") || v.every((x) => Array.isArray(x) && x.length > 0 && x.every((y) => typeof y === "number")));

const imageSchema = z.strictObject({
  model: z.unknown(),
  prompt: z.string().min(1).max(32_000),
  n: z.number().int().min(1).max(1, "this server makes one image per request").optional(),
  size: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, "size is WIDTHxHEIGHT, e.g. 1024x1024")
    .optional(),
  response_format: z.enum(["b64_json", "url"]).optional(),
  negative_prompt: z.string().max(32_000).optional(),
  user: z.string().max(200).optional(),
});

const speechSchema = z.strictObject({
  model: z.unknown(),
  input: z.string().min(1).max(100_000),
  // Accepted because OpenAI's clients require it; a catalogue TTS model speaks in its one voice.
  voice: z.string().max(100).optional(),
  response_format: z.enum(["mp3", "opus", "aac", "flac", "wav", "pcm"]).optional(),
  instructions: z.string().optional(),
  speed: z.number().optional(),
});

const TRANSCRIPTION_FORM: FormShape = {
  textFields: ["model", "response_format", "language", "prompt", "temperature", "timestamp_granularities[]", "stream"],
  fileField: "file",
  requiredText: "model",
  describe: "send `file` (the audio) and `model`, with `response_format` json or text",
};

/** Reads and checks one /v1 body; throws GatewayErrors naming OpenAI's fields. */
export async function readV1Request(kind: V1Kind, source: RequestBodySource, maxBytes: number): Promise<V1Request> {
  const base = { kind, transcriptFormat: "json" as const, encoding: "float" as const, inputCount: 1, speechFormat: null };
  if (kind === "transcriptions") {
    const type = source.headers.get("content-type") ?? "";
    const boundary = /^multipart\/form-data\b/i.test(type) ? boundaryOf(type) : null;
    if (boundary === null) throw new GatewayError({ status: 415, code: "unsupported_media_type", message: "Send the audio as multipart/form-data with the file in `file` and the model in `model`.", field: null });
    const form = await source.readMultipart(boundary, maxBytes, TRANSCRIPTION_FORM);
    if (!form.file) throw invalid("`file` is required: the audio to transcribe.", "file");
    const notPassed = "@huggingface/inference 3.13.1's automaticSpeechRecognition does not pass it to providers.";
    refuseAny(form.fields, { language: notPassed, prompt: notPassed, temperature: notPassed, "timestamp_granularities[]": notPassed });
    if (form.fields["stream"] !== undefined && form.fields["stream"] !== "false") refuse("stream", "transcripts are answered whole.");
    const format = form.fields["response_format"] ?? "json";
    if (format !== "json" && format !== "text") refuse("response_format", `"${format}": this server answers json or text (the providers' transcripts carry no timestamps to make srt, vtt or verbose_json from).`);
    const ref = modelOf(form.fields["model"]);
    const body: InferenceRequest = { model: modelField(ref), task: "automatic-speech-recognition" };
    return { ...base, ref, parsed: { body, file: form.file }, stream: false, includeUsage: false, transcriptFormat: format };
  }
  const json = withoutNulls(await readJson(source, maxBytes));
  switch (kind) {
    case "chat":
      return { ...base, ...parseChat(json) };
    case "completions":
      return { ...base, ...parseCompletion(json) };
    case "embeddings": {
      if (json["dimensions"] !== undefined) refuse("dimensions", "a feature-extraction model's embeddings have the size it makes.");
      if (isTokenIds(json["input"])) {
        // LangChain's OpenAIEmbeddings sends token ids by default (check_embedding_ctx_length),
        // counted with OpenAI's tokenizer, which is not the model's.
        throw invalid(
          "`input` must be text: a string or a list of strings. Token-id arrays (number[] or number[][]) are not taken, since the models here tokenize their own input; in LangChain, set check_embedding_ctx_length=False (checkEmbeddingCtxLength: false in LangChain.js).",
          "input",
        );
      }
      const body = checked(embeddingSchema, json);
      const ref = modelOf(body.model);
      const inputs = body.input;
      return {
        ...base,
        ref,
        parsed: { body: { model: modelField(ref), task: "feature-extraction", inputs }, file: null },
        stream: false,
        includeUsage: false,
        encoding: body.encoding_format ?? "float",
        inputCount: Array.isArray(inputs) ? inputs.length : 1,
      };
    }
    case "images": {
      const takes = "@huggingface/inference 3.13.1's textToImage takes a prompt, a size and a negative prompt.";
      refuseAny(json, { quality: takes, style: takes, background: takes, moderation: takes, output_format: takes, output_compression: takes });
      const body = checked(imageSchema, json);
      if (body.response_format === "url") {
        throw invalid("`response_format: \"url\"` is not supported: this server stores no images, so it has no URL to give. Ask for \"b64_json\" (the default here).", "response_format");
      }
      const ref = modelOf(body.model);
      const parameters: Record<string, unknown> = {};
      if (body.size) {
        const [w, h] = body.size.split("x").map(Number);
        parameters["width"] = w;
        parameters["height"] = h;
      }
      if (body.negative_prompt) parameters["negative_prompt"] = body.negative_prompt;
      const request: InferenceRequest = { model: modelField(ref), task: "text-to-image", inputs: body.prompt };
      if (Object.keys(parameters).length > 0) request.parameters = parameters;
      return { ...base, ref, parsed: { body: request, file: null }, stream: false, includeUsage: false };
    }
    case "speech": {
      const body = checked(speechSchema, json);
      if (body.instructions !== undefined) refuse("instructions", "a catalogue text-to-speech model takes the text alone.");
      if (body.speed !== undefined && body.speed !== 1) refuse("speed", "a catalogue text-to-speech model speaks at its own speed.");
      // Which of the others a model makes is known only from its audio: no provider mapping says,
      // and 3.13.1 asks no provider for a format (ADR 0040).
      const format = body.response_format;
      if (format !== undefined && !isSpeechFormat(format)) {
        refuse(
          "response_format",
          `"${format}": the audio is sent as the model makes it, never converted, and no model's audio arrives here as ${format === "pcm" ? "raw PCM" : "AAC"}. Possible values: ${SPEECH_FORMATS.map((f) => `"${f}"`).join(", ")}, each met only when the model makes that format; or leave it out to take the model's own, which the Content-Type names.`,
        );
      }
      const ref = modelOf(body.model);
      return {
        ...base,
        ref,
        parsed: { body: { model: modelField(ref), task: "text-to-speech", inputs: body.input }, file: null },
        stream: false,
        includeUsage: false,
        speechFormat: format ?? null,
      };
    }
  }
}

/**
 * A gateway field as the /v1 body names it: the gateway checks `parameters.temperature` and
 * `inputs`, the client sent `temperature` and `prompt`.
 */
export function v1Param(kind: V1Kind, field: string | null | undefined): string | null {
  if (field === null || field === undefined) return null;
  if (field.startsWith("parameters.")) {
    const name = field.slice("parameters.".length);
    if (kind === "completions" && name.startsWith("max_new_tokens")) return `max_tokens${name.slice("max_new_tokens".length)}`;
    if (kind === "images" && (name === "width" || name === "height")) return "size";
    return name;
  }
  if (field === "inputs") return kind === "embeddings" || kind === "speech" ? "input" : kind === "transcriptions" ? "file" : "prompt";
  if (field === "provider" || field === "endpoint") return "model";
  return field;
}
