import { describe, expect, it } from "vitest";
import { measureTransformersInfo, percent, readModelDetails } from "../../scripts/measure-transformers-info.ts";

// The derivation against the Hub's own transformersInfo on the real /api/models/{id} records of
// ../shared/data/model-details-2024-07.jsonl.gz (ADR 0014). The floors sit just under today's figures
// (99.9%, 96.9%, 98.6%) so a regression shows, with the main misses in the failure message.
describe("derived transformersInfo matches the Hub's", async () => {
  const report = measureTransformersInfo(await readModelDetails());
  const misses = (s: typeof report.withConfig) => s.misses.slice(0, 8).map((m) => `${m.count} × ${m.kind} (e.g. ${m.example})`).join("\n");

  it("where the record has a config: at least 99% exact (auto_model, processor)", () => {
    expect(report.withConfig.total).toBeGreaterThan(3000);
    expect(report.withConfig.matched / report.withConfig.total, `${percent(report.withConfig)}\n${misses(report.withConfig)}`).toBeGreaterThanOrEqual(0.99);
  });

  it("from tags and pipeline_tag alone (config stripped): at least 96%, and 98% where the config names an architecture", () => {
    const t = report.tagsOnly;
    const a = report.tagsOnlyWithArchitecture;
    expect(t.matched / t.total, `${percent(t)}\n${misses(t)}`).toBeGreaterThanOrEqual(0.96);
    expect(a.matched / a.total, `${percent(a)}\n${misses(a)}`).toBeGreaterThanOrEqual(0.98);
  });
});
