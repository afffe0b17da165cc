import { describe, expect, it } from "vitest";
import { formatMetrics, requestInit, toRunError } from "#app/demos/shared/run-inference.ts";

describe("requestInit", () => {
  it("sends text tasks as JSON", () => {
    const init = requestInit({ model: "a/b", task: "fill-mask", inputs: "x [MASK]" }, undefined, "hf_visitor123");
    expect(init.headers).toEqual({ Accept: "*/*", "Content-Type": "application/json", "X-Provider-Token": "hf_visitor123" });
    expect(JSON.parse(init.body as string)).toEqual({ model: "a/b", task: "fill-mask", inputs: "x [MASK]" });
  });

  it("sends a file as multipart: the JSON body without inputs in `request`, the file in `inputs`", async () => {
    const file = new File([new Uint8Array([137, 80, 78, 71])], "cat.png", { type: "image/png" });
    const init = requestInit({ model: "a/b", task: "image-classification", inputs: "ignored", parameters: { top_k: 2 } }, file, null);
    expect(init.headers).toEqual({ Accept: "*/*" });
    const form = init.body as FormData;
    expect(JSON.parse(form.get("request") as string)).toEqual({ model: "a/b", task: "image-classification", parameters: { top_k: 2 } });
    const sent = form.get("inputs") as File;
    expect(sent.name).toBe("cat.png");
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
  });

  it("keeps a question beside the image for visual and document QA", () => {
    const file = new File([new Uint8Array([137, 80, 78, 71])], "page.png", { type: "image/png" });
    const init = requestInit({ model: "a/b", task: "visual-question-answering", inputs: { question: "What is it?" } }, file, null);
    const form = init.body as FormData;
    expect(JSON.parse(form.get("request") as string)).toEqual({ model: "a/b", task: "visual-question-answering", inputs: { question: "What is it?" } });
    expect(form.get("inputs")).toBeInstanceOf(File);
  });
});

describe("toRunError", () => {
  it("reads the gateway's error body", () => {
    expect(toRunError({ error: { code: "invalid_request", message: "parameters.top_k must be at least 1", field: "parameters.top_k" } }, 400)).toEqual({
      code: "invalid_request",
      message: "parameters.top_k must be at least 1",
      hint: null,
      field: "parameters.top_k",
      status: 400,
    });
    expect(toRunError("<html>", 502)).toMatchObject({ code: "error", message: "The request failed (502)." });
  });
});

describe("formatMetrics", () => {
  it("writes time and size the way the footer shows them", () => {
    expect(formatMetrics({ elapsedMs: 842.4, bytes: 512 })).toEqual({ time: "842 ms", size: "512 B" });
    expect(formatMetrics({ elapsedMs: 1530, bytes: 2560 })).toEqual({ time: "1.5 s", size: "2.5 KB" });
  });
});
