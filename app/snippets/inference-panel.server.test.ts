import { describe, expect, it } from "vitest";
import { buildInferencePanel, parseFollowedRequest, parseInferenceState } from "#app/snippets/inference-panel.server.ts";
import { fixtureById, loadInferenceFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";

const SST2 = fixtureById(loadInferenceFixtures(), "distilbert/distilbert-base-uncased-finetuned-sst-2-english");
const q = (s: string) => new URLSearchParams(s);

describe("parseFollowedRequest: a demo's inputs= and parameters= in a snippets query", () => {
  it("reads the text and a JSON object of parameters", () => {
    expect(parseFollowedRequest(q(`inputs=Hi&parameters=${encodeURIComponent('{"top_k":1,"stop":["a"],"do_sample":true}')}`))).toEqual({
      ok: true,
      follows: { inputs: "Hi", parameters: { top_k: 1, stop: ["a"], do_sample: true } },
    });
    expect(parseFollowedRequest(q("parameters=%7B%7D"))).toEqual({ ok: true, follows: {} });
    expect(parseFollowedRequest(q(""))).toEqual({ ok: true, follows: {} });
  });

  it("names the field that is wrong", () => {
    const fail = (s: string) => {
      const r = parseFollowedRequest(q(s));
      return r.ok ? null : r.field;
    };
    expect(fail("inputs=")).toBe("inputs");
    expect(fail(`inputs=${"x".repeat(4_001)}`)).toBe("inputs");
    expect(fail("parameters=not-json")).toBe("parameters");
    expect(fail("parameters=%5B1%5D")).toBe("parameters");
    expect(fail(`parameters=${encodeURIComponent('{"top_k":{"a":1}}')}`)).toBe("parameters.top_k");
    expect(fail(`parameters=${encodeURIComponent('{"x-y":1}')}`)).toBe("parameters.x-y");
    const r = parseFollowedRequest(q("parameters=not-json"));
    expect(r.ok ? "" : r.message).toBe("Query parameter 'parameters' must be a JSON object.");
  });
});

describe("buildInferencePanel with what a demo set", () => {
  it("writes the text and parameters into the code and echoes them for the panel's own refetch", () => {
    const follows = { inputs: "Lovely", parameters: { top_k: 2 } };
    const panel = buildInferencePanel(SST2, parseInferenceState(q("provider=hf-inference&lang=python"), SST2), follows);
    expect(panel.follows).toEqual(follows);
    const hub = panel.languages.find((l) => l.language === "python")?.clients.find((c) => c.client === "huggingface_hub");
    expect(hub?.text).toContain(`    "Lovely",\n    model="distilbert/distilbert-base-uncased-finetuned-sst-2-english",\n    top_k=2,\n)`);
    expect(hub?.html).toContain("top_k");
    // Those kinds ran as the library writes them, not with parameters written in.
    const curl = (p: typeof panel) => p.languages.find((l) => l.language === "sh")?.clients[0];
    expect(curl(buildInferencePanel(SST2, parseInferenceState(q("provider=hf-inference"), SST2), { inputs: "Lovely" }))?.verified).toBe(true);
    expect(curl(panel)?.verified).toBe(false);
  });
});

describe("buildInferencePanel for a fill-mask model whose mask token the catalogue lacks", () => {
  it("names the placeholder the code carries, so the panel can say to replace it", () => {
    const bert = fixtureById(loadInferenceFixtures(), "google-bert/bert-base-uncased");
    expect(buildInferencePanel(bert, parseInferenceState(q("provider=hf-inference"), bert)).maskTokenPlaceholder).toBeNull();
    const listRow = { ...bert, config: null, tags: ["transformers", "fill-mask"] };
    const panel = buildInferencePanel(listRow, parseInferenceState(q("provider=hf-inference"), listRow));
    expect(panel.maskTokenPlaceholder).toBe("{{MASK_TOKEN}}");
    for (const client of panel.languages.flatMap((l) => l.clients)) expect(client.text, client.client).not.toContain("undefined");
  });
});
