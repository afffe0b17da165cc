import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiErrorText } from "#app/openai-api/openai-errors.ts";
import { jsonError, methodNotAllowed } from "#app/utils/http.server.ts";
import { createApiGuard } from "#server/api-guard.ts";

let server: Server;
let base = "";

beforeAll(async () => {
  const guard = createApiGuard({ jsonError, methodNotAllowed, openAiErrorText });
  const app = express();
  app.use(guard.methodGuard);
  // A route with parameters makes Express decode the path, as the app's own routes do.
  app.use("/*rest", (_req, _res, next) => next());
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
});
