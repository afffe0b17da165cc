// Executes the "OpenAI-compatible (this server)" snippets (app/snippets/openai-compatible-snippets.ts)
// as a person would: the JavaScript in a child Node process with the pinned `openai` package, curl
// in bash, against this server's /v1 served over a loopback socket, with the providers behind it
// played by the SIMULATOR (tests/simulators/). Nothing is rewritten but the token's environment.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, createPersonalToken } from "#app/auth/accounts.server.ts";
import { createInferenceGateway } from "#app/inference/gateway.server.ts";
import { openAiCompatibleSnippets, type OpenAiSnippetTask } from "#app/snippets/openai-compatible-snippets.ts";
import { buildTestCatalog, serveGateway, type ServedGateway, type TestCatalog } from "#tests/inference/serve-gateway.ts";
import { TASK_MODELS } from "#tests/inference/task-models.ts";
import { HUB_FIXTURE_MODELS } from "#tests/simulators/hub-fixture.ts";
import { makeFlac } from "#tests/simulators/media.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
// Inside the project, so `import OpenAI from "openai"` resolves to the pinned package.
const workDir = path.join(here, ".work-openai");

let sim: ProviderSimulator;
let catalogue: TestCatalog;
let served: ServedGateway;
let token: string;

const seen = new Set<string>();
const MODELS = [...TASK_MODELS, ...HUB_FIXTURE_MODELS].filter((m) => !seen.has(m.id) && seen.add(m.id));

beforeAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(path.join(workDir, "sample1.flac"), makeFlac("sample1"));
  sim = await startProviderSimulator({ assetUrls: "real-host", hubModels: MODELS });
  catalogue = await buildTestCatalog(MODELS.map((m) => ({ ...m })));
  const { user } = await addPerson(catalogue.database(), { email: "snippets@example.com", role: "member" }, "http://x");
  token = (await createPersonalToken(catalogue.database(), user.id, { name: "snippets", expiresInDays: 1, scopes: ["inference"], rpm: null, tokensPerDay: null })).token;
  served = await serveGateway(
    createInferenceGateway({
      catalog: catalogue.catalog,
      database: catalogue.database,
      env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_snippetRunServerKey123456", MODELYARD_INFERENCE_MAX_RETRIES: "0" },
      log: () => {},
    }),
  );
}, 60_000);

afterAll(async () => {
  await served?.close();
  await sim?.close();
  await catalogue?.drop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: workDir, env: { ...process.env, OPENAI_API_KEY: token }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const CASES: Array<{ task: OpenAiSnippetTask; model: string; streaming: boolean; check: (stdout: string, dir: string) => void }> = [
  { task: "conversational", model: "meta-llama/Llama-3.3-70B-Instruct:together", streaming: false, check: (out) => expect(out).toContain("Simulated together reply") },
  { task: "conversational", model: "meta-llama/Llama-3.3-70B-Instruct:groq", streaming: true, check: (out) => expect(out).toContain("Simulated groq reply") },
  { task: "text-generation", model: "meta-llama/Llama-3.1-8B:together", streaming: false, check: (out) => expect(out).toMatch(/simulated together completion/) },
  { task: "feature-extraction", model: "BAAI/bge-small-en-v1.5", streaming: false, check: (out) => expect(out).toMatch(/\[ ?\d+, ?\d+ ?\]/) },
  { task: "text-to-image", model: "black-forest-labs/FLUX.1-dev:hf-inference", streaming: false, check: (_, dir) => expect(fs.readFileSync(path.join(dir, "image.png")).subarray(1, 4).toString("latin1")).toBe("PNG") },
  { task: "automatic-speech-recognition", model: "openai/whisper-large-v3:hf-inference", streaming: false, check: (out) => expect(out.trim().length).toBeGreaterThan(0) },
  { task: "text-to-speech", model: "facebook/mms-tts-eng", streaming: false, check: (_, dir) => expect(fs.readFileSync(path.join(dir, "speech.wav")).subarray(0, 4).toString("latin1")).toBe("RIFF") },
];

describe("OpenAI-compatible snippets, run against this server's /v1", () => {
  it.each(CASES)("JavaScript (openai) for $task ($model, stream: $streaming) runs and prints the answer", async (c) => {
    const js = openAiCompatibleSnippets({ task: c.task, model: c.model, origin: served.url, streaming: c.streaming }).find((s) => s.client === "openai-js")!;
    const file = path.join(workDir, `${c.task}-${c.streaming ? "stream" : "once"}.mjs`);
    fs.writeFileSync(file, js.content);
    const result = await run(process.execPath, [file]);
    expect(result.code, result.stderr).toBe(0);
    c.check(result.stdout, workDir);
  });

  it.each(CASES.filter((c) => c.task === "conversational" || c.task === "feature-extraction" || c.task === "automatic-speech-recognition"))("curl for $task runs and answers 200 JSON", async (c) => {
    const sh = openAiCompatibleSnippets({ task: c.task, model: c.model, origin: served.url, streaming: false }).find((s) => s.client === "curl")!;
    const result = await run("bash", ["-c", `${sh.content} --silent --show-error --fail-with-body`]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(() => JSON.parse(result.stdout) as unknown).not.toThrow();
  });

  it("the Python snippets name the same base URL, model and route as the JavaScript ones", () => {
    for (const c of CASES) {
      const [js, python] = openAiCompatibleSnippets({ task: c.task, model: c.model, origin: "https://models.example.org", streaming: c.streaming });
      for (const text of [js!.content, python!.content]) {
        expect(text).toContain('"https://models.example.org/v1"');
        expect(text).toContain(`"${c.model}"`);
      }
    }
  });
});
