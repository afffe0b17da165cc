// Executes the snippets a model page shows (snippets.getInferenceSnippets of @huggingface/inference
// 3.13.1, with the page's corrections from app/snippets/snippet-corrections.ts and nothing else
// changed): JavaScript in a child Node process, curl in bash, against the provider
// SIMULATOR (tests/simulators/). Hosts are mapped to the simulator: for JS by a preloaded global
// fetch hook (fetch-override-preload.ts), for curl by rewriting `https://<host>` in the command to
// `<simulator>/<host>`. Every generated JS/sh snippet must end up either verified (a well-formed
// answer was checked) or in KNOWN_UNVERIFIED with the failure it shows, and the verified set must
// equal app/snippets/verified-snippet-kinds.ts exactly.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { snippets } from "@huggingface/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { correctSnippets } from "#app/snippets/snippet-corrections.ts";
import { VERIFIED_SNIPPET_KINDS, snippetKindKey, type SnippetClient, type SnippetLanguage, type VerifiedSnippetKind } from "#app/snippets/verified-snippet-kinds.ts";
import { makeFlac, makePng, sniffMedia } from "../simulators/media.ts";
import { startProviderSimulator, type ProviderSimulator } from "../simulators/provider-simulator.ts";
import { SNIPPET_CASES, type SnippetCase } from "./snippet-cases.ts";

const here = dirname(fileURLToPath(import.meta.url));
const workDir = join(here, ".work");
const preload = pathToFileURL(join(here, "fetch-override-preload.ts")).href;

const verified = new Set<string>();


beforeAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  // The files the snippets read by name. cats.jpg holds PNG bytes: only PNG can be written here
  // without an encoder, and image servers (and the simulator) identify images by content.
  writeFileSync(join(workDir, "sample1.flac"), makeFlac("sample1"));
  writeFileSync(join(workDir, "cats.jpg"), makePng("cats"));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------

const fetchLogSchema = z.object({
  url: z.string(),
  method: z.string(),
  status: z.number(),
  contentType: z.string().nullable(),
  size: z.number(),
  media: z.string(),
  json: z.unknown().optional(),
  text: z.string().optional(),
});
type FetchLog = z.infer<typeof fetchLogSchema>;

interface RunResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
  fetches: FetchLog[];
}

let runCounter = 0;

function run(command: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  runCounter += 1;
  const logPath = join(workDir, `fetch-log-${runCounter}.jsonl`);
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: workDir, env: { ...process.env, ...env, SNIPPET_FETCH_LOG: logPath }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024, encoding: "buffer" },
      (error, stdout, stderr) => {
        const fetches = existsSync(logPath)
          ? readFileSync(logPath, "utf8")
              .split("\n")
              .filter((l) => l.length > 0)
              .map((l) => fetchLogSchema.parse(JSON.parse(l)))
          : [];
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        resolve({ exitCode: code, stdout, stderr: stderr.toString("utf8"), fetches });
      },
    );
  });
}

function runJs(sim: ProviderSimulator, source: string): Promise<RunResult> {
  runCounter += 1;
  const file = join(workDir, `snippet-${runCounter}.mjs`);
  writeFileSync(file, source);
  return run(process.execPath, ["--import", "tsx", "--import", preload, file], { MODELYARD_UPSTREAM_OVERRIDE: sim.url });
}

/** The curl placeholder host mapping: https://<host>/... -> <simulator>/<host>/... */
function mapCurlHosts(sim: ProviderSimulator, source: string): string {
  return source.replace(/https:\/\/([a-zA-Z0-9.-]+)/g, `${sim.url}/$1`);
}

function runCurl(sim: ProviderSimulator, source: string): Promise<RunResult> {
  return run("bash", ["-c", `set -euo pipefail\n${mapCurlHosts(sim, source)}\n`], {});
}

// ---------------------------------------------------------------------------------------------
// Answer shapes

const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number(),
  model: z.string(),
  choices: z.array(z.object({ index: z.number(), message: z.object({ role: z.literal("assistant"), content: z.string() }), finish_reason: z.string() })).min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }),
});
const chatChunkSchema = z.object({
  object: z.literal("chat.completion.chunk"),
  choices: z.array(z.object({ delta: z.object({ content: z.string().optional() }), finish_reason: z.string().nullable() })),
});

const TASK_SCHEMAS: Record<string, z.ZodType> = {
  "text-classification": z.array(z.array(z.object({ label: z.string(), score: z.number() })).min(1)).length(1),
  "token-classification": z.array(z.object({ entity_group: z.string(), score: z.number(), word: z.string(), start: z.number(), end: z.number() })).min(1),
  "fill-mask": z.array(z.object({ score: z.number(), token: z.number(), token_str: z.string(), sequence: z.string() })).min(1),
  summarization: z.array(z.object({ summary_text: z.string().min(1) })).length(1),
  "feature-extraction": z.array(z.number()).min(1),
  "image-classification": z.array(z.object({ label: z.string(), score: z.number() })).min(1),
  "automatic-speech-recognition": z.object({ text: z.string().min(1) }),
};

const MEDIA_TASKS: Record<string, string> = { "text-to-image": "png", "text-to-video": "mp4" };

function expectedChatReply(c: SnippetCase): string {
  return `Simulated ${c.provider} reply from ${c.providerId}: you said "What is the capital of France?".`;
}

function providerAnswers(r: RunResult): FetchLog[] {
  return r.fetches.filter((f) => !f.url.startsWith("https://huggingface.co/"));
}

function parseSse(text: string): { contents: string; done: boolean } {
  let contents = "";
  let done = false;
  for (const block of text.split("\n\n")) {
    const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
    if (!data) continue;
    if (data === "[DONE]") {
      done = true;
      continue;
    }
    const chunk = chatChunkSchema.parse(JSON.parse(data));
    contents += chunk.choices[0]?.delta.content ?? "";
  }
  return { contents, done };
}

/** Throws unless the run produced a well-formed answer for this kind of snippet. */
function assertWellFormed(c: SnippetCase, client: SnippetClient, r: RunResult): void {
  expect(r.exitCode, `exit code; stderr: ${r.stderr}`).toBe(0);
  const stdout = r.stdout.toString("utf8");
  if (c.task === "conversational") {
    const expected = expectedChatReply(c);
    if (c.streaming) {
      if (client === "curl") {
        expect(parseSse(stdout)).toEqual({ contents: expected, done: true });
      } else if (client === "openai") {
        expect(stdout).toBe(expected);
      } else {
        // The huggingface.js stream snippet console.logs each delta (one per line); the last chunk has an empty delta.
        expect(stdout.replace(/\n/g, "").startsWith(expected)).toBe(true);
      }
      return;
    }
    if (client === "curl") {
      expect(chatCompletionSchema.parse(JSON.parse(stdout)).choices[0]?.message.content).toBe(expected);
      return;
    }
    const answer = providerAnswers(r).find((f) => f.method === "POST");
    expect(answer?.status).toBe(200);
    expect(chatCompletionSchema.parse(answer?.json).choices[0]?.message.content).toBe(expected);
    expect(stdout).toContain(expected);
    return;
  }
  const media = MEDIA_TASKS[c.task];
  if (media) {
    const got = providerAnswers(r).filter((f) => f.status === 200 && f.media === media);
    expect(got.length, JSON.stringify(r.fetches.map((f) => [f.url.slice(0, 80), f.status, f.media]))).toBeGreaterThan(0);
    return;
  }
  const schema = TASK_SCHEMAS[c.task];
  if (!schema) throw new Error(`No answer schema for ${c.task}`);
  if (client === "huggingface.js") {
    const answer = providerAnswers(r).find((f) => f.method === "POST");
    expect(answer?.status).toBe(200);
    schema.parse(answer?.json);
    expect(stdout.trim().length).toBeGreaterThan(0);
    return;
  }
  schema.parse(JSON.parse(stdout));
}

// ---------------------------------------------------------------------------------------------
// Snippets that run but do not give a usable answer, with the exact way each one fails.

interface KnownUnverified {
  provider: string;
  task: string;
  language: SnippetLanguage;
  client: SnippetClient;
  reason: string;
  check: (r: RunResult) => void;
}

const KNOWN_UNVERIFIED: KnownUnverified[] = [
  {
    provider: "fal-ai",
    task: "automatic-speech-recognition",
    language: "sh",
    client: "curl",
    reason: "posts raw FLAC to the router's fal-ai route; 3.13.1 itself sends {audio_url: data:...}, and whether the router converts raw audio for fal is not known here, so the simulator refuses it",
    check: (r) => expect(JSON.parse(r.stdout.toString("utf8"))).toHaveProperty("detail"),
  },
  {
    provider: "fal-ai",
    task: "text-to-image",
    language: "js",
    client: "fetch",
    reason: "reads the JSON answer ({images: [{url}]}) as a Blob and calls it the image",
    check: (r) => {
      const answer = providerAnswers(r).find((f) => f.method === "POST");
      expect(answer?.media).toBe("unknown");
      expect(answer?.json).toMatchObject({ images: [{ url: expect.stringMatching(/^data:image\/png;base64,/) as string }] });
    },
  },
  {
    provider: "replicate",
    task: "text-to-image",
    language: "js",
    client: "fetch",
    reason: "sends no `Prefer: wait`, so gets a prediction that is still starting, and reads that JSON as the image Blob",
    check: (r) => {
      const answer = providerAnswers(r).find((f) => f.method === "POST");
      expect(answer?.status).toBe(201);
      expect(answer?.json).toMatchObject({ status: "starting", output: null });
    },
  },
];

// ---------------------------------------------------------------------------------------------

function kindOf(c: SnippetCase, language: SnippetLanguage, client: SnippetClient): VerifiedSnippetKind {
  return { provider: c.provider, task: c.task, streaming: c.streaming, language, client, auth: c.auth };
}

const LISTED = new Set(VERIFIED_SNIPPET_KINDS.map(snippetKindKey));
const knownSeen = new Set<KnownUnverified>();

// Each case gets its own simulator so cases can run concurrently (a child process spends most of
// its time starting up) while every request a snippet makes is still attributable to it.
describe.concurrent("model-page snippets executed against the provider simulator", () => {
  for (const c of SNIPPET_CASES) {
    const label = `${c.provider} ${c.task}${c.streaming ? " (stream)" : ""} ${c.auth}`;
    it(label, async () => {
      const sim = await startProviderSimulator();
      try {
        await runCase(sim, c);
      } finally {
        await sim.close();
      }
    });
  }
});

async function runCase(sim: ProviderSimulator, c: SnippetCase): Promise<void> {
  const generated = correctSnippets(
    snippets.getInferenceSnippets(
      c.model,
      c.accessToken,
      c.provider as "together",
      { hfModelId: c.model.id, providerId: c.providerId, status: "live", task: c.task as "conversational" },
      { streaming: c.streaming },
    ),
    c.task,
    c.provider,
  );
  const runnable = generated.filter((s) => s.language === "js" || s.language === "sh");
  expect(runnable.length).toBeGreaterThan(0);
  for (const snippet of runnable) {
    const language = snippet.language;
    const client = snippet.client as SnippetClient;
    const key = snippetKindKey(kindOf(c, language, client));
    sim.reset();
    const result = language === "sh" ? await runCurl(sim, snippet.content) : await runJs(sim, snippet.content);
    const known = KNOWN_UNVERIFIED.find((k) => k.provider === c.provider && k.task === c.task && k.language === language && k.client === client);
    if (LISTED.has(key)) {
      assertWellFormed(c, client, result);
      // The request really reached the simulated upstream for this provider, with the snippet's auth.
      const providerRequests = sim.requests.filter((r) => r.service === "router" || r.service === "provider");
      expect(providerRequests.length).toBeGreaterThan(0);
      expect(providerRequests.every((r) => r.provider === c.provider && r.authorization.tokenKind === c.auth)).toBe(true);
      verified.add(key);
    } else if (known) {
      known.check(result);
      knownSeen.add(known);
    } else {
      throw new Error(`Snippet ${key} is neither listed as verified nor known as unverified; it printed:\n${result.stdout.toString("utf8").slice(0, 400)}\n${result.stderr.slice(0, 400)}`);
    }
  }
}

describe("verified snippet kinds", () => {
  it("the verified list in app/snippets/verified-snippet-kinds.ts is exactly what was executed and verified", () => {
    const listed = [...LISTED].sort();
    expect([...verified].sort()).toEqual(listed);
    expect(listed.length).toBeGreaterThanOrEqual(10);
    const pairs = new Set(VERIFIED_SNIPPET_KINDS.map((k) => `${k.provider}|${k.task}`));
    expect(pairs.size).toBeGreaterThanOrEqual(10);
  });

  it("every known-unverified snippet was generated and failed the way it is described", () => {
    expect(KNOWN_UNVERIFIED.filter((k) => !knownSeen.has(k)).map((k) => `${k.provider} ${k.task} ${k.client}`)).toEqual([]);
  });

  it("cats.jpg and sample1.flac are real image and audio bytes", () => {
    expect(sniffMedia(readFileSync(join(workDir, "cats.jpg")))).toBe("png");
    expect(sniffMedia(readFileSync(join(workDir, "sample1.flac")))).toBe("flac");
  });
});
