import { expect, vi } from "vitest";
import { ChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";
import { type ChatTemplateValidationItem, validateChatTemplates } from "#app/chat-template/validate.server.ts";

/**
 * Validates real Hub tokenizer configs in one batch and checks what the import relies on: one
 * result per row, a null for a row without a template, each distinct template rendered at most
 * twice, at least `minOkShare` of rows valid, and every failure located.
 */
export async function expectValidatesHubConfigs(
  rows: ReadonlyArray<{ chat_template: string; bos_token: string | null; eos_token: string | null }>,
  minOkShare: number,
): Promise<void> {
  const items: ChatTemplateValidationItem[] = rows.map((row) => ({ chatTemplate: row.chat_template, bosToken: row.bos_token, eosToken: row.eos_token }));
  items.push({ chatTemplate: null, bosToken: null, eosToken: null });
  const distinct = new Set(items.map((item) => JSON.stringify([item.chatTemplate, item.bosToken, item.eosToken])));
  const local = new ChatTemplateSandbox({ timeoutMs: 2000 });
  const spy = vi.spyOn(local, "render");
  try {
    const results = await validateChatTemplates(items, { sandbox: local });
    expect(results).toHaveLength(items.length);
    expect(results.at(-1)).toBeNull();
    const statuses = results.slice(0, -1).map((result) => result?.status);
    expect(statuses.every((status) => status === "ok" || status === "error")).toBe(true);
    expect(statuses.filter((status) => status === "ok").length).toBeGreaterThanOrEqual(Math.floor(rows.length * minOkShare));
    // At most two renders (with and without the system turn) per distinct template + tokens.
    expect(spy.mock.calls.length).toBeLessThanOrEqual(2 * (distinct.size - 1));
    // The failures are real template faults (ShareGPT-style `message['value']`, a parse error); each is located.
    for (const result of results) {
      if (result?.status !== "error") continue;
      const issue = result.issue;
      expect(issue).not.toBeNull();
      expect(typeof issue?.message).toBe("string");
      expect(issue?.message).not.toBe("");
      expect(Number.isInteger(issue?.line)).toBe(true);
    }
  } finally {
    await local.close();
  }
}
