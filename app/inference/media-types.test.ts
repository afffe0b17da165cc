import { describe, expect, it } from "vitest";
import { sniffMedia, uploadLimit } from "#app/inference/media-types.ts";
import { makeFlac, makeMp4, makePng, makeWav } from "#tests/simulators/media.ts";

describe("sniffMedia", () => {
  it("tells formats by their bytes", () => {
    expect(sniffMedia(makePng("x"))?.mime).toBe("image/png");
    expect(sniffMedia(makeWav("x"))?.mime).toBe("audio/wav");
    expect(sniffMedia(makeFlac("x"))?.mime).toBe("audio/flac");
    expect(sniffMedia(makeMp4("x"))).toMatchObject({ mime: "video/mp4", kinds: ["audio", "video"] });
    expect(sniffMedia(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.mime).toBe("image/jpeg");
    expect(sniffMedia(Buffer.from("GIF89a......"))?.mime).toBe("image/gif");
    expect(sniffMedia(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))?.mime).toBe("image/webp");
    expect(sniffMedia(Buffer.from("ID3\x04\0\0\0\0"))?.mime).toBe("audio/mpeg");
    expect(sniffMedia(Buffer.from("OggS\0\x02"))?.mime).toBe("audio/ogg");
    expect(sniffMedia(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, ...Buffer.from("webm")]))?.mime).toBe("video/webm");
    expect(sniffMedia(Buffer.from("%PDF-1.7\n"))?.kinds).toEqual(["document"]);
    expect(sniffMedia(Buffer.from([0x42, 0x4d, 1, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]))?.mime).toBe("image/bmp");
    expect(sniffMedia(Buffer.from("II*\0"))?.mime).toBe("image/tiff");
    expect(sniffMedia(Buffer.from("{\"not\": \"media\"}"))).toBeNull();
  });
});

describe("uploadLimit", () => {
  it("gives a container that may be a recording the audio limit", () => {
    expect(uploadLimit(sniffMedia(makePng("x"))!)).toBe(10 * 1024 * 1024);
    expect(uploadLimit(sniffMedia(makeMp4("x"))!)).toBe(25 * 1024 * 1024);
  });
});
