import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiErrorText } from "#app/openai-api/openai-errors.ts";
import { jsonError, methodNotAllowed } from "#app/utils/http.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from "#app/utils/database-errors.ts";
import { createApiGuard } from "#server/api-guard.ts";

let server: Server;
let base = "";

beforeAll(async () => {
  const guard = createApiGuard({ jsonError, methodNotAllowed, openAiErrorText, log, isDatabaseUnavailable, DATABASE_DOWN_MESSAGE });
  const app = express();
  app.use(guard.methodGuard);
  // A route with parameters makes Express decode the path, as the app's own routes do.
  app.use("/*rest", (_req, _res, next) => next());
  // As the request gate fails when its read of the access policy cannot reach PostgreSQL.
  app.use((req, _res, next) => {
    if (req.path.endsWith("/db-down")) return next(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
    if (req.path.endsWith("/broken")) return next(new Error("a bug"));
    next();
  });
  // Stands where React Router would: anything the guard lets through.
  app.use((_req, res) => void res.status(200).type("text/plain").send("routed"));
  app.use(guard.errorHandler);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the /api guard", () => {
  it.each(["/api/models", "/API/models", "/Api/models?x=1", "/api"])("answers a method React Router never routes on %s with a JSON 405", async (p) => {
    const res = await fetch(base + p, { method: "PROPFIND" });
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("allow")).toBeTruthy();
  });

  it("answers an encoded control character in an /api path with a JSON 400 naming the path", async () => {
    const res = await fetch(`${base}/API/models/a%0Ab`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { field: string } }).error.field).toBe("path");
  });

  it.each(["/api/models/%E0%A4%A", "/v1/%E0%A4%A", "/v1/models/%E0%A4%A"])("answers malformed percent-encoding in %s as JSON naming the path, in OpenAI's shape under /v1", async (p) => {
    const res = await fetch(base + p, { method: p.startsWith("/v1/models") ? "GET" : "POST" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await res.json()) as { error: { field?: string; param?: string; type?: string } };
    if (p.startsWith("/v1")) expect(body.error).toMatchObject({ param: "path", type: "invalid_request_error" });
    else expect(body.error.field).toBe("path");
  });

  it("answers malformed percent-encoding in a page's path with a plain 400, not Express's page", async () => {
    const res = await fetch(`${base}/models/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("The URL is not valid: its percent-encoding is malformed.\n");
  });

  it("leaves other paths and routed methods to the router", async () => {
    expect(await (await fetch(`${base}/apis/x`, { method: "POST" })).text()).toBe("routed");
    expect(await (await fetch(`${base}/api/models`)).text()).toBe("routed");
  });

  it("answers a method no page takes with a plain 405, never the router's 500", async () => {
    // fetch refuses to send TRACE; PROPFIND and PURGE stand for every method React Router never dispatches.
    for (const method of ["PROPFIND", "PURGE"]) {
      const res = await fetch(`${base}/models`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(await res.text()).toBe(`${method} is not supported here.`);
    }
  });

  it.each([
    ["/models/db-down", 503, /^text\/plain/],
    ["/api/models/db-down", 503, /application\/json/],
    ["/v1/models/db-down", 503, /application\/json/],
    ["/models/broken", 500, /^text\/plain/],
    ["/api/broken", 500, /application\/json/],
  ])("answers an error no route answered on %s briefly, never with Express's page or a stack trace", async (p, status, type) => {
    const res = await fetch(base + p);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(type);
    const text = await res.text();
    expect(text).not.toMatch(/at .*\.(?:ts|js):\d+|<pre>/);
    if (status === 503) {
      expect(res.headers.get("retry-after")).toBe("5");
      expect(text).toContain("The database is not answering");
      if (p.startsWith("/v1")) expect(JSON.parse(text)).toMatchObject({ error: { code: "database_unavailable" } });
    } else expect(text).toContain("The server failed unexpectedly.");
  });
});
