/**
 * POST /api/chat-template/render over real HTTP against the real server (`modelyard serve`),
 * with the chat-template fixtures imported into its database: good, bad and hostile bodies, and
 * the server staying responsive while a hostile template is being stopped.
 */
import { describe, expect, it } from "vitest";
import { setupServer } from "#tests/e2e/support/journey.ts";
import { FIXTURE_IDS, importFixtures, type ChatTemplateFixtures } from "#tests/e2e/chat-template-fixtures.ts";

let fixtures: ChatTemplateFixtures;
const server = setupServer({}, async (s) => {
  const imported = await importFixtures(s);
  fixtures = imported.fixtures;
  // The fixture file is needed only while it is imported.
  imported.cleanup();
});

async function render(body: unknown, init: RequestInit = {}): Promise<{ status: number; json: Record<string, unknown> & { error?: Record<string, unknown> } }> {
  const res = await fetch(`${server.url}/api/chat-template/render`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const user = [{ role: "user", content: "Hi there" }];

describe("POST /api/chat-template/render", () => {
  it("renders a pasted template and a catalogue model's template", async () => {
    const pasted = await render({ template: fixtures.qwen.chat_template, messages: user, add_generation_prompt: true });
    expect(pasted).toEqual({
      status: 200,
      json: { text: "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n", templateName: null },
    });
    const model = await render({ model: FIXTURE_IDS.gemma, messages: user, add_generation_prompt: true, bos_token: "<BOS>" });
    expect(model.json["text"]).toBe("<BOS><start_of_turn>user\nHi there<end_of_turn>\n<start_of_turn>model\n");
  });

  it("answers 400 naming the field, 404 for an unknown model, 405 for GET", async () => {
    const bad = await render({ template: "{{ x }}", messages: [{ role: 7, content: "x" }] });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ field: "messages[0].role" });
    const malformed = await render('{"template": "x", "messages": [');
    expect(malformed.status).toBe(400);
    expect(String(malformed.json.error?.["message"])).toContain("request body is not valid JSON");
    const missing = await render({ model: "nobody/here", messages: user });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ field: "model" });
    const get = await fetch(`${server.url}/api/chat-template/render`);
    expect(get.status).toBe(405);
    expect(((await get.json()) as { error: { message: string } }).error.message).toContain("POST");
  });

  it("answers 413 for an oversized body", async () => {
    const res = await render({ template: "x".repeat(3 * 1024 * 1024), messages: user });
    expect(res.status).toBe(413);
  });

  it("answers 422 with the line, column and excerpt of a template error", async () => {
    const res = await render({ template: "{% for m in messages %}\n{{ m.content | nosuchfilter }}\n{% endfor %}", messages: user });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ line: 2, kind: "runtime" });
    expect(res.json.error?.["column"]).toBeGreaterThan(0);
    expect(String(res.json.error?.["message"])).toContain("nosuchfilter");
    const broken = await render({ model: FIXTURE_IDS.broken, messages: user });
    expect(broken.status).toBe(422);
    expect(broken.json.error?.["line"]).toBeGreaterThan(0);
  });

  it("stops hostile templates with a 422 while the server keeps answering", async () => {
    const hostile = [
      { template: "{% for i in range(10**9) %}x{% endfor %}", slow: false },
      { template: "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(1) }}", slow: false },
      // Runs until the sandbox's time limit: the server must answer other requests meanwhile.
      { template: "{% for i in range(100000) %}{% for j in range(100000) %}{{ i }}{% endfor %}{% endfor %}", slow: true },
    ];
    for (const { template, slow } of hostile) {
      let finished = false;
      const pending = render({ template, messages: user }).then((r) => {
        finished = true;
        return r;
      });
      if (slow) {
        const health = await fetch(`${server.url}/healthz`);
        expect(health.status).toBe(200);
        expect(finished, "the health check was answered while the template was still running").toBe(false);
      }
      const r = await pending;
      expect(r.status, template).toBe(422);
      expect(["limit", "timeout", "runtime"]).toContain(r.json.error?.["kind"]);
    }
    const after = await render({ template: "{{ messages[0].content }}", messages: user });
    expect(after).toEqual({ status: 200, json: { text: "Hi there", templateName: null } });
  });
});
