/**
 * POST /api/chat-template/render through the route module (the e2e suite drives the same route
 * over real HTTP): good, bad and hostile bodies, model lookup, validation status at import, on
 * every test database engine.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateChatTemplate } from "#app/chat-template/validate.server.ts";
import { getDb, setDb } from "#app/db/db.server.ts";
import { getModelChatTemplate, listChatTemplateModels } from "#app/db/queries/chat-templates.server.ts";
import { testDialects, type TestDatabase } from "#tests/support/test-databases.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { action, loader, MAX_BODY_BYTES } from "#app/routes/api.chat-template.render.ts";
import { FIXTURE_IDS, writeChatTemplateFixtures, type ChatTemplateFixtures } from "#tests/e2e/chat-template-fixtures.ts";

const URL_ = "http://localhost/api/chat-template/render";
const post = (body: unknown, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
  action({ request: new Request(URL_, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }) });

async function json(response: Response): Promise<{ status: number; body: Record<string, unknown> & { error?: Record<string, unknown> } }> {
  expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const user = [{ role: "user", content: "Hi there" }];

for (const dialect of testDialects()) {
  describe(`render API (${dialect.name})`, () => {
    let database: TestDatabase;
    let fixtures: ChatTemplateFixtures;
    let cleanup: () => void;

    beforeAll(async () => {
      database = await dialect.create();
      const written = writeChatTemplateFixtures();
      fixtures = written.fixtures;
      cleanup = written.cleanup;
      await importPaths(database.handle, [written.file], { validateTemplate: (source, bos, eos) => validateChatTemplate(source, bos, eos) });
      setDb(database.handle);
    });
    afterAll(async () => {
      cleanup();
      await database.drop();
    });

    it("renders a pasted template", async () => {
      const { status, body } = await json(await post({ template: fixtures.qwen.chat_template, messages: user, add_generation_prompt: true }));
      expect(status).toBe(200);
      expect(body["text"]).toBe("<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n");
    });

    it("renders a model's template with its tokens, and picks tool_use when tools are given", async () => {
      const plain = await json(await post({ model: FIXTURE_IDS.gemma, messages: user, add_generation_prompt: true }));
      expect(plain.status).toBe(200);
      expect(plain.body["text"]).toBe("<bos><start_of_turn>user\nHi there<end_of_turn>\n<start_of_turn>model\n");

      const tools = [{ type: "function", function: { name: "get_time", description: "Time now", parameters: { type: "object", properties: {} } } }];
      const named = await json(await post({ model: FIXTURE_IDS.named, messages: user, tools }));
      expect(named.status).toBe(200);
      expect(named.body["templateName"]).toBe("tool_use");
      expect(String(named.body["text"])).toContain("get_time");
      const chosen = await json(await post({ model: FIXTURE_IDS.named, messages: user, template_name: "default" }));
      expect(chosen.body["templateName"]).toBe("default");
      expect(String(chosen.body["text"])).toContain("<|im_start|>user\nHi there<|im_end|>");
    });

    it("answers 404 for an unknown model and 400 for an unknown template name", async () => {
      const missing = await json(await post({ model: "nobody/nothing", messages: user }));
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ field: "model" });
      expect(String(missing.body.error?.["message"])).toContain("nobody/nothing");
      const badName = await json(await post({ model: FIXTURE_IDS.named, messages: user, template_name: "rag" }));
      expect(badName.status).toBe(400);
      expect(badName.body.error).toMatchObject({ field: "template_name" });
      expect(String(badName.body.error?.["message"])).toContain("default, tool_use");
    });

    it("names the field of a bad body", async () => {
      const cases: Array<[unknown, string]> = [
        [{ messages: user }, "template"],
        [{ template: "x", messages: "hello" }, "messages"],
        [{ template: "x", messages: [{ content: "no role" }] }, "messages[0].role"],
        [{ template: "x", messages: user, add_generation_prompt: "yes" }, "add_generation_prompt"],
        [{ template: "x", messages: user, tools: {} }, "tools"],
        [{ template: "x", messages: user, temperature: 1 }, "temperature"],
        [{ template: "x", model: FIXTURE_IDS.chatml, messages: user }, "model"],
      ];
      for (const [body, field] of cases) {
        const res = await json(await post(body));
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error?.["field"], JSON.stringify(body)).toBe(field);
        expect(String(res.body.error?.["message"])).toContain(field);
      }
    });

    it("rejects malformed JSON, empty and non-JSON bodies, and other methods", async () => {
      const malformed = await json(await post("{\"template\": "));
      expect(malformed.status).toBe(400);
      expect(String(malformed.body.error?.["message"])).toMatch(/request body is not valid JSON/);
      const empty = await json(await post(""));
      expect(empty.status).toBe(400);
      expect(String(empty.body.error?.["message"])).toMatch(/body is empty/);
      const form = await json(await post("template=x", { "Content-Type": "application/x-www-form-urlencoded" }));
      expect(form.status).toBe(415);
      const notObject = await json(await post("[1, 2]"));
      expect(notObject.status).toBe(400);
      const get = await json(loader({ request: new Request(URL_) }));
      expect(get.status).toBe(405);
      const put = await json(await action({ request: new Request(URL_, { method: "PUT", body: "{}" }) }));
      expect(put.status).toBe(405);
    });

    it("refuses a body over the cap with 413 before parsing it", async () => {
      const huge = JSON.stringify({ template: "x".repeat(MAX_BODY_BYTES), messages: user });
      const declared = await json(await post(huge));
      expect(declared.status).toBe(413);
      // A chunked body without Content-Length is counted while it streams.
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          const chunk = new TextEncoder().encode("x".repeat(256 * 1024));
          for (let i = 0; i < 12; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const streamed = await json(
        await action({
          request: new Request(URL_, { method: "POST", headers: { "Content-Type": "application/json" }, body: stream, duplex: "half" } as RequestInit),
        }),
      );
      expect(streamed.status).toBe(413);
    });

    it("answers 422 with line and column for a template error", async () => {
      const res = await json(await post({ template: "Hello\n{{ messages[0].content }\n", messages: user }));
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ kind: "syntax", line: 2 });
      expect(typeof res.body.error?.["column"]).toBe("number");
      expect(String(res.body.error?.["excerpt"])).toContain("{{ messages[0].content }");

      const raised = await json(await post({ model: FIXTURE_IDS.gemma, messages: [{ role: "system", content: "x" }, ...user] }));
      expect(raised.status).toBe(422);
      expect(raised.body.error).toMatchObject({ kind: "raised", message: "System role not supported", line: 1 });
    });

    it("stops hostile templates quickly with a 422", async () => {
      const hostile = [
        "{% for i in range(10**9) %}x{% endfor %}",
        "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(1) }}",
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "{% set x = 'a' * 100000000 %}{{ x }}",
      ];
      for (const template of hostile) {
        // No timing assertion (speed is for bench/): the point is that each one ends, with a 422.
        const res = await json(await post({ template, messages: user }));
        expect(res.status, template).toBe(422);
        expect(["limit", "timeout", "runtime"]).toContain(res.body.error?.["kind"]);
      }
      // The sandbox replaced its stopped worker: the next ordinary render still works.
      const after = await json(await post({ template: "{{ messages[0].content }}", messages: user }));
      expect(after).toEqual({ status: 200, body: { text: "Hi there", templateName: null } });
    });

    it("stored the validation status at import, and lists models with templates", async () => {
      const { db } = getDb();
      const ok = await getModelChatTemplate(db, FIXTURE_IDS.chatml);
      expect(ok).toMatchObject({ status: "ok", issue: null });
      // Gemma rejects the system turn on purpose; it renders without one, so it is valid.
      expect(await getModelChatTemplate(db, FIXTURE_IDS.gemma)).toMatchObject({ status: "ok" });
      const broken = await getModelChatTemplate(db, FIXTURE_IDS.broken);
      expect(broken?.status).toBe("error");
      expect(broken?.issue?.line).toBeGreaterThan(0);
      expect(broken?.issue?.message).toMatch(/endfor|end of|unexpected|expected/i);
      const gguf = await getModelChatTemplate(db, FIXTURE_IDS.gguf);
      expect(gguf?.ggufTemplate).toContain("helpful, concise assistant");
      const listed = await listChatTemplateModels(db);
      expect(listed.map((m) => m.id).sort()).toEqual(Object.values(FIXTURE_IDS).sort());
      expect(listed.find((m) => m.id === FIXTURE_IDS.broken)?.status).toBe("error");
      expect((await listChatTemplateModels(db, { query: "gemma" })).map((m) => m.id)).toEqual([FIXTURE_IDS.gemma]);
    });
  });
}
