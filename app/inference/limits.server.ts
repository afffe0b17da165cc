/**
 * The gateway's request-body size limit: a JSON 413 before any provider is called. (Rate limits
 * and quotas are counted in the database: app/auth/access.server.ts, ADR 0038.)
 */
import type { IncomingMessage } from "node:http";
import { GatewayError } from "#app/inference/errors.server.ts";

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError({
    status: 413,
    code: "body_too_large",
    message: `The request body is larger than ${maxBytes} bytes, the gateway's limit.`,
    hint: "The message or attachment is too large to send.",
    field: null,
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The body as text; invalid UTF-8 is a 400 about the body, never replacement characters in a model id. */
function decodeBody(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new GatewayError({ status: 400, code: "invalid_request", message: "The request body is not valid UTF-8.", field: null });
  }
}

/**
 * The body as text, refused (413) as soon as it declares or passes maxBytes; past the limit the
 * rest is read and dropped, so the 413 can still be sent.
 */
export function readNodeBodyLimited(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) {
    req.resume();
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
        chunks.length = 0;
        req.resume();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      req.off("error", onError);
      try {
        resolve(decodeBody(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const onError = (error: Error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      reject(error);
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
  });
}
