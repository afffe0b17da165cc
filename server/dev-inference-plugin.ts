import { isRunnableDevEnvironment, type Plugin } from "vite";
import type * as InferenceHandler from "#app/inference/node-adapter.server.ts";

// Express's match for app.post("/api/inference") in server/app.ts: case-blind, one optional trailing slash.
const INFERENCE_PATH = /^\/api\/inference\/?$/i;
const HANDLER_MODULE = "/app/inference/node-adapter.server.ts";

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
        if (req.method !== "POST" || !INFERENCE_PATH.test((req.url ?? "").split("?")[0] ?? "")) return next();
        const ssr = server.environments["ssr"];
        if (!ssr || !isRunnableDevEnvironment(ssr)) return next(new Error("The dev server has no runnable SSR environment to load the inference handler in."));
        ssr.runner.import<typeof InferenceHandler>(HANDLER_MODULE).then((handler) => handler.serveInference(req, res), next);
      });
    },
  };
}
