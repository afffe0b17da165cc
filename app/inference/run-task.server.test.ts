import { describe, expect, it } from "vitest";
import { textGenerationChunk } from "#app/inference/run-task.server.ts";

describe("textGenerationChunk", () => {
  it("reads TGI's token events, dropping special tokens", () => {
    expect(textGenerationChunk({ token: { id: 1, text: " time", special: false, logprob: 0 }, generated_text: null, details: null })).toEqual({ kind: "text", delta: " time", finished: false, finishReason: null, usage: null });
    expect(textGenerationChunk({ token: { id: 2, text: "</s>", special: true }, generated_text: "x", details: { finish_reason: "length", generated_tokens: 7 } })).toEqual({
      kind: "text",
      delta: "",
      finished: true,
      finishReason: "length",
      usage: { promptTokens: null, completionTokens: 7, totalTokens: null },
    });
  });

  it("reads OpenAI completion chunks (choices[0].text), with usage on the last", () => {
    expect(textGenerationChunk({ object: "text_completion", choices: [{ index: 0, text: " and", finish_reason: null }] })).toEqual({ kind: "text", delta: " and", finished: false, finishReason: null, usage: null });
    expect(textGenerationChunk({ choices: [{ index: 0, text: "", finish_reason: "length" }], usage: { prompt_tokens: 4, completion_tokens: 9, total_tokens: 13 } })).toEqual({
      kind: "text",
      delta: "",
      finished: true,
      finishReason: "length",
      usage: { promptTokens: 4, completionTokens: 9, totalTokens: 13 },
    });
  });

  it("reads chat chunks (choices[0].delta.content) from providers whose text generation is a chat route", () => {
    expect(textGenerationChunk({ choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] })).toMatchObject({ delta: "Hi", finished: false });
    expect(textGenerationChunk({ choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }] })).toMatchObject({ delta: "" });
  });

  it("gives an empty delta for anything else", () => {
    expect(textGenerationChunk(null)).toEqual({ kind: "text", delta: "", finished: false, finishReason: null, usage: null });
    expect(textGenerationChunk({ choices: "no" })).toMatchObject({ delta: "" });
  });
});
