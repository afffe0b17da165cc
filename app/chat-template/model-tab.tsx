import { useDeferredValue, useMemo, useState, type FormEvent } from "react";
import type { ChatTemplateIssue } from "#app/catalog/model-record.ts";
import type { ChatTemplateTabData } from "#app/chat-template/model-tab.server.ts";
import { BROWSER_MAX_STEPS, previewRequest, type PreviewOutcome } from "#app/chat-template/preview-outcome.ts";
import { FIELD, type Conversation, type SharedState } from "#app/chat-template/preview-state.ts";
import { ConversationEditor, fieldCls } from "#app/chat-template/conversation.tsx";
import { useChatTemplateEngine, type RenderChatTemplate } from "#app/chat-template/use-engine.ts";
import { useHydrated, useStateInUrl } from "#app/chat-template/hooks.ts";
import { ChatTemplateOutput } from "#app/chat-template/output.tsx";
import { ChatTemplateSource } from "#app/chat-template/source.tsx";

/** The warning a model page shows when its chat template failed validation at import. */
export function ChatTemplateWarning({ issue, href }: { issue: ChatTemplateIssue; href?: string }) {
  const where = issue.line !== null ? `line ${issue.line}${issue.column !== null ? `, column ${issue.column}` : ""}` : null;
  return (
    <div
      role="alert"
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700/60 dark:bg-amber-950/40 dark:text-amber-100"
      data-ct-warning=""
    >
      <p className="font-semibold">This model’s chat template is broken</p>
      <p className="mt-1">
        It failed to render a standard conversation when it was imported
        {where ? ` (${issue.templateName ? `template “${issue.templateName}”, ` : ""}${where})` : issue.templateName ? ` (template “${issue.templateName}”)` : ""}:{" "}
        <span className="font-mono text-[13px] break-words">{issue.message}</span>
      </p>
      {href ? (
        <p className="mt-1">
          <a href={href} className="font-medium underline">
            See the template and try it
          </a>
        </p>
      ) : null}
    </div>
  );
}

/** Renders one template in the browser; the outcome the preview shows. */
export function renderInBrowser(
  render: RenderChatTemplate,
  template: string,
  conversation: Conversation,
  bos: string | null,
  eos: string | null,
): PreviewOutcome {
  const request = previewRequest(template, conversation, bos, eos);
  if (!request.ok) return request.outcome;
  const result = render({ ...request.input, maxSteps: BROWSER_MAX_STEPS });
  return result.ok ? { kind: "text", text: result.text } : { kind: "error", error: result.error };
}

/** "" typed into a token box means no token; null means the model's own. */
export function effectiveToken(typed: string | null, model: string | null): string | null {
  if (typed === null) return model;
  return typed === "" ? null : typed;
}

function StatusBadge({ text }: { text: string }) {
  return <span className="rounded bg-gray-200 px-1.5 py-0.5 text-[11px] font-normal text-gray-700 dark:bg-gray-800 dark:text-gray-300">{text}</span>;
}

/**
 * The model page's "Chat template" tab: the sample conversation and options on the left, the
 * rendered prompt on the right (server-rendered first, then live in the browser), the template
 * source below. The whole panel is a GET form, so without JavaScript "Render" reloads it.
 */
export function ChatTemplateTab({ data }: { data: ChatTemplateTabData }) {
  const hydrated = useHydrated();
  const engine = useChatTemplateEngine();
  const [conversation, setConversation] = useState(data.state.conversation);
  const [whitespace, setWhitespace] = useState(data.state.options.whitespace);
  const [selected, setSelected] = useState(data.selected);
  const [bos, setBos] = useState(data.state.a.bosToken);
  const [eos, setEos] = useState(data.state.a.eosToken);
  const [dirty, setDirty] = useState(false);
  const touch = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setDirty(true);
  };

  const current = data.templates[selected] ?? data.templates[0];
  const templateName = current?.name ?? null;
  const bosToken = effectiveToken(bos, data.modelBosToken);
  const eosToken = effectiveToken(eos, data.modelEosToken);
  const deferred = useDeferredValue(conversation);

  const outcome: PreviewOutcome | null = useMemo(() => {
    if (!dirty) return data.outcome;
    if (!engine.render || !current) return null;
    return renderInBrowser(engine.render, current.text, deferred, bosToken, eosToken);
  }, [dirty, data.outcome, engine.render, current, deferred, bosToken, eosToken]);

  const state: SharedState = useMemo(
    () => ({
      conversation,
      options: { whitespace },
      a: { model: data.modelId, templateName, text: null, bosToken: bos, eosToken: eos },
      b: null,
    }),
    [conversation, whitespace, data.modelId, templateName, bos, eos],
  );
  useStateInUrl(state, dirty, { tab: "chat-template" });

  const hrefFor = (i: number) => {
    const name = data.templates[i]?.name;
    return `/${data.modelId}?tab=chat-template${name ? `&${FIELD.side("a", "template")}=${encodeURIComponent(name)}` : ""}`;
  };
  const onSubmit = (event: FormEvent) => {
    if (hydrated) event.preventDefault();
  };
  const errorLine = outcome?.kind === "error" ? outcome.error.line : null;
  const status = !dirty ? <StatusBadge text="rendered on the server" /> : outcome ? <StatusBadge text="live" /> : <StatusBadge text={engine.failed ? "renderer failed to load" : "loading renderer…"} />;

  return (
    <div className="space-y-4" data-ct-tab={data.modelId} data-ct-hydrated={hydrated ? "" : undefined}>
      {data.issue ? <ChatTemplateWarning issue={data.issue} /> : null}
      {data.notice ? <p className="text-sm text-amber-800 dark:text-amber-300">{data.notice}</p> : null}
      <p className="text-sm text-gray-700 dark:text-gray-300">
        The exact prompt this model sees for a conversation, rendered from its chat template the way <code className="font-mono">transformers</code>’{" "}
        <code className="font-mono">apply_chat_template</code> does. Edit the messages to see it change.{" "}
        <a className="text-indigo-700 underline dark:text-indigo-300" href={`/chat-template?${FIELD.side("a", "model")}=${encodeURIComponent(data.modelId)}`}>
          Open in the chat-template lab
        </a>{" "}
        to edit the template or compare it with another.
      </p>
      <form method="get" action={`/${data.modelId}`} onSubmit={onSubmit} className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <input type="hidden" name="tab" value="chat-template" />
        {templateName ? <input type="hidden" name={FIELD.side("a", "template")} value={templateName} /> : null}
        <div className="space-y-4">
          <h2 className="text-base font-semibold text-gray-900 dark:text-white">Conversation</h2>
          <ConversationEditor conversation={conversation} onChange={touch(setConversation)} />
          <div className="grid grid-cols-2 gap-3">
            <label className="text-sm font-medium text-gray-800 dark:text-gray-200">
              <code className="font-mono text-[13px]">bos_token</code>
              <input
                name={FIELD.side("a", "bos")}
                value={bos ?? data.modelBosToken ?? ""}
                onChange={(e) => touch(setBos)(e.target.value)}
                placeholder="(none)"
                spellCheck={false}
                className={`${fieldCls} mt-1 font-mono`}
                data-ct-bos=""
              />
            </label>
            <label className="text-sm font-medium text-gray-800 dark:text-gray-200">
              <code className="font-mono text-[13px]">eos_token</code>
              <input
                name={FIELD.side("a", "eos")}
                value={eos ?? data.modelEosToken ?? ""}
                onChange={(e) => touch(setEos)(e.target.value)}
                placeholder="(none)"
                spellCheck={false}
                className={`${fieldCls} mt-1 font-mono`}
                data-ct-eos=""
              />
            </label>
          </div>
          {hydrated ? null : (
            <button type="submit" data-ct-render="" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
              Render
            </button>
          )}
        </div>
        <div className="space-y-3 lg:sticky lg:top-4 lg:self-start">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-base font-semibold text-gray-900 dark:text-white">
              Prompt{templateName ? <span className="ml-2 font-mono text-sm font-normal text-gray-600 dark:text-gray-400">{templateName}</span> : null}
            </h2>
            <span className="flex items-center gap-3 text-sm">
              <input type="hidden" name={FIELD.whitespace} value="0" />
              <label className="flex items-center gap-1.5 text-gray-800 dark:text-gray-200">
                <input type="checkbox" name={FIELD.whitespace} value="1" checked={whitespace} onChange={(e) => touch(setWhitespace)(e.target.checked)} data-ct-ws="" />
                Show whitespace <span className="font-mono text-gray-500 dark:text-gray-400">· → ↵</span>
              </label>
            </span>
          </div>
          <ChatTemplateOutput
            outcome={outcome ?? data.outcome}
            whitespace={whitespace}
            specialTokens={[bosToken, eosToken]}
            status={status}
            templateName={templateName}
          />
          <p className="text-xs text-gray-600 dark:text-gray-400">
            <span className="rounded-sm bg-amber-100 px-1 text-amber-900 ring-1 ring-amber-300 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-500/40">Highlighted</span>{" "}
            text is a special token: the model’s bos/eos, or a known control-token spelling such as <code className="font-mono">{"<|im_start|>"}</code> or{" "}
            <code className="font-mono">[INST]</code>.
          </p>
        </div>
      </form>
      <ChatTemplateSource
        templates={data.templates}
        selected={selected}
        onSelect={(i) => {
          setSelected(i);
          setDirty(true);
        }}
        hrefFor={hrefFor}
        errorLine={errorLine}
      />
    </div>
  );
}
