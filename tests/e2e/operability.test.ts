/**
 * The real server as an operator runs it (issue 35; ADR 0041): /readyz, /metrics read with a
 * strict Prometheus text parser after a page visit, an API call and gateway calls, one JSON access
 * line per request carrying its request id, and SIGTERM during a streamed chat: the stream
 * completes, no new connection is accepted, and the process exits 0; past the grace, a stream is
 * ended with an SSE error event. Providers are the SIMULATOR.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runModelyard } from "#tests/e2e/support/import-cli.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";
import { freePort } from "#tests/support/free-port.ts";
import { type MetricFamily, parsePrometheusText, sampleOf } from "#tests/support/prometheus-text.ts";

const METRICS_TOKEN = "operability-metrics-token-0001";
const CHAT = "meta-llama/Meta-Llama-3-8B-Instruct";
const chatBody = (stream: boolean) => JSON.stringify({ model: CHAT, provider: "together", stream, messages: [{ role: "user", content: "Tell me about the sea." }] });
const JSON_HEADERS = { "Content-Type": "application/json" };

type LogLine = Record<string, unknown>;

/** The server's output lines that are JSON objects; every line that looks like one must parse. */
function logLines(server: TestServer): LogLine[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as LogLine);
}

/** Reads an SSE body until it ends, calling `onFirstToken` once at the first token event. */
async function readStream(res: Response, onFirstToken: () => void): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let told = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (!told && text.includes("event: token")) {
      told = true;
      onFirstToken();
    }
  }
}

describe("an operator's view of one server", () => {
  let sim: ProviderSimulator;
  let server: TestServer;
  let families: Map<string, MetricFamily>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    sim = await startProviderSimulator();
    server = await startTestServer({
      env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_operabilityServerKey000", MODELYARD_ACCESS: "open", MODELYARD_METRICS_TOKEN: METRICS_TOKEN, MODELYARD_TRUSTED_PROXIES: "127.0.0.1" },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await sim?.close();
  });

  it("is live at once and ready once its listing index is built, in the health-check draft's shape", async () => {
    const live = await fetch(`${server.url}/healthz`);
    expect(live.status).toBe(200);
    let answer: { status: string; checks: Record<string, Array<{ status: string; observedValue?: unknown }>> } = { status: "", checks: {} };
    await expect
      .poll(
        async () => {
          const res = await fetch(`${server.url}/readyz`);
          expect(res.headers.get("content-type")).toMatch(/^application\/health\+json/);
          answer = (await res.json()) as typeof answer;
          // A warn (the index building) is still ready: 200.
          expect(res.status).toBe(answer.status === "fail" ? 503 : 200);
          return answer.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe("pass");
    expect(Object.keys(answer.checks).sort()).toEqual(["catalogue:loaded", "database:responseTime", "listing-index:generation", "migrations:pending", "server:shutdown"]);
    for (const list of Object.values(answer.checks)) expect(list[0]?.status).toBe("pass");
  });

  it("times a page visit, an API call and gateway calls, and serves them as Prometheus metrics to the token's holder", async () => {
    const page = await fetch(`${server.url}/models?search=llama`);
    expect(page.status).toBe(200);
    ids["page"] = page.headers.get("x-request-id")!;
    await page.text();
    const api = await fetch(`${server.url}/api/models?search=llama&limit=3`, { headers: { "X-Request-Id": "op-proxy-id-0001" } });
    expect(api.status).toBe(200);
    ids["api"] = api.headers.get("x-request-id")!;
    await api.json();
    const call = await fetch(`${server.url}/api/inference`, { method: "POST", headers: JSON_HEADERS, body: chatBody(false) });
    expect(call.status, await call.clone().text()).toBe(200);
    ids["call"] = call.headers.get("x-request-id")!;
    await call.json();
    const streamed = await fetch(`${server.url}/api/inference`, { method: "POST", headers: JSON_HEADERS, body: chatBody(true) });
    expect(await streamed.text()).toContain("event: done");
    const v1 = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", headers: { ...JSON_HEADERS, "X-Request-Id": "op-proxy-id-0002" }, body: JSON.stringify({ model: `${CHAT}:together`, messages: [{ role: "user", content: "hi" }] }) });
    expect(v1.status, await v1.clone().text()).toBe(200);
    ids["v1"] = v1.headers.get("x-request-id")!;
    await v1.json();

    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    families = parsePrometheusText(await res.text());

    // The process and Node, the event loop's lag included.
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds", "nodejs_eventloop_lag_p99_seconds"]) expect(families.has(name), name).toBe(true);
    // Requests by route pattern, never by URL.
    const count = (labels: Record<string, string>) => sampleOf(families, "http_request_duration_seconds", labels, "http_request_duration_seconds_count");
    expect(count({ method: "GET", route: "/models", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(count({ method: "GET", route: "/api/models", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(count({ method: "POST", route: "/api/inference", status: "200" })).toBe(2);
    expect(count({ method: "POST", route: "/v1/chat/completions", status: "200" })).toBe(1);
    const routes = new Set(families.get("http_request_duration_seconds")!.samples.map((s) => s.labels["route"]));
    for (const route of routes) expect(route).not.toMatch(/llama|\?/i);
    // The gateway: calls, duration and time to first token by provider, task, outcome and payer.
    const gateway = { provider: "together", outcome: "ok", paid_by: "server" };
    const calls = families.get("modelyard_gateway_requests_total")!.samples.filter((s) => Object.entries(gateway).every(([k, v]) => s.labels[k] === v));
    expect(calls.reduce((n, s) => n + s.value, 0)).toBe(3);
    expect(calls.every((s) => s.labels["task"] === "conversational")).toBe(true);
    expect(sampleOf(families, "modelyard_gateway_request_duration_seconds", { ...gateway, task: "conversational" }, "modelyard_gateway_request_duration_seconds_count")).toBe(3);
    expect(sampleOf(families, "modelyard_gateway_time_to_first_token_seconds", { ...gateway, task: "conversational" }, "modelyard_gateway_time_to_first_token_seconds_count")).toBe(1);
    expect(sampleOf(families, "modelyard_gateway_active_streams")).toBe(0);
    // The catalogue, its index and imports.
    expect(sampleOf(families, "modelyard_catalogue_models")).toBe(5_240);
    const generation = sampleOf(families, "modelyard_catalogue_generation");
    expect(generation).toBeGreaterThan(0);
    expect(sampleOf(families, "modelyard_listing_index_generation")).toBe(generation);
    expect(sampleOf(families, "modelyard_listing_index_build_seconds", {}, "modelyard_listing_index_build_seconds_count")).toBeGreaterThanOrEqual(1);
    expect(sampleOf(families, "modelyard_import_rows_total", { outcome: "inserted" })).toBe(0);
    expect(sampleOf(families, "modelyard_import_rejections_total")).toBe(0);
  });

  it("writes one JSON access line per request with its request id: a trusted proxy's, or its own", async () => {
    expect(ids["api"]).toBe("op-proxy-id-0001");
    expect(ids["v1"]).toBe("op-proxy-id-0002");
    expect(ids["page"]).toMatch(/^[0-9a-f-]{36}$/);
    let lines: LogLine[] = [];
    // Lines are written off the event loop: wait for the last request's.
    const wanted = [ids["page"], ids["api"], ids["call"], ids["v1"]];
    await expect.poll(() => (lines = logLines(server)).filter((l) => l["msg"] === "request" && wanted.includes(String(l["req_id"]))).length, { timeout: 5_000 }).toBe(4);
    const access = (id: string) => lines.filter((l) => l["msg"] === "request" && l["req_id"] === id);
    expect(access(ids["page"]!)).toEqual([expect.objectContaining({ level: "info", method: "GET", route: "/models", status: 200, ms: expect.any(Number) as unknown })]);
    expect(access(ids["api"]!)).toEqual([expect.objectContaining({ method: "GET", route: "/api/models", status: 200 })]);
    expect(access(ids["v1"]!)).toEqual([expect.objectContaining({ method: "POST", route: "/v1/chat/completions", status: 200 })]);
    // The gateway's own line is JSON too, with the same id.
    expect(lines.filter((l) => l["msg"] === "inference" && l["req_id"] === ids["call"])).toEqual([expect.objectContaining({ status: 200, provider: "together", auth: "server-hf-token", caller: "anonymous" })]);
    // The start-up announcement is a log line like any other, and no server secret is in any.
    expect(lines.some((l) => typeof l["msg"] === "string" && l["msg"].includes("Modelyard is running at"))).toBe(true);
    expect(server.output()).not.toContain("hf_operabilityServerKey000");
    expect(server.output()).not.toContain(METRICS_TOKEN);
  });

  it("keeps an idle connection open longer than a load balancer's usual 60 s, so the server is never the side that closes one a client reuses", async () => {
    const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
      const agent = new http.Agent({ keepAlive: true });
      http
        .get(`${server.url}/healthz`, { agent }, (res) => {
          res.resume();
          res.on("end", () => {
            agent.destroy();
            resolve(res.headers["keep-alive"]?.toString());
          });
        })
        .on("error", reject);
    });
    expect(keepAlive).toBe("timeout=65");
  });

  it("names the signed-in person in the access line, and nobody in an anonymous one", async () => {
    const out = await runModelyard(server.databaseUrl, ["users", "add", "ops@example.com"], { MODELYARD_PUBLIC_URL: server.url });
    const link = /(http:\/\/\S+\/invite\/\S+)/.exec(out)![1]!;
    const sameSite = { Origin: server.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" };
    const set = await fetch(link, { method: "POST", redirect: "manual", headers: sameSite, body: "password=operability+password&confirm=operability+password" });
    expect(set.status).toBe(302);
    const cookie = set.headers.get("set-cookie")!.split(";")[0]!;
    const signedIn = await fetch(`${server.url}/settings/tokens`, { headers: { cookie } });
    expect(signedIn.status).toBe(200);
    await signedIn.text();
    const id = signedIn.headers.get("x-request-id")!;
    let line: LogLine | undefined;
    await expect.poll(() => (line = logLines(server).find((l) => l["msg"] === "request" && l["req_id"] === id)), { timeout: 5_000 }).toBeDefined();
    expect(line).toMatchObject({ route: "/settings/tokens", status: 200, user: expect.stringMatching(/\S/) as unknown });
    const anonymous = logLines(server).find((l) => l["msg"] === "request" && l["req_id"] === ids["page"]);
    expect(anonymous).toBeDefined();
    expect(anonymous).not.toHaveProperty("user");
  });
});

describe("shutting down", () => {
  let sim: ProviderSimulator;
  beforeAll(async () => {
    sim = await startProviderSimulator();
  });
  afterAll(async () => {
    await sim?.close();
  });

  it("on SIGTERM a streamed chat completes, readiness fails, no new connection is accepted, and the process exits 0", async () => {
    const metricsPort = await freePort();
    const server = await startTestServer({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_operabilityServerKey000", MODELYARD_ACCESS: "open", MODELYARD_METRICS_PORT: String(metricsPort) } });
    try {
      // The metrics are on their own listener, and not on the main one.
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(parsePrometheusText(await scraped.text()).has("http_request_duration_seconds")).toBe(true);

      sim.scriptFault({ path: "chat/completions" }, { kind: "slow", tokenDelayMs: 150 });
      const started = Date.now();
      let signalledAt = 0;
      const res = await fetch(`${server.url}/api/inference`, { method: "POST", headers: JSON_HEADERS, body: chatBody(true) });
      const body = await readStream(res, () => {
        signalledAt = Date.now();
        server.signal("SIGTERM");
      });
      // While it streamed, the listener was closed.
      expect(signalledAt).toBeGreaterThan(0);
      const streamedFor = Date.now() - signalledAt;
      expect(streamedFor, "the stream went on after the signal").toBeGreaterThan(500);
      expect(body).toContain("event: final");
      expect(body).toMatch(/event: done\ndata: \{"type":"done"\}\n\n$/);
      expect(body).not.toContain("event: error");
      expect(await server.exited()).toBe(0);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
      const lines = server.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as LogLine);
      expect(lines.some((l) => l["signal"] === "SIGTERM")).toBe(true);
      // "Stopped." closes the shutdown; only the access line of the request that was in flight
      // may land after it, when its socket's close event comes after the server's (seen under load).
      const stoppedAt = lines.findIndex((l) => l["msg"] === "Stopped.");
      expect(stoppedAt, server.output()).toBeGreaterThanOrEqual(0);
      expect(lines.slice(stoppedAt + 1).filter((l) => l["msg"] !== "request")).toEqual([]);
      expect(Date.now() - started).toBeLessThan(25_000);
    } finally {
      await server.stop();
    }
  });

  it("refuses new connections and fails readiness while a stream finishes", async () => {
    const server = await startTestServer({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_operabilityServerKey000", MODELYARD_ACCESS: "open" } });
    try {
      sim.scriptFault({ path: "chat/completions" }, { kind: "slow", tokenDelayMs: 150 });
      const res = await fetch(`${server.url}/api/inference`, { method: "POST", headers: JSON_HEADERS, body: chatBody(true) });
      const probe: { refused?: Promise<string> } = {};
      const body = await readStream(res, () => {
        server.signal("SIGTERM");
        // A new connection, a little after the signal, while the stream still runs.
        probe.refused = new Promise((r) => setTimeout(r, 300))
          .then(() => fetch(`${server.url}/readyz`, { headers: { Connection: "close" } }))
          .then(
            (r) => `answered ${r.status}`,
            (e: unknown) => (e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e)),
          );
      });
      expect(await probe.refused).toMatch(/ECONNREFUSED/);
      expect(body).toContain("event: final");
      expect(await server.exited()).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it("past MODELYARD_SHUTDOWN_GRACE_MS, ends a stream with an SSE error event and still exits 0", async () => {
    const server = await startTestServer({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_operabilityServerKey000", MODELYARD_ACCESS: "open", MODELYARD_SHUTDOWN_GRACE_MS: "1000" } });
    try {
      sim.scriptFault({ path: "chat/completions" }, { kind: "slow", tokenDelayMs: 1_000 });
      const res = await fetch(`${server.url}/api/inference`, { method: "POST", headers: JSON_HEADERS, body: chatBody(true) });
      const body = await readStream(res, () => server.signal("SIGTERM"));
      expect(body).toMatch(/event: error\ndata: \{"type":"error","error":\{"status":503,"code":"server_shutting_down"/);
      expect(body).toMatch(/event: done\ndata: \{"type":"done"\}\n\n$/);
      expect(await server.exited()).toBe(0);
    } finally {
      await server.stop();
    }
  });
  it("past MODELYARD_SHUTDOWN_GRACE_MS, answers calls still waiting on their provider 503 server_shutting_down, a stream not yet begun included", async () => {
    const server = await startTestServer({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_operabilityServerKey000", MODELYARD_ACCESS: "open", MODELYARD_SHUTDOWN_GRACE_MS: "1000" } });
    try {
      sim.scriptFault({ path: "chat/completions" }, { kind: "slow", tokenDelayMs: 60_000, firstByteDelayMs: 60_000, times: 2 });
      const seen = () => sim.requests.filter((r) => r.path.includes("chat/completions")).length;
      const before = seen();
      const plain = fetch(`${server.url}/api/inference`, { method: "POST", headers: JSON_HEADERS, body: chatBody(false) });
      const openAi = fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify({ model: `${CHAT}:together`, stream: true, messages: [{ role: "user", content: "Tell me about the sea." }] }),
      });
      // Both have reached the provider (the simulator holds them) before the signal.
      await expect.poll(() => seen() - before, { timeout: 10_000 }).toBe(2);
      server.signal("SIGTERM");
      const [a, b] = await Promise.all([plain, openAi]);
      expect(a.status).toBe(503);
      expect(((await a.json()) as { error: { code: string } }).error.code).toBe("server_shutting_down");
      expect(b.status).toBe(503);
      expect(((await b.json()) as { error: { code: string } }).error.code).toBe("server_shutting_down");
      expect(await server.exited()).toBe(0);
      expect(server.output()).toMatch(/"calls_aborted":2/);
    } finally {
      await server.stop();
    }
  });
});
