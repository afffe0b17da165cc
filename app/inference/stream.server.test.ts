/**
 * The stream pump's contract with its adapter: one onEnd per stream, however it ends, so a call
 * writes one log line, one usage record and settles its quota reservation once.
 */
import { describe, expect, it } from "vitest";
import type { ChunkStream, StreamChunk } from "#app/inference/run-task.server.ts";
import { pumpStream, type StreamPumpOptions } from "#app/inference/stream.server.ts";

const chunk = (delta: string): StreamChunk => ({ kind: "chat", delta, finishReason: null, usage: null, model: null, raw: null });

function chunks(deltas: string[], failWith?: Error): ChunkStream {
  const gen = (async function* (): AsyncGenerator<StreamChunk, undefined> {
    for (const d of deltas) yield chunk(d);
    if (failWith) throw failWith;
    return undefined;
  })();
  return { next: () => gen.next(), return: () => gen.return(undefined) };
}

type End = Parameters<StreamPumpOptions["onEnd"]>[0];

/** Pumps `rest` into a sink that records what was written; resolves with cancel() once the pump ends by itself. */
async function pumpToTheEnd(rest: ChunkStream) {
  const ends: End[] = [];
  let aborted = 0;
  let closed!: () => void;
  const wasClosed = new Promise<void>((resolve) => (closed = resolve));
  const cancel = pumpStream(
    {
      first: await rest.next(),
      rest,
      startedAt: performance.now(),
      provider: "together",
      model: "m",
      toError: () => ({ status: 502, code: "backend_error", message: "broke" }),
      onEnd: (s) => ends.push(s),
      abortUpstream: () => (aborted += 1),
      clientGone: () => false,
      upstreamSignal: new AbortController().signal,
    },
    { write: () => {}, close: () => closed(), ready: () => undefined },
  );
  await wasClosed;
  return { cancel, ends, aborted: () => aborted };
}

describe("pumpStream", () => {
  it.each([
    ["finished", undefined, "ok"],
    ["failed", new Error("Error forwarded from backend: broke"), "error"],
  ] as const)("a stream that %s ends once: a visitor leaving afterwards (its socket not yet drained) records nothing more", async (_how, failWith, outcome) => {
    const pumped = await pumpToTheEnd(chunks(["a ", "b ", "c"], failWith));
    expect(pumped.ends).toMatchObject([{ outcome, tokens: 3 }]);
    // The adapter calls cancel() when the socket closes before the answer was flushed to it.
    pumped.cancel();
    expect(pumped.ends).toHaveLength(1);
    expect(pumped.aborted()).toBe(0);
  });
});
