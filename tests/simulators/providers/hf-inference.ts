// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// hf-inference: the Hugging Face router's own serverless API, router.huggingface.co/hf-inference/
// models/<id>[/pipeline/<task>], one JSON or media answer per task, and chat completions at
// models/<id>/v1/chat/completions.
import type { HubFixtureModel } from "../hub-fixture.ts";
import { makePng, makeWav, sniffMedia } from "../media.ts";
import {
  cosine,
  embedding,
  fillMask,
  imageClassification,
  questionAnswering,
  SOUNDFILE_ERROR,
  summarize,
  tableQuestionAnswering,
  textClassification,
  tokenClassification,
  transcript,
  zeroShot,
} from "../common/answers.ts";
import { type Ctx, type SimulatedProvider, send, sendError, sendJson } from "../common/context.ts";
import {
  audioClassification,
  audioToAudio,
  documentQuestionAnswering,
  imageCaption,
  imageSegmentation,
  objectDetection,
  tabularPredictions,
  visualQuestionAnswering,
  zeroShotImage,
} from "../common/media-answers.ts";
import { chatCompletion } from "../common/openai-compatible.ts";
import { answerDelayMs } from "../common/faults.ts";
import { isRecord, shortHash, sleep, str, words } from "../common/util.ts";

export const hfInference: SimulatedProvider = {
  id: "hf-inference",
  hosts: [],
  errorStyle: "hf-inference",
  recordedModel: (route) => (route.startsWith("models/") ? route.slice("models/".length).replace(/\/(pipeline\/.+|v1\/chat\/completions|chat\/completions)$/, "") : undefined),
  create: () => ({ handle }),
};

/** Binary inputs: raw bytes, or a base64 (data: URL) string in a JSON body's `inputs`. */
function binaryInput(ctx: Ctx): Buffer | null {
  if (isRecord(ctx.json)) {
    const inputs = ctx.json["inputs"];
    if (typeof inputs === "string") {
      const decoded = Buffer.from(inputs.replace(/^data:[^,]*,/, ""), "base64");
      return decoded.length > 0 ? decoded : null;
    }
    return null;
  }
  return ctx.body.length > 0 ? ctx.body : null;
}

/** Image bytes the way PIL opens them, or null ("cannot identify image file"). */
function imageInput(bytes: Buffer | null): Buffer | null {
  return bytes && ["png", "jpeg", "gif", "webp", "bmp", "tiff"].includes(sniffMedia(bytes)) ? bytes : null;
}

function hfTask(hubModels: ReadonlyMap<string, HubFixtureModel>, modelId: string): string | null {
  const model = hubModels.get(modelId);
  if (!model) return null;
  return model.inferenceProviderMapping["hf-inference"]?.task ?? model.pipeline_tag;
}

async function handle(ctx: Ctx): Promise<void> {
  const hubModels = ctx.sim.hubModels();
  const route = ctx.up.route; // models/<id>[/pipeline/<task>][/v1/chat/completions]
  if (!route.startsWith("models/")) return sendError(ctx, 404, `Unknown route /${route}`);
  let rest = route.slice("models/".length);
  if (/\/v1\/chat\/completions$/.test(rest) || /\/chat\/completions$/.test(rest)) {
    rest = rest.replace(/\/(v1\/)?chat\/completions$/, "");
    if (!hubModels.has(rest)) return sendError(ctx, 404, `Model ${rest} does not exist`);
    return chatCompletion(ctx, "hf-inference", { systemFingerprint: true, modelOverride: rest });
  }
  let task: string | null = null;
  const pipelineAt = rest.indexOf("/pipeline/");
  if (pipelineAt >= 0) {
    task = rest.slice(pipelineAt + "/pipeline/".length);
    rest = rest.slice(0, pipelineAt);
  }
  const modelId = rest;
  ctx.record.model = modelId;
  if (!hubModels.has(modelId)) return sendError(ctx, 404, `Model ${modelId} does not exist`);
  task = task ?? hfTask(hubModels, modelId);
  if (ctx.req.method !== "POST") return sendError(ctx, 405, "Method not allowed, use POST");
  const body = isRecord(ctx.json) ? ctx.json : null;
  const inputs = body ? body["inputs"] : undefined;
  const textInputs = typeof inputs === "string" ? inputs : null;
  const needText = (): boolean => {
    if (textInputs === null) {
      sendError(ctx, 400, "inputs: expected a string");
      return false;
    }
    return true;
  };
  await sleep(answerDelayMs(ctx.fault));
  switch (task) {
    case "text-classification":
      if (Array.isArray(inputs) && inputs.every((x) => typeof x === "string")) return sendJson(ctx, 200, inputs.map((t) => textClassification(t)));
      if (!needText()) return;
      return sendJson(ctx, 200, [textClassification(textInputs ?? "")]);
    case "token-classification":
      if (!needText()) return;
      return sendJson(ctx, 200, tokenClassification(textInputs ?? ""));
    case "fill-mask": {
      if (!needText()) return;
      const out = fillMask(textInputs ?? "");
      if (!out) return sendError(ctx, 400, "No mask_token ([MASK]) found on the input");
      return sendJson(ctx, 200, out);
    }
    case "question-answering": {
      const q = isRecord(inputs) ? str(inputs["question"]) : undefined;
      const c = isRecord(inputs) ? str(inputs["context"]) : undefined;
      if (q === undefined || c === undefined) return sendError(ctx, 400, "inputs: expected {question: string, context: string}");
      return sendJson(ctx, 200, questionAnswering(q, c));
    }
    case "summarization":
      if (!needText()) return;
      return sendJson(ctx, 200, [{ summary_text: summarize(textInputs ?? "") }]);
    case "translation":
      if (!needText()) return;
      return sendJson(ctx, 200, [{ translation_text: `[simulated translation] ${textInputs ?? ""}` }]);
    case "text-generation": {
      if (!needText()) return;
      const full = ` and the simulated model continues (${shortHash(textInputs ?? "", 6)}).`;
      // TGI stops at max_new_tokens and says so in `details`, which it sends, whole or streamed,
      // only when the request asks with `parameters.details: true` (router/src/server.rs).
      const parameters = body && isRecord(body["parameters"]) ? body["parameters"] : {};
      const limit = typeof parameters["max_new_tokens"] === "number" ? parameters["max_new_tokens"] : Infinity;
      const all = full.match(/\s*\S+/g) ?? [];
      const tokens = all.slice(0, limit);
      const continuation = tokens.join("");
      const generation: TgiGeneration = {
        tokens,
        finishReason: all.length > limit ? "length" : "eos_token",
        inputLength: words(textInputs ?? "").length,
        details: parameters["details"] === true,
      };
      if (body?.["stream"] === true) return streamTextGeneration(ctx, generation);
      // TGI's Details: the generated tokens one by one, and the prompt's (prefill) only with decoder_input_details.
      const details = { finish_reason: generation.finishReason, generated_tokens: tokens.length, seed: null, prefill: [], tokens: tokens.map((text, i) => tgiToken(text, i)) };
      return sendJson(ctx, 200, [{ generated_text: `${textInputs ?? ""}${continuation}`, ...(generation.details ? { details } : {}) }]);
    }
    case "zero-shot-classification": {
      const parameters = body && isRecord(body["parameters"]) ? body["parameters"] : null;
      const labels = parameters?.["candidate_labels"];
      if (!needText()) return;
      if (!Array.isArray(labels) || labels.length === 0 || !labels.every((l) => typeof l === "string")) {
        return sendError(ctx, 400, "parameters.candidate_labels: expected a non-empty list of strings");
      }
      return sendJson(ctx, 200, [zeroShot(textInputs ?? "", labels)]);
    }
    case "table-question-answering": {
      const query = isRecord(inputs) ? str(inputs["query"]) : undefined;
      const table = isRecord(inputs) ? inputs["table"] : undefined;
      const columns = isRecord(table) ? Object.entries(table) : [];
      if (query === undefined || columns.length === 0 || !columns.every(([, v]) => Array.isArray(v) && v.every((x) => typeof x === "string"))) {
        return sendError(ctx, 400, "inputs: expected {query: string, table: {column: string[]}}");
      }
      return sendJson(ctx, 200, tableQuestionAnswering(query, Object.fromEntries(columns) as Record<string, string[]>));
    }
    case "feature-extraction": {
      if (Array.isArray(inputs) && inputs.every((x) => typeof x === "string")) return sendJson(ctx, 200, inputs.map((t) => embedding(t)));
      if (!needText()) return;
      return sendJson(ctx, 200, embedding(textInputs ?? ""));
    }
    case "sentence-similarity": {
      const source = isRecord(inputs) ? str(inputs["source_sentence"]) : undefined;
      const sentences = isRecord(inputs) ? inputs["sentences"] : undefined;
      if (source === undefined || !Array.isArray(sentences) || !sentences.every((s) => typeof s === "string")) {
        return sendError(ctx, 400, "inputs: expected {source_sentence: string, sentences: string[]}");
      }
      const base = embedding(source);
      return sendJson(ctx, 200, sentences.map((s) => cosine(base, embedding(s))));
    }
    case "image-classification": {
      const image = binaryInput(ctx);
      const kind = image ? sniffMedia(image) : "unknown";
      if (!image || !["png", "jpeg", "gif", "webp"].includes(kind)) return sendError(ctx, 400, "cannot identify image file");
      return sendJson(ctx, 200, imageClassification(image));
    }
    case "automatic-speech-recognition": {
      const audio = binaryInput(ctx);
      const kind = audio ? sniffMedia(audio) : "unknown";
      if (!audio || !["wav", "flac", "mp3", "ogg"].includes(kind)) return sendError(ctx, 400, SOUNDFILE_ERROR);
      return sendJson(ctx, 200, { text: transcript(audio) });
    }
    case "text-to-image": {
      if (!needText()) return;
      return send(ctx, 200, "image/png", makePng(textInputs ?? ""));
    }
    case "text-to-speech":
    case "text-to-audio": {
      const text = textInputs ?? (body ? str(body["text"]) : undefined);
      if (text === undefined) return sendError(ctx, 400, "inputs: expected a string");
      return send(ctx, 200, "audio/wav", makeWav(text));
    }
    case "object-detection":
    case "image-segmentation":
    case "image-to-text": {
      const image = imageInput(binaryInput(ctx));
      if (!image) return sendError(ctx, 400, "cannot identify image file");
      if (task === "object-detection") return sendJson(ctx, 200, objectDetection(image));
      if (task === "image-segmentation") return sendJson(ctx, 200, imageSegmentation(image));
      return sendJson(ctx, 200, [{ generated_text: imageCaption(image) }]);
    }
    case "image-to-image": {
      // Raw bytes without parameters; JSON {inputs: base64, parameters} with them (3.13.1's two payloads).
      const image = imageInput(binaryInput(ctx));
      if (!image) return sendError(ctx, 400, "cannot identify image file");
      const parameters = body && isRecord(body["parameters"]) ? body["parameters"] : {};
      return send(ctx, 200, "image/png", makePng(`${image.toString("base64").slice(0, 200)}:${str(parameters["prompt"]) ?? ""}`, 32));
    }
    case "zero-shot-image-classification": {
      const image = imageInput(isRecord(inputs) && typeof inputs["image"] === "string" ? Buffer.from(inputs["image"], "base64") : null);
      const labels = body && isRecord(body["parameters"]) ? body["parameters"]["candidate_labels"] : undefined;
      if (!image) return sendError(ctx, 400, "inputs: expected {image: base64 image}");
      if (!Array.isArray(labels) || labels.length === 0 || !labels.every((l) => typeof l === "string")) {
        return sendError(ctx, 400, "parameters.candidate_labels: expected a non-empty list of strings");
      }
      return sendJson(ctx, 200, zeroShotImage(image, labels));
    }
    case "visual-question-answering":
    case "document-question-answering": {
      const question = isRecord(inputs) ? str(inputs["question"]) : undefined;
      const raw = isRecord(inputs) && typeof inputs["image"] === "string" ? Buffer.from(inputs["image"], "base64") : null;
      // Document QA reads scanned pages (images) and PDFs; VQA only images.
      const image = task === "document-question-answering" && raw && sniffMedia(raw) === "pdf" ? raw : imageInput(raw);
      if (question === undefined || !image) return sendError(ctx, 400, "inputs: expected {question: string, image: base64 image}");
      return sendJson(ctx, 200, task === "visual-question-answering" ? visualQuestionAnswering(image, question) : documentQuestionAnswering(image, question));
    }
    case "audio-classification":
    case "audio-to-audio": {
      const audio = binaryInput(ctx);
      if (!audio || !["wav", "flac", "mp3", "ogg", "webm", "mp4"].includes(sniffMedia(audio))) return sendError(ctx, 400, SOUNDFILE_ERROR);
      return sendJson(ctx, 200, task === "audio-classification" ? audioClassification(audio) : audioToAudio(audio));
    }
    case "tabular-classification":
    case "tabular-regression": {
      const data = isRecord(inputs) ? inputs["data"] : undefined;
      const columns = isRecord(data) ? Object.entries(data) : [];
      if (columns.length === 0 || !columns.every(([, v]) => Array.isArray(v) && v.every((x) => typeof x === "string"))) {
        return sendError(ctx, 400, "inputs: expected {data: {column: string[]}}");
      }
      return sendJson(ctx, 200, tabularPredictions(Object.fromEntries(columns) as Record<string, string[]>, task === "tabular-classification" ? "classification" : "regression"));
    }
    default:
      return sendError(ctx, 400, `The simulator does not implement hf-inference task ${task ?? "(unknown)"} for ${modelId}`);
  }
}

/** One text generation as TGI reports it: its tokens, why it stopped, and whether `details` were asked for. */
interface TgiGeneration {
  tokens: string[];
  finishReason: "length" | "eos_token";
  inputLength: number;
  details: boolean;
}

const tgiToken = (text: string, i: number) => ({ id: 1000 + i, text, logprob: -0.1, special: false });

/** Text generation with stream: true, in TGI's event format: one token per event, then the full text. */
async function streamTextGeneration(ctx: Ctx, generation: TgiGeneration): Promise<void> {
  const { res } = ctx;
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
  res.flushHeaders();
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  const { tokens } = generation;
  const delay = ctx.fault?.kind === "slow" ? ctx.fault.tokenDelayMs : ctx.sim.tokenDelayMs;
  for (const [i, text] of tokens.entries()) {
    await sleep(delay);
    if (closed) return;
    const last = i === tokens.length - 1;
    // TGI's StreamDetails carries the prompt's length too, and is null unless asked for.
    const details = last && generation.details ? { finish_reason: generation.finishReason, generated_tokens: tokens.length, seed: null, input_length: generation.inputLength } : null;
    const event = { index: i + 1, token: tgiToken(text, i), generated_text: last ? tokens.join("") : null, details };
    res.write(`data:${JSON.stringify(event)}\n\n`);
  }
  res.end();
}
