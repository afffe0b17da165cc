import { snippets } from "@huggingface/inference";
import { describe, expect, it } from "vitest";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { getInferenceSnippetsFor, type InferenceSnippetsResult } from "#app/snippets/inference-snippets.ts";
import { FILE_INPUT_TASKS, correctSnippets } from "#app/snippets/snippet-corrections.ts";
import { fixtureById, loadInferenceFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";

const SST2 = fixtureById(loadInferenceFixtures(), "distilbert/distilbert-base-uncased-finetuned-sst-2-english");

function modelFor(task: string, provider: string): CatalogModel {
  return {
    ...SST2,
    id: `acme/${task}-model`,
    pipelineTag: task,
    tags: [],
    libraryName: "transformers",
    widgetData: null,
    inferenceProviderMapping: [{ provider, providerId: `acme-${provider}/${task}`, task, status: "live", adapter: null, adapterWeightsPath: null }],
  };
}

const client = (r: InferenceSnippetsResult, name: string) => r.languages.flatMap((l) => l.clients).find((c) => c.client === name)?.content;

describe("file-input tasks", () => {
  it("hf-inference fetch sends the file's bytes under the template's Content-Type, not JSON holding its name", () => {
    const result = getInferenceSnippetsFor(modelFor("image-classification", "hf-inference"), { provider: "hf-inference" });
    expect(client(result, "fetch")).toBe(`import fs from "node:fs";

async function query(filename) {
	const response = await fetch(
		"https://router.huggingface.co/hf-inference/models/acme-hf-inference/image-classification",
		{
			headers: {
				Authorization: "Bearer hf_***",
				"Content-Type": "image/jpeg",
			},
			method: "POST",
			body: fs.readFileSync(filename),
		}
	);
	const result = await response.json();
	return result;
}

query("cats.jpg").then((response) => {
    console.log(JSON.stringify(response));
});`);
  });

  it("fal-ai fetch sends JSON with the audio as a data: URL in audio_url, as 3.13.1's fal-ai helper does", () => {
    const result = getInferenceSnippetsFor(modelFor("automatic-speech-recognition", "fal-ai"), { provider: "fal-ai", billTo: "acme" });
    expect(client(result, "fetch")).toBe(`import fs from "node:fs";

async function query(data) {
	const response = await fetch(
		"https://router.huggingface.co/fal-ai/acme-fal-ai/automatic-speech-recognition",
		{
			headers: {
				Authorization: "Bearer hf_***",
				"Content-Type": "application/json",
				"X-HF-Bill-To": "acme",
			},
			method: "POST",
			body: JSON.stringify(data),
		}
	);
	const result = await response.json();
	return result;
}

const file = fs.readFileSync("sample1.flac").toString("base64");

query({ audio_url: \`data:audio/flac;base64,\${file}\` }).then((response) => {
    console.log(JSON.stringify(response));
});`);
  });

  it("huggingface.js imports the fs it reads the file with; for fal-ai, which 3.13.1 cannot send a FLAC Buffer to, it is left out", () => {
    const hf = getInferenceSnippetsFor(modelFor("automatic-speech-recognition", "hf-inference"), { provider: "hf-inference" });
    expect(client(hf, "huggingface.js")).toMatch(/^import fs from "node:fs";\nimport \{ InferenceClient \} from "@huggingface\/inference";\n\nconst client = new InferenceClient\("hf_\*\*\*"\);\n\nconst data = fs\.readFileSync\("sample1\.flac"\);\n/);
    const fal = getInferenceSnippetsFor(modelFor("automatic-speech-recognition", "fal-ai"), { provider: "fal-ai" });
    expect(client(fal, "huggingface.js")).toBeUndefined();
    expect(fal.languages.flatMap((l) => l.clients.map((c) => c.client))).toEqual(["huggingface_hub", "requests", "fetch", "curl"]);
  });

  it("cURL and requests already send the bytes and stay the library's text", () => {
    const model = modelFor("object-detection", "hf-inference");
    const library = snippets.getInferenceSnippets({ id: model.id, pipeline_tag: "object-detection", tags: [], inference: "" }, "hf_***", "hf-inference", {
      hfModelId: model.id,
      providerId: "acme-hf-inference/object-detection",
      task: "object-detection",
      status: "live",
    });
    const result = getInferenceSnippetsFor(model, { provider: "hf-inference" });
    for (const name of ["curl", "requests", "huggingface_hub"]) expect(client(result, name), name).toBe(library.find((s) => s.client === name)?.content);
  });

  it("FILE_INPUT_TASKS holds the Content-Type the library's own cURL template gives each task's file", () => {
    for (const [task, type] of Object.entries(FILE_INPUT_TASKS)) {
      const result = getInferenceSnippetsFor(modelFor(task, "hf-inference"), { provider: "hf-inference" });
      expect(client(result, "curl"), task).toContain(`-H 'Content-Type: ${type}' \\\n    --data-binary @"`);
      expect(client(result, "fetch"), task).toContain(`"Content-Type": "${type}",`);
    }
  });
});

describe("everything else", () => {
  it("a text task's fetch is the library's text, byte for byte", () => {
    const library = snippets.getInferenceSnippets({ id: SST2.id, pipeline_tag: "text-classification", tags: [], inference: "" }, "hf_***", "hf-inference", {
      hfModelId: SST2.id,
      providerId: SST2.id,
      task: "text-classification",
      status: "live",
    });
    expect(correctSnippets(library, "text-classification", "hf-inference")).toStrictEqual(library);
  });

  it("code printed with an empty input (`query({ inputs:  })`, `\"inputs\": ,`) is left out", () => {
    const result = getInferenceSnippetsFor(modelFor("feature-extraction", "nebius"), { provider: "nebius" });
    expect(result.languages.flatMap((l) => l.clients.map((c) => c.client))).toEqual(["huggingface_hub", "huggingface.js", "curl"]);
  });

  it("a file-input fetch that no longer reads as 3.13.1 wrote it is left out, not guessed at", () => {
    const drifted = { language: "js" as const, client: "fetch", content: 'async function query(data) {}\nquery({ inputs: "cats.jpg", extra: 1 }).then(() => {});' };
    expect(correctSnippets([drifted], "image-classification", "hf-inference")).toEqual([]);
    expect(correctSnippets([drifted], "image-classification", "replicate")).toEqual([]);
  });
});
