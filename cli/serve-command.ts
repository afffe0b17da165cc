import { spawn } from "node:child_process";
import fs from "node:fs";
import http, { type Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { createApp } from "#server/app.ts";
import { createMetricsEndpoint } from "#server/metrics-endpoint.ts";
import { serverEntryOf } from "#server/server-entry.ts";
import { drainServer } from "#cli/graceful-shutdown.ts";
import { createProgressReporter, formatSummary } from "#cli/progress.ts";
import { startEventLoopProbe } from "#cli/event-loop-probe.ts";
import { loopbackUrl, warmUp } from "#cli/warm-up.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
export const BUNDLED_CATALOGUE = path.join(ROOT, "catalogue", "hub-catalogue-2024-07-11.jsonl.gz");
const BUNDLED_STATS_DATE = "2024-07-11";
const BUILD_DIR = path.join(ROOT, "build");
const BUILD_SERVER = path.join(ROOT, "build", "server", "index.js");
const BUILD_CLIENT = path.join(ROOT, "build", "client");
const BUILD_STAMP = path.join(ROOT, "build", ".source-stamp");
const BUILD_LOG = ".build.log";

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p)) {
    if (e === "node_modules" || e.startsWith(".")) continue;
    max = Math.max(max, newestMtime(path.join(p, e)));
  }
  return max;
}

function sourceStamp(): string {
  const inputs = ["app", "vite.config.ts", "react-router.config.ts", "package-lock.json"].map((p) => path.join(ROOT, p));
  return String(Math.max(...inputs.filter((p) => fs.existsSync(p)).map(newestMtime)));
}

/**
 * Builds the app on first start, and again whenever the sources are newer than the build. The
 * build goes to a scratch folder that replaces `build/` only once it is complete, so a failed
 * build leaves the previous one, and servers already running keep serving their assets.
 */
export async function ensureBuild(): Promise<void> {
  const stamp = sourceStamp();
  if (fs.existsSync(BUILD_SERVER) && fs.existsSync(BUILD_STAMP) && fs.readFileSync(BUILD_STAMP, "utf8") === stamp) return;
  const started = performance.now();
  console.log("Building the web app (first start or sources changed)…");
  const next = path.join(ROOT, `build.next-${process.pid}`);
  fs.rmSync(next, { recursive: true, force: true });
  // Vite's ~270 lines of chunk listings stay out of the way: the build's phases become a few
  // progress lines, and the whole output is printed only if the build fails.
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "@react-router", "dev", "bin.js"), "build"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", MODELYARD_BUILD_DIR: next, NO_COLOR: "1" },
  });
  let output = "";
  const phases: Array<[RegExp, string]> = [
    [/building for production/, "  · browser bundle…"],
    [/building SSR bundle for production/, "  · server bundle…"],
  ];
  const onData = (d: Buffer) => {
    const text = d.toString();
    output += text;
    for (const [pattern, line] of phases) if (pattern.test(text)) console.log(line);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const code: number | null = await new Promise((resolve) => child.once("close", resolve));
  if (code !== 0) {
    fs.rmSync(next, { recursive: true, force: true });
    console.error(output);
    throw new Error(`The web app failed to build (exit code ${code}); the build's output is above.`);
  }
  fs.writeFileSync(path.join(next, ".source-stamp"), stamp);
  fs.writeFileSync(path.join(next, BUILD_LOG), output);
  const old = path.join(ROOT, `build.old-${process.pid}`);
  if (fs.existsSync(BUILD_DIR)) fs.renameSync(BUILD_DIR, old);
  fs.renameSync(next, BUILD_DIR);
  fs.rmSync(old, { recursive: true, force: true });
  console.log(`  · built in ${((performance.now() - started) / 1000).toFixed(1)} s (full output in build/${BUILD_LOG}).`);
}

/**
 * Listens on host:port, or rejects with what the operator can do about it: Node's own
 * "listen EADDRINUSE: address already in use" names neither the setting nor a way out.
 */
export async function listenOn(server: Server, port: number, host: string, setting: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (error.code === "EADDRINUSE") reject(new Error(`Cannot listen on ${where}: the port is already in use (another Modelyard, or another program). Stop it, or set ${setting} to a free port.`));
      else if (error.code === "EACCES") reject(new Error(`Cannot listen on ${where}: permission denied (ports below 1024 need privileges). Set ${setting} to a port above 1023.`));
      else if (error.code === "EADDRNOTAVAIL") reject(new Error(`Cannot listen on ${where}: this machine has no such address. Set HOST to one of its addresses, or 0.0.0.0.`));
      else reject(new Error(`Cannot listen on ${where}: ${error.message}`));
    });
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * Builds if needed, then runs everything from the build: the process holds the bundle's copy of
 * app/ and no other, so the database handle, the gateway and the facet index are plain module
 * state (ADR 0019). Nothing of app/ is imported here but types.
 */
export async function runServe(opts: { port?: number; stopTypeScript?: () => Promise<void> }): Promise<number> {
  const started = performance.now();
  // Read raw because the build, which carries the configuration module, is not loaded yet (ADR 0019);
  // declared with the rest in app/utils/env.server.ts.
  if (!["1", "true"].includes(process.env["MODELYARD_SKIP_BUILD"] ?? "")) await ensureBuild();
  // The build is JavaScript, and every TypeScript module serve runs is loaded by now: through tsx,
  // the 8 MB bundle gained an inline source map that Node kept parsed, some 30 MB of heap, and
  // a second of start-up (docs/decisions/0030-serve-loads-the-build-without-tsx.md).
  await opts.stopTypeScript?.();
  const build = (await import(pathToFileURL(BUILD_SERVER).href)) as ServerBuild;
  const {
    getEnv,
    openMigratedDatabase,
    setDb,
    countModels,
    importIntoEmptyCatalogue,
    finishBulkLoad,
    validateChatTemplate,
    syncTaskSpaces,
    startBackgroundWork,
    onFacetIndexBuilt,
    accessStartNotes,
    startAccountHousekeeping,
    metricsText,
    log,
    startDraining,
    endActiveStreams,
    abortWaitingCalls,
    gatewayWritesSettled,
    configuredEndpoints,
  } = serverEntryOf(build);
  const env = getEnv();
  // Parsed again on each inference call, where a bad value showed only as an empty /v1/models:
  // stopped here, as getEnv() stops on every other bad value.
  try {
    configuredEndpoints({ MODELYARD_ENDPOINTS: env.MODELYARD_ENDPOINTS });
  } catch (e) {
    throw new Error(`Invalid environment: ${e instanceof Error ? e.message : String(e)}`);
  }
  // From here on, every line is the app's log: JSON, scrubbed of secrets (ADR 0041).
  const logger = log();
  const port = opts.port ?? env.PORT;
  const { handle, applied } = await openMigratedDatabase(env.DATABASE_URL);
  if (applied.length) logger.info({ applied }, `Database ready (${handle.dialect} at ${handle.location}); applied ${applied.join(", ")}.`);
  setDb(handle);
  // An import stopped while it filled an empty SQLite catalogue left the indexes it defers unbuilt
  // (ADR 0005); without them every lookup scans. No-op when none is pending.
  await finishBulkLoad(handle, (index) => logger.info({ index }, "Building an index an interrupted import left pending…"));

  if (!env.MODELYARD_SKIP_BUNDLED) {
    // Once across instances: another one starting on the same new database waits, then finds it loaded.
    const progress = createProgressReporter(process.stderr, (fields, message) => logger.info(fields, message));
    const summary = await importIntoEmptyCatalogue(
      handle,
      [BUNDLED_CATALOGUE],
      {
        statsAsOf: BUNDLED_STATS_DATE,
        onProgress: (p) => progress.update(p),
        // The sandbox's worker threads start only when a record carries a template.
        validateTemplate: (source, bos, eos) => validateChatTemplate(source, bos, eos),
      },
      () => logger.info("The catalogue is empty: loading the bundled catalogue (the most downloaded Hub models of 2024-07-11, and every model with an inference-provider mapping)…"),
    ).finally(() => progress.done());
    if (summary) logger.info({ rows: summary.rows, inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged, rejected: summary.rejected }, formatSummary(summary));
  }

  const app = createApp(build, BUILD_CLIENT);
  const total = await countModels(handle.db);

  // Not app.listen: Express 5 calls its callback with the error too, so a port already in use
  // was announced as "running" by a process that listened on nothing and never exited.
  const server = await listenOn(http.createServer(app), port, env.HOST, "PORT (or --port)");
  // Headers and a whole request body must arrive within these, so a client trickling bytes
  // cannot hold a connection for minutes (Node's defaults are 60 s and 300 s).
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  // An idle connection is closed by the client or the load balancer in front (commonly after
  // 60 s), not by the server: with Node's 5 s, a client reusing a connection just as the server
  // closed it got ECONNRESET (a browser journey did, on a loaded machine), and a load balancer a 502.
  // Shutdown closes idle connections itself (graceful-shutdown.ts).
  server.keepAliveTimeout = 65_000;
  // Metrics on a listener of their own, which the operator keeps off the public network (ADR 0041).
  let metricsServer: Server | null = null;
  if (env.MODELYARD_METRICS_PORT !== undefined) {
    const endpoint = createMetricsEndpoint({ token: env.MODELYARD_METRICS_TOKEN, metricsText });
    const s = http.createServer((req, res) => ((req.url ?? "").split("?")[0] === "/metrics" ? endpoint(req, res) : void res.writeHead(404, { "Content-Type": "text/plain" }).end("Only /metrics is served here.\n")));
    metricsServer = await listenOn(s, env.MODELYARD_METRICS_PORT, env.HOST, "MODELYARD_METRICS_PORT");
    logger.info(`Metrics on http://${env.HOST}:${env.MODELYARD_METRICS_PORT}/metrics.`);
  }
  for (const note of await accessStartNotes(handle.db)) logger.info(note);
  startAccountHousekeeping(() => handle);
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const ms = Math.round(performance.now() - started);
  logger.info(
    { port: actualPort, models: total, ms },
    `Modelyard is running at http://localhost:${actualPort} — ${new Intl.NumberFormat("en-US").format(total)} models in the catalogue (${handle.dialect}: ${handle.location}); ready in ${ms} ms.`,
  );

  const probe = startEventLoopProbe();
  let warm = false;
  // After the first build (reported below with the statistics), each build follows an import.
  onFacetIndexBuilt(({ generation, current, indexed, loaded, ms }) => {
    if (!current) return;
    if (!warm) {
      // The first index of the process: loaded as saved with this catalogue, or built (ADR 0045).
      if (indexed) logger.info({ generation, ms, loaded }, `Listing index ${loaded ? "loaded" : "built and saved"} for catalogue generation ${generation} in ${ms} ms.`);
      return;
    }
    logger.info(
      { generation, ms, loaded },
      indexed
        ? `Facet index ${loaded ? "loaded" : "rebuilt"} for catalogue generation ${generation} in ${ms} ms.`
        : `Catalogue generation ${generation} has row ids too sparse to index; the database answers listings and counts.`,
    );
  });
  // Off the request path: the task guides' Spaces, the unfiltered facet counts and the listing's
  // code (cli/warm-up.ts), so the first visitor of /spaces and /models does not pay for them.
  void syncTaskSpaces(handle.db)
    .then(() => startBackgroundWork(handle))
    .then(() => (typeof address === "object" && address ? warmUp(loopbackUrl(address)) : undefined))
    .then(() => {
      warm = true;
      logger.info(`Catalogue statistics and facet index ready (${Math.round(performance.now() - started)} ms after start).`);
      probe?.report("warm-up");
    })
    .catch((e: unknown) => logger.error(`Warming the catalogue statistics failed: ${e instanceof Error ? e.message : String(e)}`));

  // SIGTERM (a deploy, an orchestrator) and Ctrl-C: readiness fails at once, the listener closes,
  // answers and streams in flight get MODELYARD_SHUTDOWN_GRACE_MS to finish, then streams are
  // ended with an error event; the database closes and the process exits 0. A second signal
  // exits at once (ADR 0041).
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, `${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    startDraining();
    logger.info({ signal, grace_ms: env.MODELYARD_SHUTDOWN_GRACE_MS }, `${signal} received; finishing what is in flight (at most ${env.MODELYARD_SHUTDOWN_GRACE_MS} ms), then stopping.`);
    let callsAborted = 0;
    const endStreams = () => {
      // Calls still waiting on their provider answer 503 server_shutting_down; streams get an error event.
      callsAborted = abortWaitingCalls();
      return endActiveStreams();
    };
    void drainServer({ server, graceMs: env.MODELYARD_SHUTDOWN_GRACE_MS, endStreams })
      .then(({ drained, streamsEnded }) => {
        if (!drained) {
          logger.warn(
            { streams_ended: streamsEnded, calls_aborted: callsAborted },
            `The grace period ended: ${streamsEnded} stream(s) ended with an error event, ${callsAborted} call(s) waiting on a provider answered 503, other connections closed.`,
          );
        }
        metricsServer?.close();
        // The calls that ended last are still writing their usage records and settling their quotas.
        return gatewayWritesSettled().then(() => handle.close());
      })
      .then(
        () => logger.info("Stopped."),
        (e: unknown) => logger.error(`Closing the database failed: ${e instanceof Error ? e.message : String(e)}`),
      )
      // The log is written off the event loop; process.exit flushes what is queued.
      .finally(() => process.exit(0));
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  return -1;
}
