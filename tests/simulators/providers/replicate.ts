// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// replicate: predictions at api.replicate.com (or router.huggingface.co/replicate), by model
// (v1/models/<owner>/<name>/predictions) or by version (v1/predictions), answered at once under
// `Prefer: wait` and otherwise polled; outputs are files on replicate.delivery.
import { makeMp4, makePng, makeWav } from "../media.ts";
import { type Ctx, type SimulatedProvider, type SimulatorServices, sendError, sendJson } from "../common/context.ts";
import { answerDelayMs } from "../common/faults.ts";
import { isRecord, type Json, shortHash, sleep, str } from "../common/util.ts";

interface ReplicatePrediction {
  id: string;
  model: string;
  version: string | null;
  input: Record<string, unknown>;
  task: string;
  output: string | string[] | null;
  polls: number;
  createdAt: string;
}

export const replicate: SimulatedProvider = {
  id: "replicate",
  hosts: ["api.replicate.com"],
  assetHosts: ["replicate.delivery"],
  errorStyle: "replicate",
  recordedModel: (route, json) => {
    const m = /^v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(route);
    if (m) return m[1] ?? null;
    return isRecord(json) ? (str(json["version"]) ?? null) : undefined;
  },
  create: () => {
    const predictions = new Map<string, ReplicatePrediction>();
    return { handle: (ctx) => handle(ctx, predictions), reset: () => predictions.clear() };
  },
};

function replicateOutput(sim: SimulatorServices, task: string, id: string, prompt: string): string | string[] {
  if (task === "text-to-image") return [sim.storeAsset("replicate.delivery", `/xezq/${id}/out-0.png`, "image/png", makePng(prompt))];
  if (task === "text-to-video") return sim.storeAsset("replicate.delivery", `/xezq/${id}/output.mp4`, "video/mp4", makeMp4(prompt));
  return sim.storeAsset("replicate.delivery", `/xezq/${id}/output.wav`, "audio/wav", makeWav(prompt));
}

function predictionJson(p: ReplicatePrediction, status: string): Record<string, Json> {
  const apiBase = "https://api.replicate.com/v1/predictions";
  return {
    id: p.id,
    model: p.model,
    version: p.version ?? "sim-latest",
    input: p.input as Record<string, Json>,
    logs: "",
    output: status === "succeeded" ? p.output : null,
    data_removed: false,
    error: null,
    status,
    created_at: p.createdAt,
    ...(status === "succeeded" ? { started_at: p.createdAt, completed_at: p.createdAt, metrics: { predict_time: 0.42 } } : {}),
    urls: { cancel: `${apiBase}/${p.id}/cancel`, get: `${apiBase}/${p.id}`, web: `https://replicate.com/p/${p.id}` },
  };
}

async function handle(ctx: Ctx, predictions: Map<string, ReplicatePrediction>): Promise<void> {
  await sleep(answerDelayMs(ctx.fault));
  const route = ctx.up.route;
  const getMatch = /^v1\/predictions\/([^/]+)$/.exec(route);
  if (ctx.req.method === "GET" && getMatch) {
    const p = predictions.get(getMatch[1] ?? "");
    if (!p) return sendError(ctx, 404, "The requested resource could not be found.");
    p.polls += 1;
    return sendJson(ctx, 200, predictionJson(p, p.polls >= 2 ? "succeeded" : "processing"));
  }
  if (ctx.req.method !== "POST") return sendError(ctx, 405, "Method not allowed");
  const body = ctx.json;
  if (!isRecord(body) || !isRecord(body["input"])) return sendError(ctx, 422, "input: Additional property or missing required field 'input'");
  const input = body["input"];
  let model: string;
  let version: string | null = null;
  const modelMatch = /^v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(route);
  if (modelMatch) {
    model = modelMatch[1] ?? "";
  } else if (route === "v1/predictions") {
    version = str(body["version"]) ?? null;
    if (!version) return sendError(ctx, 422, "version is required");
    model = version;
  } else {
    return sendError(ctx, 404, "The requested resource could not be found.");
  }
  ctx.record.model = model;
  const task = ctx.sim.providerTask("replicate", version ? `x:${version}` : model);
  if (!task) return sendError(ctx, 404, `Model ${model} not found.`);
  const prompt = str(input["prompt"]) ?? str(input["text"]);
  if (!prompt) return sendError(ctx, 422, "input.prompt: field required");
  const id = `sim${shortHash(`${ctx.record.seq}:${JSON.stringify(body)}`, 20)}`;
  const prediction: ReplicatePrediction = {
    id,
    model: version ? "simulated/by-version" : model,
    version,
    input,
    task,
    output: replicateOutput(ctx.sim, task, id, prompt),
    polls: 0,
    createdAt: new Date().toISOString(),
  };
  predictions.set(id, prediction);
  const wait = /\bwait\b/.test(String(ctx.req.headers["prefer"] ?? ""));
  const pending = ctx.fault?.kind === "replicate-pending" || !wait;
  sendJson(ctx, 201, predictionJson(prediction, pending ? (wait ? "processing" : "starting") : "succeeded"));
}
