/**
 * A widget's parameters in the library's snippets: exact strings for the clients of one model,
 * the form each client takes them in, and for every widget task and every provider 3.13.1 writes
 * its code for, code that still parses (JS with TypeScript's parser, Python with `ast` when a
 * python3 is at hand, cURL with `bash -n`) and carries every parameter.
 */
import { spawnSync } from "node:child_process";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { WIDGET_FAMILIES } from "#app/tasks/task-records.ts";
import { describeTaskParameters, type ParameterField } from "#app/inference/task-parameters.server.ts";
import { getInferenceSnippetsFor, type InferenceSnippetsResult, SnippetInputError } from "#app/snippets/inference-snippets.ts";
import { PROVIDER_TASKS, supportedProvidersFor } from "#app/snippets/providers.ts";
import { jsLiteral, pythonLiteral, type ParameterValue, withVisitorParameters } from "#app/snippets/visitor-parameters.ts";
import { fixtureById, loadInferenceFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";

const fixtures = loadInferenceFixtures();
const SST2 = fixtureById(fixtures, "distilbert/distilbert-base-uncased-finetuned-sst-2-english");

const client = (r: InferenceSnippetsResult, name: string) => r.languages.flatMap((l) => l.clients).find((c) => c.client === name)?.content ?? "";
const clients = (r: InferenceSnippetsResult) => r.languages.flatMap((l) => l.clients.map((c) => ({ language: l.language, client: c.client, content: c.content })));

/** A catalogue model of `task` mapped to `providers`, as the catalogue holds one. */
function modelFor(task: string, providers: readonly string[]): CatalogModel {
  return {
    ...SST2,
    id: `acme/${task}-model`,
    pipelineTag: task,
    tags: [],
    libraryName: "transformers",
    widgetData: null,
    inferenceProviderMapping: providers.map((provider) => ({ provider, providerId: `acme-${provider}/${task}`, task, status: "live" as const, adapter: null, adapterWeightsPath: null })),
  };
}

describe("the parameters the visitor set, in each client of a text-classification model", () => {
  const withParameters = getInferenceSnippetsFor(SST2, { provider: "hf-inference", inputs: "What a day", taskParameters: { top_k: 1, function_to_apply: "softmax" } });

  it("huggingface_hub: keyword arguments of text_classification", () => {
    expect(client(withParameters, "huggingface_hub")).toBe(`from huggingface_hub import InferenceClient

client = InferenceClient(
    provider="hf-inference",
    api_key="hf_***",
)

result = client.text_classification(
    "What a day",
    model="distilbert/distilbert-base-uncased-finetuned-sst-2-english",
    top_k=1,
    function_to_apply="softmax",
)`);
  });

  it("requests: \"parameters\" beside \"inputs\"", () => {
    expect(client(withParameters, "requests")).toBe(`import requests

API_URL = "https://router.huggingface.co/hf-inference/models/distilbert/distilbert-base-uncased-finetuned-sst-2-english"
headers = {
    "Authorization": "Bearer hf_***",
}

def query(payload):
    response = requests.post(API_URL, headers=headers, json=payload)
    return response.json()

output = query({
    "inputs": "What a day",
    "parameters": {"top_k": 1, "function_to_apply": "softmax"},
})`);
  });

  it("huggingface.js: parameters in the task function's arguments", () => {
    expect(client(withParameters, "huggingface.js")).toBe(`import { InferenceClient } from "@huggingface/inference";

const client = new InferenceClient("hf_***");

const output = await client.textClassification({
\tmodel: "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
\tinputs: "What a day",
\tprovider: "hf-inference",
\tparameters: { top_k: 1, function_to_apply: "softmax" },
});

console.log(output);`);
  });

  it("fetch: parameters beside inputs in the body", () => {
    expect(client(withParameters, "fetch")).toContain(`query({ inputs: "What a day", parameters: { top_k: 1, function_to_apply: "softmax" } }).then((response) => {`);
  });

  it("cURL: \"parameters\" in the JSON body, written as the library writes it", () => {
    expect(client(withParameters, "curl")).toBe(`curl https://router.huggingface.co/hf-inference/models/distilbert/distilbert-base-uncased-finetuned-sst-2-english \\
    -X POST \\
    -H 'Authorization: Bearer hf_***' \\
    -H 'Content-Type: application/json' \\
    -d '{
        "inputs": "\\"What a day\\"",
        "parameters": {
            "top_k": 1,
            "function_to_apply": "softmax"
        }
    }'`);
  });

  it("the auto policy's clients too", () => {
    const auto = getInferenceSnippetsFor(SST2, { provider: "auto", taskParameters: { top_k: 2 } });
    expect(client(auto, "huggingface_hub")).toContain(`    model="distilbert/distilbert-base-uncased-finetuned-sst-2-english",\n    top_k=2,\n)`);
    expect(client(auto, "huggingface.js")).toContain(`\tprovider: "auto",\n\tparameters: { top_k: 2 },\n});`);
  });

  it("nothing changes without parameters, and a chat model refuses them", () => {
    const plain = getInferenceSnippetsFor(SST2, { provider: "hf-inference" });
    expect(getInferenceSnippetsFor(SST2, { provider: "hf-inference", taskParameters: {} })).toStrictEqual(plain);
    const chat = fixtureById(fixtures, "meta-llama/Meta-Llama-3-8B-Instruct");
    expect(() => getInferenceSnippetsFor(chat, { provider: "together", taskParameters: { top_k: 1 } })).toThrow(SnippetInputError);
  });

  it("refuses names that are not identifiers and values that are not plain", () => {
    expect(() => getInferenceSnippetsFor(SST2, { provider: "hf-inference", taskParameters: { "top-k": 1 } })).toThrow(/taskParameters\.top-k/);
    expect(() => getInferenceSnippetsFor(SST2, { provider: "hf-inference", taskParameters: { top_k: { a: 1 } } as unknown as Record<string, ParameterValue> })).toThrow(SnippetInputError);
  });
});

describe("each client's own form", () => {
  it("huggingface_hub: what the method has no argument for goes in extra_body, or is named in a comment", () => {
    const asr = getInferenceSnippetsFor(modelFor("automatic-speech-recognition", ["fal-ai"]), { provider: "fal-ai", taskParameters: { return_timestamps: true } });
    expect(client(asr, "huggingface_hub")).toContain(`output = client.automatic_speech_recognition("sample1.flac", model="acme/automatic-speech-recognition-model", extra_body={"return_timestamps": True})`);
    const caption = getInferenceSnippetsFor(modelFor("image-to-text", ["hf-inference"]), { provider: "hf-inference", taskParameters: { max_new_tokens: 20 } });
    expect(client(caption, "huggingface_hub")).toContain(`# client.image_to_text() has no argument for {"max_new_tokens": 20}\noutput = client.image_to_text("cats.jpg", model="acme/image-to-text-model")`);
    const generate = getInferenceSnippetsFor(modelFor("text-generation", ["together"]), { provider: "together", taskParameters: { max_new_tokens: 50, temperature: 0, stop: ["\n\n"], do_sample: false } });
    expect(client(generate, "huggingface_hub")).toContain(`    model="acme/text-generation-model",\n    max_new_tokens=50,\n    temperature=0,\n    stop=["\\n\\n"],\n    do_sample=False,\n)`);
  });

  it("a file sent as the whole body cannot carry them: the code says so instead of dropping them silently", () => {
    const image = getInferenceSnippetsFor(modelFor("image-classification", ["hf-inference"]), { provider: "hf-inference", taskParameters: { top_k: 3 } });
    expect(client(image, "huggingface_hub")).toContain(`output = client.image_classification("cats.jpg", model="acme/image-classification-model", top_k=3)`);
    expect(client(image, "huggingface.js")).toContain("// @huggingface/inference 3.13.1 sends `data` as the whole request body, so it cannot carry these parameters: { top_k: 3 }\nconst output = await client.imageClassification({");
    expect(client(image, "curl")).toMatch(/^# The file is the whole request body here, so it cannot carry these parameters: \{"top_k": 3\}\ncurl /);
    expect(client(image, "requests")).toContain(`# The file is the whole request body here, so it cannot carry these parameters: {"top_k": 3}\noutput = query("cats.jpg")`);
  });

  it("zero-shot: the widget's labels replace the library's example ones", () => {
    const zs = getInferenceSnippetsFor(modelFor("zero-shot-classification", ["hf-inference"]), { provider: "hf-inference", taskParameters: { candidate_labels: ["music", "movie"], multi_label: true } });
    expect(client(zs, "requests")).toContain(`    "parameters": {"candidate_labels": ["music", "movie"], "multi_label": True},\n})`);
    expect(client(zs, "fetch")).toContain(`    parameters: { candidate_labels: ["music", "movie"], multi_label: true }\n}).then(`);
    expect(client(zs, "curl")).toContain(`"parameters": {"candidate_labels": ["music", "movie"], "multi_label": true}}' \\`);
    for (const c of clients(zs)) expect(c.content, c.client).not.toContain("refund");
  });

  it("a provider's own body takes them as that provider does: at the top level, or in replicate's input", () => {
    const parameters = { num_inference_steps: 20, negative_prompt: "blurry" };
    const fal = getInferenceSnippetsFor(modelFor("text-to-image", ["fal-ai"]), { provider: "fal-ai", taskParameters: parameters });
    expect(client(fal, "fetch")).toContain(`query({     sync_mode: true,\n    prompt: "\\"Astronaut riding a horse\\"", num_inference_steps: 20, negative_prompt: "blurry", }).then(`);
    expect(client(fal, "fal_client")).toContain(`    arguments={\n        "prompt": "Astronaut riding a horse",\n        "num_inference_steps": 20,\n        "negative_prompt": "blurry",\n    },`);
    // The library's example `num_inference_steps: 5` gives way to what the widget sends.
    expect(client(fal, "huggingface.js")).toContain(`\tparameters: { num_inference_steps: 20, negative_prompt: "blurry" },\n});`);
    expect(client(fal, "huggingface_hub")).toContain(`    num_inference_steps=20,\n    negative_prompt="blurry",\n)`);
    const replicate = getInferenceSnippetsFor(modelFor("text-to-image", ["replicate"]), { provider: "replicate", taskParameters: parameters });
    expect(client(replicate, "fetch")).toMatch(/query\(\{\s+input: \{\s+prompt: "\\"Astronaut riding a horse\\"", num_inference_steps: 20, negative_prompt: "blurry",\s+\}, \}\)/);
  });
});

describe("literals", () => {
  it("Python and JS literals for every kind of value a widget sends", () => {
    expect(pythonLiteral({ a: true, b: false, c: ["x'y", 'q"r'], d: 1.5, e: "é\n" })).toBe(`{"a": True, "b": False, "c": ["x'y", "q\\"r"], "d": 1.5, "e": "é\\n"}`);
    expect(jsLiteral({ a: true, c: ["x"], "not-id": 2 })).toBe(`{ a: true, c: ["x"], "not-id": 2 }`);
    expect(withVisitorParameters("no call here", "python", "huggingface_hub", { a: 1 })).toBe("no call here");
  });

  it("a value cannot end the JavaScript comment it is named in (U+2028 and U+2029 are line breaks there)", () => {
    const value = "x\u2028alert(1)//\u2029y";
    expect(jsLiteral({ subtask: value })).toBe('{ subtask: "x\\u2028alert(1)//\\u2029y" }');
    const image = getInferenceSnippetsFor(modelFor("image-classification", ["hf-inference"]), { provider: "hf-inference", taskParameters: { function_to_apply: value } });
    const code = client(image, "huggingface.js");
    const comment = code.split("\n").find((l) => l.includes("cannot carry these parameters")) ?? "";
    expect(comment).toContain("\\u2028alert(1)");
    expect(/[\u2028\u2029]/.test(code)).toBe(false);
  });
});

/** A value inside the field's bounds, with quotes in strings so quoting is exercised. */
function sample(f: ParameterField): ParameterValue {
  switch (f.kind) {
    case "integer":
      return Math.max(f.min ?? 1, Math.min(2, f.max ?? 2));
    case "number":
      return f.min !== null && f.max !== null ? (f.min + f.max) / 2 : 0.5;
    case "boolean":
      return true;
    case "enum":
      return f.options[0] ?? "";
    case "string-list":
      return ["it's", 'a "b"'];
    default:
      return `it's "x"`;
  }
}

/** The text a client should show for a value, whatever literal syntax it uses (Python writes True). */
function shown(v: ParameterValue, language: string): string[] {
  // Inside cURL's single-quoted body a quote is written '\''.
  const text = (s: string) => (language === "sh" ? JSON.stringify(s).slice(1, -1).replaceAll("'", `'\\''`) : JSON.stringify(s).slice(1, -1));
  if (Array.isArray(v)) return v.map(text);
  if (typeof v === "string") return [text(v)];
  if (typeof v === "boolean" && language === "python") return [v ? "True" : "False"];
  return [String(v)];
}

describe("every widget task, every provider the library writes code for", () => {
  const cases = Object.values(WIDGET_FAMILIES)
    .flat()
    .flatMap((task) => {
      const fields = describeTaskParameters(task);
      if (fields.length === 0) return [];
      const providers = Object.entries(PROVIDER_TASKS)
        .filter(([, tasks]) => (tasks as readonly string[]).includes(task))
        .map(([p]) => p);
      const model = modelFor(task, providers);
      const parameters = Object.fromEntries(fields.map((f) => [f.name, sample(f)]));
      return supportedProvidersFor(model).map((provider) => ({
        task,
        provider,
        parameters,
        result: getInferenceSnippetsFor(model, { provider, taskParameters: parameters }),
        plain: getInferenceSnippetsFor(model, { provider }),
      }));
    });

  /** The snippets with parameters whose library text (without them) parses: 3.13.1 writes a few that do not (`query({ inputs: })`). */
  const parsable = (language: string, parses: (code: string) => boolean) =>
    cases.flatMap(({ task, provider, result, plain }) =>
      clients(result)
        .filter((c, i) => c.language === language && parses(clients(plain)[i]?.content ?? ""))
        .map((c) => ({ where: `${task} ${provider} ${c.client}`, code: c.content })),
    );
  const jsErrors = (code: string) =>
    (ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).diagnostics ?? []).map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    );

  it("covers the tasks and providers", () => {
    expect(cases.length).toBeGreaterThan(40);
    expect(new Set(cases.map((c) => c.provider)).size).toBeGreaterThan(8);
  });

  it("carries every parameter in every client (by value, or named where it cannot travel)", () => {
    for (const { task, provider, parameters, result } of cases) {
      for (const c of clients(result)) {
        for (const [name, value] of Object.entries(parameters)) {
          const where = `${task} ${provider} ${c.client} ${name}`;
          expect(c.content, where).toContain(name);
          for (const text of shown(value, c.language)) expect(c.content, where).toContain(text);
        }
      }
    }
  });

  it("JavaScript still parses", () => {
    const js = parsable("js", (code) => jsErrors(code).length === 0);
    expect(js.length).toBeGreaterThan(40);
    for (const { where, code } of js) expect(jsErrors(code), `${where}\n${code}`).toEqual([]);
  });

  it("Python still parses (ast.parse)", ({ skip }) => {
    const all = cases.flatMap(({ task, provider, result, plain }) =>
      clients(result).flatMap((c, i) => (c.language === "python" ? [{ where: `${task} ${provider} ${c.client}`, code: c.content, library: clients(plain)[i]?.content ?? "" }] : [])),
    );
    expect(all.length).toBeGreaterThan(40);
    // Only where the library's own text parses: 3.13.1 writes `"inputs": ,` for some providers' bodies.
    const check = spawnSync(
      "python3",
      ["-c", "import ast, json, sys\nfor s in json.load(sys.stdin):\n    try:\n        ast.parse(s['library'])\n    except SyntaxError:\n        continue\n    try:\n        ast.parse(s['code'])\n    except SyntaxError as e:\n        print(s['where'], e)"],
      { input: JSON.stringify(all), encoding: "utf8" },
    );
    if (check.error) return skip("python3 is not installed here");
    expect(check.stdout).toBe("");
    expect(check.status).toBe(0);
  });

  it("cURL still parses (bash -n), with a JSON body", ({ skip }) => {
    const curls = cases.flatMap(({ result }) => clients(result).filter((c) => c.language === "sh").map((c) => c.content));
    expect(curls.length).toBeGreaterThan(10);
    const check = spawnSync("bash", ["-n"], { input: curls.join("\n\n"), encoding: "utf8" });
    if (check.error) return skip("bash is not installed here");
    expect(check.stderr).toBe("");
    for (const code of curls) {
      const body = /-d '((?:[^']|'\\'')*)'/.exec(code)?.[1];
      if (body !== undefined) expect(() => JSON.parse(body.replaceAll(`'\\''`, "'")) as unknown, code).not.toThrow();
    }
  });
});
