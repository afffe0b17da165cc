/**
 * GET /api/tasks over real HTTP: the Hub's shape, and @huggingface/inference 3.13.1 resolving a
 * task's default model from it. The library reads https://huggingface.co/api/tasks with the
 * global fetch, so the test points that one host at the Modelyard server; the later Hub and
 * router requests (provider mapping, inference) are answered in the test and recorded, which is
 * how the test sees which model the library picked.
 */
import { InferenceClient } from "@huggingface/inference";
import { TASKS_DATA } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { setupServer } from "#tests/e2e/support/journey.ts";

const server = setupServer();

describe("GET /api/tasks", () => {
  it("returns TASKS_DATA keyed by task id, as JSON with open CORS", async () => {
    const res = await fetch(`${server.url}/api/tasks`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body: unknown = await res.json();
    const defined = Object.fromEntries(Object.entries(TASKS_DATA).filter(([, d]) => d !== undefined));
    expect(body).toEqual(JSON.parse(JSON.stringify(defined)));
    expect(Object.keys(body as object)).toContain("text-classification");
    expect(body).toHaveProperty(["text-to-image", "widgetModels"]);
    expect(body).toHaveProperty(["text-to-image", "models", 0, "id"]);
  });

  it("refuses other methods with a JSON error", async () => {
    const res = await fetch(`${server.url}/api/tasks`, { method: "POST", body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toEqual({ error: { message: "POST is not supported on /api/tasks; use GET." } });
  });

  it("is where @huggingface/inference finds a task's default model", async () => {
    const task = "text-classification";
    const expectedModel = TASKS_DATA[task]?.models[0]?.id;
    expect(expectedModel).toBeTruthy();
    const seen: string[] = [];
    const realFetch = globalThis.fetch;
    const fakeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      seen.push(url);
      if (url === "https://huggingface.co/api/tasks") return realFetch(`${server.url}/api/tasks`, init);
      const mapping = /^https:\/\/huggingface\.co\/api\/models\/(.+)\?expand\[\]=inferenceProviderMapping$/.exec(url);
      if (mapping) {
        return Response.json({ id: mapping[1], inferenceProviderMapping: { "hf-inference": { providerId: mapping[1], task, status: "live" } } });
      }
      if (url.startsWith("https://router.huggingface.co/hf-inference/models/")) {
        // hf-inference answers text classification with one list of labels per input.
        return Response.json([[{ label: "POSITIVE", score: 0.98 }, { label: "NEGATIVE", score: 0.02 }]]);
      }
      return new Response("unexpected request in test", { status: 599 });
    };
    globalThis.fetch = fakeFetch;
    try {
      const client = new InferenceClient("hf_test_token");
      const out = await client.textClassification({ inputs: "I love this.", provider: "hf-inference" });
      expect(out).toEqual([{ label: "POSITIVE", score: 0.98 }, { label: "NEGATIVE", score: 0.02 }]);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(seen[0]).toBe("https://huggingface.co/api/tasks");
    expect(seen).toContain(`https://huggingface.co/api/models/${expectedModel}?expand[]=inferenceProviderMapping`);
    expect(seen.some((u) => u.startsWith(`https://router.huggingface.co/hf-inference/models/${expectedModel}`))).toBe(true);
  });
});
