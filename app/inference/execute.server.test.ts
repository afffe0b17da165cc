import { describe, expect, it } from "vitest";
import { textChars } from "#app/inference/execute.server.ts";

describe("textChars, which a daily token quota's estimate counts", () => {
  it("counts the texts of a request's messages, and an image as a fixed amount, not its data URL", () => {
    const image = `data:image/png;base64,${"A".repeat(1_000_000)}`;
    const messages = [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url: image, detail: "low" } }] },
    ];
    const texts = "Be brief.".length + "What is in this picture?".length;
    const withImage = textChars(messages);
    // The roles and part types are strings too; what matters is that the image adds its fixed share.
    expect(withImage - textChars([messages[0], { role: "user", content: [{ type: "text", text: "What is in this picture?" }] }])).toBe(85 * 4);
    expect(withImage).toBeLessThan(texts + 85 * 4 + 100);
    expect(textChars({ inputs: image })).toBe(85 * 4);
    expect(textChars("plain words")).toBe(11);
  });
});
