/**
 * Which models get a task widget, with which providers, inputs, parameters and example; and the
 * widget's server render (the example fallback when nothing serves the model).
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CatalogModel, ProviderMapping } from "#app/catalog/model-record.ts";
import { EXAMPLE_LABEL, ExampleOutput } from "#app/demos/shared/example-output.tsx";
import { taskWidgetInfo } from "#app/demos/task-widget-info.server.ts";

const mapping = (provider: string, task: string, status: ProviderMapping["status"] = "live"): ProviderMapping => ({ provider, providerId: "p", task, status, adapter: null, adapterWeightsPath: null });

function model(overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id: "org/classifier",
    author: "org",
    pipelineTag: "text-classification",
    libraryName: "transformers",
    license: null,
    tags: [],
    downloads: 0,
    likes: 0,
    trendingScore: 0,
    params: null,
    createdAt: null,
    lastModified: null,
    gated: false,
    statsAsOf: null,
    providers: [],
    chatTemplateStatus: null,
    sha: null,
    languages: [],
    datasets: [],
    baseModels: [],
    cardMarkdown: null,
    cardData: null,
    config: null,
    chatTemplate: null,
    bosToken: null,
    eosToken: null,
    chatTemplateIssue: null,
    siblings: [],
    safetensors: null,
    gguf: null,
    widgetData: null,
    transformersInfo: null,
    modelIndex: null,
    inferenceProviderMapping: [],
    spaces: [],
    ...overrides,
  };
}

describe("taskWidgetInfo", () => {
  it("offers the mappings for the model's task that the library can call, live first, then endpoints", () => {
    const env = { MODELYARD_ENDPOINTS: JSON.stringify([{ name: "lab", label: "Lab TEI", url: "http://10.0.0.2:8080", models: ["org/classifier"] }]) };
    const info = taskWidgetInfo(
      model({ inferenceProviderMapping: [mapping("hf-inference", "text-classification", "staging"), mapping("together", "text-classification"), mapping("hf-inference", "feature-extraction")] }),
      env,
    );
    // together has no text-classification helper in 3.13.1, so it is not offered.
    expect(info?.providers).toEqual([
      { value: "hf-inference", label: "hf-inference (staging)", kind: "provider" },
      { value: "endpoint:lab", label: "Lab TEI", kind: "endpoint" },
    ]);
    expect(info).toMatchObject({ task: "text-classification", taskName: "Text Classification", inputsSource: "task", serverKey: false });
    expect(info?.inputs.text).toBe("I love Hugging Face!");
    expect(info?.parameters.map((p) => p.name)).toEqual(["function_to_apply", "top_k"]);
    expect(info?.example?.outputs[0]).toMatchObject({ type: "chart" });
  });

  it("offers every text-to-image provider 3.13.1 routes, black-forest-labs included (its polling flow is in gateway-all-tasks.test.ts)", () => {
    const providers = ["black-forest-labs", "fal-ai", "hf-inference", "hyperbolic", "nebius", "nscale", "replicate", "together"];
    const info = taskWidgetInfo(model({ id: "org/flux", pipelineTag: "text-to-image", inferenceProviderMapping: providers.map((p) => mapping(p, "text-to-image")) }), {});
    expect(info?.providers.map((p) => p.value)).toEqual(providers);
  });

  it("prefers the model's widgetData and knows a BERT model's mask token", () => {
    const info = taskWidgetInfo(model({ pipelineTag: "fill-mask", tags: ["bert"], config: { model_type: "bert" }, widgetData: [{ text: "Paris is the [MASK] of France." }] }), { HF_TOKEN: "hf_x" });
    expect(info).toMatchObject({ inputsSource: "widgetData", maskToken: "[MASK]", serverKey: true, providers: [] });
    expect(info?.inputs.text).toBe("Paris is the [MASK] of France.");
  });

  it("leaves chat models to the chat demo and tasks without a widget alone", () => {
    expect(taskWidgetInfo(model({ pipelineTag: "text-generation", tags: ["conversational"] }), {})).toBeNull();
    expect(taskWidgetInfo(model({ pipelineTag: "text-generation" }), {})?.task).toBe("text-generation");
    expect(taskWidgetInfo(model({ pipelineTag: "robotics" }), {})).toBeNull();
    expect(taskWidgetInfo(model({ pipelineTag: "text2text-generation" }), {})?.task).toBe("text-generation");
  });
});

describe("ExampleOutput", () => {
  it("labels the task guide's example as not produced by the model", () => {
    const info = taskWidgetInfo(model({ pipelineTag: "token-classification" }), {});
    const html = renderToStaticMarkup(<ExampleOutput example={info!.example!} reason="No provider serves it." />);
    expect(html).toContain(EXAMPLE_LABEL);
    expect(html).toContain("No provider serves it.");
    expect(html).toContain('data-span="PERSON"');
  });
});
