// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// The Hub at huggingface.co, as far as @huggingface/inference and the live-details importer ask it.
import { z } from "zod";
import { type Ctx, send, sendError, sendJson } from "./context.ts";
import { type Json, shortHash, sleep } from "./util.ts";
import { answerDelayMs } from "./faults.ts";

/** A Hub model the simulator serves; the control API's POST /__simulator/hub-models validates against it. */
export const hubModelSchema = z.strictObject({
  id: z.string().min(1),
  pipeline_tag: z.string().min(1),
  tags: z.array(z.string()),
  inferenceProviderMapping: z.record(
    z.string(),
    z.strictObject({
      status: z.enum(["live", "staging"]),
      providerId: z.string().min(1),
      task: z.string().min(1),
      adapter: z.string().optional(),
      adapterWeightsPath: z.string().optional(),
    }),
  ),
  // Live-details tests: the repo's README (served at /<id>/raw/<rev>/README.md) and extra fields of
  // the full /api/models/<id> record (sha, siblings, config, cardData, or deliberately malformed ones).
  readme: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** The Hub API the library reads (model info with expand[], /api/tasks) and a repo's README. */
export async function handleHub(ctx: Ctx): Promise<void> {
  const hubModels = ctx.sim.hubModels();
  const path = ctx.up.path;
  await sleep(answerDelayMs(ctx.fault));
  const rawMatch = /^\/(.+?)\/(?:raw|resolve)\/[^/]+\/(.+)$/.exec(path);
  if (ctx.req.method === "GET" && rawMatch && !path.startsWith("/api/")) {
    const model = hubModels.get(decodeURIComponent(rawMatch[1] ?? ""));
    if (!model) return sendError(ctx, 404, "Repository not found", "hf-inference");
    if (rawMatch[2] !== "README.md" || model.readme === undefined) return sendError(ctx, 404, "Entry not found", "hf-inference");
    return send(ctx, 200, "text/plain; charset=utf-8", model.readme);
  }
  if (path === "/api/tasks") {
    const tasks: Record<string, { id: string; models: Array<{ id: string }> }> = {};
    for (const m of hubModels.values()) {
      const entry = (tasks[m.pipeline_tag] ??= { id: m.pipeline_tag, models: [] });
      entry.models.push({ id: m.id });
    }
    return sendJson(ctx, 200, tasks);
  }
  const modelMatch = /^\/api\/models\/(.+)$/.exec(path);
  if (ctx.req.method === "GET" && modelMatch) {
    const id = decodeURIComponent(modelMatch[1] ?? "");
    const model = hubModels.get(id);
    if (!model) return sendError(ctx, 404, "Repository not found", "hf-inference");
    const expand = ctx.up.searchParams.getAll("expand[]");
    const full: Record<string, Json> = {
      _id: shortHash(model.id, 24),
      id: model.id,
      pipeline_tag: model.pipeline_tag,
      tags: model.tags,
      inferenceProviderMapping: model.inferenceProviderMapping as unknown as Json,
      ...(model.details as Record<string, Json> | undefined),
    };
    if (expand.length === 0) return sendJson(ctx, 200, { ...full, modelId: model.id });
    const out: Record<string, Json> = { _id: full["_id"] ?? null, id: model.id };
    for (const key of expand) {
      const value = full[key];
      if (value !== undefined) out[key] = value;
    }
    return sendJson(ctx, 200, out);
  }
  sendError(ctx, 404, "Sorry, we can't find the page you are looking for.", "hf-inference");
}
