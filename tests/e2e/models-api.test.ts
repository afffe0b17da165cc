import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { listModels, modelInfo } from "@huggingface/hub";
import { InferenceClient } from "@huggingface/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { type TestServer, startTestServer } from "#tests/e2e/support/server.ts";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";

/**
 * The Hub-compatible API over real HTTP against the real server (bundled catalogue, 5,240 models),
 * on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set. Real Hub clients
 * (@huggingface/hub, @huggingface/inference) are pointed at it.
 */

type Item = Record<string, unknown> & { id: string };

// PostgreSQL gets a database of its own (created empty, so the server loads and validates the
// bundled catalogue itself), never the shared one other test files write to.
const postgres = testDialects().find((d) => d.name === "postgres");
const engines: Array<{ name: string; create?: () => Promise<TestDatabase> }> = [{ name: "sqlite" }];
if (postgres) engines.push({ name: "postgres", create: () => postgres.create() });

describe.each(engines)("GET /api/models on $name", ({ name, create }) => {
  let server: TestServer;
  let db: TestDatabase | undefined;
  const get = async (path: string) => {
    const res = await fetch(server.url + path);
    return { res, body: (await res.json()) as unknown };
  };
  const list = async (path: string): Promise<{ items: Item[]; link: string | null }> => {
    const { res, body } = await get(path);
    expect(res.status, path).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    return { items: body as Item[], link: res.headers.get("link") };
  };

  beforeAll(async () => {
    db = await create?.();
    server = await startTestServer(db ? { databaseUrl: db.url } : {});
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("lists models in the Hub's item shape, trending first", async () => {
    const { items } = await list("/api/models?limit=50");
    expect(items).toHaveLength(50);
    for (const m of items) {
      expect(m._id).toMatch(/^[0-9a-f]{24}$/);
      expect(m.modelId).toBe(m.id);
      expect(typeof m.downloads).toBe("number");
      expect(typeof m.likes).toBe("number");
      expect(Array.isArray(m.tags)).toBe(true);
      expect(m.private).toBe(false);
      // Fields only `full=true` adds are absent by default.
      expect(m).not.toHaveProperty("siblings");
    }
    const scores = items.map((m) => m.trendingScore as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The same model always gets the same _id.
    const again = await list("/api/models?limit=50");
    expect(again.items.map((m) => m._id)).toEqual(items.map((m) => m._id));
  });

  it("paginates with a Link rel=next header that continues the order without overlap", async () => {
    const seen: Item[] = [];
    let next: string | null = "/api/models?limit=40&sort=downloads";
    for (let i = 0; i < 4 && next; i++) {
      const { items, link } = await list(next.replace(server.url, ""));
      seen.push(...items);
      const m = link ? /<([^>]+)>;\s*rel="next"/.exec(link) : null;
      next = m ? m[1]! : null;
      if (i < 3) expect(next, "a full page links to the next one").toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/models\?/);
    }
    expect(seen).toHaveLength(160);
    expect(new Set(seen.map((m) => m.id)).size).toBe(160);
    const downloads = seen.map((m) => m.downloads as number);
    expect(downloads).toEqual([...downloads].sort((a, b) => b - a));
    // A short last page has no next link.
    const { items, link } = await list("/api/models?search=zephyr-7b-beta&limit=100");
    expect(items.length).toBeLessThan(100);
    expect(link).toBeNull();
  });

  it("searches ids case-insensitively by substring", async () => {
    const { items } = await list("/api/models?search=LLaMA&limit=200");
    expect(items.length).toBeGreaterThan(20);
    for (const m of items) expect(m.id.toLowerCase()).toContain("llama");
    expect(items.map((m) => m.id)).toContain("meta-llama/Meta-Llama-3-8B");
    const { items: none } = await list("/api/models?search=no-such-model-anywhere-xyz");
    expect(none).toEqual([]);
  });

  it("filters by author, pipeline_tag, library, license, language and tag", async () => {
    const author = await list("/api/models?author=google&limit=100");
    expect(author.items.length).toBeGreaterThan(5);
    for (const m of author.items) expect(m.id.startsWith("google/")).toBe(true);

    const task = await list("/api/models?pipeline_tag=text-to-image&library=diffusers&limit=100");
    expect(task.items.length).toBeGreaterThan(5);
    for (const m of task.items) {
      expect(m.pipeline_tag).toBe("text-to-image");
      expect(m.library_name).toBe("diffusers");
    }

    // A task @huggingface/tasks has retired, which 158 bundled models still carry (flan-t5, …).
    const retired = await list("/api/models?pipeline_tag=text2text-generation&limit=100");
    expect(retired.items.length).toBeGreaterThan(50);
    for (const m of retired.items) expect(m.pipeline_tag).toBe("text2text-generation");

    const lic = await list("/api/models?license=mit&limit=100");
    expect(lic.items.length).toBeGreaterThan(5);
    for (const m of lic.items) expect(m.tags as string[]).toContain("license:mit");

    const lang = await list("/api/models?language=fr&limit=100");
    expect(lang.items.length).toBeGreaterThan(2);
    for (const m of lang.items) expect(m.tags as string[]).toContain("fr");

    const tags = await list("/api/models?filter=gguf&filter=conversational&limit=100");
    expect(tags.items.length).toBeGreaterThan(2);
    for (const m of tags.items) expect(m.tags as string[]).toEqual(expect.arrayContaining(["gguf", "conversational"]));

    // A task given as a filter tag narrows by pipeline_tag, as on the Hub.
    const asFilter = await list("/api/models?filter=fill-mask&limit=50");
    for (const m of asFilter.items) expect(m.pipeline_tag).toBe("fill-mask");

    const provider = await list("/api/models?inference_provider=together&limit=100");
    expect(provider.items.length).toBeGreaterThan(0);
    for (const m of provider.items) {
      const info = await get(`/api/models/${m.id}?expand[]=inferenceProviderMapping`);
      expect(Object.keys((info.body as { inferenceProviderMapping: object }).inferenceProviderMapping)).toContain("together");
    }
  });

  it("sorts by every Hub sort key, in both directions", async () => {
    const keys = { downloads: "downloads", likes: "likes", createdAt: "createdAt", trendingScore: "trendingScore" } as const;
    for (const [sort, field] of Object.entries(keys)) {
      for (const direction of ["-1", "1"]) {
        const { items } = await list(`/api/models?sort=${sort}&direction=${direction}&limit=60`);
        const values = items.map((m) => m[field]).filter((v) => v !== null && v !== undefined) as Array<string | number>;
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(values, `${sort} ${direction}`).toEqual(direction === "1" ? sorted : sorted.reverse());
      }
    }
    const { items } = await list("/api/models?sort=lastModified&limit=10");
    expect(items).toHaveLength(10);
  });

  it("adds details with full, cardData and config, and answers expand with exactly those fields", async () => {
    // A model the bundled catalogue holds full details for (sha, files, card metadata, config).
    const { items } = await list("/api/models?search=Qwen2-7B-Instruct&full=true&cardData=true&config=true");
    const z = items.find((m) => m.id === "Qwen/Qwen2-7B-Instruct");
    expect(z).toBeDefined();
    expect(z!.author).toBe("Qwen");
    expect(Array.isArray(z!.siblings)).toBe(true);
    expect((z!.siblings as unknown[]).length).toBeGreaterThan(3);
    expect(typeof z!.sha).toBe("string");
    expect(z!.cardData).toBeTypeOf("object");
    expect(z!.config).toBeTypeOf("object");

    const expanded = await list("/api/models?search=qwen2-7b&expand[]=pipeline_tag&expand[]=likes");
    expect(expanded.items.length).toBeGreaterThan(0);
    for (const m of expanded.items) expect(Object.keys(m).sort()).toEqual(["_id", "id", "likes", "pipeline_tag"].filter((k) => k in m).sort());
  });

  it("answers invalid parameters with 400 JSON naming the parameter and what it accepts", async () => {
    const cases: Array<[string, string]> = [
      ["/api/models?sort=bogus", "sort"],
      ["/api/models?direction=2", "direction"],
      ["/api/models?limit=0", "limit"],
      ["/api/models?limit=1001", "limit"],
      ["/api/models?limit=ten", "limit"],
      ["/api/models?pipeline_tag=not-a-task", "pipeline_tag"],
      ["/api/models?language=zz", "language"],
      ["/api/models?full=maybe", "full"],
      ["/api/models?expand[]=nope", "expand"],
      ["/api/models?cursor=garbage", "cursor"],
      ["/api/models?filter=has%20space", "filter"],
      ["/api/models?sort=likes&sort=downloads", "sort"],
      ["/api/models/HuggingFaceH4/zephyr-7b-beta?expand[]=secrets", "expand"],
    ];
    for (const [path, parameter] of cases) {
      const { res, body } = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/json");
      const b = body as { error: string; parameter: string; allowed: unknown };
      expect(b.parameter, path).toBe(parameter);
      expect(typeof b.error).toBe("string");
      expect(b.allowed).toBeTruthy();
    }
    const sort = (await get("/api/models?sort=bogus")).body as { allowed: string[] };
    expect(sort.allowed).toEqual(["downloads", "likes", "createdAt", "lastModified", "trendingScore"]);
  });

  it("serves one model in the Hub's /api/models/{id} shape, with expand[]", async () => {
    const { res, body } = await get("/api/models/Qwen/Qwen2-7B-Instruct");
    expect(res.status).toBe(200);
    const m = body as Record<string, unknown>;
    expect(m.id).toBe("Qwen/Qwen2-7B-Instruct");
    expect(m.pipeline_tag).toBe("text-generation");
    for (const k of ["_id", "modelId", "author", "sha", "siblings", "tags", "downloads", "likes", "spaces", "cardData", "config", "createdAt", "lastModified"]) {
      expect(m).toHaveProperty(k);
    }
    expect((m.siblings as Array<{ rfilename: string }>).map((s) => s.rfilename)).toContain("config.json");
    // Whether the chat template rendered when it was validated on import.
    expect(m.chatTemplateStatus).toBe("ok");
    expect(m).not.toHaveProperty("inferenceProviderMapping");

    const only = (await get("/api/models/Qwen/Qwen2-7B-Instruct?expand[]=pipeline_tag")).body;
    expect(only).toEqual({ _id: m._id, id: "Qwen/Qwen2-7B-Instruct", pipeline_tag: "text-generation" });
    const revision = (await get("/api/models/Qwen/Qwen2-7B-Instruct/revision/main?expand=pipeline_tag")).body;
    expect(revision).toEqual(only);

    const missing = await get("/api/models/no-such-org/no-such-model");
    expect(missing.res.status).toBe(404);
    expect(missing.body).toEqual({ error: "Repository not found" });
  });

  it("works with @huggingface/hub listModels and modelInfo pointed at it", async () => {
    const names: string[] = [];
    for await (const m of listModels({ hubUrl: server.url, search: { query: "llama" }, limit: 30 })) {
      names.push(m.name);
      expect(m.id).toMatch(/^[0-9a-f]{24}$/);
      expect(typeof m.downloads).toBe("number");
    }
    expect(names).toHaveLength(30);
    for (const n of names) expect(n.toLowerCase()).toContain("llama");

    // More than one page of 500: the client must follow our Link header.
    const many = new Set<string>();
    for await (const m of listModels({ hubUrl: server.url, search: { task: "text-generation" }, limit: 650 })) {
      expect(m.task).toBe("text-generation");
      many.add(m.name);
    }
    expect(many.size).toBe(650);

    const info = await modelInfo({
      hubUrl: server.url,
      name: "meta-llama/Meta-Llama-3-8B-Instruct",
      additionalFields: ["inferenceProviderMapping", "library_name", "tags"],
    });
    expect(info.name).toBe("meta-llama/Meta-Llama-3-8B-Instruct");
    expect(info.task).toBe("text-generation");
    expect(info.library_name).toBe("transformers");
    expect(info.inferenceProviderMapping?.some((p) => p.provider === "together")).toBe(true);
  });

  it("gives @huggingface/inference the provider mapping it routes by", async () => {
    // The library caches mappings per model id for the life of the process, so each engine's run
    // uses a different model, or the second would never ask.
    const candidates: string[] = [];
    for (const m of (await list("/api/models?inference_provider=together&limit=20")).items) {
      const b = (await get(`/api/models/${m.id}?expand[]=inferenceProviderMapping`)).body as {
        inferenceProviderMapping: Record<string, { task: string }>;
      };
      if (b.inferenceProviderMapping["together"]?.task === "conversational") candidates.push(m.id);
    }
    const model = candidates[engines.findIndex((e) => e.name === name)];
    expect(model, "a conversational model served by together").toBeDefined();
    const mapping = (await get(`/api/models/${model}?expand[]=inferenceProviderMapping`)).body as {
      inferenceProviderMapping: Record<string, { providerId: string; task: string; status: string }>;
    };
    const together = mapping.inferenceProviderMapping["together"];
    expect(together).toBeDefined();

    // The library asks https://huggingface.co/api/models/<id>?expand[]=inferenceProviderMapping; send that
    // here, and answer the provider call locally, recording which provider model id it asked for.
    const hubCalls: string[] = [];
    let providerBody: { model?: string } = {};
    const fakeFetch: typeof fetch = async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith("https://huggingface.co/api/models/")) {
        hubCalls.push(url);
        return fetch(url.replace("https://huggingface.co", server.url), init);
      }
      providerBody = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as { model?: string };
      return Response.json({
        id: "x",
        object: "chat.completion",
        created: 0,
        model: providerBody.model,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "hi" } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    };
    const client = new InferenceClient("hf_test_token_not_real");
    const out = await client.chatCompletion(
      { provider: "together", model: model!, messages: [{ role: "user", content: "hello" }] },
      { fetch: fakeFetch },
    );
    expect(out.choices[0]?.message.content).toBe("hi");
    expect(hubCalls).toEqual([`https://huggingface.co/api/models/${model!}?expand[]=inferenceProviderMapping`]);
    expect(providerBody.model).toBe(together!.providerId);
  });

  // Last: it changes the catalogue the tests above read.
  it("lists a model imported while it runs, then logs its rebuilt index and answers from it", async () => {
    const poll = { timeout: 120_000, interval: 200 };
    await expect.poll(() => server.output().includes("facet index ready"), poll).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-live-import-"));
    try {
      const id = `modelyard-e2e/imported-while-serving-${name}`;
      const file = path.join(dir, "one.jsonl");
      fs.writeFileSync(file, `${JSON.stringify({ id, pipeline_tag: "text-classification", tags: ["modelyard-e2e-live-tag"], downloads: 1 })}\n`);
      await importIntoServer(server, file);
      // At once: the database answers while the index of the new catalogue is built.
      expect((await list("/api/models?search=imported-while-serving")).items.map((m) => m.id)).toEqual([id]);
      const ids = async () => (await list("/api/models?filter=modelyard-e2e-live-tag")).items.map((m) => m.id);
      // Each poll asks for the listing too: a request is what notices the new catalogue.
      await expect.poll(async () => (await ids(), server.output()), poll).toMatch(/Facet index rebuilt for catalogue generation \d+ in \d+ ms\./);
      expect(await ids()).toEqual([id]);
      const page = await (await fetch(`${server.url}/models?other=modelyard-e2e-live-tag`)).text();
      expect(page).toContain(id);
      expect(page).toMatch(/\b1 model\b/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
