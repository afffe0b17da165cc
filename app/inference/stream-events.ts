/**
 * The one event union of the gateway's text/event-stream answers (shared by the server and the
 * chat demo). Each SSE message is `event: <type>` + `data: <json of the event>`.
 */
export interface StreamUsage {
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  /** "provider" when the provider reported usage; "counted" when the gateway counted streamed chunks. */
  source: "provider" | "counted";
}

export interface StreamTiming {
  /** Request received -> first token sent, in ms. */
  timeToFirstTokenMs: number | null;
  totalMs: number;
  /** Completion tokens per second after the first token (null with fewer than two tokens). */
  tokensPerSecond: number | null;
}

export type StreamEvent =
  | { type: "token"; index: number; delta: string }
  | {
      type: "final";
      message: { role: "assistant"; content: string };
      finishReason: string | null;
      usage: StreamUsage;
      timing: StreamTiming;
      provider: string | null;
      model: string | null;
    }
  | { type: "error"; error: { status: number; code: string; message: string; hint?: string } }
  | { type: "done" };

export function isStreamEvent(value: unknown): value is StreamEvent {
  if (typeof value !== "object" || value === null || !("type" in value)) return false;
  const t = (value).type;
  return t === "token" || t === "final" || t === "error" || t === "done";
}

/**
 * Incremental SSE parser for the browser and tests: feed decoded text, get the events out. Only
 * `data:` lines matter (the `event:` name repeats the type).
 */
export function createStreamEventParser(onEvent: (event: StreamEvent) => void): (text: string) => void {
  let buffer = "";
  let data: string[] = [];
  return (text: string) => {
    buffer += text;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (line === "") {
        if (data.length > 0) {
          const parsed: unknown = JSON.parse(data.join("\n"));
          data = [];
          if (isStreamEvent(parsed)) onEvent(parsed);
        }
      } else if (line.startsWith("data:")) {
        data.push(line.slice(5).replace(/^ /, ""));
      }
    }
  };
}
