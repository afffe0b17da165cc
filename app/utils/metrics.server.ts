/**
 * The process's Prometheus metrics (prom-client), one registry per process: `modelyard serve`
 * holds one copy of this module, the build's (ADR 0019). Features observe into the metrics below;
 * server/app.ts times every request and answers GET /metrics with `metricsText()` (ADR 0041).
 *
 * Each observation is O(1): a label set of a few short strings, hashed by prom-client into its
 * map. Labels are bounded: a route pattern, never a URL; a provider the library knows or an
 * endpoint from the configuration; a task the gateway runs (anything else is "other").
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { openedDb } from "#app/db/db.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";

export const registry = new Registry();
// Process and Node metrics: CPU, memory, heap spaces, handles, GC, and the event loop's lag.
collectDefaultMetrics({ register: registry });

// Page and API answers: about 1 ms from memory to seconds for a cold database.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Provider calls: a fast first token is ~100 ms, a long generation a minute.
const GATEWAY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];

export const httpRequestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const GATEWAY_LABELS = ["provider", "task", "outcome", "paid_by"] as const;

export const gatewayRequests = new Counter({
  name: "modelyard_gateway_requests_total",
  help: "Inference gateway calls, by provider, task, outcome (ok, error, cancelled, refused) and whose key paid (visitor, server, endpoint, none).",
  labelNames: GATEWAY_LABELS,
  registers: [registry],
});

export const gatewayDuration = new Histogram({
  name: "modelyard_gateway_request_duration_seconds",
  help: "Inference gateway calls' duration, to the last byte of a stream.",
  labelNames: GATEWAY_LABELS,
  buckets: GATEWAY_BUCKETS,
  registers: [registry],
});

export const gatewayTimeToFirstToken = new Histogram({
  name: "modelyard_gateway_time_to_first_token_seconds",
  help: "Streamed inference calls' time from arrival to the first token.",
  labelNames: GATEWAY_LABELS,
  buckets: GATEWAY_BUCKETS,
  registers: [registry],
});

export const activeStreams = new Gauge({
  name: "modelyard_gateway_active_streams",
  help: "Streamed inference answers being written now.",
  registers: [registry],
});

/** One answered request: its method and route pattern (server/route-pattern.ts), status and time. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
}

/** One gateway call, as gateway.server.ts's usage record sees it. */
export interface GatewayObservation {
  provider: string;
  task: string;
  outcome: "ok" | "error" | "cancelled" | "refused";
  paidBy: string;
  seconds: number;
  ttftSeconds: number | null;
}

/** The values a gateway call's labels may take, besides "none" (no provider or task was resolved). */
export interface GatewayLabelSets {
  providers: ReadonlySet<string>;
  tasks: ReadonlySet<string>;
}

const PAID_BY: ReadonlySet<string> = new Set(["visitor", "server", "endpoint", "none"]);

/**
 * Observes gateway calls, each label held to its known values: anything else is counted as
 * "other". The gateway refuses an unknown provider or task first; this is the second guard, since
 * each new value is a series kept for the process's life, and no request's text may become a label.
 */
export function gatewayObserver(known: GatewayLabelSets): (o: GatewayObservation) => void {
  const bounded = (value: string, values: ReadonlySet<string>) => (value === "none" || values.has(value) ? value : "other");
  return (o) => {
    const labels = { provider: bounded(o.provider, known.providers), task: bounded(o.task, known.tasks), outcome: o.outcome, paid_by: bounded(o.paidBy, PAID_BY) };
    gatewayRequests.inc(labels);
    gatewayDuration.observe(labels, o.seconds);
    if (o.ttftSeconds !== null) gatewayTimeToFirstToken.observe(labels, o.ttftSeconds);
  };
}

// The catalogue's size is counted once per generation, when scraped, not on every scrape; both
// gauges of one scrape share one read (prom-client collects them concurrently).
type CatalogueFigures = { generation: number; models: number } | null;
let counted: CatalogueFigures = null;
let reading: { at: number; figures: Promise<CatalogueFigures> } | null = null;

async function readCatalogue(): Promise<CatalogueFigures> {
  const db = openedDb()?.db;
  if (!db) return counted;
  try {
    const generation = await getCatalogueGeneration(db);
    if (counted?.generation !== generation) counted = { generation, models: await countModels(db) };
  } catch {
    // The database is away: the last figures stand, and /readyz says why; the scrape still answers.
  }
  return counted;
}

function catalogueFigures(): Promise<CatalogueFigures> {
  const now = performance.now();
  if (!reading || now - reading.at > 1_000) reading = { at: now, figures: readCatalogue() };
  return reading.figures;
}

export const catalogueModels = new Gauge({
  name: "modelyard_catalogue_models",
  help: "Models in the catalogue.",
  registers: [registry],
  async collect() {
    const figures = await catalogueFigures();
    if (figures) this.set(figures.models);
  },
});

export const catalogueGeneration = new Gauge({
  name: "modelyard_catalogue_generation",
  help: "The catalogue's generation: bumped by every import batch that changed data.",
  registers: [registry],
  async collect() {
    const figures = await catalogueFigures();
    if (figures) this.set(figures.generation);
  },
});

export const listingIndexGeneration = new Gauge({
  name: "modelyard_listing_index_generation",
  help: "The catalogue generation the in-memory listing index was built for (0: none built yet).",
  registers: [registry],
});

export const listingIndexBuildSeconds = new Histogram({
  name: "modelyard_listing_index_build_seconds",
  help: "How long each build of the in-memory listing index took.",
  buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
  registers: [registry],
});

export const importRows = new Counter({
  name: "modelyard_import_rows_total",
  help: "Rows imported by this process, by outcome: inserted, updated or unchanged (rejected rows are counted apart).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const importRejections = new Counter({
  name: "modelyard_import_rejections_total",
  help: "Rows an import rejected (invalid, duplicate or unreadable), by this process.",
  registers: [registry],
});

// Present from the first scrape, at zero, rather than appearing with the first import.
for (const outcome of ["inserted", "updated", "unchanged"]) importRows.inc({ outcome }, 0);

/** The exposition: Prometheus' text format and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
