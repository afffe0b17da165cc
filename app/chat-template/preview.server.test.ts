/**
 * The server-side previews (model page tab, lab) share the sandbox's per-client cap with the
 * render API: a visitor over it sees a "busy" panel with what to do, and the page still loads.
 */
import { describe, expect, it } from "vitest";
import { loadChatTemplateTab } from "#app/chat-template/model-tab.server.ts";
import { defaultConversation } from "#app/chat-template/preview-state.ts";
import { renderPreviewOnServer } from "#app/chat-template/preview.server.ts";
import { CHAT_TEMPLATE_LIMITS, getChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";

const hostile = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";
const template = "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}";

describe("server-side chat-template previews under the per-client cap", () => {
  it("show a busy panel, not a failed page, while the visitor's address is over its cap", async () => {
    const sandbox = getChatTemplateSandbox();
    const held = Array.from({ length: CHAT_TEMPLATE_LIMITS.maxPerClient }, () =>
      sandbox.render({ template: hostile, messages: [] }, { client: "203.0.113.7" }),
    );

    const outcome = await renderPreviewOnServer(template, defaultConversation(), null, null, "203.0.113.7");
    expect(outcome).toMatchObject({ kind: "error", error: { kind: "busy" } });
    if (outcome.kind !== "error") return;
    expect(outcome.error.message).toMatch(/Reload the page in \d+ s/);

    const tab = await loadChatTemplateTab(
      { id: "org/model", chatTemplate: template, bosToken: null, eosToken: null, chatTemplateStatus: "ok", chatTemplateIssue: null },
      new URL("http://localhost/org/model?tab=chat-template"),
      "203.0.113.7",
    );
    expect(tab?.outcome).toMatchObject({ kind: "error", error: { kind: "busy" } });

    // Another address is not affected.
    expect(await renderPreviewOnServer(template, defaultConversation(), null, null, "203.0.113.8")).toMatchObject({ kind: "text" });
    await Promise.all(held);
    expect(await renderPreviewOnServer(template, defaultConversation(), null, null, "203.0.113.7")).toMatchObject({ kind: "text" });
  });
});
