import { describe, expect, it } from "vitest";
import { curlForRequest } from "#app/demos/shared/request-snippet.ts";

describe("curlForRequest", () => {
  it("writes the widget's request, parameters included, for this site's gateway", () => {
    const text = curlForRequest("http://localhost:3000", "org/m", { task: "zero-shot-classification", provider: "hf-inference", inputs: "It's great", parameters: { candidate_labels: ["a", "b"] } });
    expect(text).toBe(
      [
        "curl 'http://localhost:3000/api/inference' \\",
        "    -X POST \\",
        "    -H 'Authorization: Bearer hf_***' \\",
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
});
