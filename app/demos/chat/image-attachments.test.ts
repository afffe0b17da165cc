import { describe, expect, it } from "vitest";
import { acceptsImages, MAX_IMAGE_BYTES, messageContent } from "#app/demos/chat/image-attachments.ts";

describe("messageContent", () => {
  it("keeps a plain string when no image is attached", () => {
    expect(messageContent("hello", [])).toBe("hello");
  });

  it("sends the text, then each image as an image_url part", () => {
    expect(messageContent("What is this?", ["data:image/png;base64,iVBOR", "data:image/jpeg;base64,/9j/"])).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
      { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/" } },
    ]);
    expect(messageContent("", ["data:image/png;base64,iVBOR"])).toEqual([{ type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } }]);
  });

  it("keeps the largest image's data: URL within the gateway's 8 MB", () => {
    expect(Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + "data:image/jpeg;base64,".length).toBeLessThanOrEqual(8_000_000);
  });

  it("offers images only to image-text-to-text models", () => {
    expect(acceptsImages("image-text-to-text")).toBe(true);
    expect(acceptsImages("text-generation")).toBe(false);
    expect(acceptsImages(null)).toBe(false);
  });
});
