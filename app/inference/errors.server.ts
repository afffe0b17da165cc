/**
 * Every error @huggingface/inference 3.13.1 throws (and the gateway's own), mapped to an HTTP
 * status, a stable code and a message. The library's validation messages reach the visitor
 * unchanged (400), as does a provider's refusal of the request itself (400, 413, 422 upstream:
 * answered 400, so no client retries it and /v1 does not fail over on it); provider faults are
 * 502, deadlines 504, unknown models 404. `hint` says the
 * same thing in plain words for the demo. Messages pass through redactSecrets before leaving.
 */
import { STATUS_CODES } from "node:http";
import { InferenceOutputError } from "@huggingface/inference";
import { type CredentialSource, providerKeyVariable, redactSecrets } from "#app/inference/credentials.server.ts";
import { MissingCredentialError, REQUEST_REFUSED_STATUSES, UpstreamRefusedError, type UpstreamObservation, refusalMessage } from "#app/inference/hub-fetch.server.ts";

export type GatewayErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "unknown_endpoint"
  | "endpoints_misconfigured"
  | "library_validation"
  | "hf_token_not_accepted"
  | "model_not_found"
  | "model_not_on_provider"
  | "no_default_model"
  | "tasks_unavailable"
  | "missing_token"
  | "token_rejected"
  | "server_key_rejected"
  | "provider_rate_limited"
  | "model_loading"
  | "unexpected_output"
  | "media_fetch_failed"
  | "chat_not_supported"
  | "not_event_stream"
  | "backend_error"
  | "upstream_error"
  | "upstream_bad_request"
  | "upstream_unreachable"
  | "upstream_refused"
  | "answer_too_large"
  | "deadline_exceeded"
  | "server_shutting_down"
  | "rate_limited"
  | "body_too_large"
  | "unsupported_media_type"
  | "template_invalid"
  | "client_closed"
  | "inference_failed"
  | "sign_in_required"
  | "invalid_token"
  | "insufficient_scope"
  | "quota_exceeded"
  | "anonymous_budget_spent"
  | "bill_to_not_allowed";

export interface GatewayErrorBody {
  status: number;
  code: GatewayErrorCode;
  message: string;
  hint?: string;
  upstreamStatus?: number;
  retryAfterSec?: number;
  /** The request field at fault (`model`, `parameters.temperature`), or null for the body as a whole. */
  field?: string | null;
}

/** An error the gateway raises itself, already classified. */
export class GatewayError extends Error {
  override name = "GatewayError";
  constructor(readonly body: GatewayErrorBody) {
    super(body.message);
  }
}

/** Milliseconds as seconds to a tenth, for messages. */
export function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/** The deadline controller aborts with this reason. */
export class DeadlineExceededError extends Error {
  override name = "DeadlineExceededError";
  constructor(
    readonly deadlineMs: number,
    message = `The inference call did not finish within ${seconds(deadlineMs)} s.`,
  ) {
    super(message);
  }
}

/** Shutdown's grace ran out before the provider answered: the caller is told to send it again. */
export class ShuttingDownError extends Error {
  override name = "ShuttingDownError";
  constructor() {
    super("The server is shutting down: this answer was cut short. Send the request again.");
  }
}

/** The visitor went away; nothing is sent back. */
export class ClientClosedError extends Error {
  override name = "ClientClosedError";
}

// The library's own input rules (src/lib/makeRequestOptions.ts, getProviderHelper.ts,
// getInferenceProviderMapping.ts, providers/fal-ai.ts), all answered 400 with the message unchanged.
const VALIDATION_RULES: Array<{ re: RegExp; code: GatewayErrorCode; hint: string; field: string }> = [
  { re: /^Provider \S+ is closed-source and does not support HF tokens\.$/, code: "hf_token_not_accepted", hint: "This provider does not accept Hugging Face tokens; use the provider's own key.", field: "provider" },
  { re: /^Cannot use endpointUrl with a third-party provider\.$/, code: "library_validation", hint: "A configured endpoint cannot be combined with a provider; pick one or the other.", field: "provider" },
  { re: /^Specifying both endpointUrl and provider is not supported\.$/, code: "library_validation", hint: "A configured endpoint cannot be combined with a provider; pick one or the other.", field: "provider" },
  { re: /^Model URLs are no longer supported\. Use endpointUrl instead\.$/, code: "library_validation", hint: "Give a model id like org/name, not a URL.", field: "model" },
  { re: /^No model provided, and no task has been specified\.$/, code: "library_validation", hint: "Say which model to run, or at least which task.", field: "model" },
  { re: /^Specifying a model is required when provider is 'auto'$/, code: "library_validation", hint: "Say which model to run.", field: "model" },
  { re: /^you need to provide a task name when using an external provider/, code: "library_validation", hint: "Say which task to run on this provider.", field: "task" },
  { re: /^Provider \S+ requires a model ID to be passed directly\.$/, code: "library_validation", hint: "This provider needs an explicit model id.", field: "model" },
  { re: /^Provider '.*' not supported\./, code: "library_validation", hint: "This provider is not one the inference library knows.", field: "provider" },
  { re: /^Task '.*' not supported for provider '.*'\./, code: "library_validation", hint: "This provider does not offer that task.", field: "task" },
  { re: /^Models from \S+ must be prefixed by /, code: "library_validation", hint: "Prefix the model id with the provider's name.", field: "model" },
  { re: /^Model .* is not supported for task .* and provider .*\. Supported task: .*\.$/, code: "library_validation", hint: "This provider serves the model for a different task.", field: "task" },
  { re: /^Unable to determine the input's content-type\./, code: "library_validation", hint: "Send the media as a data: URL with its type.", field: "inputs" },
  { re: /^Provider \S+ does not support blob type /, code: "library_validation", hint: "This provider does not accept that media type.", field: "inputs" },
];

/** Non-streaming errors arrive as JSON.stringify(error ?? detail): the provider's words, read as refusals are. */
function plainUpstreamMessage(raw: string): string {
  return refusalMessage(raw) ?? raw;
}

function isAbortLike(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "AbortError" || error.name === "TimeoutError");
}

function causeCode(error: unknown): string | null {
  if (error instanceof Error && typeof error.cause === "object" && error.cause !== null && "code" in error.cause) {
    const code = (error.cause).code;
    return typeof code === "string" ? code : null;
  }
  return null;
}

export interface ClassifyContext {
  observation: UpstreamObservation;
  /** Set when the gateway's deadline fired. */
  deadline: DeadlineExceededError | null;
  /** Set when the visitor disconnected. */
  clientClosed: boolean;
  /** Set when shutdown's grace ran out with this call still waiting on its provider. */
  shuttingDown?: boolean;
  secrets: ReadonlyArray<string | undefined>;
  provider: string | null;
  /** The task being run, named in hints about the provider's answer. */
  task?: string | null;
  /** Whose key the call carried: a provider refusing the server's own is not the caller's fault. */
  credential?: CredentialSource;
}

export function classifyError(error: unknown, ctx: ClassifyContext): GatewayErrorBody {
  const out = classifyUnredacted(error, ctx);
  const redacted = redactSecrets(out.message, ctx.secrets);
  const scrubbed: GatewayErrorBody = { ...out, message: redacted.length > MAX_MESSAGE_CHARS ? `${redacted.slice(0, MAX_MESSAGE_CHARS)}…` : redacted };
  if (out.hint) scrubbed.hint = redactSecrets(out.hint, ctx.secrets);
  return scrubbed;
}

function classifyUnredacted(error: unknown, ctx: ClassifyContext): GatewayErrorBody {
  if (error instanceof GatewayError) return error.body;
  if (ctx.clientClosed || error instanceof ClientClosedError) return { status: 499, code: "client_closed", message: "The client closed the request." };
  if (ctx.shuttingDown || error instanceof ShuttingDownError) {
    return { status: 503, code: "server_shutting_down", message: new ShuttingDownError().message, hint: "This server was stopping. Send the request again.", retryAfterSec: 1 };
  }
  if (ctx.deadline || error instanceof DeadlineExceededError) {
    const d = ctx.deadline ?? (error as DeadlineExceededError);
    return { status: 504, code: "deadline_exceeded", message: d.message, hint: "The provider took too long to answer. Try again, or try another provider." };
  }
  if (error instanceof MissingCredentialError) {
    return {
      status: 401,
      code: "missing_token",
      message: `No token is available for ${ctx.provider ?? "this provider"}: send one in the X-Provider-Token header, or configure HF_TOKEN or ${ctx.provider ? `MODELYARD_PROVIDER_KEY_${ctx.provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}` : "a provider key"} on the server.`,
      hint: "Add your Hugging Face token (or the provider's key) in Settings to run this demo.",
    };
  }
  if (error instanceof UpstreamRefusedError) return { status: 502, code: "upstream_refused", message: error.message };
  if (ctx.observation.tooLarge) {
    return {
      status: 502,
      code: "answer_too_large",
      message: ctx.observation.tooLarge.message,
      hint: "Ask for a smaller answer (fewer or smaller images, a shorter video, audio or text), or an admin can raise MODELYARD_INFERENCE_MAX_ANSWER_BYTES.",
    };
  }

  const message = error instanceof Error ? error.message : String(error);

  if (error instanceof InferenceOutputError) {
    if (/fetching or processing audio|Failed to fetch audio/i.test(message)) {
      return { status: 502, code: "media_fetch_failed", message, hint: "The provider made the audio but it could not be downloaded from its storage." };
    }
    // Black Forest Labs' result polls (3.13.1 words every way they fail so): a poll the API
    // refused is its status; five polls without "Ready" are an image that was not made in time.
    if (/Failed to fetch result from black forest labs API/.test(message)) {
      const status = ctx.observation.status;
      if (status !== null && status >= 400) return upstreamStatusError(status, message, ctx);
      return { status: 502, code: "unexpected_output", message, hint: "The provider did not report the image as ready after five polls, a second apart. Try again, or try another provider." };
    }
    const what = ctx.task ? `${ctx.task} answer` : "answer";
    return { status: 502, code: "unexpected_output", message, hint: `The provider's ${what} is not in the shape the inference library expects.` };
  }
  // The library parses a JSON answer with response.json(): a body cut short or not JSON at all.
  // An error status's body is parsed so too (an empty `application/json` 429 or 401): the status
  // is what went wrong, not the body.
  if (error instanceof SyntaxError && ctx.observation.status !== null && ctx.observation.status >= 400) return upstreamStatusError(ctx.observation.status, "", ctx);
  if (error instanceof SyntaxError) {
    const what = ctx.task ? `${ctx.task} answer` : "answer";
    return { status: 502, code: "unexpected_output", message: `The provider's ${what} is not valid JSON (${message}).`, hint: "The provider sent a broken answer. Try again, or try another provider." };
  }
  if (isAbortLike(error)) {
    return { status: 502, code: "upstream_unreachable", message: "The upstream request was aborted." };
  }

  for (const rule of VALIDATION_RULES) {
    if (rule.re.test(message)) return { status: 400, code: rule.code, message, hint: rule.hint, field: rule.field };
  }

  let m: RegExpExecArray | null;
  if ((m = /^Model (.+) does not exist$/.exec(message))) {
    return { status: 404, code: "model_not_found", message, hint: `No model called ${m[1]} is in this catalogue.` };
  }
  if (/^We have not been able to find inference provider information for model /.test(message) || /^No Inference Provider available for model /.test(message)) {
    return { status: 404, code: "model_not_on_provider", message, hint: "No inference provider serves this model here." };
  }
  if (/^No default model defined for task /.test(message)) {
    return { status: 400, code: "no_default_model", message, hint: "This task has no default model; pick a model.", field: "model" };
  }
  if (message === "Failed to load tasks definitions from Hugging Face Hub.") {
    return { status: 502, code: "tasks_unavailable", message, hint: "The task definitions could not be loaded, so no default model could be chosen; pick a model." };
  }
  if (/^Server .* does not seem to support chat completion\./.test(message)) {
    // 3.13.1 words a chat call's 400, 422 and 500 so too, but those refuse this request or are the
    // provider's own fault, not a server without chat; so is a 404 whose words refuse the model.
    const status = ctx.observation.status;
    if (status !== null && (REQUEST_REFUSED_STATUSES.has(status) || status >= 500 || (status === 404 && REFUSES_THE_MODEL.test(ctx.observation.refusal ?? "")))) {
      return upstreamStatusError(status, "", ctx);
    }
    return { status: 502, code: "chat_not_supported", message, hint: "This server does not speak the chat-completion API.", ...upstream(ctx) };
  }
  if (/^Server does not support event stream content type/.test(message)) {
    return { status: 502, code: "not_event_stream", message, hint: "The provider did not answer with a stream." };
  }
  if (/^Error forwarded from backend/.test(message)) {
    return { status: 502, code: "backend_error", message, hint: "The provider reported an error while writing the reply." };
  }
  if ((m = /^Server response contains error: (\d+)$/.exec(message))) {
    const s = Number(m[1]);
    return upstreamStatusError(s, message, ctx);
  }

  // Network-level failures: undici reports "fetch failed" (cause ECONNREFUSED, ECONNRESET, ...)
  // before headers, and "terminated" when the body is cut.
  if (message === "fetch failed" || message === "terminated" || causeCode(error) !== null || /other side closed|socket hang up/i.test(message)) {
    const code = causeCode(error);
    return {
      status: 502,
      code: "upstream_unreachable",
      message: message === "terminated" ? "The provider closed the connection mid-answer." : `Could not reach the provider${code ? ` (${code})` : ""}.`,
      hint: "The provider could not be reached or dropped the connection. Try again.",
    };
  }

  // Errors built from an upstream HTTP error body: the status comes from what the fetch saw.
  const status = ctx.observation.status;
  if (status !== null && status >= 400) return upstreamStatusError(status, plainUpstreamMessage(message), ctx);

  return { status: 502, code: "inference_failed", message: plainUpstreamMessage(message) || "The inference call failed." };
}

function upstream(ctx: ClassifyContext): { upstreamStatus?: number } {
  return ctx.observation.status !== null ? { upstreamStatus: ctx.observation.status } : {};
}

// "Model X does not exist", "model not found", "The model `x` is not supported", "unknown model".
const REFUSES_THE_MODEL = /\bmodel\b[^.]{0,200}?\b(?:does not exist|doesn't exist|not found|not supported|unsupported|not available|unavailable|is not served)\b|\b(?:unknown|invalid|unsupported) model\b/i;

/** Longest message sent back, cut after its secrets are removed (a provider's error body may be long). */
const MAX_MESSAGE_CHARS = 2_000;

/** What 3.13.1 says of an error answer whose words it could not read: nothing of the provider's. */
const WORDLESS = /^(?:|undefined|null|\[object Object\]|An error occurred while fetching the blob|Server response contains error: \d+)$/;

/**
 * The words for an error answer: the library's message, unless it lost the provider's (then what
 * the gateway's fetch read from the body); a refusal of the request is always the provider's own
 * (3.13.1 words a chat call's "does not seem to support chat completion"). Null when nothing says
 * anything, so no answer reads "[object Object]".
 */
function providerWords(status: number, message: string, ctx: ClassifyContext): string | null {
  const library = plainUpstreamMessage(message);
  const said = REQUEST_REFUSED_STATUSES.has(status) || WORDLESS.test(library.trim()) ? (ctx.observation.refusal ?? library) : library;
  return WORDLESS.test(said.trim()) ? null : said;
}

function upstreamStatusError(status: number, libraryMessage: string, ctx: ClassifyContext): GatewayErrorBody {
  const who = ctx.provider ?? "The provider";
  const said = providerWords(status, libraryMessage, ctx);
  const message = said ?? `${who} answered ${status} ${STATUS_CODES[status] ?? "error"} without saying why.`;
  // A provider whose mapping went stale refuses the model, not the request: the next provider may serve it.
  if ((REQUEST_REFUSED_STATUSES.has(status) || status === 404) && said !== null && REFUSES_THE_MODEL.test(said)) {
    return { status: 502, code: "upstream_error", message: `${who} refused the model (${status}): ${said}`, upstreamStatus: status, hint: "This provider does not serve the model now. Try another provider." };
  }
  if (REQUEST_REFUSED_STATUSES.has(status)) {
    // The same request would be refused again, by this provider or (too long, a bad value) the next.
    return {
      status: 400,
      code: "upstream_bad_request",
      message: said !== null ? `${who} refused the request (${status}): ${said}` : `${who} refused the request (${status} ${STATUS_CODES[status] ?? "error"}) without saying why.`,
      upstreamStatus: status,
      hint: "The provider refused the request as sent: the input may be too long for the model, or a parameter out of its range.",
      field: null,
    };
  }
  if ((status === 401 || status === 403) && ctx.credential !== undefined && ctx.credential !== "visitor" && ctx.credential !== "none") {
    // A 401 would tell an SDK the caller's own key is wrong; the server's key is the admin's to fix.
    const key = ctx.credential === "server-hf-token" ? "HF_TOKEN" : ctx.credential === "endpoint-key" ? "the endpoint's key" : ctx.provider ? providerKeyVariable(ctx.provider) : "the provider key";
    return {
      status: 502,
      code: "server_key_rejected",
      message: `${ctx.provider ?? "The provider"} refused this server's key (${key}) with ${status}: ${message}`,
      upstreamStatus: status,
      hint: "The provider refused this server's key: an admin needs to check it. Your own key, added in Settings, would be used instead.",
    };
  }
  if (status === 401 || status === 403) {
    return { status, code: "token_rejected", message, upstreamStatus: status, hint: "The provider rejected the token. Check it in Settings, or use the provider's own key." };
  }
  if (status === 429) {
    // The provider's Retry-After is passed on, so a client (the openai SDK among them) waits as long as asked.
    const wait = ctx.observation.retryAfterSec;
    return { status: 429, code: "provider_rate_limited", message, upstreamStatus: status, hint: "The provider is rate-limiting this token. Wait a little and try again.", ...(wait !== null ? { retryAfterSec: wait } : {}) };
  }
  if (status === 503) {
    return { status: 503, code: "model_loading", message, upstreamStatus: status, hint: "The model is still loading on the provider. Try again in a minute." };
  }
  return { status: 502, code: "upstream_error", message, upstreamStatus: status, hint: `The provider answered with an error (${status}).` };
}

/** Whether the failure is a 503 the gateway may retry (before any token was sent). */
export function isRetryableLoading(error: unknown, observation: UpstreamObservation): boolean {
  if (error instanceof GatewayError || error instanceof DeadlineExceededError || error instanceof ClientClosedError) return false;
  return observation.status === 503;
}
