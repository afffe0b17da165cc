import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayObserver, metricsText, observeRequest } from "#app/utils/metrics.server.ts";
import { createMetricsEndpoint } from "#server/metrics-endpoint.ts";
import { parsePrometheusText, sampleOf } from "#tests/support/prometheus-text.ts";

const TOKEN = "metrics-token-for-the-test-0001";
const KNOWN = { providers: new Set(["auto", "together", "endpoint:lab"]), tasks: new Set(["conversational"]) };

describe("the Prometheus text parser the tests read /metrics with", () => {
  const good = "# HELP a_total A counter.\n# TYPE a_total counter\na_total{x=\"1\"} 3\na_total{x=\"q\\\"\\\\\\n\"} 0\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 3.5\nh_count 2\n";
  it("reads a well-formed exposition", () => {
    const f = parsePrometheusText(good);
    expect(sampleOf(f, "a_total", { x: "1" })).toBe(3);
    expect(sampleOf(f, "a_total", { x: 'q"\\\n' })).toBe(0);
    expect(sampleOf(f, "h", {}, "h_count")).toBe(2);
    expect(f.get("a_total")?.help).toBe("A counter.");
    // As Prometheus reads them (Go's ParseFloat): prom-client writes an unsampled gauge as "Nan".
    const odd = parsePrometheusText("# TYPE g gauge\ng{x=\"1\"} Nan\ng{x=\"2\"} +Inf\ng{x=\"3\"} -inf\n");
    expect(sampleOf(odd, "g", { x: "1" })).toBeNaN();
    expect(sampleOf(odd, "g", { x: "3" })).toBe(-Infinity);
  });
  it.each([
    ["no final line feed", good.trimEnd()],
    ["a bad name", "1a 3\n"],
    ["an unquoted label", "a{x=1} 3\n"],
    ["an unclosed label", 'a{x="1} 3\n'],
    ["a bad value", "a 3x\n"],
    ["a missing value", "a{x=\"1\"}\n"],
    ["a duplicate series", "a 1\na 2\n"],
    ["a family split in two", "# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na{x=\"1\"} 2\n"],
    ["a negative counter", "# TYPE a counter\na -1\n"],
    ["buckets that are not cumulative", "# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 2\n"],
    ["a count that is not the +Inf bucket", "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 3\n"],
    ["a TYPE after samples", "a 1\n# TYPE a gauge\n"],
  ])("refuses %s", (_what, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});

describe("GET /metrics", () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    const endpoint = createMetricsEndpoint({ token: TOKEN, metricsText });
    server = http.createServer(endpoint);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("answers only the token's holder", async () => {
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: "Bearer wrong-token-of-the-same-length" } })).status).toBe(401);
    expect((await fetch(url, { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(405);
  });

  it("serves the process's, the requests' and the gateway's metrics in Prometheus' text format", async () => {
    observeRequest("GET", "/:org/:name", 200, 0.012);
    gatewayObserver(KNOWN)({ provider: "together", task: "conversational", outcome: "ok", paidBy: "server", seconds: 1.5, ttftSeconds: 0.2 });
    const res = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const f = parsePrometheusText(await res.text());
    expect(f.get("nodejs_eventloop_lag_seconds")?.type).toBe("gauge");
    expect(f.get("process_cpu_seconds_total")?.type).toBe("counter");
    expect(sampleOf(f, "http_request_duration_seconds", { method: "GET", route: "/:org/:name", status: "200" }, "http_request_duration_seconds_count")).toBe(1);
    const call = { provider: "together", task: "conversational", outcome: "ok", paid_by: "server" };
    expect(sampleOf(f, "modelyard_gateway_requests_total", call)).toBe(1);
    expect(sampleOf(f, "modelyard_gateway_time_to_first_token_seconds", { ...call, le: "0.25" }, "modelyard_gateway_time_to_first_token_seconds_bucket")).toBe(1);
    expect(sampleOf(f, "modelyard_gateway_active_streams")).toBe(0);
    expect(sampleOf(f, "modelyard_import_rows_total", { outcome: "inserted" })).toBe(0);
  });

  it("counts a gateway label outside its known values as other, so no request's text becomes a series", async () => {
    const observe = gatewayObserver(KNOWN);
    for (let i = 0; i < 3; i++) observe({ provider: `attacker-${i}-7c1e`, task: `made-up-${i}-7c1e`, outcome: "refused", paidBy: `who-${i}-7c1e`, seconds: 0.01, ttftSeconds: null });
    observe({ provider: "endpoint:lab", task: "none", outcome: "refused", paidBy: "none", seconds: 0.01, ttftSeconds: null });
    const text = await (await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).not.toContain("7c1e");
    const f = parsePrometheusText(text);
    expect(sampleOf(f, "modelyard_gateway_requests_total", { provider: "other", task: "other", outcome: "refused", paid_by: "other" })).toBe(3);
    expect(sampleOf(f, "modelyard_gateway_requests_total", { provider: "endpoint:lab", task: "none", outcome: "refused", paid_by: "none" })).toBe(1);
  });
});
