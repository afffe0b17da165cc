// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// The OpenAI-compatible API most providers speak (chat completions, completions, embeddings,
// image generation). Each provider's file (providers/<id>.ts) says where it differs.
import { makePng } from "../media.ts";
import { type Ctx, type SimulatedProvider, send, sendError, sendJson } from "./context.ts";
import { embedding } from "./answers.ts";
import { answerDelayMs, dropWhen } from "./faults.ts";
import { isRecord, type Json, nowSeconds, shortHash, sleep, str, words } from "./util.ts";

/** The JSON a provider answers an image generation with. */
export type ImageAnswer = (image: { prompt: string; model: string; b64: string }) => Json;

/** OpenAI's `data: [{b64_json}]` list. */
export const openAiImageAnswer: ImageAnswer = ({ prompt, model, b64 }) => ({ id: `img-sim-${shortHash(prompt)}`, model, object: "list", data: [{ index: 0, b64_json: b64 }] });

export interface OpenAiCompatibleOptions {
  id: string;
  hosts: readonly string[];
  /** Whether chat answers carry a system_fingerprint (3.13.1 tolerates its absence for Together and Nebius). */
  systemFingerprint: boolean;
  imageAnswer?: ImageAnswer;
}

/** A provider that speaks the OpenAI-compatible routes under its host and its router prefix. */
export function openAiCompatibleProvider(options: OpenAiCompatibleOptions): SimulatedProvider {
  const imageAnswer = options.imageAnswer ?? openAiImageAnswer;
  return {
    id: options.id,
    hosts: options.hosts,
    errorStyle: "openai",
    create: () => ({
      handle: async (ctx) => {
        const route = ctx.up.route;
        if (ctx.req.method !== "POST") return sendError(ctx, 405, `Method ${ctx.req.method ?? ""} not allowed`);
        if (route.endsWith("chat/completions")) return chatCompletion(ctx, options.id, { systemFingerprint: options.systemFingerprint });
        if (route.endsWith("v1/completions")) return completion(ctx);
        await sleep(answerDelayMs(ctx.fault));
        if (route.endsWith("v1/embeddings")) return embeddings(ctx);
        if (route.endsWith("v1/images/generations")) return imageGeneration(ctx, imageAnswer);
        sendError(ctx, 404, `Unknown route /${route} for ${options.id}`);
      },
    }),
  };
}

/** Text of a chat message content: a string, or OpenAI content parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (isRecord(part) && part["type"] === "text" ? str(part["text"]) ?? "" : ""))
      .filter((t) => t.length > 0)
      .join(" ");
  }
  return "";
}

/** The image_url parts of a message's content, each as its data: URL's media type or "url". */
function contentImages(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    if (!isRecord(part) || part["type"] !== "image_url" || !isRecord(part["image_url"])) return [];
    const url = str(part["image_url"]["url"]) ?? "";
    return [/^data:(image\/[a-z0-9.+-]+);base64,/.exec(url)?.[1] ?? "url"];
  });
}

interface ChatPlan {
  id: string;
  model: string;
  tokens: string[];
  promptTokens: number;
  finishReason: "stop" | "length" | "tool_calls";
  fingerprint: string | undefined;
}

function planChat(provider: string, model: string, body: Record<string, unknown>, messages: unknown[], systemFingerprint: boolean): ChatPlan {
  const texts = messages.map((m) => (isRecord(m) ? contentText(m["content"]) : ""));
  const lastUser = [...messages].reverse().find((m) => isRecord(m) && m["role"] === "user");
  const question = isRecord(lastUser) ? contentText(lastUser["content"]) : "";
  // A vision model's answer names the images it was shown, so a test can see they arrived.
  const images = isRecord(lastUser) ? contentImages(lastUser["content"]) : [];
  const shown = images.length > 0 ? ` and showed me ${images.length} image${images.length === 1 ? "" : "s"} (${images.join(", ")})` : "";
  const reply = `Simulated ${provider} reply from ${model}: you said "${question.length > 200 ? `${question.slice(0, 200)}...` : question}"${shown}.`;
  let tokens = reply.split(/(?<=\s)/);
  const maxTokens = typeof body["max_tokens"] === "number" ? body["max_tokens"] : typeof body["max_completion_tokens"] === "number" ? body["max_completion_tokens"] : undefined;
  let finishReason: "stop" | "length" = "stop";
  if (maxTokens !== undefined && maxTokens >= 0 && tokens.length > maxTokens) {
    tokens = tokens.slice(0, maxTokens);
    finishReason = "length";
  }
  return {
    id: `chatcmpl-sim-${shortHash(JSON.stringify(body), 24)}`,
    model,
    tokens,
    promptTokens: texts.reduce((n, t) => n + words(t).length, 0) + messages.length * 3,
    finishReason,
    fingerprint: systemFingerprint ? `fp_sim_${shortHash(provider, 8)}` : undefined,
  };
}

/**
 * The tool call an OpenAI-compatible model makes when given `tools` (unless `tool_choice` is
 * "none" or the last message is a tool's result): the named function, or the first, with
 * arguments made from the question, so a test can see both arrived.
 */
function plannedToolCall(body: Record<string, unknown>, messages: unknown[], question: string): { id: string; name: string; arguments: string } | null {
  const tools = body["tools"];
  if (!Array.isArray(tools) || tools.length === 0 || body["tool_choice"] === "none") return null;
  const last = messages[messages.length - 1];
  if (isRecord(last) && last["role"] === "tool") return null;
  const choice = body["tool_choice"];
  const first: unknown = tools[0];
  const named = isRecord(choice) && isRecord(choice["function"]) ? str(choice["function"]["name"]) : undefined;
  const name = named ?? (isRecord(first) && isRecord(first["function"]) ? str(first["function"]["name"]) : undefined) ?? "tool";
  return { id: `call_sim_${shortHash(JSON.stringify(body), 12)}`, name, arguments: JSON.stringify({ query: question.slice(0, 100) }) };
}

/** OpenAI chat completions, plain or streamed as SSE, with the stream faults (slow, mid-stream error, drop). */
export async function chatCompletion(ctx: Ctx, provider: string, opts: { systemFingerprint: boolean; modelOverride?: string }): Promise<void> {
  const fault = ctx.fault;
  // A slow server is slow before it answers anything, a refusal included.
  await sleep(fault?.kind === "slow" ? fault.firstByteDelayMs ?? 0 : 0);
  const body = ctx.json;
  if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
  const model = opts.modelOverride ?? str(body["model"]);
  if (!model) return sendError(ctx, 400, "you must provide a model parameter");
  const messages = body["messages"];
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every((m) => isRecord(m) && typeof m["role"] === "string")) {
    return sendError(ctx, provider === "hf-inference" ? 422 : 400, "messages: expected a non-empty array of {role, content}");
  }
  const plan = planChat(provider, model, body, messages, opts.systemFingerprint);
  const lastUser: unknown = (messages as unknown[]).findLast((m) => isRecord(m) && m["role"] === "user");
  const toolCall = plannedToolCall(body, messages, isRecord(lastUser) ? contentText(lastUser["content"]) : "");
  if (toolCall) {
    plan.tokens = [];
    plan.finishReason = "tool_calls";
  }
  const completionTokens = plan.tokens.length + (toolCall ? words(toolCall.arguments).length : 0);
  const usage = { prompt_tokens: plan.promptTokens, completion_tokens: completionTokens, total_tokens: plan.promptTokens + completionTokens };
  const created = nowSeconds();

  if (body["stream"] !== true) {
    if (fault?.kind === "slow") await sleep(fault.tokenDelayMs * completionTokens);
    const answer: Record<string, Json | undefined> = {
      id: plan.id,
      object: "chat.completion",
      created,
      model: plan.model,
      ...(plan.fingerprint ? { system_fingerprint: plan.fingerprint } : {}),
      choices: [
        {
          index: 0,
          message: toolCall
            ? { role: "assistant", content: null, tool_calls: [{ id: toolCall.id, type: "function", function: { name: toolCall.name, arguments: toolCall.arguments } }] }
            : { role: "assistant", content: plan.tokens.join("") },
          logprobs: null,
          finish_reason: plan.finishReason,
        },
      ],
      usage,
    };
    return sendJson(ctx, 200, answer);
  }

  if (fault?.kind === "wrong-content-type") {
    const answer = { id: plan.id, object: "chat.completion", created, model: plan.model, choices: [{ index: 0, message: { role: "assistant", content: plan.tokens.join("") }, finish_reason: plan.finishReason }], usage };
    return send(ctx, 200, fault.contentType ?? "application/json", JSON.stringify(answer));
  }

  const chunk = (delta: Record<string, Json>, finish: string | null, extra: Record<string, Json> = {}): string =>
    `data: ${JSON.stringify({
      id: plan.id,
      object: "chat.completion.chunk",
      created,
      model: plan.model,
      ...(plan.fingerprint ? { system_fingerprint: plan.fingerprint } : {}),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...extra,
    })}\n\n`;

  const { res } = ctx;
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
  res.flushHeaders();
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  const delay = fault?.kind === "slow" ? fault.tokenDelayMs : ctx.sim.tokenDelayMs;
  const write = (text: string): boolean => {
    if (closed) return false;
    res.write(text);
    return true;
  };
  if (!write(chunk({ role: "assistant", content: "" }, null))) return;
  if (toolCall) {
    // As OpenAI streams a call: its id and name first, then the arguments.
    if (!write(chunk({ tool_calls: [{ index: 0, id: toolCall.id, type: "function", function: { name: toolCall.name, arguments: "" } }] }, null))) return;
    await sleep(delay);
    if (!write(chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.arguments } }] }, null))) return;
  }
  for (let i = 0; i < plan.tokens.length; i++) {
    if (fault?.kind === "mid-stream-error" && i === (fault.afterChunks ?? 1)) {
      const message = fault.message ?? "Simulated failure while generating";
      const errorEvent = provider === "hf-inference" ? { error: message, error_type: "generation" } : { error: { message, type: "server_error", code: null } };
      write(`data: ${JSON.stringify(errorEvent)}\n\n`);
      res.end();
      return;
    }
    if (fault?.kind === "drop" && dropWhen(fault) === "mid-body" && i === (fault.afterChunks ?? 1)) {
      ctx.record.dropped = true;
      res.socket?.destroy();
      return;
    }
    await sleep(delay);
    if (!write(chunk({ content: plan.tokens[i] ?? "" }, null))) return;
  }
  write(chunk({}, plan.finishReason, { usage }));
  write("data: [DONE]\n\n");
  res.end();
}

/** OpenAI completions; with `stream: true`, SSE chunks whose `choices[0].text` carries each piece, as Together sends them. */
async function completion(ctx: Ctx): Promise<void> {
  const body = ctx.json;
  if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
  const prompt = str(body["prompt"]) ?? "";
  const model = str(body["model"]) ?? "unknown";
  const full = ` and so the simulated ${ctx.up.provider ?? "provider"} completion continues (${shortHash(prompt, 6)}).`;
  // Cut at max_tokens, as OpenAI's API is, which then says "length".
  const pieces = full.split(/(?<=\s)/);
  const limit = typeof body["max_tokens"] === "number" ? body["max_tokens"] : Infinity;
  const text = pieces.slice(0, limit).join("");
  const finishReason = pieces.length > limit ? "length" : "stop";
  const completionTokens = words(text).length;
  const promptTokens = words(prompt).length;
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const head = { id: `cmpl-sim-${shortHash(JSON.stringify(body), 24)}`, object: "text_completion", created: nowSeconds(), model };
  const fault = ctx.fault;
  if (body["stream"] !== true) {
    await sleep(answerDelayMs(fault));
    return sendJson(ctx, 200, { ...head, choices: [{ index: 0, text, logprobs: null, finish_reason: finishReason, seed: 42 }], usage });
  }
  if (fault?.kind === "slow") await sleep(fault.firstByteDelayMs ?? 0);
  const { res } = ctx;
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
  res.flushHeaders();
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  for (const piece of text.split(/(?<=\s)/)) {
    await sleep(fault?.kind === "slow" ? fault.tokenDelayMs : ctx.sim.tokenDelayMs);
    if (closed) return;
    res.write(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, text: piece, logprobs: null, finish_reason: null }] })}\n\n`);
  }
  if (closed) return;
  res.write(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, text: "", logprobs: null, finish_reason: finishReason }], usage })}\n\n`);
  res.write("data: [DONE]\n\n");
  res.end();
}

function embeddings(ctx: Ctx): void {
  const body = ctx.json;
  if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
  const raw = body["input"] ?? body["inputs"];
  const inputs = typeof raw === "string" ? [raw] : Array.isArray(raw) && raw.every((x) => typeof x === "string") ? raw : null;
  if (!inputs) return sendError(ctx, 400, "input: expected a string or an array of strings");
  sendJson(ctx, 200, {
    object: "list",
    model: str(body["model"]) ?? "unknown",
    data: inputs.map((text, index) => ({ object: "embedding", index, embedding: embedding(text) })),
    usage: { prompt_tokens: inputs.reduce((n, t) => n + words(t).length, 0), total_tokens: inputs.reduce((n, t) => n + words(t).length, 0) },
  });
}

function imageGeneration(ctx: Ctx, imageAnswer: ImageAnswer): void {
  const body = ctx.json;
  if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
  const prompt = str(body["prompt"]);
  if (!prompt) return sendError(ctx, 400, "prompt: field required");
  const b64 = makePng(prompt).toString("base64");
  sendJson(ctx, 200, imageAnswer({ prompt, model: str(body["model"]) ?? "unknown", b64 }));
}
