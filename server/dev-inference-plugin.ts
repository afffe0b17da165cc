import { isRunnableDevEnvironment, type Plugin } from "vite";
import type * as InferenceHandler from "#app/inference/node-adapter.server.ts";
import type * as V1Handler from "#app/openai-api/v1-handler.server.ts";

// Express's match for app.post("/api/inference") in server/app.ts: case-blind, one optional trailing slash.
const INFERENCE_PATH = /^\/api\/inference\/?$/i;
const HANDLER_MODULE = "/app/inference/node-adapter.server.ts";
const V1_PATH = /^\/v1\//;
const V1_MODULE = "/app/openai-api/v1-handler.server.ts";

/**
 * `react-router dev` answers POST /api/inference with the production server's handler
 * (serveInference), ahead of React Router, as server/app.ts does. It is loaded through the dev
 * server's SSR environment, so it shares that environment's copy of app/ with the routes.
 */
export function inferenceHandlerPlugin(): Plugin {
  return {
    name: "modelyard:inference-handler",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? "").split("?")[0] ?? "";
        const v1 = V1_PATH.test(path);
        if (!v1 && (req.method !== "POST" || !INFERENCE_PATH.test(path))) return next();
        const ssr = server.environments["ssr"];
        if (!ssr || !isRunnableDevEnvironment(ssr)) return next(new Error("The dev server has no runnable SSR environment to load the inference handler in."));
        if (v1) ssr.runner.import<typeof V1Handler>(V1_MODULE).then((handler) => handler.serveOpenAi(req, res), next);
        else ssr.runner.import<typeof InferenceHandler>(HANDLER_MODULE).then((handler) => handler.serveInference(req, res), next);
      });
    },
  };
}
