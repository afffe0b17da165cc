// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// fal-ai: apps at fal.run/<owner>/<app>[/<path>] (or router.huggingface.co/fal-ai), answered at
// once, or through queue.fal.run: IN_QUEUE, then status polls, then the result. Media go to the
// fal CDN (v3.fal.media); speech recognition takes its audio as audio_url.
import { audioDurationSeconds, makeMp4, makePng, makeWav, seedBytes, sniffMedia } from "../media.ts";
import { transcript } from "../common/answers.ts";
import { type Ctx, type SimulatedProvider, type SimulatorServices, send, sendError, sendJson } from "../common/context.ts";
import { type ErrorReply, errorReply } from "../common/errors.ts";
import { answerDelayMs } from "../common/faults.ts";
import { isRecord, type Json, shortHash, sleep, str } from "../common/util.ts";

interface FalQueueItem {
  requestId: string;
  appPath: string;
  polls: number;
  result: Json;
}

export const falAi: SimulatedProvider = {
  id: "fal-ai",
  hosts: ["fal.run", "queue.fal.run"],
  assetHosts: ["v3.fal.media", "fal.media"],
  errorStyle: "fal",
  keyScheme: "Key",
  unauthorizedMessage: "Authentication is required to access this application. Send `Authorization: Key <key>`.",
  recordedModel: (route) => route.replace(/\/requests\/.*$/, ""),
  create: () => {
    const falQueue = new Map<string, FalQueueItem>();
    return { handle: (ctx) => handle(ctx, falQueue), reset: () => falQueue.clear() };
  },
};

type FalOutcome = { ok: true; result: Json } | { ok: false; reply: ErrorReply };

function falFail(status: number, message: string): FalOutcome {
  return { ok: false, reply: errorReply("fal", status, message) };
}

async function falResult(sim: SimulatorServices, task: string, body: Record<string, unknown>, requestId: string): Promise<FalOutcome> {
  const cdnPath = (name: string): string => `/files/sim/${requestId}/${name}`;
  if (task === "text-to-image") {
    const prompt = str(body["prompt"]);
    if (!prompt) return falFail(422, "prompt: field required");
    const png = makePng(prompt);
    const url = body["sync_mode"] === true ? `data:image/png;base64,${png.toString("base64")}` : sim.storeAsset("v3.fal.media", cdnPath("image.png"), "image/png", png);
    return { ok: true, result: { images: [{ url, width: 16, height: 16, content_type: "image/png" }], timings: { inference: 0.01 }, seed: seedBytes(prompt).readUInt32BE(0), has_nsfw_concepts: [false], prompt } };
  }
  if (task === "text-to-video") {
    const prompt = str(body["prompt"]);
    if (!prompt) return falFail(422, "prompt: field required");
    const mp4 = makeMp4(prompt);
    return { ok: true, result: { video: { url: sim.storeAsset("v3.fal.media", cdnPath("output.mp4"), "video/mp4", mp4), content_type: "video/mp4", file_name: "output.mp4", file_size: mp4.length }, seed: seedBytes(prompt).readUInt32BE(0) } };
  }
  if (task === "text-to-speech") {
    const text = str(body["text"]) ?? str(body["prompt"]);
    if (!text) return falFail(422, "text: field required");
    const wav = makeWav(text);
    return { ok: true, result: { audio: { url: sim.storeAsset("v3.fal.media", cdnPath("speech.wav"), "audio/wav", wav), content_type: "audio/wav", file_name: "speech.wav", file_size: wav.length } } };
  }
  if (task === "automatic-speech-recognition") {
    const audioUrl = str(body["audio_url"]);
    if (!audioUrl) return falFail(422, "audio_url: field required");
    const audio = await fetchAudioUrl(sim.selfUrl(), audioUrl);
    if (!audio) return falFail(422, `Failed to download the file from audio_url (${audioUrl.slice(0, 60)})`);
    if (!["wav", "flac", "mp3", "ogg"].includes(sniffMedia(audio))) return falFail(422, "Unsupported or corrupt audio file");
    const text = transcript(audio);
    return { ok: true, result: { text, chunks: [{ timestamp: [0, audioDurationSeconds(audio) ?? 0], text }] } };
  }
  return falFail(400, `The simulator does not implement fal-ai task ${task}`);
}

/** The fal "audio URL fetch": data: URLs are decoded; http(s) URLs are fetched, but only from this simulator. */
async function fetchAudioUrl(selfUrl: string, audioUrl: string): Promise<Buffer | null> {
  if (audioUrl.startsWith("data:")) {
    const comma = audioUrl.indexOf(",");
    if (comma < 0) return null;
    const meta = audioUrl.slice(0, comma);
    const payload = audioUrl.slice(comma + 1);
    return meta.endsWith(";base64") ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload));
  }
  let target: string;
  try {
    const parsed = new URL(audioUrl);
    target = audioUrl.startsWith(`${selfUrl}/`) ? audioUrl : `${selfUrl}/${parsed.host}${parsed.pathname}${parsed.search}`;
  } catch {
    return null;
  }
  const response = await fetch(target);
  if (!response.ok) return null;
  return Buffer.from(await response.arrayBuffer());
}

async function handle(ctx: Ctx, falQueue: Map<string, FalQueueItem>): Promise<void> {
  await sleep(answerDelayMs(ctx.fault));
  const route = ctx.up.route;
  const isQueue = ctx.up.host === "queue.fal.run" || ctx.up.searchParams.get("_subdomain") === "queue";
  const requestMatch = /^(.+?)\/requests\/([^/]+)(\/status)?$/.exec(route);
  if (ctx.req.method === "GET" && requestMatch) {
    const item = falQueue.get(requestMatch[2] ?? "");
    if (!item || item.appPath !== requestMatch[1]) return sendError(ctx, 404, "Request not found");
    const responseUrl = `https://queue.fal.run/${item.appPath}/requests/${item.requestId}`;
    if (requestMatch[3]) {
      item.polls += 1;
      const done = item.polls > ctx.sim.falQueueInProgressPolls;
      return sendJson(ctx, done ? 200 : 202, {
        status: done ? "COMPLETED" : "IN_PROGRESS",
        request_id: item.requestId,
        response_url: responseUrl,
        status_url: `${responseUrl}/status`,
        cancel_url: `${responseUrl}/cancel`,
        logs: null,
        metrics: done ? { inference_time: 0.5 } : {},
      });
    }
    return sendJson(ctx, 200, item.result);
  }
  if (ctx.req.method !== "POST") return sendError(ctx, 405, "Method not allowed");
  const body = ctx.json;
  if (!isRecord(body)) return sendError(ctx, 422, "Request body must be a JSON object (fal-ai takes JSON, with audio as audio_url).");
  const modelPath = route;
  ctx.record.model = modelPath;
  const task = ctx.sim.providerTask("fal-ai", modelPath);
  if (!task) return sendError(ctx, 404, `Application '${modelPath}' not found`);
  const requestId = `sim-${shortHash(`${ctx.record.seq}:${JSON.stringify(body)}`, 24)}`;
  const outcome = await falResult(ctx.sim, task, body, requestId);
  if (!outcome.ok) return send(ctx, outcome.reply.status, outcome.reply.contentType, outcome.reply.body);
  const result = outcome.result;
  if (!isQueue) return sendJson(ctx, 200, result);
  // Queue apps answer with the owner/app part of the path only, as fal does for nested endpoints.
  const appPath = modelPath.split("/").slice(0, 2).join("/");
  falQueue.set(requestId, { requestId, appPath, polls: 0, result });
  const responseUrl = `https://queue.fal.run/${appPath}/requests/${requestId}`;
  sendJson(ctx, 200, { status: "IN_QUEUE", request_id: requestId, response_url: responseUrl, status_url: `${responseUrl}/status`, cancel_url: `${responseUrl}/cancel`, queue_position: 0 });
}
