/**
 * The one way a widget calls POST /api/inference. Text inputs go as the usual JSON body; a binary
 * input goes as multipart/form-data with a `request` field (the JSON body without `inputs`) and
 * the file in an `inputs` field. Answers: JSON {output, provider, timing}, media bytes with their
 * own content type, an event stream (text generation), or a JSON error {error: {code, message,
 * hint?, field?}}.
 */
import { readVisitorToken } from "#app/utils/visitor-token.ts";
import { createStreamEventParser, type StreamEvent } from "#app/inference/stream-events.ts";

export interface InferenceBody {
  model: string;
  task: string;
  provider?: string;
  endpoint?: string;
  inputs?: unknown;
  /** Chat: the conversation (the gateway's `messages`), for task "conversational". */
  messages?: ReadonlyArray<{ role: string; content: string }>;
  parameters?: Record<string, unknown>;
  stream?: boolean;
}

export interface RunError {
  code: string;
  message: string;
  hint: string | null;
  field: string | null;
  status: number;
}

export interface RunMetrics {
  /** From sending the request to the last byte of the answer. */
  elapsedMs: number;
  /** Bytes of the answer's body. */
  bytes: number;
}

export type RunOutcome =
  | { kind: "json"; output: unknown; provider: string | null; metrics: RunMetrics }
  | { kind: "media"; blob: Blob; contentType: string; provider: string | null; metrics: RunMetrics }
  | { kind: "text"; text: string; provider: string | null; metrics: RunMetrics }
  | { kind: "error"; error: RunError }
  | { kind: "offline"; message: string }
  | { kind: "aborted" };

export interface RunOptions {
  body: InferenceBody;
  /** A binary input, sent as the multipart `inputs` file. */
  file?: Blob;
  signal?: AbortSignal;
  /** Streamed text, as it arrives (only with body.stream). */
  onText?: (textSoFar: string) => void;
  /** A stream's final event, with the gateway's timing and usage (the comparison's metrics). */
  onFinal?: (event: Extract<StreamEvent, { type: "final" }>) => void;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The gateway's error body as a RunError; anything else as a generic one naming the status. */
export function toRunError(body: unknown, status: number): RunError {
  const e = isRecord(body) && isRecord(body["error"]) ? body["error"] : null;
  const s = (k: string) => (e && typeof e[k] === "string" ? e[k] : null);
  return { code: s("code") ?? "error", message: s("message") ?? `The request failed (${status}).`, hint: s("hint"), field: s("field"), status };
}

/**
 * The `request` field beside a file. The file is the whole input for most file tasks, so `inputs`
 * goes; visual and document QA keep theirs (`{question}`), the file being its image (ADR 0021).
 */
export function multipartRequest(body: InferenceBody): InferenceBody {
  if (isRecord(body.inputs)) return body;
  const { inputs: _inputs, ...rest } = body;
  return rest;
}

/** The fetch init for a body and optional file: JSON, or multipart when a file goes along. */
export function requestInit(body: InferenceBody, file: Blob | undefined, token: string | null): { headers: Record<string, string>; body: string | FormData } {
  const headers: Record<string, string> = { Accept: body.stream ? "text/event-stream" : "*/*" };
  if (token) headers["X-Provider-Token"] = token;
  if (!file) return { headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const form = new FormData();
  form.set("request", JSON.stringify(multipartRequest(body)));
  form.set("inputs", file, file instanceof File ? file.name : "input");
  // No Content-Type: the browser writes multipart/form-data with its boundary.
  return { headers, body: form };
}

export async function runInference({ body, file, signal, onText, onFinal }: RunOptions): Promise<RunOutcome> {
  const started = performance.now();
  const metrics = (bytes: number): RunMetrics => ({ elapsedMs: performance.now() - started, bytes });
  let res: Response;
  try {
    res = await fetch("/api/inference", { method: "POST", ...requestInit(body, file, readVisitorToken()), signal: signal ?? null });
  } catch (error) {
    if (signal?.aborted) return { kind: "aborted" };
    return { kind: "offline", message: error instanceof Error ? error.message : String(error) };
  }
  const provider = res.headers.get("x-modelyard-provider");
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  try {
    if (!res.ok) {
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: a proxy's page, say
      }
      return { kind: "error", error: toRunError(parsed, res.status) };
    }
    if (type.startsWith("text/event-stream") && res.body) {
      let text = "";
      let bytes = 0;
      let failed: RunError | null = null;
      const feed = createStreamEventParser((event) => {
        if (event.type === "token") {
          text += event.delta;
          onText?.(text);
        } else if (event.type === "final") {
          text = event.message.content;
          onText?.(text);
          onFinal?.(event);
        } else if (event.type === "error") {
          failed = { code: event.error.code, message: event.error.message, hint: event.error.hint ?? null, field: null, status: event.error.status };
        }
      });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        feed(decoder.decode(value, { stream: true }));
      }
      if (failed) return { kind: "error", error: failed };
      return { kind: "text", text, provider, metrics: metrics(bytes) };
    }
    if (type.startsWith("application/json")) {
      const raw = await res.text();
      const parsed: unknown = JSON.parse(raw);
      const output = isRecord(parsed) && "output" in parsed ? parsed["output"] : parsed;
      return { kind: "json", output, provider, metrics: metrics(new TextEncoder().encode(raw).byteLength) };
    }
    const blob = await res.blob();
    return { kind: "media", blob, contentType: type || blob.type, provider, metrics: metrics(blob.size) };
  } catch (error) {
    if (signal?.aborted) return { kind: "aborted" };
    return { kind: "offline", message: error instanceof Error ? error.message : String(error) };
  }
}

/** "1.2 s" / "850 ms" and "3.4 KB" for the result footer. */
export function formatMetrics(m: RunMetrics): { time: string; size: string } {
  const time = m.elapsedMs >= 1000 ? `${(m.elapsedMs / 1000).toFixed(1)} s` : `${Math.round(m.elapsedMs)} ms`;
  return { time, size: formatBytes(m.bytes) };
}

/** "512 B", "2.5 KB", "1.2 MB". */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`;
}
