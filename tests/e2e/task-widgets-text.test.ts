/**
 * Text task widgets in Chromium against the real server (`modelyard serve`) with the provider
 * SIMULATOR as MODELYARD_UPSTREAM_OVERRIDE: for each text task, enter input on the playground,
 * run it, check the rendered output, its time-and-size footer and the request that reached the
 * provider, and pass axe; the model page's slot and its JavaScript budget; and the task guide's
 * example when nothing serves the model (for every text task, its output drawn by the task's own
 * output component and compared with @huggingface/tasks), when the visitor has no token, and
 * offline (also on the model page). Screenshots of every widget (light and dark) go to
 * test-results/screenshots/.
 */
import { gzipSync } from "node:zlib";
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hfInferenceHubModels, lastTaskRequest, openWidget, runWidget, screenshot, simulatedInference, setupBrowser, setupOfflinePage, setupServer, setupSimulator } from "#tests/e2e/support/journey.ts";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";
import { auditWidget } from "#tests/e2e/support/widget-audit.ts";
import { barLabels, chartByScore, demoEntry, expectExampleNotLive, importUnservedModels, unservedModelId } from "#tests/e2e/support/task-examples.ts";
import { percent } from "#app/demos/shared/label-score-chart.tsx";
import { WIDGET_FAMILIES } from "#app/tasks/task-records.ts";

const SERVER_KEY = "hf_e2eServerKey0000000000";

/** Catalogue models (bundled, with an hf-inference mapping for their task) the simulator's Hub may lack. */
const EXTRA_HUB_MODELS: Array<[string, string]> = [
  ["facebook/bart-large-mnli", "zero-shot-classification"],
  ["Babelscape/wikineural-multilingual-ner", "token-classification"],
  ["deepset/bert-base-uncased-squad2", "question-answering"],
  ["Helsinki-NLP/opus-mt-ru-en", "translation"],
  ["sentence-transformers/paraphrase-xlm-r-multilingual-v1", "sentence-similarity"],
  ["google/tapas-base-finetuned-wtq", "table-question-answering"],
];

const sim = setupSimulator({ onReset: hfInferenceHubModels(EXTRA_HUB_MODELS) });
const server = setupServer(() => ({ env: simulatedInference(sim, SERVER_KEY) }), (s) => importUnservedModels(s, WIDGET_FAMILIES.text));
const browser = setupBrowser();
const { page, context, blocked } = setupOfflinePage(browser, { viewport: { width: 1100, height: 900 } });

describe("text task widgets on the playground", () => {
  it("text-classification: a bar per label with a table for screen readers", async () => {
    const model = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";
    await openWidget(page, `${server.url}/playground/${model}`);
    expect(await page.locator("h1").innerText()).toBe(`Text Classification with ${model}`);
    expect(await page.locator("textarea[name=inputs]").inputValue()).toBe("I love Hugging Face!");
    await page.locator("textarea[name=inputs]").fill("What a wonderful, happy day");
    await runWidget(page);
    expect(await page.locator("[data-widget-result] [data-bar]").first().getAttribute("data-bar")).toBe("POSITIVE");
    const rows = await page.locator("[data-widget-result] table tbody tr").allInnerTexts();
    expect(rows[0]).toMatch(/^POSITIVE\s+9\d\.\d%$/);
    expect(lastTaskRequest(sim)).toMatchObject({ originalUrl: `https://router.huggingface.co/hf-inference/models/${model}`, bodyJson: { inputs: "What a wonderful, happy day" } });
    // The snippets panel is there for the widget's task and provider, with the visitor's text in
    // place of the library's example.
    await page.waitForFunction(() => document.querySelector("[data-inference-panel]")?.textContent?.includes('"What a wonderful, happy day"'), undefined, { timeout: 10_000 });
    const panelText = await page.locator("[data-inference-panel]").innerText();
    expect(panelText).toContain("textClassification");
    expect(panelText).not.toContain("I like you. I love you");
    await auditWidget(page, "text-classification", { blocked });
  });

  it("text-classification: a spec parameter reaches the provider, and a wrong one is refused in place", async () => {
    await openWidget(page, `${server.url}/playground/distilbert/distilbert-base-uncased-finetuned-sst-2-english`);
    await page.locator("[data-widget-parameters] summary").click();
    await page.locator("input[name=top_k]").fill("1");
    await page.locator("select[name=function_to_apply]").selectOption("softmax");
    await runWidget(page);
    expect(lastTaskRequest(sim).bodyJson).toMatchObject({ parameters: { top_k: 1, function_to_apply: "softmax" } });
    await page.locator("input[name=top_k]").fill("1.5");
    await page.locator("[data-task-widget]").getByRole("button", { name: "Run" }).click();
    expect(await page.locator("[data-widget-error]").innerText()).toContain("top_k must be a whole number");
  });

  it("text-classification: the snippets panel carries the parameters set in the widget, in every client", async () => {
    const model = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";
    await openWidget(page, `${server.url}/playground/${model}`);
    await page.locator("[data-widget-parameters] summary").click();
    await page.locator("input[name=top_k]").fill("1");
    await page.locator("select[name=function_to_apply]").selectOption("softmax");
    const panel = page.locator("[data-inference-panel]");
    await page.waitForFunction(() => document.querySelector("[data-inference-panel] [data-language]")?.textContent?.includes('parameters: { function_to_apply: "softmax", top_k: 1 }'), undefined, { timeout: 10_000 });
    const js = await panel.locator("[data-language] [data-code]").allInnerTexts();
    expect(js).toHaveLength(2);
    for (const code of js) expect(code).toContain('parameters: { function_to_apply: "softmax", top_k: 1 }');
    await panel.locator('nav[aria-label="Language"] a', { hasText: "Python" }).click();
    const [hub, requests] = await panel.locator("[data-language=python] [data-code]").allInnerTexts();
    expect(hub).toContain('    function_to_apply="softmax",\n    top_k=1,\n)');
    expect(requests).toContain('    "parameters": {"function_to_apply": "softmax", "top_k": 1},');
    await panel.locator('nav[aria-label="Language"] a', { hasText: "Shell" }).click();
    expect(await panel.locator("[data-language=sh] [data-code]").innerText()).toMatch(/"parameters": \{\s+"function_to_apply": "softmax",\s+"top_k": 1\s+\}/);
    // Back to the model's defaults: the library's code without parameters again.
    await page.locator("input[name=top_k]").fill("");
    await page.locator("select[name=function_to_apply]").selectOption("");
    await page.waitForFunction(() => !document.querySelector("[data-inference-panel] [data-language]")?.textContent?.includes("top_k"), undefined, { timeout: 10_000 });
  });

  it("zero-shot-classification: candidate labels in, labels by score out", async () => {
    await openWidget(page, `${server.url}/playground/facebook/bart-large-mnli`);
    await page.locator("textarea[name=inputs]").fill("We watched a movie last night");
    await page.locator("input[name=candidate_labels]").fill("music, movie, art");
    await runWidget(page);
    expect(await page.locator("[data-widget-result] [data-bar]").first().getAttribute("data-bar")).toBe("movie");
    expect(await page.locator("[data-widget-result] [data-bar]").count()).toBe(3);
    expect(lastTaskRequest(sim).bodyJson).toMatchObject({ inputs: "We watched a movie last night", parameters: { candidate_labels: ["music", "movie", "art"] } });
    // The code beside the widget is this request, as typed.
    const code = await page.locator("[data-widget-request-code] [data-code]").innerText();
    expect(code).toContain(`curl '${server.url}/api/inference'`);
    expect(code).toContain('"inputs": "We watched a movie last night"');
    expect(code).toMatch(/"candidate_labels": \[\s*"music",\s*"movie",\s*"art"\s*\]/);
    await auditWidget(page, "zero-shot-classification", { blocked });
  });

  it("token-classification: entities highlighted in the text, with a legend", async () => {
    await openWidget(page, `${server.url}/playground/Babelscape/wikineural-multilingual-ner`);
    await page.locator("textarea[name=inputs]").fill("my friend Sarah lives in London");
    await runWidget(page);
    const marks = await page.locator("[data-widget-result] mark").evaluateAll((els) => els.map((e) => [e.getAttribute("data-span"), e.firstChild?.textContent]));
    expect(marks.map((m) => m[1])).toEqual(["Sarah", "London"]);
    expect(await page.locator("[data-widget-result] [aria-label=Legend] li").count()).toBe(new Set(marks.map((m) => m[0])).size);
    await auditWidget(page, "token-classification", { blocked });
  });

  it("fill-mask: the model's mask token in the example, candidates ranked", async () => {
    await openWidget(page, `${server.url}/playground/google-bert/bert-base-uncased`);
    expect(await page.locator("textarea[name=inputs]").inputValue()).toContain("[MASK]");
    await page.locator("textarea[name=inputs]").fill("The capital of France is [MASK].");
    await runWidget(page);
    const items = await page.locator("[data-fill-mask] li").allInnerTexts();
    expect(items).toHaveLength(5);
    expect(items[0]).toMatch(/^1\.\s+paris\s+the capital of france is paris\.\s+50\.0%$/);
    await auditWidget(page, "fill-mask", { blocked });
  });

  it("question-answering: the answer highlighted in its context", async () => {
    await openWidget(page, `${server.url}/playground/deepset/bert-base-uncased-squad2`);
    await page.locator("input[name=question]").fill("What is my name?");
    await page.locator("textarea[name=context]").fill("My name is Clara and I live in Berkeley.");
    await runWidget(page);
    const answer = await page.locator("[data-qa-answer]").innerText();
    expect(answer).toBe("Berkeley");
    expect(await page.locator("[data-widget-result] mark").first().evaluate((e) => e.firstChild?.textContent)).toBe(answer);
    expect(lastTaskRequest(sim).bodyJson).toMatchObject({ inputs: { question: "What is my name?", context: "My name is Clara and I live in Berkeley." } });
    await auditWidget(page, "question-answering", { blocked });
  });

  it("summarization and translation: text in, text out", async () => {
    await openWidget(page, `${server.url}/playground/facebook/bart-large-cnn`);
    await page.locator("textarea[name=inputs]").fill("The tower is tall. It stands in Paris.");
    await runWidget(page);
    expect(await page.locator("[data-generated-text]").innerText()).toBe("The tower is tall.");
    await auditWidget(page, "summarization", { blocked });

    await openWidget(page, `${server.url}/playground/Helsinki-NLP/opus-mt-ru-en`);
    expect(await page.locator("h1").innerText()).toBe("Translation with Helsinki-NLP/opus-mt-ru-en");
    await page.locator("textarea[name=inputs]").fill("Привет, мир");
    await runWidget(page);
    expect(await page.locator("[data-generated-text]").innerText()).toBe("[simulated translation] Привет, мир");
    await auditWidget(page, "translation", { blocked });
  });

  it("text-generation (not chat): the prompt continued", async () => {
    const model = "meta-llama/Llama-2-70b-hf";
    await openWidget(page, `${server.url}/playground/${model}`);
    expect(await page.locator("h1").innerText()).toBe(`Text Generation with ${model}`);
    await page.locator("textarea[name=inputs]").fill("Once upon a time,");
    await runWidget(page);
    expect(await page.locator("[data-generated-text]").innerText()).toMatch(/^Once upon a time, and so the simulated together completion continues \(\w{6}\)\.$/);
    // Streamed: together's completion chunks (choices[0].text) come through as tokens.
    expect(lastTaskRequest(sim)).toMatchObject({ originalUrl: "https://router.huggingface.co/together/v1/completions", bodyJson: { stream: true } });
    await auditWidget(page, "text-generation", { blocked });
  });

  it("feature-extraction: the vector's shape and first values", async () => {
    await openWidget(page, `${server.url}/playground/BAAI/bge-small-en-v1.5`);
    await page.locator("textarea[name=inputs]").fill("Today is a sunny day");
    await runWidget(page);
    expect(await page.locator("[data-vector-shape]").innerText()).toBe("[32]");
    expect((await page.locator("[data-vector-preview]").innerText()).split(", ")).toHaveLength(8);
    await auditWidget(page, "feature-extraction", { blocked });
  });

  it("sentence-similarity: a score per sentence, in the order given", async () => {
    await openWidget(page, `${server.url}/playground/sentence-transformers/paraphrase-xlm-r-multilingual-v1`);
    await page.locator("input[name=source_sentence]").fill("That is a happy person");
    await page.locator("textarea[name=sentences]").fill("That is a happy dog\nToday is a sunny day");
    await runWidget(page);
    expect(await page.locator("[data-widget-result] [data-bar]").evaluateAll((els) => els.map((e) => e.getAttribute("data-bar")))).toEqual(["That is a happy dog", "Today is a sunny day"]);
    expect(lastTaskRequest(sim).bodyJson).toMatchObject({ inputs: { source_sentence: "That is a happy person", sentences: ["That is a happy dog", "Today is a sunny day"] } });
    await auditWidget(page, "sentence-similarity", { blocked });
  });

  it("table-question-answering: an editable table, the answer's cell marked", async () => {
    await openWidget(page, `${server.url}/playground/google/tapas-base-finetuned-wtq`);
    await page.locator("[data-table-input] input[aria-label='Row 3, No.of reigns']").fill("9");
    await runWidget(page);
    expect(await page.locator("[data-table-answer]").innerText()).toBe("9");
    const body = lastTaskRequest(sim).bodyJson as { inputs: { query: string; table: Record<string, string[]> } };
    expect(body.inputs.query).toBe("What is the number of reigns for Harley Race?");
    expect(body.inputs.table["No.of reigns"]).toEqual(["3", "8", "9"]);
    await page.locator("[data-task-widget]").getByRole("button", { name: "Add row" }).click();
    expect(await page.locator("[data-table-input] tr").count()).toBe(5);
    await auditWidget(page, "table-question-answering", { blocked });
  });
});

describe("text task widgets on the model page", () => {
  it("appears in the demo slot, loaded after the page, within the page's JavaScript budget", async () => {
    const model = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";
    const scripts = new Map<string, Buffer>();
    page.on("response", async (res) => {
      if (res.request().resourceType() === "script") scripts.set(new URL(res.url()).pathname, await res.body().catch(() => Buffer.alloc(0)));
    });
    const html = await (await fetch(`${server.url}/${model}`)).text();
    const initial = new Set([...html.matchAll(/<(?:link rel="modulepreload" href|script type="module" src)="([^"]+)"/g)].map((m) => m[1] ?? ""));
    await page.goto(`${server.url}/${model}`);
    await page.waitForSelector("#demo [data-task-widget=text-classification]");
    await page.waitForLoadState("networkidle");
    expect(await page.locator("#demo h2").innerText()).toBe("Try it: Text Classification");
    const gzip = (paths: string[]) => paths.reduce((n, p) => n + gzipSync(scripts.get(p) ?? Buffer.alloc(0)).length, 0);
    const initialJs = gzip([...scripts.keys()].filter((p) => initial.has(p)));
    const lazyPaths = [...scripts.keys()].filter((p) => !initial.has(p));
    expect(initialJs, `model page initial JS, gzip: ${initialJs} bytes`).toBeLessThanOrEqual(150 * 1024);
    // The widget's code is in the chunks loaded after the page, not the page's own.
    expect(lazyPaths.some((p) => /text-classification/.test(p)), lazyPaths.join(", ")).toBe(true);
    console.log(`model page JS (gzip): initial ${initialJs} B; loaded later ${gzip(lazyPaths)} B in ${lazyPaths.length} chunks`);

    await page.locator("#demo textarea[name=inputs]").fill("I hate waiting");
    await runWidget(page);
    expect(await page.locator("#demo [data-bar]").first().getAttribute("data-bar")).toBe("NEGATIVE");
    await page.locator("#demo").screenshot({ path: screenshot("task-widget-model-page.png") });
  });

  it("the inference tab's snippets follow the widget beside them: its text and its parameters", async () => {
    const model = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";
    await page.goto(`${server.url}/${model}?tab=inference`);
    await page.waitForSelector("#demo [data-task-widget=text-classification] button[type=submit]");
    await page.waitForLoadState("networkidle");
    const demo = page.locator("#demo");
    await demo.locator("textarea[name=inputs]").fill("Such a 'quiet' evening");
    await demo.locator("[data-widget-parameters] summary").click();
    await demo.locator("input[name=top_k]").fill("2");
    await demo.locator("select[name=function_to_apply]").selectOption("sigmoid");
    const panel = page.locator("[data-inference-panel]");
    await page.waitForFunction(
      () => {
        const text = document.querySelector("[data-inference-panel] [data-language]")?.textContent ?? "";
        return text.includes(`"Such a 'quiet' evening"`) && text.includes("top_k: 2");
      },
      undefined,
      { timeout: 10_000 },
    );
    expect((await panel.locator("[data-follows-demo]").innerText()).trim()).toBe("It carries the text and parameters set in the demo.");
    for (const code of await panel.locator("[data-language=js] [data-code]").allInnerTexts()) {
      expect(code).toContain(`"Such a 'quiet' evening"`);
      expect(code).toContain('parameters: { function_to_apply: "sigmoid", top_k: 2 }');
      expect(code).not.toContain("I like you. I love you");
    }
    await panel.locator('nav[aria-label="Language"] a', { hasText: "Python" }).click();
    const [hub, requests] = await panel.locator("[data-language=python] [data-code]").allInnerTexts();
    expect(hub).toContain(`    "Such a 'quiet' evening",\n    model="${model}",\n    function_to_apply="sigmoid",\n    top_k=2,\n)`);
    expect(requests).toContain(`    "inputs": "Such a 'quiet' evening",\n    "parameters": {"function_to_apply": "sigmoid", "top_k": 2},`);
    await panel.locator('nav[aria-label="Language"] a', { hasText: "Shell" }).click();
    const curl = await panel.locator("[data-language=sh] [data-code]").innerText();
    expect(curl).toContain(`"inputs": "\\"Such a '\\''quiet'\\'' evening\\""`);
    expect(curl).toMatch(/"parameters": \{\s+"function_to_apply": "sigmoid",\s+"top_k": 2\s+\}/);
    // The panel's own settings keep the widget's text and parameters.
    await panel.locator("input[name=bill_to]").fill("acme-org");
    await panel.getByRole("button", { name: "Show code" }).click();
    await page.waitForFunction(() => document.querySelector("[data-inference-panel] [data-language]")?.textContent?.includes("acme-org"), undefined, { timeout: 10_000 });
    expect(await panel.locator("[data-language=sh] [data-code]").innerText()).toContain("top_k");
    expect(page.url()).not.toContain("top_k");

    // The API names the query parameter it cannot use.
    const bad = async (query: string) => {
      const res = await fetch(`${server.url}/api/snippets?model=${encodeURIComponent(model)}&${query}`);
      return { status: res.status, body: (await res.json()) as { error: { field: string } } };
    };
    expect(await bad("parameters=%7Bnot-json")).toMatchObject({ status: 400, body: { error: { field: "parameters" } } });
    expect(await bad(`parameters=${encodeURIComponent('{"top_k":1.5}')}`)).toMatchObject({ status: 400, body: { error: { field: "parameters.top_k" } } });
    expect(await bad(`parameters=${encodeURIComponent('{"temperature":1}')}`)).toMatchObject({ status: 400, body: { error: { field: "parameters.temperature" } } });
    expect(await bad("inputs=")).toMatchObject({ status: 400, body: { error: { field: "inputs" } } });

    // Light and dark, desktop and phone: the widget beside (or above) the code.
    const violations = await runAxe(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    const tab = page.locator("[data-inference-tab]");
    await tab.screenshot({ path: screenshot("model-page-inference-widget-desktop-light.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await runAxe(page);
    expect(dark, describeViolations(dark)).toEqual([]);
    await tab.screenshot({ path: screenshot("model-page-inference-widget-desktop-dark.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await tab.screenshot({ path: screenshot("model-page-inference-widget-phone-dark.png") });
    await page.emulateMedia({ colorScheme: "light" });
    await tab.screenshot({ path: screenshot("model-page-inference-widget-phone-light.png") });
    const phone = await runAxe(page);
    expect(phone, describeViolations(phone)).toEqual([]);
    expect(blocked).toEqual([]);
  });

  it("task pages' Try it leads to the playground's widget", async () => {
    // text-classification's widget model in @huggingface/tasks is in the bundled catalogue.
    const model = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";
    await page.goto(`${server.url}/tasks/text-classification`);
    const tryIt = page.locator(`a[data-try-it="${model}"]`);
    expect(await tryIt.getAttribute("href")).toBe(`/playground/${model}`);
    await tryIt.click();
    await page.waitForSelector("[data-task-widget=text-classification]");
  });
});

/** How each text task's example output must be drawn: by the task's own output component, with the guide's values. */
const EXAMPLE_CHECKS: Record<(typeof WIDGET_FAMILIES.text)[number], (output: Locator) => Promise<void>> = {
  "text-classification": async (output) => {
    const chart = chartByScore("text-classification");
    expect(await barLabels(output)).toEqual(chart.map((d) => d.label));
    const rows = await output.locator("table tbody tr").allInnerTexts();
    expect(rows.map((r) => r.replace(/\s+/g, " ").trim())).toEqual(chart.map((d) => `${d.label} ${percent(d.score)}`));
  },
  "zero-shot-classification": async (output) => {
    expect(await barLabels(output)).toEqual(chartByScore("zero-shot-classification").map((d) => d.label));
  },
  "token-classification": async (output) => {
    const entry = demoEntry("token-classification", "outputs", "text-with-tokens");
    const marks = await output.locator("mark").evaluateAll((els) => els.map((e) => [e.getAttribute("data-span"), e.firstChild?.textContent]));
    expect(marks).toEqual(entry.tokens.map((t) => [t.type, entry.text.slice(t.start, t.end)]));
    expect(await output.locator("[aria-label=Legend] li").allInnerTexts()).toEqual([...new Set(entry.tokens.map((t) => t.type))]);
  },
  "fill-mask": async (output) => {
    // The ranked list a run shows, each candidate put into the guide's sentence.
    const sentence = demoEntry("fill-mask", "inputs", "text").content;
    const items = await output.locator("[data-fill-mask] li").allInnerTexts();
    expect(items.map((t) => t.replace(/\s+/g, " "))).toEqual(chartByScore("fill-mask").map((d, i) => `${i + 1}. ${d.label} ${sentence.replace("<mask>", d.label)} ${percent(d.score)}`));
  },
  "question-answering": async (output) => {
    const answer = demoEntry("question-answering", "outputs", "text").content;
    expect(await output.locator("[data-qa-answer]").innerText()).toBe(answer);
    // Highlighted in the guide's context; no score, as the guide gives none.
    expect(await output.locator("mark").evaluate((e) => e.firstChild?.textContent)).toBe(answer);
    const context = await output.locator("[data-highlighted-text] p").evaluate((p) => {
      const copy = p.cloneNode(true) as HTMLElement;
      copy.querySelectorAll("mark > span").forEach((label) => label.remove());
      return copy.textContent;
    });
    expect(context).toBe(demoEntry("question-answering", "inputs", "text", 1).content);
    expect(await output.innerText()).not.toContain("score");
  },
  summarization: async (output) => {
    expect(await output.locator("[data-generated-text]").innerText()).toBe(demoEntry("summarization", "outputs", "text").content);
  },
  translation: async (output) => {
    expect(await output.locator("[data-generated-text]").innerText()).toBe(demoEntry("translation", "outputs", "text").content);
  },
  "text-generation": async (output) => {
    const prompt = demoEntry("text-generation", "inputs", "text").content;
    expect(await output.locator("[data-generated-text]").innerText()).toBe(demoEntry("text-generation", "outputs", "text").content);
    expect(await output.locator("[data-generated-text] > span").first().innerText()).toBe(prompt);
  },
  "feature-extraction": async (output) => {
    // The guide shows a few dimensions as a table, not a whole vector: drawn as the table it is.
    const table = demoEntry("feature-extraction", "outputs", "tabular").table;
    expect(await output.locator("thead th").allInnerTexts()).toEqual(table[0]);
    expect(await output.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)))).toEqual(table.slice(1));
  },
  "sentence-similarity": async (output) => {
    // One bar per compared sentence, in the order they were given.
    const chart = demoEntry("sentence-similarity", "outputs", "chart").data;
    expect(await barLabels(output)).toEqual(chart.map((d) => d.label));
    expect(await output.locator("table thead th").first().innerText()).toBe("Sentence");
  },
  "table-question-answering": async (output) => {
    const answer = demoEntry("table-question-answering", "outputs", "text").content;
    const table = demoEntry("table-question-answering", "inputs", "tabular").table;
    expect(await output.locator("[data-table-answer]").innerText()).toBe(answer);
    // The one cell that holds the answer is marked, in its row.
    const row = table.findIndex((r) => r.includes(answer));
    expect(await output.locator("[data-answer-cell]").evaluateAll((tds) => tds.map((td) => [(td.parentElement as HTMLTableRowElement).rowIndex, (td as HTMLTableCellElement).cellIndex]))).toEqual([
      [row, table[row]?.indexOf(answer)],
    ]);
  },
};

describe("the task guide's example instead of a live result", () => {
  it.each(WIDGET_FAMILIES.text.map((task) => [task] as const))("%s: nothing serves the model, the guide's example drawn as a run would be", async (task) => {
    await openWidget(page, `${server.url}/playground/${unservedModelId(task)}`);
    const output = await expectExampleNotLive(page);
    expect(await page.locator("[data-widget-example]").innerText()).toContain("No inference provider or configured endpoint serves this model");
    await EXAMPLE_CHECKS[task](output);
    await auditWidget(page, `example-${task}`, { blocked });
  });

  it("the model page offers no widget for a model nothing serves", async () => {
    await page.goto(`${server.url}/${unservedModelId("token-classification")}`);
    await page.waitForLoadState("networkidle");
    expect(await page.locator("#demo [data-task-widget]").count()).toBe(0);
  });

  it("when the machine is offline", async () => {
    await openWidget(page, `${server.url}/playground/distilbert/distilbert-base-uncased-finetuned-sst-2-english`);
    await context.setOffline(true);
    const example = page.locator("[data-widget-example]");
    await example.waitFor();
    expect(await example.innerText()).toContain("This machine is offline");
    expect(await example.locator("[data-bar]").first().getAttribute("data-bar")).toBe("POSITIVE");
    await context.setOffline(false);
    await example.waitFor({ state: "detached" });
  });

  it("on the model page, offline: the slot's widget shows the guide's example", async () => {
    await page.goto(`${server.url}/google-bert/bert-base-uncased`);
    await page.waitForSelector("#demo [data-task-widget=fill-mask] button[type=submit]");
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    const output = await expectExampleNotLive(page, { scope: page.locator("#demo"), offline: true });
    await EXAMPLE_CHECKS["fill-mask"](output);
    expect(await page.locator("#demo [data-widget-example]").innerText()).toContain("This machine is offline");
    await auditWidget(page, "example-model-page-fill-mask", { blocked });
    await context.setOffline(false);
  });
});

describe("without a server key", () => {
  const bare = setupServer(() => ({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, MODELYARD_INFERENCE_RATE_LIMIT: "1000" } }));

  it("shows the example until the visitor adds a token, then runs live", async () => {
    const url = `${bare.url}/playground/distilbert/distilbert-base-uncased-finetuned-sst-2-english`;
    await openWidget(page, url);
    const example = page.locator("[data-widget-example]");
    expect(await example.innerText()).toContain("needs a Hugging Face token");
    expect(await page.locator("[data-task-widget]").getByRole("button", { name: "Run" }).isDisabled()).toBe(true);
    await page.evaluate(() => window.localStorage.setItem("modelyard.hfToken", "hf_e2eVisitorKey111111111"));
    await openWidget(page, url);
    expect(await page.locator("[data-widget-example]").count()).toBe(0);
    await runWidget(page);
    // The server holds no key, so the token that reached the provider is the visitor's.
    expect(sim.requests.find((r) => r.service === "router")?.authorization.tokenKind).toBe("hf-token");
  });
});
