/** Data suite: all 1,270 real Hub tokenizer configs validate as the importer validates them. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { expectValidatesHubConfigs } from "#tests/support/chat-template-validation.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

const row = z.object({ chat_template: z.string(), bos_token: z.string().nullable(), eos_token: z.string().nullable() });

describe("validateChatTemplates on the shared data", () => {
  it("validates the 1,270 real Hub configs, rendering each distinct template once", async () => {
    const rows = readFileSync(path.join(sharedDataDir(), "chat-templates", "hub-tokenizer-configs-2024-07.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => row.parse(JSON.parse(line)));
    expect(rows.length).toBe(1270);
    // 1,200 of 1,270 rendered when this was written; the rest are real template faults.
    await expectValidatesHubConfigs(rows, 1200 / 1270);
  });
});
