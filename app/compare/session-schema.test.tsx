import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildSession } from "#app/compare/session-build.ts";
import { readSessionText, sessionFileName, sessionFileText } from "#app/compare/session-file.ts";
import { MAX_SESSION_BYTES, type Session, sessionSchema } from "#app/compare/session-schema.ts";
import { SessionView } from "#app/compare/session-view.tsx";

const metrics = { timeToFirstTokenMs: 120, tokensPerSecond: 42.5, totalMs: 900, promptTokens: 12, completionTokens: 30, totalTokens: 42, usageSource: "provider" as const };

function sample(): Session {
  return buildSession({
    source: "compare",
    task: "text-generation",
    modelyardVersion: "0.1.0",
    system: "Be brief.",
    parameters: { temperature: 0.7, max_tokens: 256, top_p: 0.95 },
    input: { text: "", fileName: null },
    now: new Date("2025-01-02T03:04:05.000Z"),
    columns: [
      {
        info: { modelId: "org/a", route: "together", snippet: { language: "js", client: "huggingface.js", code: "const c = 1;" } },
        overrides: { temperature: 0.2, top_p: undefined },
        turns: [
          { role: "user", content: "Hello", status: "done", metrics: null, error: null },
          { role: "assistant", content: "Hi there", status: "done", metrics, error: null },
        ],
        result: null,
      },
      {
        info: { modelId: "org/b", route: "endpoint:local", snippet: null },
        overrides: {},
        turns: [
          { role: "user", content: "Hello", status: "done", metrics: null, error: null },
          { role: "assistant", content: "Hal", status: "streaming", metrics: null, error: null },
        ],
        result: null,
      },
    ],
  });
}

describe("session files", () => {
  it("round-trips a comparison: what is saved reads back equal", () => {
    const session = sample();
    expect(session.columns[0]?.parameters).toEqual({ temperature: 0.2 });
    // A reply still streaming when saved is kept as stopped, with what had arrived.
    expect(session.columns[1]?.turns[1]).toMatchObject({ content: "Hal", status: "stopped" });
    const read = readSessionText(sessionFileText(session));
    expect(read).toEqual({ ok: true, session: { $schema: "/schemas/session-v1.json", ...session } });
    expect(sessionFileName(session)).toBe("modelyard-compare-text-generation-2025-01-02T03-04-05Z.json");
  });

  it("never writes the visitor's token, even when it was pasted into a message", () => {
    const session = sample();
    const token = "hf_secretVisitorToken1234567890";
    session.columns[0]!.turns[0]!.content = `my token is ${token}`;
    const text = sessionFileText(session, [token, null]);
    expect(text).not.toContain(token);
    expect(text).toContain("my token is hf_***");
    expect(Object.keys(sessionSchema.shape)).not.toContain("token");
  });

  it("refuses wrong types, unknown fields and other versions with a message naming the place", () => {
    const good = JSON.parse(sessionFileText(sample())) as Record<string, unknown>;
    const wrongType = readSessionText(JSON.stringify({ ...good, columns: [{ ...(good["columns"] as object[])[0], turns: "lots" }] }));
    expect(wrongType).toEqual({ ok: false, error: expect.stringContaining("columns[0].turns: ") as unknown });
    const extra = readSessionText(JSON.stringify({ ...good, token: "hf_x" }));
    expect(extra.ok).toBe(false);
    if (!extra.ok) expect(extra.error).toMatch(/Unrecognized key.*token/);
    const badId = readSessionText(JSON.stringify({ ...good, columns: [{ ...(good["columns"] as object[])[0], modelId: `org/a"><script>alert(2)</script>` }] }));
    expect(badId.ok).toBe(false);
    if (!badId.ok) expect(badId.error).toContain("columns[0].modelId: model id must look like");
    const version = readSessionText(JSON.stringify({ ...good, schemaVersion: 2 }));
    expect(version).toEqual({ ok: false, error: "This session has schema version 2; this Modelyard reads version 1." });
    expect(readSessionText("{not json")).toEqual({ ok: false, error: "This file is not JSON, so it is not a Modelyard session." });
    expect(readSessionText(JSON.stringify({ ...good, columns: [] })).ok).toBe(false);
    const badScore = JSON.parse(JSON.stringify(good)) as { columns: Array<Record<string, unknown>> };
    badScore.columns[0]!["result"] = { kind: "label-scores", items: [{ label: "x", score: 7 }], metrics };
    expect(readSessionText(JSON.stringify(badScore)).ok).toBe(false);
  });

  it("refuses huge files before parsing, and huge fields by the schema's bounds", () => {
    expect(readSessionText("{}", MAX_SESSION_BYTES + 1)).toEqual({ ok: false, error: expect.stringContaining("may be at most 4 MB") as unknown });
    const good = JSON.parse(sessionFileText(sample())) as { system: string; columns: Array<{ modelId: string }> };
    const huge = readSessionText(JSON.stringify({ ...good, system: "x".repeat(200_001) }));
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.error).toContain("system: is longer than 200000 characters");
    const seven = readSessionText(JSON.stringify({ ...good, columns: Array.from({ length: 7 }, () => good.columns[0]) }));
    expect(seven.ok).toBe(false);
  });

  it("notes, beside a column's code, a mask-token placeholder the catalogue could not fill", () => {
    const plain = renderToStaticMarkup(<SessionView session={sample()} onClose={() => {}} />);
    expect(plain).toContain("const c = 1;");
    expect(plain).not.toContain("data-mask-token-note");
    const session = sample();
    session.columns[0]!.snippet = { language: "js", client: "huggingface.js", code: 'await client.fillMask({ inputs: "Paris is the {{MASK_TOKEN}} of France." });' };
    const read = readSessionText(sessionFileText(session));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const html = renderToStaticMarkup(<SessionView session={read.session} onClose={() => {}} />);
    expect(html.match(/data-mask-token-note/g)).toHaveLength(1);
    expect(html).toContain("replace it with the tokenizer&#x27;s mask token");
  });

  it("keeps script in strings as text: the opened session renders it inert", () => {
    const session = sample();
    const script = `<script>window.__pwned=1</script><img src=x onerror="alert(1)">`;
    session.system = script;
    session.columns[0]!.turns[1]!.content = `${script} [link](javascript:alert(3))`;
    const read = readSessionText(sessionFileText(session));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const html = renderToStaticMarkup(<SessionView session={read.session} onClose={() => {}} />);
    expect(html).not.toMatch(/<script|<img|onerror="|href="javascript:/i);
    expect(html).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
  });
});
