/**
 * The chat demo's server render: the broken-template refusal (with the reason and position), the
 * controls with the spec's defaults, and the reply renderer never emitting markup from model text.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChatMarkdown, parseBlocks } from "#app/demos/chat/markdown.tsx";
import { ChatDemo } from "#app/demos/chat/chat-demo.tsx";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { chatDemoInfo, chatParameterSpecs } from "#app/demos/chat/demo-info.server.ts";

function model(overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id: "org/chat-model",
    author: "org",
    pipelineTag: "text-generation",
    libraryName: "transformers",
    license: null,
    tags: ["conversational"],
    downloads: 0,
    likes: 0,
    trendingScore: 0,
    params: null,
    createdAt: null,
    lastModified: null,
    gated: false,
    statsAsOf: null,
    providers: ["together"],
    chatTemplateStatus: "ok",
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
    inferenceProviderMapping: [
      { provider: "nebius", providerId: "x", task: "conversational", status: "staging", adapter: null, adapterWeightsPath: null },
      { provider: "together", providerId: "y", task: "conversational", status: "live", adapter: null, adapterWeightsPath: null },
      { provider: "fal-ai", providerId: "z", task: "text-to-image", status: "live", adapter: null, adapterWeightsPath: null },
      { provider: "some-future-provider", providerId: "w", task: "conversational", status: "live", adapter: null, adapterWeightsPath: null },
    ],
    spaces: [],
    ...overrides,
  };
}

describe("chatDemoInfo", () => {
  it("offers live chat providers first, then configured endpoints, with the spec's defaults", () => {
    const env = { MODELYARD_ENDPOINTS: JSON.stringify([{ name: "lab", label: "Lab vLLM", url: "http://10.0.0.2:8000/v1", models: ["org/chat-model"] }]) };
    const info = chatDemoInfo(model(), env);
    expect(info?.providers).toEqual([
      { value: "together", label: "together", kind: "provider" },
      { value: "nebius", label: "nebius (staging)", kind: "provider" },
      { value: "endpoint:lab", label: "Lab vLLM", kind: "endpoint" },
    ]);
    expect(info?.parameters.temperature).toMatchObject({ min: 0, max: 2, default: 1 });
    expect(info?.parameters.top_p).toMatchObject({ min: 0, max: 1, default: 0.95 });
    expect(info?.parameters.max_tokens).toMatchObject({ default: 1024 });
    expect(info?.templateProblem).toBeNull();
    expect(info?.serverKey).toBe(false);
    expect(chatDemoInfo(model(), { HF_TOKEN: "hf_x" })?.serverKey).toBe(true);
  });

  it("does not apply to non-conversational models or models nothing can run", () => {
    // Tagless, as list rows are: a conversational mapping alone makes it chat (Llama 3.3's row).
    expect(chatDemoInfo(model({ tags: [] }), {})).not.toBeNull();
    expect(chatDemoInfo(model({ tags: [], inferenceProviderMapping: [{ provider: "together", providerId: "x", task: "text-generation", status: "live", adapter: null, adapterWeightsPath: null }] }), {})).toBeNull();
    expect(chatDemoInfo(model({ pipelineTag: "text-classification" }), {})).toBeNull();
    expect(chatDemoInfo(model({ inferenceProviderMapping: [] }), {})).toBeNull();
    expect(chatDemoInfo(model({ pipelineTag: "image-text-to-text" }), {})).not.toBeNull();
  });

  it("reads the defaults from @huggingface/tasks' chat-completion input spec", () => {
    const spec = chatParameterSpecs();
    expect(spec.temperature.description).toMatch(/sampling temperature/);
    expect(spec.max_tokens.description).toMatch(/maximum number of tokens/);
  });
});

describe("ChatDemo", () => {
  it("refuses to start on a model whose chat template failed validation, and says why and where", () => {
    const info = chatDemoInfo(
      model({ chatTemplateStatus: "error", chatTemplateIssue: { message: "Unexpected token '%}'", line: 3, column: 14, templateName: "default" } }),
      {},
    );
    const html = renderToStaticMarkup(<ChatDemo info={info!} />);
    expect(html).toContain("data-chat-template-refusal");
    expect(html).toContain("No live demo: this model’s chat template failed validation.");
    expect(html).toContain("template “default”, line 3, column 14");
    expect(html).toContain("Unexpected token &#x27;%}&#x27;");
    expect(html).not.toContain("textarea");
  });

  it("renders the controls with the defaults when the template is fine", () => {
    const html = renderToStaticMarkup(<ChatDemo info={chatDemoInfo(model(), {})!} />);
    expect(html).toContain('name="provider"');
    expect(html).toContain('name="temperature"');
    expect(html).toMatch(/name="max_tokens"[^>]*value="1024"/);
    expect(html).toContain('name="system"');
    expect(html).toContain("Enter to send, Shift+Enter for a new line");
  });
});

describe("ChatMarkdown", () => {
  it("renders the markdown subset", () => {
    const html = renderToStaticMarkup(<ChatMarkdown source={"# Title\n\nSome **bold**, *it*, `code` and [a link](https://example.com).\n\n- one\n- two\n\n```ts\nconst x = 1;\n```"} />);
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>it</em>");
    expect(html).toContain("<code");
    expect(html).toContain('href="https://example.com" target="_blank" rel="noopener noreferrer nofollow ugc"');
    expect(html).toContain("<ul");
    expect(html).toContain('data-lang="ts"');
    expect(html).toContain("const x = 1;");
  });

  it("keeps an unterminated code fence (mid-stream) as code", () => {
    expect(parseBlocks("Here:\n```py\nprint(1)")).toEqual([
      { kind: "paragraph", text: "Here:" },
      { kind: "code", lang: "py", text: "print(1)" },
    ]);
  });

  it("never turns model text into markup", () => {
    const hostile = [
      '<img src=x onerror="alert(1)">',
      "<script>alert(1)</script>",
      "[click](javascript:alert(1))",
      "[x](data:text/html,<script>alert(1)</script>)",
      "**<b onmouseover=alert(1)>x</b>**",
      "```\n</code></pre><script>alert(1)</script>\n```",
    ].join("\n\n");
    const html = renderToStaticMarkup(<ChatMarkdown source={hostile} />);
    expect(html).not.toMatch(/<(img|script|b)\b/i);
    expect(html).not.toContain('href="javascript:');
    expect(html).not.toContain('href="data:');
    expect(html).toContain("&lt;script&gt;");
  });
});
