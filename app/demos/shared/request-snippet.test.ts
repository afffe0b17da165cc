import { describe, expect, it } from "vitest";
import { curlForRequest } from "#app/demos/shared/request-snippet.ts";

describe("curlForRequest", () => {
  it("writes the widget's request, parameters included, for this site's gateway", () => {
    const text = curlForRequest("http://localhost:3000", "org/m", { task: "zero-shot-classification", provider: "hf-inference", inputs: "It's great", parameters: { candidate_labels: ["a", "b"] } });
    expect(text).toBe(
      [
        "curl 'http://localhost:3000/api/inference' \\",
        "    -X POST \\",
        "    -H 'X-Provider-Token: hf_***' \\",
        "    -H 'Content-Type: application/json' \\",
        `    -d '{
  "model": "org/m",
  "task": "zero-shot-classification",
  "provider": "hf-inference",
  "inputs": "It'\\''s great",
  "parameters": {
    "candidate_labels": [
      "a",
      "b"
    ]
  }
}'`,
      ].join("\n"),
    );
  });

  it("names a configured endpoint by its name and leaves out empty parameters", () => {
    const text = curlForRequest("https://yard.example", "org/m", { task: "fill-mask", provider: "endpoint:lab", inputs: "a [MASK]", parameters: {} });
    expect(text).toContain('"endpoint": "lab"');
    expect(text).not.toContain("parameters");
  });

  it("sends a file as multipart: the JSON in `request`, the file in `inputs`, a question kept beside an image", () => {
    const image = curlForRequest("http://localhost:3000", "org/m", { task: "image-classification", provider: "hf-inference", inputs: null, parameters: {}, fileName: "cat.png" });
    expect(image).toBe(
      [
        "curl 'http://localhost:3000/api/inference' \\",
        "    -X POST \\",
        "    -H 'X-Provider-Token: hf_***' \\",
        `    -F 'request={
  "model": "org/m",
  "task": "image-classification",
  "provider": "hf-inference"
}' \\`,
        "    -F 'inputs=@cat.png'",
      ].join("\n"),
    );
    const vqa = curlForRequest("http://localhost:3000", "org/m", { task: "visual-question-answering", provider: "hf-inference", inputs: { question: "Why?" }, parameters: {}, fileName: "a;b.jpg" });
    expect(vqa).toContain('"question": "Why?"');
    expect(vqa).toContain("-F 'inputs=@a_b.jpg'");
  });
});
