import { describe, expect, it } from "vitest";
import { GatewayError } from "#app/inference/errors.server.ts";
import { boundaryOf, MultipartParser } from "#app/inference/multipart.server.ts";
import { makePng } from "#tests/simulators/media.ts";

const BOUNDARY = "----sim7MA4YWxkTrZu0gW";

function form(parts: Array<{ name: string; body: Buffer | string; filename?: string; type?: string }>): Buffer {
  const chunks: Buffer[] = [Buffer.from("preamble to ignore\r\n")];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`));
    chunks.push(typeof p.body === "string" ? Buffer.from(p.body) : p.body);
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\nepilogue`));
  return Buffer.concat(chunks);
}

/** Feeds the body in chunks of `size` bytes, so delimiters and headers straddle chunk edges. */
function parse(body: Buffer, size: number, maxRequestBytes = 1024) {
  const parser = new MultipartParser(BOUNDARY, maxRequestBytes);
  for (let i = 0; i < body.length; i += size) parser.push(body.subarray(i, i + size));
  return parser.end();
}

function refusal(fn: () => unknown): GatewayError["body"] {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError) return error.body;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("boundaryOf", () => {
  it("reads quoted and bare boundaries", () => {
    expect(boundaryOf(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b"')).toBe("a b");
    expect(boundaryOf("multipart/form-data")).toBeNull();
  });
});

describe("MultipartParser", () => {
  const png = makePng("a cat");
  const body = form([
    { name: "request", body: JSON.stringify({ model: "google/vit-base-patch16-224" }) },
    // The stated type lies: the bytes decide.
    { name: "inputs", body: png, filename: "cat.wav", type: "audio/wav" },
  ]);

  it.each([1, 7, 64, 100_000])("reads the request and the file whatever the chunking (%i-byte chunks)", (size) => {
    const out = parse(body, size);
    expect(JSON.parse(out.request ?? "")).toEqual({ model: "google/vit-base-patch16-224" });
    expect(out.file?.bytes.equals(png)).toBe(true);
    expect(out.file?.media.mime).toBe("image/png");
    expect(out.file?.filename).toBe("cat.wav");
  });

  it("a form without a file has only the request", () => {
    expect(parse(form([{ name: "request", body: "{}" }]), 5)).toEqual({ request: "{}", fields: { request: "{}" }, file: null });
  });

  it("refuses a form without `request`, naming the field", () => {
    const e = refusal(() => parse(form([{ name: "inputs", body: png }]), 64));
    expect(e).toMatchObject({ status: 400, field: "request" });
    expect(e.message).toMatch(/needs a `request` field/);
  });

  it("refuses unknown and repeated fields, and a body cut before its closing boundary", () => {
    expect(refusal(() => parse(form([{ name: "extra", body: "x" }]), 64))).toMatchObject({ status: 400, field: "extra" });
    expect(refusal(() => parse(form([{ name: "request", body: "{}" }, { name: "request", body: "{}" }]), 64))).toMatchObject({ status: 400, field: "request" });
    const whole = form([{ name: "request", body: "{}" }]);
    expect(refusal(() => parse(whole.subarray(0, whole.length - 20), 64)).message).toMatch(/closing boundary/);
  });

  it("refuses a file of no known type (415) from its first bytes", () => {
    const e = refusal(() => parse(form([{ name: "request", body: "{}" }, { name: "inputs", body: Buffer.from("just some text pretending to be an image, long enough to sniff it".repeat(2)), type: "image/png" }]), 16));
    expect(e).toMatchObject({ status: 415, code: "unsupported_media_type", field: "inputs" });
    expect(e.message).toMatch(/PNG, JPEG/);
  });

  it("stops at the limit of the file's kind (10 MB for images) with 413 naming the field", () => {
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]);
    const parser = new MultipartParser(BOUNDARY, 1024);
    const bytes = form([{ name: "request", body: "{}" }, { name: "inputs", body: big }]);
    let pushed = 0;
    const e = refusal(() => {
      for (let i = 0; i < bytes.length; i += 65536) {
        parser.push(bytes.subarray(i, i + 65536));
        pushed = i + 65536;
      }
    });
    expect(e).toMatchObject({ status: 413, code: "body_too_large", field: "inputs" });
    expect(e.message).toMatch(/PNG file in `inputs` is larger than 10 MB/);
    // It refused at the limit, not after reading the rest.
    expect(pushed).toBeLessThan(10 * 1024 * 1024 + 65536);
  });

  it("refuses a `request` field past the JSON limit (413)", () => {
    expect(refusal(() => parse(form([{ name: "request", body: "x".repeat(2000) }]), 64, 1024))).toMatchObject({ status: 413, field: "request" });
  });
});
