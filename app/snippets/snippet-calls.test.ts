/**
 * Every inference snippet the site can show (each provider 3.13.1 writes code for, each task of
 * PROVIDER_TASKS, plus "auto", chat with and without streaming) calls only what the pinned
 * libraries have, and no snippet sends a file's name as JSON labelled as the file's media type.
 *
 * Only JavaScript calls are resolved: the libraries are imported as installed. Python snippets
 * (huggingface_hub, openai, fal_client) are not: none of those packages is installed here, so
 * there is nothing honest to check `client.<method>(` against.
 */
import { describe, expect, it } from "vitest";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { getInferenceSnippetsFor } from "#app/snippets/inference-snippets.ts";
import { AUTO_POLICY, PROVIDER_TASKS, supportedProvidersFor } from "#app/snippets/providers.ts";
import { fixtureById, loadInferenceFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import { missingCalls } from "#tests/support/js-snippet-calls.ts";

const SST2 = fixtureById(loadInferenceFixtures(), "distilbert/distilbert-base-uncased-finetuned-sst-2-english");

/** A catalogue model with `pipelineTag`, mapped to `provider` for `task`, as the catalogue holds one. */
function modelFor(pipelineTag: string, task: string, provider: string): CatalogModel {
  return {
    ...SST2,
    id: `acme/${pipelineTag}-${task}`,
    pipelineTag,
    tags: task === "conversational" ? ["conversational"] : [],
    libraryName: "transformers",
    widgetData: null,
    inferenceProviderMapping: [{ provider, providerId: `acme-${provider}/${task}`, task, status: "live", adapter: null, adapterWeightsPath: null }],
  };
}

interface Shown {
  where: string;
  task: string;
  language: string;
  client: string;
  content: string;
}

/** Every snippet for every provider x task the panel offers, as getInferenceSnippetsFor returns it. */
function allShownSnippets(): { shown: Shown[]; pairs: Set<string> } {
  const shown: Shown[] = [];
  const pairs = new Set<string>();
  for (const [mapped, tasks] of Object.entries(PROVIDER_TASKS)) {
    for (const task of tasks) {
      // Chat comes from text-generation and from vision-language models, whose snippets differ.
      const pipelines = task === "conversational" ? ["text-generation", "image-text-to-text"] : [task];
      for (const pipelineTag of pipelines) {
        const model = modelFor(pipelineTag, task, mapped);
        for (const provider of supportedProvidersFor(model).filter((p) => p === mapped || p === AUTO_POLICY)) {
          for (const streaming of task === "conversational" ? [false, true] : [false]) {
            const result = getInferenceSnippetsFor(model, { provider, streaming });
            for (const language of result.languages) {
              for (const c of language.clients) {
                pairs.add(`${provider}|${task}`);
                shown.push({
                  where: `${provider} ${task} (${pipelineTag}${streaming ? ", streaming" : ""}) ${language.language}/${c.client}`,
                  task,
                  language: language.language,
                  client: c.client,
                  content: c.content,
                });
              }
            }
          }
        }
      }
    }
  }
  return { shown, pairs };
}

const { shown, pairs } = allShownSnippets();

/** The example files 3.13.1's templates name (getModelInputSnippet): cats.jpg, sample1.flac and the like. */
const MEDIA_FILE = String.raw`[\w.-]+\.(?:jpe?g|png|gif|webp|flac|wav|mp3|ogg|m4a|mp4|webm)`;

/** Why a snippet's request body is a file's name in JSON, or JSON labelled as an image or audio; null when it is neither. */
function fileAsJson(s: Shown): string | null {
  const mediaLabel =
    s.language === "sh" ? /-H '(?:Content-Type|content-type): (?:image|audio)\//.test(s.content) : /"Content-Type": "(?:image|audio)\//.test(s.content);
  const jsonBody =
    s.language === "js" ? /body: JSON\.stringify\(/.test(s.content) : s.language === "sh" ? /(?:^|\s)(?:-d|--data|--json) '/.test(s.content) : /\bjson=/.test(s.content);
  if (mediaLabel && jsonBody) return "a JSON body labelled as image/audio";
  // Python's templates open the named file before sending (with open(...)); JS and cURL send what they print.
  if (s.language !== "python" && new RegExp(String.raw`\binputs"?:\s*"${MEDIA_FILE}"`).test(s.content)) return "the file's name sent as the input";
  return null;
}

describe("snippets for every task and provider the site shows", () => {
  it("cover every provider x task pair of PROVIDER_TASKS that yields snippets, and the auto policy", () => {
    // 3.13.1 refuses HF tokens (the placeholder too) for openai, so the panel shows its error
    // instead, and it has no template at all for visual-question-answering.
    const none = new Set(["hf-inference|visual-question-answering"]);
    const expected = Object.entries(PROVIDER_TASKS)
      .filter(([provider]) => provider !== "openai")
      .flatMap(([provider, tasks]) => tasks.map((task) => `${provider}|${task}`))
      .filter((pair) => !none.has(pair));
    for (const pair of expected) expect(pairs, pair).toContain(pair);
    expect(pairs).toContain("auto|image-classification");
    expect(shown.filter((s) => s.language === "js").length).toBeGreaterThan(100);
  });

  it("JavaScript: every call resolves to a function of @huggingface/inference 3.13.1, openai 6.9.0 or Node, and every name is imported", () => {
    const failures = shown.filter((s) => s.language === "js").flatMap((s) => missingCalls(s.content).map((p) => `${s.where}: ${p}`));
    expect(failures).toEqual([]);
  });

  it("no snippet sends a file's name as JSON, or JSON labelled as an image or audio", () => {
    const failures = shown.flatMap((s) => {
      const why = fileAsJson(s);
      return why === null ? [] : [`${s.where}: ${why}`];
    });
    expect(failures).toEqual([]);
    // The check has something to look at: the file-input tasks' raw-HTTP clients are among the snippets.
    expect(shown.filter((s) => s.task === "image-classification" && s.client === "fetch")).toHaveLength(1);
    expect(shown.filter((s) => s.task === "automatic-speech-recognition" && s.client === "fetch")).toHaveLength(2);
  });
});

describe("the checks themselves", () => {
  it("missingCalls finds a method the client lacks, a name never imported, and an import the library lacks", () => {
    const code = `import { InferenceClient, conversational } from "@huggingface/inference";
const inference = new InferenceClient(HF_TOKEN);
await inference.conversational({ model: "m", inputs: "x" });
const data = fs.readFileSync("cats.jpg");
await inference.imageClassification({ data, model: "m" });`;
    expect(missingCalls(code)).toEqual([
      'imports { conversational } from "@huggingface/inference", which does not export it',
      "inference.conversational(): conversational is not a function of new InferenceClient()",
      "fs.readFileSync(): fs is not defined (not imported or declared)",
    ]);
    expect(missingCalls(`import fs from "node:fs";\nimport { OpenAI } from "openai";\nconst c = new OpenAI({ apiKey: "k" });\nawait c.chat.completions.create({});\nfs.readFileSync("a");`)).toEqual([]);
  });

  it("fileAsJson catches the body 3.13.1's fetch template wrote for image and audio tasks", () => {
    const fetchTemplate = `async function query(data) {\n\tconst response = await fetch("https://x", { headers: { "Content-Type": "image/jpeg" }, method: "POST", body: JSON.stringify(data) });\n}\nquery({ inputs: "cats.jpg" });`;
    expect(fileAsJson({ where: "", task: "image-classification", language: "js", client: "fetch", content: fetchTemplate })).toBe("a JSON body labelled as image/audio");
  });
});
