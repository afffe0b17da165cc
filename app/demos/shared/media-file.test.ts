import { describe, expect, it } from "vitest";
import { checkFile, downloadName, fileNameFromUrl } from "#app/demos/shared/media-file.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PDF = new TextEncoder().encode("%PDF-1.7\n");
const WAV = new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt ");

describe("checkFile", () => {
  it("takes a file by its bytes and names its type", () => {
    expect(checkFile(PNG, 2048, ["image"])).toEqual({ ok: true, mime: "image/png", label: "PNG" });
    expect(checkFile(PDF, 2048, ["image", "document"])).toEqual({ ok: true, mime: "application/pdf", label: "PDF" });
  });

  it("refuses another kind, naming what it is and what is accepted", () => {
    expect(checkFile(WAV, 2048, ["image"])).toEqual({ ok: false, message: "This file is not an image (it is WAV). Accepted formats: PNG, JPEG, GIF, WebP, BMP, TIFF." });
    expect(checkFile(PDF, 2048, ["image"])).toMatchObject({ ok: false });
    expect(checkFile(new TextEncoder().encode("hello"), 5, ["image", "document"])).toEqual({
      ok: false,
      message: "This file is not an image or a PDF. Accepted formats: PNG, JPEG, GIF, WebP, BMP, TIFF, PDF.",
    });
  });

  it("refuses a file past the gateway's limit for its kind", () => {
    expect(checkFile(PNG, 10 * 1024 * 1024, ["image"]).ok).toBe(true);
    expect(checkFile(PNG, 10 * 1024 * 1024 + 1, ["image"])).toEqual({ ok: false, message: "This PNG is 10.0 MB; the limit is 10 MB." });
  });
});

describe("downloadName", () => {
  it("slugs the base and takes the extension from the content type", () => {
    expect(downloadName("A city above clouds, pastel colors", "image/png")).toBe("a-city-above-clouds-pastel-colors.png");
    expect(downloadName("Darth Vader surfing", "video/mp4; codecs=avc1")).toBe("darth-vader-surfing.mp4");
    expect(downloadName("!!!", "application/x-unknown")).toBe("output.bin");
  });
});

describe("fileNameFromUrl", () => {
  it("takes the last path segment", () => {
    expect(fileNameFromUrl("https://example.com/images/cat%20photo.jpg?x=1", "image")).toBe("cat photo.jpg");
    expect(fileNameFromUrl("https://example.com/", "image")).toBe("image");
    expect(fileNameFromUrl("not a url", "image")).toBe("image");
  });
});
