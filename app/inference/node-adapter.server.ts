/**
 * POST /api/inference on Node's http objects: the one handler for that URL, mounted by the
 * production server (server/app.ts) and by `react-router dev` (server/dev-inference-plugin.ts),
 * before any middleware or React Router (docs/decisions/0008-inference-fast-path.md). No Fetch
 * Request or Response is built; SSE text goes straight to the socket, with the events of one
 * upstream read written together (one syscall), each token still sent as soon as it arrives.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import type {
  GatewayInput,
  GatewayOutcome,
  InferenceGateway,
} from "#app/inference/gateway.server.ts";
import { getInferenceGateway } from "#app/inference/gateway-instance.server.ts";
import { readNodeBodyLimited } from "#app/inference/limits.server.ts";
import { readNodeMultipart } from "#app/inference/multipart.server.ts";
import {
  pumpStream,
  type StreamEncoder,
  type StreamPumpOptions,
} from "#app/inference/stream.server.ts";
import { writeJsonError } from "#app/utils/http.server.ts";
import { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from "#app/utils/database-errors.ts";
import { log } from "#app/utils/logger.server.ts";
import { noteUser } from "#app/utils/request-log.server.ts";

/** The process-wide gateway answers `req`; a bad MODELYARD_INFERENCE_* value answers 503 JSON. */
export function serveInference(
  req: IncomingMessage,
  res: ServerResponse<IncomingMessage>,
): void {
  let gateway: InferenceGateway;
  try {
    gateway = getInferenceGateway();
  } catch (error) {
    // The message names the variable, never a secret.
    writeJsonError(
      res,
      503,
      error instanceof Error
        ? error.message
        : "The inference gateway is misconfigured.",
      { code: "gateway_misconfigured" },
    );
    return;
  }
  void handleNodeRequest(gateway, req, res);
}

/** The gateway's view of a Node request; its signal aborts when the visitor goes away. */
export function gatewayInputOf(
  req: IncomingMessage,
  res: ServerResponse<IncomingMessage>,
): GatewayInput {
  const controller = new AbortController();
  // "close" before the response finished: the visitor went away.
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return {
    headers: { get: (name) => headerValue(req, name) },
    readBody: (maxBytes) => readNodeBodyLimited(req, maxBytes),
    readMultipart: (boundary, maxRequestBytes, shape) =>
      readNodeMultipart(req, boundary, maxRequestBytes, shape),
    signal: controller.signal,
    socketAddress: req.socket.remoteAddress ?? "",
    requestId: requestIdOfResponse(res),
    noteCaller: (userId) => noteUser(res, userId),
  };
}

/** The id server/app.ts gave the request (x-request-id), if it did. */
export function requestIdOfResponse(res: ServerResponse): string | undefined {
  const id = res.getHeader("x-request-id");
  return typeof id === "string" ? id : undefined;
}

/** One request through gateway.run(), answered on `res`. Never rejects. */
export async function handleNodeRequest(
  gateway: InferenceGateway,
  req: IncomingMessage,
  res: ServerResponse<IncomingMessage>,
): Promise<void> {
  try {
    const outcome = await gateway.run(gatewayInputOf(req, res));
    await writeOutcome(outcome, res);
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      res.setHeader("Retry-After", "5");
      writeJsonError(res, 503, DATABASE_DOWN_MESSAGE, { code: "database_unavailable" });
      log().error({ err: error }, "[inference] the database is not answering");
      return;
    }
    writeJsonError(res, 500, "The inference gateway failed unexpectedly.", {
      code: "internal_error",
    });
    log().error(`[inference] adapter error: ${error instanceof Error ? error.name : "unknown"}`);
  }
}

export function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Writes the gateway's answer; a stream in the encoder's SSE dialect (the gateway's own by default). */
export async function writeOutcome(
  outcome: GatewayOutcome,
  res: ServerResponse<IncomingMessage>,
  encoder?: StreamEncoder,
): Promise<void> {
  switch (outcome.kind) {
    case "json":
      res.writeHead(outcome.status, outcome.headers);
      // A body that never finished arriving is not waited for: the socket goes with the answer.
      if (outcome.headers["Connection"] === "close")
        res.once("finish", () => res.req.destroy());
      res.end(outcome.body);
      return;
    case "blob": {
      // Streamed from memory to the socket with backpressure; generated media never touch the disk.
      res.writeHead(outcome.status, {
        ...outcome.headers,
        "Content-Length": String(outcome.blob.size),
      });
      await pipeline(
        Readable.fromWeb(
          outcome.blob.stream() as NodeWebReadableStream<Uint8Array>,
        ),
        res,
      ).catch(() => {
        // The visitor went away mid-download: nothing is left to answer.
      });
      return;
    }
    case "stream":
      res.writeHead(outcome.status, outcome.headers);
      res.flushHeaders();
      pipeEvents(outcome.stream, res, encoder);
      return;
  }
}

/**
 * Pumps the stream into `res`. Events produced in the same tick (the library parses a whole
 * upstream read at once) go out in one write; a lone token goes out on its own, at once. Once a
 * write finds the socket's buffer past its high-water mark, the pump reads nothing more from the
 * provider until the socket drains: a visitor that stops reading would otherwise have the whole
 * answer buffered here.
 */
function pipeEvents(
  stream: StreamPumpOptions,
  res: ServerResponse,
  encoder?: StreamEncoder,
): void {
  let pending = "";
  let scheduled = false;
  let ended = false;
  // Set while the socket holds more than its high-water mark; `drained` settles once it does not.
  let drained: { promise: Promise<void>; resolve: () => void } | null = null;
  const release = () => {
    const waiting = drained;
    drained = null;
    waiting?.resolve();
  };
  res.on("drain", release);
  const flush = () => {
    scheduled = false;
    if (pending === "" || res.destroyed) return;
    const text = pending;
    pending = "";
    if (!res.write(text) && drained === null) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      drained = { promise, resolve };
    }
  };
  const cancel = pumpStream(
    stream,
    {
      write: (text) => {
        if (ended) return;
        pending += text;
        if (!scheduled) {
          scheduled = true;
          process.nextTick(flush);
        }
      },
      close: () => {
        if (ended) return;
        ended = true;
        const text = pending;
        pending = "";
        if (res.destroyed) return;
        res.end(text);
      },
      ready: () => drained?.promise,
    },
    encoder,
  );
  res.once("close", () => {
    res.off("drain", release);
    release();
    if (!res.writableFinished) {
      ended = true;
      cancel();
    }
  });
}
