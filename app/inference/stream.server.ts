/**
 * Turns the library's stream into the gateway's SSE answer: token events as chunks arrive, then
 * one final event (message, usage, time to first token, tokens per second), then done; or an
 * error event then done when the stream fails after it started. The pump writes SSE text to a
 * sink: the Node adapter (node-adapter.server.ts) writes it to the socket.
 */
import { ShuttingDownError } from "#app/inference/errors.server.ts";
import type { ChunkStream, StreamChunk } from "#app/inference/run-task.server.ts";
import type { StreamEvent, StreamUsage } from "#app/inference/stream-events.ts";
import { activeStreams } from "#app/utils/metrics.server.ts";

/** One SSE message. Token events, one per streamed token, skip JSON.stringify of the whole object. */
export function eventText(event: StreamEvent): string {
  if (event.type === "token") {
    // Same bytes as JSON.stringify(event): keys in the union's order.
    return `event: token\ndata: {"type":"token","index":${event.index},"delta":${JSON.stringify(event.delta)}}\n\n`;
  }
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** How a stream ended, for the encoder's last words. */
export interface StreamSummary {
  content: string;
  finishReason: string | null;
  usage: StreamUsage;
  timing: { timeToFirstTokenMs: number | null; totalMs: number; tokensPerSecond: number | null };
  provider: string | null;
  model: string | null;
}

/**
 * The SSE dialect a stream is written in: the gateway's own events (token, final, done, error) on
 * /api/inference, OpenAI's chunks on /v1 (app/openai-api). The pump does the counting either way.
 */
export interface StreamEncoder {
  /** The text for one upstream chunk ("" for nothing); `tokenIndex` numbers the chunks with text. */
  chunk(chunk: StreamChunk, tokenIndex: number): string;
  end(summary: StreamSummary): string;
  error(body: { status: number; code: string; message: string; hint?: string }): string;
}

export const GATEWAY_STREAM: StreamEncoder = {
  chunk: (chunk, index) => (chunk.delta === "" ? "" : eventText({ type: "token", index, delta: chunk.delta })),
  end: (s) =>
    eventText({ type: "final", message: { role: "assistant", content: s.content }, finishReason: s.finishReason, usage: s.usage, timing: s.timing, provider: s.provider, model: s.model }) +
    eventText({ type: "done" }),
  error: (error) => eventText({ type: "error", error }) + eventText({ type: "done" }),
};

/** Where the pump writes: SSE text as events are ready, then one close. */
export interface StreamSink {
  write(text: string): void;
  close(): void;
  /**
   * Undefined while the visitor takes what is written; otherwise a promise that settles once it
   * has drained what it holds (or has gone). The pump asks before each read from the provider, so
   * a visitor that stops reading stops the reads, and TCP backpressure reaches the provider.
   */
  ready(): Promise<void> | undefined;
}

export interface StreamPumpOptions {
  first: IteratorResult<StreamChunk>;
  rest: ChunkStream;
  /** performance.now() when the request arrived. */
  startedAt: number;
  provider: string | null;
  model: string | null;
  /** Classifies a failure after the stream started (redacted). */
  toError: (error: unknown) => { status: number; code: string; message: string; hint?: string };
  /** Called once with how the stream ended, for the log line. */
  onEnd: (summary: { outcome: "ok" | "error" | "cancelled"; tokens: number; ttftMs: number | null; totalMs: number; errorCode?: string; errorStatus?: number; promptTokens?: number | null; completionTokens?: number | null }) => void;
  /** Aborts the upstream request (the visitor went away). */
  abortUpstream: () => void;
  /** True once the visitor has gone (the request was aborted before the body was cancelled). */
  clientGone: () => boolean;
  /**
   * Aborts when the upstream call is cut (a deadline, the visitor gone): a pump waiting for a
   * visitor that does not drain stops waiting, and its next read fails with the cut's reason.
   */
  upstreamSignal: AbortSignal;
}

export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

// Streams being written now, each with its way to be cut short (shutdown past its grace).
const inFlight = new Set<() => void>();

/** How many streamed answers are being written now. */
export function activeStreamCount(): number {
  return inFlight.size;
}

/**
 * Ends every stream in flight with an error event in its own dialect, then done, and aborts its
 * upstream call: what shutdown does once its grace has passed (cli/serve-command.ts). Returns how
 * many were ended.
 */
export function endActiveStreams(): number {
  const ending = [...inFlight];
  for (const end of ending) end();
  return ending.length;
}

const SHUTTING_DOWN = { status: 503, code: "server_shutting_down", message: new ShuttingDownError().message };

/**
 * Runs the stream into `sink`. Returns cancel(), for when the visitor goes away: it stops the
 * pump, aborts upstream and lets the library's reader release its socket.
 */
export function pumpStream(opts: StreamPumpOptions, sink: StreamSink, encoder: StreamEncoder = GATEWAY_STREAM): () => void {
  let cancelled = false;
  // Set once the stream has ended by itself (its onEnd called): a visitor whose socket closes
  // before the last bytes were flushed to it then cancels nothing, and the call is not recorded,
  // charged and counted a second time as cancelled.
  let ended = false;
  let counted = 0;
  let firstTokenAt: number | null = null;
  let open = true;
  const settle = () => {
    if (!open) return;
    open = false;
    inFlight.delete(cutShort);
    activeStreams.dec();
  };
  const cutShort = () => {
    if (cancelled) return;
    sink.write(encoder.error(SHUTTING_DOWN));
    cancelled = true;
    settle();
    opts.abortUpstream();
    opts.rest.return().catch(() => {});
    opts.onEnd({ outcome: "error", tokens: counted, ttftMs: firstTokenAt === null ? null : firstTokenAt - opts.startedAt, totalMs: performance.now() - opts.startedAt, errorCode: SHUTTING_DOWN.code, errorStatus: SHUTTING_DOWN.status });
    sink.close();
  };
  inFlight.add(cutShort);
  activeStreams.inc();
  const run = async () => {
    let content = "";
    let index = 0;
    let lastTokenAt: number | null = null;
    let finishReason: string | null = null;
    let reported: StreamUsage | null = null;
    let model = opts.model;
    const emit = (text: string) => {
      if (!cancelled && text !== "") sink.write(text);
    };
    const handle = (chunk: StreamChunk) => {
      if (chunk.usage) reported = { ...chunk.usage, source: "provider" };
      if (chunk.kind === "chat") {
        if (chunk.finishReason) finishReason = chunk.finishReason;
        if (chunk.model) model = chunk.model;
      } else if (chunk.finished) finishReason = finishReason ?? "stop";
      emit(encoder.chunk(chunk, index));
      if (chunk.delta === "") return;
      const now = performance.now();
      firstTokenAt ??= now;
      lastTokenAt = now;
      counted += 1;
      content += chunk.delta;
      index += 1;
    };
    try {
      if (!opts.first.done) handle(opts.first.value);
      while (!cancelled) {
        const wait = sink.ready();
        if (wait) await settledOrAborted(wait, opts.upstreamSignal);
        if (cancelled) break;
        const next = await opts.rest.next();
        if (next.done) break;
        handle(next.value);
      }
      if (cancelled) return;
      const end = performance.now();
      const usage: StreamUsage = reported ?? { promptTokens: null, completionTokens: counted, totalTokens: null, source: "counted" };
      const completion = usage.completionTokens ?? counted;
      const genSeconds = firstTokenAt !== null && lastTokenAt !== null ? (lastTokenAt - firstTokenAt) / 1000 : 0;
      const ttft = firstTokenAt !== null ? firstTokenAt - opts.startedAt : null;
      emit(
        encoder.end({
          content,
          finishReason,
          usage,
          timing: {
            timeToFirstTokenMs: ttft === null ? null : round(ttft),
            totalMs: round(end - opts.startedAt),
            tokensPerSecond: completion > 1 && genSeconds > 0 ? round((completion - 1) / genSeconds) : null,
          },
          provider: opts.provider,
          model,
        }),
      );
      settle();
      ended = true;
      opts.onEnd({ outcome: "ok", tokens: counted, ttftMs: ttft, totalMs: end - opts.startedAt, promptTokens: usage.promptTokens, completionTokens: completion });
      sink.close();
    } catch (error) {
      if (cancelled) return;
      if (opts.clientGone()) {
        // Nobody is listening: end quietly, as a cancellation.
        cancelled = true;
        settle();
        opts.onEnd({ outcome: "cancelled", tokens: counted, ttftMs: firstTokenAt === null ? null : firstTokenAt - opts.startedAt, totalMs: performance.now() - opts.startedAt });
        sink.close();
        return;
      }
      const body = opts.toError(error);
      settle();
      ended = true;
      emit(encoder.error(body));
      opts.onEnd({ outcome: "error", tokens: counted, ttftMs: firstTokenAt === null ? null : firstTokenAt - opts.startedAt, totalMs: performance.now() - opts.startedAt, errorCode: body.code, errorStatus: body.status });
      sink.close();
    }
  };
  void run();
  return () => {
    if (cancelled || ended) return;
    cancelled = true;
    settle();
    opts.abortUpstream();
    // Let the library's reader release the socket.
    opts.rest.return().catch(() => {});
    // The tokens streamed before the visitor left were generated, and a daily quota counts them.
    opts.onEnd({ outcome: "cancelled", tokens: counted, ttftMs: firstTokenAt === null ? null : firstTokenAt - opts.startedAt, totalMs: performance.now() - opts.startedAt });
  };
}

/** Resolves when `wait` settles or `signal` aborts, whichever is first, leaving no listener behind. */
function settledOrAborted(wait: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    wait.then(done, done);
  });
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
