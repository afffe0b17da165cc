import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import { createApiGuard, sendFetchResponse } from "#server/api-guard.ts";
import { createMetricsEndpoint } from "#server/metrics-endpoint.ts";
import { createRoutePattern, methodLabel } from "#server/route-pattern.ts";
import { applySecurityHeaders } from "#server/security-headers.ts";
import { serverEntryOf } from "#server/server-entry.ts";

/**
 * The HTTP server around the React Router build: compressed responses, long-cached hashed
 * assets, and a JSON 404 for unknown /api paths. Streaming responses (SSE) bypass compression.
 * POST /api/inference is answered first, on Node's own request and response, without the
 * middleware or React Router (docs/decisions/0008-inference-fast-path.md). What the server runs
 * of app/ comes from the build's entry, never from an import of app/ here (ADR 0019).
 */
function headerOf(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

export function createApp(build: ServerBuild, clientDir: string): express.Express {
  const { createRequestContext, createIslandStore, serveInference, serveOpenAi, jsonError, methodNotAllowed, openAiErrorText, runAsRequest, yieldToEventLoop, gateRequest, getEnv, metricsText, requestFinished, requestIdFor, noteUser, log, isDatabaseUnavailable, DATABASE_DOWN_MESSAGE } =
    serverEntryOf(build);
  const env = getEnv();
  const apiGuard = createApiGuard({ jsonError, methodNotAllowed, openAiErrorText, log, isDatabaseUnavailable, DATABASE_DOWN_MESSAGE });
  const routeOf = createRoutePattern(build);
  const app = express();
  app.disable("x-powered-by");
  // Every answer carries its request id (a trusted proxy's, or a new one), is timed by its route
  // pattern, never its URL (server/route-pattern.ts), and gets one access line; a visitor who left
  // before the end counts as 499, as the gateway's log says it (ADR 0041).
  app.use((req, res, next) => {
    const started = performance.now();
    const requestId = requestIdFor(req.socket.remoteAddress ?? "", req.headers["x-request-id"]);
    res.setHeader("x-request-id", requestId);
    res.once("close", () => {
      const url = req.originalUrl;
      const q = url.indexOf("?");
      const route = routeOf(q === -1 ? url : url.slice(0, q));
      requestFinished(res, { method: methodLabel(req.method), route, status: res.writableFinished ? res.statusCode : 499, seconds: (performance.now() - started) / 1000, requestId });
    });
    next();
  });
  // First, so the inference fast path below gets the same headers as everything else.
  app.use((_req, res, next) => {
    res.locals["cspNonce"] = applySecurityHeaders(res);
    next();
  });
  // Prometheus metrics (ADR 0041): here with a token, on their own listener with a port
  // (cli/serve-command.ts), and nowhere without either.
  if (env.MODELYARD_METRICS_TOKEN !== undefined && env.MODELYARD_METRICS_PORT === undefined) {
    app.all("/metrics", createMetricsEndpoint({ token: env.MODELYARD_METRICS_TOKEN, metricsText }));
  } else {
    const where = env.MODELYARD_METRICS_PORT === undefined ? "Metrics are off: set MODELYARD_METRICS_TOKEN or MODELYARD_METRICS_PORT." : `Metrics are served on port ${env.MODELYARD_METRICS_PORT}.`;
    app.all("/metrics", (_req, res) => void sendFetchResponse(res, jsonError(404, where)));
  }
  app.use(apiGuard.methodGuard);
  // Cross-site changes refused, and a private site's sign-in, before anything reads a body (ADR 0038).
  app.use((req, res, next) => {
    const refusal = gateRequest({ method: req.method, url: req.originalUrl, headers: { get: (name) => headerOf(req.headers[name.toLowerCase()]) } });
    if (refusal === null) return next();
    if (refusal instanceof Response) return void sendFetchResponse(res, refusal);
    refusal.then((answer) => (answer ? void sendFetchResponse(res, answer) : next()), next);
  });
  app.post("/api/inference", (req, res) => serveInference(req, res));
  // OpenAI's API over the same gateway (ADR 0040), on Node's objects as /api/inference is.
  // A bare /v1 too: it is a /v1 URL, so its 404 is OpenAI's JSON, not a page.
  app.all(["/v1", "/v1/{*path}"], (req, res) => serveOpenAi(req, res));
  app.use(
    compression({
      filter: (req, res) => {
        const type = String(res.getHeader("Content-Type") ?? "");
        if (type.includes("text/event-stream")) return false;
        return compression.filter(req, res);
      },
    }),
  );
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // Only the few files at the build's top (favicon, robots.txt): mounted for every path, static
  // took a failed stat() of every page and API request, about 0.5 ms each under load.
  const rootFiles = new Set(
    fs
      .readdirSync(clientDir, { withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => `/${d.name}`),
  );
  const rootStatic = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => (rootFiles.has(req.path) ? rootStatic(req, res, next) : next()));
  app.all(
    "/{*path}",
    // A request's routing and loaders start in a turn of their own, from ADR 0017's queue, rather
    // than in the poll phase that received it, back to back with every other request just in.
    // Its slices are due by its arrival and class: an API call's before a page's (ADR 0017).
    (req, _res, next) => runAsRequest(req.path.startsWith("/api/") ? "api" : "page", () => void yieldToEventLoop().then(() => next())),
    createRequestHandler({
      build,
      mode: process.env["NODE_ENV"] === "development" ? "development" : "production",
      // The socket address, for per-client limits (the inference gateway's rate limit).
      // islands: document requests put large HTML in the markup only (app/utils/html-island.ts).
      getLoadContext: (req, res) =>
        createRequestContext({
          clientAddress: req.socket.remoteAddress ?? "",
          cspNonce: typeof res.locals["cspNonce"] === "string" ? res.locals["cspNonce"] : undefined,
          islands: createIslandStore(req.path.endsWith(".data") ? "inline" : "defer"),
          noteUser: (userId) => noteUser(res, userId),
        }),
    }),
  );
  // Last: a URL Express could not decode, under /api, answers JSON, and any error no route
  // answered gets a short answer and one JSON log line (server/api-guard.ts).
  app.use(apiGuard.errorHandler);
  return app;
}

