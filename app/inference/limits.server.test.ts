import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { GatewayError } from "#app/inference/errors.server.ts";
import { RateLimiter, readNodeBodyLimited } from "#app/inference/limits.server.ts";

describe("RateLimiter", () => {
  it("allows `limit` requests per window per client and refills evenly", () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000 }, () => now);
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSec: 5 });
    expect(limiter.take("b").ok).toBe(true);
    now = 5_000;
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a").ok).toBe(false);
  });

  it("bounds the number of tracked clients", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 }, () => 0, 100);
    for (let i = 0; i < 1_000; i++) limiter.take(`client-${i}`);
    expect(limiter.size).toBeLessThanOrEqual(100);
  });
});

describe("readNodeBodyLimited", () => {
  // A Node request stream with no Content-Length, so the limit is checked as the bytes arrive.
  const req = (body: string): IncomingMessage => {
    const message = new IncomingMessage(new Socket());
    message.push(Buffer.from(body.slice(0, 50)));
    message.push(Buffer.from(body.slice(50)));
    message.push(null);
    return message;
  };

  it("returns bodies up to the limit", async () => {
    expect(await readNodeBodyLimited(req("x".repeat(100)), 100)).toBe("x".repeat(100));
  });

  it("refuses larger bodies with a 413 GatewayError", async () => {
    const error = await readNodeBodyLimited(req("x".repeat(101)), 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).body).toMatchObject({ status: 413, code: "body_too_large" });
  });
});
