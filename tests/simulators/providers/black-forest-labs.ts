// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// black-forest-labs: the BFL API at api.us1.bfl.ai (or router.huggingface.co/black-forest-labs),
// as 3.13.1's BlackForestLabsTextToImageTask speaks it. POST /v1/<model> with {prompt, ...} answers
// at once with {id, polling_url}; the library then waits a second, GETs polling_url with
// ?attempt=<n> and no credential, at most five times, until the status is "Ready", and downloads
// result.sample from BFL's delivery host. Images are JPEG (BFL's default output_format) or PNG.
import { makeJpeg, makePng } from "../media.ts";
import { type Ctx, type SimulatedProvider, type SimulatorServices, sendJson } from "../common/context.ts";
import { answerDelayMs } from "../common/faults.ts";
import { isRecord, type Json, shortHash, sleep, str } from "../common/util.ts";

const API_HOST = "api.us1.bfl.ai";
const DELIVERY_HOST = "delivery-us1.bfl.ai";
const RESULT_ROUTE = "v1/get_result";

interface BflJob {
  id: string;
  model: string;
  prompt: string;
  seed: number;
  outputFormat: "jpeg" | "png";
  polls: number;
  createdAt: number;
  sample: string | null;
}

export const blackForestLabs: SimulatedProvider = {
  id: "black-forest-labs",
  hosts: [API_HOST],
  assetHosts: [DELIVERY_HOST],
  // BFL's API is FastAPI: errors are {"detail": ...}, the body fal's style writes.
  errorStyle: "fal",
  // 3.13.1 sends a provider key as `Authorization: X-Key <key>` (BFL's docs use an x-key header,
  // which the simulator reads as the same scheme).
  keyScheme: "X-Key",
  unauthorizedMessage: "Not authenticated",
  // 3.13.1 polls the result without any credential; BFL addresses a result by its unguessable id.
  openRoute: (method, route) => method === "GET" && route === RESULT_ROUTE,
  recordedModel: (route) => (route === RESULT_ROUTE ? undefined : route.replace(/^v1\//, "")),
  create: () => {
    const jobs = new Map<string, BflJob>();
    return { handle: (ctx) => handle(ctx, jobs), reset: () => jobs.clear() };
  },
};

/** A UUID-shaped id derived from the request, as BFL's ids look. */
function jobId(seed: string): string {
  const h = shortHash(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function resultJson(job: BflJob, sim: SimulatorServices): Record<string, Json> {
  const ready = job.polls > sim.bflPendingPolls;
  if (!ready) return { id: job.id, status: "Pending", result: null, progress: Math.min(0.9, job.polls / (sim.bflPendingPolls + 1)), details: null };
  if (job.sample === null) {
    const bytes = job.outputFormat === "png" ? makePng(job.prompt) : makeJpeg(job.prompt);
    const path = `/results/${job.id.slice(0, 2)}/${job.id}/sample.${job.outputFormat}`;
    // Delivery URLs are signed, short-lived blob URLs; the query is part of what the client gets.
    job.sample = `${sim.storeAsset(DELIVERY_HOST, path, `image/${job.outputFormat}`, bytes)}?se=${new Date(job.createdAt + 600_000).toISOString()}&sp=r&sv=2024-11-04&sr=b&sig=simulated`;
  }
  return {
    id: job.id,
    status: "Ready",
    result: { sample: job.sample, prompt: job.prompt, seed: job.seed, start_time: job.createdAt / 1000, end_time: job.createdAt / 1000 + 2.5, duration: 2.5 },
    progress: null,
    details: null,
  };
}

async function handle(ctx: Ctx, jobs: Map<string, BflJob>): Promise<void> {
  await sleep(answerDelayMs(ctx.fault));
  const sim = ctx.sim;
  const route = ctx.up.route;
  if (route === RESULT_ROUTE) {
    if (ctx.req.method !== "GET") return sendJson(ctx, 405, { detail: "Method Not Allowed" });
    const id = ctx.up.searchParams.get("id") ?? "";
    const job = jobs.get(id);
    // BFL answers an id it does not know with 200 and a status, not a 404.
    if (!job) return sendJson(ctx, 200, { id, status: "Task not found", result: null, progress: null, details: null });
    ctx.record.model = job.model;
    job.polls += 1;
    return sendJson(ctx, 200, resultJson(job, sim));
  }
  if (ctx.req.method !== "POST") return sendJson(ctx, 405, { detail: "Method Not Allowed" });
  const model = route.replace(/^v1\//, "");
  if (!route.startsWith("v1/") || model.includes("/") || sim.providerTask("black-forest-labs", model) !== "text-to-image") {
    return sendJson(ctx, 404, { detail: "Not Found" });
  }
  const body = ctx.json;
  const prompt = isRecord(body) ? str(body["prompt"]) : undefined;
  if (!isRecord(body) || !prompt) {
    // FastAPI's validation error shape.
    return sendJson(ctx, 422, { detail: [{ loc: ["body", "prompt"], msg: "Field required", type: "missing" }] });
  }
  const format = body["output_format"];
  if (format !== undefined && format !== "jpeg" && format !== "png") {
    return sendJson(ctx, 422, { detail: [{ loc: ["body", "output_format"], msg: "Input should be 'jpeg' or 'png'", type: "enum" }] });
  }
  const seed = typeof body["seed"] === "number" ? body["seed"] : Number.parseInt(shortHash(prompt, 6), 16);
  const id = jobId(`${ctx.record.seq}:${JSON.stringify(body)}`);
  jobs.set(id, { id, model, prompt, seed, outputFormat: format === "png" ? "png" : "jpeg", polls: 0, createdAt: Date.now(), sample: null });
  sendJson(ctx, 200, { id, polling_url: sim.hostUrl(API_HOST, `/${RESULT_ROUTE}?id=${id}`) });
}
