import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { GatewayError } from "#app/inference/errors.server.ts";
import { readNodeBodyLimited } from "#app/inference/limits.server.ts";

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
