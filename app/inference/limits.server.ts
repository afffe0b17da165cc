/**
 * Per-client rate limit (token bucket) and request-body size limit for the gateway. Both answer
 * with a JSON error (429 with Retry-After, 413) before any provider is called.
 */
import type { IncomingMessage } from "node:http";
import { GatewayError } from "#app/inference/errors.server.ts";
import { Lru } from "#app/utils/lru.ts";

export interface RateLimitConfig {
  /** Requests allowed per window and client. */
  limit: number;
  windowMs: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Token bucket per client key: `limit` requests, refilled evenly over `windowMs`. */
export class RateLimiter {
  private readonly buckets: Lru<Bucket>;
  private lastSweep = 0;

  constructor(
    private readonly config: RateLimitConfig,
    private readonly now: () => number = () => Date.now(),
    /** Bound on tracked clients, so a flood of distinct addresses cannot grow memory without end. */
    maxClients = 50_000,
  ) {
    this.buckets = new Lru({ maxEntries: maxClients });
  }

  /** Takes one request from the client's bucket; returns seconds to wait when it is empty. */
  take(clientKey: string): { ok: true } | { ok: false; retryAfterSec: number } {
    const now = this.now();
    this.sweep(now);
    const rate = this.config.limit / this.config.windowMs;
    const bucket = this.buckets.get(clientKey) ?? { tokens: this.config.limit, updatedAt: now };
    bucket.tokens = Math.min(this.config.limit, bucket.tokens + (now - bucket.updatedAt) * rate);
    bucket.updatedAt = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(clientKey, bucket);
      return { ok: true };
    }
    this.buckets.set(clientKey, bucket);
    return { ok: false, retryAfterSec: Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000)) };
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    // Full buckets carry no information: drop them once a window, and the oldest when over the cap.
    if (now - this.lastSweep >= this.config.windowMs) {
      this.lastSweep = now;
      for (const [key, b] of [...this.buckets.entries()]) {
        if (now - b.updatedAt >= this.config.windowMs) this.buckets.delete(key);
      }
    }
  }
}

export function rateLimitError(retryAfterSec: number, limit: RateLimitConfig): GatewayError {
  return new GatewayError({
    status: 429,
    code: "rate_limited",
    message: `Too many inference requests from this client: at most ${limit.limit} per ${Math.round(limit.windowMs / 1000)} s. Try again in ${retryAfterSec} s.`,
    hint: `You are sending requests too quickly. Wait ${retryAfterSec} s and try again.`,
    retryAfterSec,
  });
}

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
