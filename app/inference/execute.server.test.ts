import { describe, expect, it } from "vitest";
import { estimatedTokens, textChars, worstCaseTokens } from "#app/inference/execute.server.ts";

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
    expect(textChars("plain words")).toBe(11);
  });

  it("counts text that merely starts with data: by its length, an image only in a chat image part", () => {
    const text = `data:${"x".repeat(108_000)}`;
    expect(textChars(text)).toBe(108_005);
    expect(textChars({ inputs: text })).toBe(108_005);
    // An inline image's URL as text is text, wherever it sits outside an image part.
    const image = `data:image/png;base64,${"A".repeat(1_000)}`;
    expect(textChars({ inputs: image })).toBe(image.length);
    expect(textChars([{ role: "user", content: [{ type: "text", text }] }])).toBe("user".length + "text".length + text.length);
    expect(textChars({ type: "image_url", image_url: { url: image } })).toBe(85 * 4);
    // An image part with text for a URL is counted as that text; one pointing elsewhere as an image at least.
    expect(textChars({ type: "image_url", image_url: { url: text } })).toBe("image_url".length + text.length);
    expect(textChars({ type: "image_url", image_url: { url: "https://example.com/cat.png" } })).toBe(85 * 4);
    // 108k characters of text are some 27k tokens of a quota, not 85.
    const call = { task: "text-generation", model: "org/m", provider: "hf-inference", endpointUrl: undefined, accessToken: undefined, inputs: text, messages: undefined, parameters: { max_new_tokens: 10 }, billTo: undefined };
    expect(worstCaseTokens(call, { maxTokens: 4096, choices: 4, imageSide: 2048, steps: 100, frames: 241, speechChars: 5000 })).toBe(27_002 + 10);
  });
});

describe("estimatedTokens, charged when the provider counted none", () => {
  it("counts a TGI answer's text once, not again in the tokens its details list", () => {
    const call = { task: "text-generation", inputs: "Once upon a time", messages: undefined };
    const text = { generated_text: "Once upon a time and the simulated model" };
    const tokens = [" and", " the", " simulated", " model"].map((t, i) => ({ id: i, text: t, logprob: -0.1, special: false }));
    const withDetails = { ...text, details: { finish_reason: "length", generated_tokens: 4, seed: null, prefill: [], tokens } };
    expect(estimatedTokens(call, withDetails)).toBe(estimatedTokens(call, text));
    expect(estimatedTokens({ ...call, task: "text-classification" }, text)).toBeUndefined();
  });
});

describe("worstCaseTokens, which a daily token quota holds while a call runs", () => {
  const caps = { maxTokens: 4096, choices: 4, imageSide: 2048, steps: 100, frames: 241, speechChars: 5000 };
  const call = (task: string | null, parameters: Record<string, unknown> | undefined, inputs: unknown = undefined, messages: unknown[] | undefined = undefined) => ({
    task,
    model: "org/m",
    provider: "together",
    endpointUrl: undefined,
    accessToken: undefined,
    inputs,
    messages,
    parameters,
    billTo: undefined,
  });

  it("is the prompt's estimate and the longest answer times the answers asked for", () => {
    const messages = [{ role: "user", content: "x".repeat(36) }];
    expect(worstCaseTokens(call("conversational", { max_tokens: 10, n: 3 }, undefined, messages), caps)).toBe(10 + 30);
    // A length wherever it sits in the parameters, the largest of them.
    expect(worstCaseTokens(call("summarization", { generate_parameters: { max_new_tokens: 7, max_length: 9 } }, "y".repeat(8)), caps)).toBe(2 + 9);
    // No length set: the token cap, as nothing else bounds what the provider generates.
    expect(worstCaseTokens(call("text-generation", undefined, "z".repeat(4)), caps)).toBe(1 + 4096);
  });

  it("holds nothing for a call that generates no text", () => {
    expect(worstCaseTokens(call("text-classification", undefined, "a long text to classify"), caps)).toBe(0);
    expect(worstCaseTokens(call(null, undefined, "anything"), caps)).toBe(0);
  });
});
