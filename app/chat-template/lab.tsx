import { useCallback, useDeferredValue, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { useNavigate } from "react-router";
import type { LabData } from "#app/chat-template/lab.server.ts";
import { GGUF_TEMPLATE_NAME, sideTemplate, sideTokens, type LabSide } from "#app/chat-template/lab-sides.ts";
import { compareOutputs, diffTemplateSources } from "#app/chat-template/output-diff.ts";
import type { PreviewOutcome } from "#app/chat-template/preview-outcome.ts";
import { emptySide, FIELD, STATE_LIMITS, type Conversation, type SharedState, type TemplateSide } from "#app/chat-template/preview-state.ts";
import { encodeSharedState, STATE_PARAM } from "#app/chat-template/url-state.ts";
import { ConversationEditor, fieldCls } from "#app/chat-template/conversation.tsx";
import { useChatTemplateEngine } from "#app/chat-template/use-engine.ts";
import { useHydrated, useStateInUrl } from "#app/chat-template/hooks.ts";
import { ChatTemplateOutput } from "#app/chat-template/output.tsx";
import { ChatTemplateWarning, renderInBrowser } from "#app/chat-template/model-tab.tsx";
import { CopyButton } from "#app/ui/copy-button.tsx";

type SideKey = "a" | "b";

const buttonCls =
  "rounded-md border border-gray-300 px-2.5 py-1 text-xs font-medium text-gray-800 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800";

const templateLabel = (name: string | null) => (name === GGUF_TEMPLATE_NAME ? "GGUF metadata" : (name ?? "tokenizer_config"));

function SideEditor({
  sideKey,
  resolved,
  side,
  onChange,
  modelInput,
  onModelInput,
  hydrated,
  extra,
}: {
  sideKey: SideKey;
  resolved: LabSide;
  side: TemplateSide;
  onChange: (next: TemplateSide) => void;
  modelInput: string;
  onModelInput: (value: string) => void;
  hydrated: boolean;
  extra?: ReactNode;
}) {
  const current = { ...resolved, state: side };
  const template = sideTemplate(current, false);
  const model = resolved.model;
  const label = sideKey === "a" ? "Template A" : "Template B";
  const named = resolved.templates.length > 1;
  const chosenName = template?.name ?? null;
  return (
    <section className="space-y-2 rounded-lg border border-gray-200 p-3 dark:border-gray-800" aria-label={label} data-ct-side={sideKey}>
      <div className="flex flex-wrap items-end gap-2">
        <h2 className="mr-2 text-base font-semibold text-gray-900 dark:text-white">{label}</h2>
        <label className="min-w-0 flex-1 text-xs text-gray-600 dark:text-gray-400">
          Catalogue model
          <input
            name={FIELD.side(sideKey, "model")}
            list="ct-models"
            value={modelInput}
            onChange={(e) => onModelInput(e.target.value)}
            placeholder="org/name (or paste a template below)"
            spellCheck={false}
            autoComplete="off"
            className={`${fieldCls} mt-0.5 font-mono`}
            data-ct-model-input={sideKey}
          />
        </label>
        <input type="hidden" name={FIELD.side(sideKey, "loaded")} value={model?.id ?? ""} />
        <button type="submit" className={buttonCls} data-ct-load={sideKey}>
          Load
        </button>
      </div>
      {resolved.problem ? <p className="text-sm text-red-700 dark:text-red-400">{resolved.problem}</p> : null}
      {model ? (
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600 dark:text-gray-400">
          <a className="font-mono text-indigo-700 hover:underline dark:text-indigo-300" href={`/${model.id}?tab=chat-template`}>
            {model.id}
          </a>
          {model.status === "ok" ? <span className="text-green-700 dark:text-green-400">validated at import</span> : null}
          {side.text !== null ? <span className="font-medium text-amber-700 dark:text-amber-400">edited</span> : null}
        </p>
      ) : null}
      {model?.status === "error" && model.issue ? <ChatTemplateWarning issue={model.issue} /> : null}
      {named ? (
        <label className="flex items-center gap-2 text-xs text-gray-700 dark:text-gray-300">
          Named template
          <select
            name={FIELD.side(sideKey, "template")}
            value={chosenName ?? ""}
            onChange={(e) => onChange({ ...side, templateName: e.target.value || null, text: null })}
            className="rounded border border-gray-300 bg-white px-1 py-0.5 font-mono text-xs dark:border-gray-700 dark:bg-gray-900"
          >
            {resolved.templates.map((t) => (
              <option key={t.name ?? ""} value={t.name ?? ""}>
                {templateLabel(t.name)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="block text-xs text-gray-600 dark:text-gray-400">
        <span className="flex items-center justify-between">
          <span>Jinja template</span>
          {hydrated && side.text !== null && model ? (
            <button type="button" className="text-indigo-700 hover:underline dark:text-indigo-300" onClick={() => onChange({ ...side, text: null })}>
              Reset to the model’s template
            </button>
          ) : null}
        </span>
        <textarea
          name={FIELD.side(sideKey, "text")}
          value={template?.text ?? side.text ?? ""}
          onChange={(e) => onChange({ ...side, text: e.target.value })}
          spellCheck={false}
          maxLength={STATE_LIMITS.templateChars}
          placeholder="{% for message in messages %}…{% endfor %}"
          rows={12}
          wrap="soft"
          className={`${fieldCls} mt-0.5 min-h-[10rem] font-mono text-[12.5px] leading-snug`}
          data-ct-template-text={sideKey}
        />
      </label>
      <div className="grid grid-cols-2 gap-2">
        {(["bos", "eos"] as const).map((which) => {
          const typed = which === "bos" ? side.bosToken : side.eosToken;
          const fallback = which === "bos" ? model?.bosToken : model?.eosToken;
          return (
            <label key={which} className="text-xs text-gray-600 dark:text-gray-400">
              <code className="font-mono">{which}_token</code>
              <input
                name={FIELD.side(sideKey, which)}
                value={typed ?? fallback ?? ""}
                onChange={(e) => onChange(which === "bos" ? { ...side, bosToken: e.target.value } : { ...side, eosToken: e.target.value })}
                placeholder="(none)"
                spellCheck={false}
                className={`${fieldCls} mt-0.5 font-mono`}
                data-ct-token={`${sideKey}-${which}`}
              />
            </label>
          );
        })}
      </div>
      {extra}
    </section>
  );
}

function CompareSummary({ a, b }: { a: PreviewOutcome | null; b: PreviewOutcome | null }) {
  if (a?.kind !== "text" || b?.kind !== "text") {
    return <p className="text-sm text-gray-700 dark:text-gray-300">Both templates must render to compare their output.</p>;
  }
  const c = compareOutputs(a.text, b.text);
  return (
    <p className="text-sm text-gray-800 dark:text-gray-200" data-ct-compare-summary={c.identical ? "identical" : "different"}>
      {c.identical ? (
        <span className="font-medium text-green-700 dark:text-green-400">Identical output: both templates produce the same prompt for this conversation.</span>
      ) : (
        <>
          <span className="font-medium text-amber-800 dark:text-amber-300">The prompts differ:</span>{" "}
          <span className="rounded-sm bg-red-200/70 px-1 dark:bg-red-500/30">{c.removedChars.toLocaleString("en-US")} chars only in A</span>{" "}
          <span className="rounded-sm bg-green-200/70 px-1 dark:bg-green-500/30">{c.addedChars.toLocaleString("en-US")} chars only in B</span>
        </>
      )}
    </p>
  );
}

function TemplateDiff({ a, b }: { a: string; b: string }) {
  const lines = useMemo(() => diffTemplateSources(a, b), [a, b]);
  const changed = lines.filter((l) => l.kind !== "same").length;
  return (
    <details className="rounded-lg border border-gray-200 dark:border-gray-800" data-ct-template-diff="">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-gray-800 dark:text-gray-200">
        Template source diff <span className="font-normal text-gray-500 dark:text-gray-400">({changed === 0 ? "identical" : `${changed} changed lines`})</span>
      </summary>
      <pre className="max-h-[30rem] overflow-auto border-t border-gray-200 p-2 font-mono text-[12px] leading-snug break-words whitespace-pre-wrap dark:border-gray-800">
        {lines.map((l, i) => (
          <div
            key={i}
            className={
              l.kind === "added"
                ? "bg-green-100 text-green-950 dark:bg-green-500/20 dark:text-green-100"
                : l.kind === "removed"
                  ? "bg-red-100 text-red-950 dark:bg-red-500/20 dark:text-red-100"
                  : "text-gray-700 dark:text-gray-300"
            }
          >
            <span className="inline-block w-4 text-gray-500 select-none">{l.kind === "added" ? "+" : l.kind === "removed" ? "−" : " "}</span>
            {l.text || " "}
          </div>
        ))}
      </pre>
    </details>
  );
}

/**
 * /chat-template: paste a template or load one from the catalogue, preview it on an editable
 * conversation, compare two templates side by side. Model lookups go through the loader (a
 * navigation carrying the whole state in `s`); edits render in the browser and update the link.
 * Without JavaScript the page is a GET form and every button reloads it with the new state.
 */
export function ChatTemplateLab({ data }: { data: LabData }) {
  const hydrated = useHydrated();
  const engine = useChatTemplateEngine();
  const navigate = useNavigate();
  const [conversation, setConversation] = useState<Conversation>(data.state.conversation);
  const [whitespace, setWhitespace] = useState(data.state.options.whitespace);
  const [a, setA] = useState<TemplateSide>(data.a.state);
  const [b, setB] = useState<TemplateSide | null>(data.b ? data.b.state : null);
  const [modelA, setModelA] = useState(data.a.state.model ?? "");
  const [modelB, setModelB] = useState(data.b?.state.model ?? "");
  const [dirty, setDirty] = useState(false);
  const edit = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setDirty(true);
  };

  const resolvedB: LabSide = useMemo(() => data.b ?? { state: emptySide(), templates: [], model: null, problem: null }, [data.b]);
  const deferred = useDeferredValue(conversation);
  const hasTools = deferred.tools.trim() !== "";
  const render = engine.render;
  const outcomeFor = useCallback(
    (resolved: LabSide, side: TemplateSide, server: PreviewOutcome | null): PreviewOutcome | null => {
      if (!dirty) return server;
      const current = { ...resolved, state: side };
      const template = sideTemplate(current, hasTools);
      if (!template) return null;
      if (!render) return server;
      const { bos, eos } = sideTokens(current);
      return renderInBrowser(render, template.text, deferred, bos, eos);
    },
    [dirty, hasTools, render, deferred],
  );
  const outA = useMemo(() => outcomeFor(data.a, a, data.outcomes.a), [outcomeFor, data.a, a, data.outcomes.a]);
  const outB = useMemo(() => (b ? outcomeFor(resolvedB, b, data.outcomes.b) : null), [outcomeFor, resolvedB, b, data.outcomes.b]);

  const state: SharedState = useMemo(() => ({ conversation, options: { whitespace }, a, b }), [conversation, whitespace, a, b]);
  const shareUrl = useStateInUrl(state, dirty, {});

  /** Reloads through the loader with the whole state (model ids typed into the boxes included). */
  const reload = async (next: SharedState) => {
    const encoded = await encodeSharedState(next);
    await navigate(`/chat-template?${STATE_PARAM}=${encoded}`, { preventScrollReset: true });
  };
  const withTypedModels = (): SharedState => {
    const typed = (side: TemplateSide, input: string): TemplateSide => {
      const id = input.trim() || null;
      return id === side.model ? side : { ...emptySide(id), text: id === null ? side.text : null };
    };
    return { ...state, a: typed(a, modelA), b: b ? typed(b, modelB) : null };
  };
  const onSubmit = (event: FormEvent) => {
    if (!hydrated) return;
    event.preventDefault();
    void reload(withTypedModels());
  };

  const textA = sideTemplate({ ...data.a, state: a }, hasTools);
  const textB = b ? sideTemplate({ ...resolvedB, state: b }, hasTools) : null;
  const comparison = useMemo(
    () => (outA?.kind === "text" && outB?.kind === "text" ? compareOutputs(outA.text, outB.text) : null),
    [outA, outB],
  );
  const tokensA = sideTokens({ ...data.a, state: a });
  const tokensB = b ? sideTokens({ ...resolvedB, state: b }) : { bos: null, eos: null };

  const quickCompare: Array<{ label: string; next: SharedState; href: string }> = [];
  const modelAInfo = data.a.model;
  if (modelAInfo) {
    for (const base of modelAInfo.comparableBases.filter((id) => b?.model !== id).slice(0, 3)) {
      quickCompare.push({
        label: `Compare with base model ${base}`,
        next: { ...state, b: emptySide(base) },
        href: `/chat-template?${FIELD.side("a", "model")}=${encodeURIComponent(modelAInfo.id)}&${FIELD.compare}=1&${FIELD.side("b", "model")}=${encodeURIComponent(base)}`,
      });
    }
    if (data.a.templates.some((t) => t.name === GGUF_TEMPLATE_NAME) && !(b?.model === modelAInfo.id && b.templateName === GGUF_TEMPLATE_NAME)) {
      const first = data.a.templates.find((t) => t.name !== GGUF_TEMPLATE_NAME);
      quickCompare.push({
        label: "Compare tokenizer_config with GGUF template",
        next: { ...state, a: { ...a, templateName: first?.name ?? null, text: null }, b: { ...emptySide(modelAInfo.id), templateName: GGUF_TEMPLATE_NAME } },
        href: `/chat-template?${FIELD.side("a", "model")}=${encodeURIComponent(modelAInfo.id)}&${FIELD.compare}=1&${FIELD.side("b", "model")}=${encodeURIComponent(modelAInfo.id)}&${FIELD.side("b", "template")}=${GGUF_TEMPLATE_NAME}`,
      });
    }
  }

  const status = (server: boolean) => (
    <span className="rounded bg-gray-200 px-1.5 py-0.5 text-[11px] font-normal text-gray-700 dark:bg-gray-800 dark:text-gray-300">
      {server ? "rendered on the server" : "live"}
    </span>
  );
  const emptyOutcome = (
    <p className="rounded-lg border border-dashed border-gray-300 p-4 text-sm text-gray-600 dark:border-gray-700 dark:text-gray-400">
      Choose a catalogue model or paste a template to see its output.
    </p>
  );
  const compare = b !== null;

  return (
    <div className="space-y-5" data-ct-lab="" data-ct-hydrated={hydrated ? "" : undefined}>
      <datalist id="ct-models">
        {data.models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.status === "error" ? "template fails validation" : undefined}
          </option>
        ))}
      </datalist>
      {data.notice ? <p className="text-sm text-amber-800 dark:text-amber-300">{data.notice}</p> : null}
      <form method="get" action="/chat-template" onSubmit={onSubmit} className="space-y-5">
        <div className={`grid gap-4 ${compare ? "lg:grid-cols-2" : ""}`}>
          <SideEditor
            sideKey="a"
            resolved={data.a}
            side={a}
            onChange={edit(setA)}
            modelInput={modelA}
            onModelInput={setModelA}
            hydrated={hydrated}
            extra={
              quickCompare.length > 0 ? (
                <div className="flex flex-wrap gap-2 pt-1">
                  {quickCompare.map((q) => (
                    <a
                      key={q.label}
                      href={q.href}
                      className={buttonCls}
                      onClick={(e) => {
                        if (!hydrated) return;
                        e.preventDefault();
                        void reload(q.next);
                      }}
                    >
                      {q.label}
                    </a>
                  ))}
                </div>
              ) : null
            }
          />
          {b ? (
            <SideEditor sideKey="b" resolved={resolvedB} side={b} onChange={edit(setB)} modelInput={modelB} onModelInput={setModelB} hydrated={hydrated} />
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-4 text-sm">
          <input type="hidden" name={FIELD.compare} value="0" />
          <label className="flex items-center gap-2 font-medium text-gray-800 dark:text-gray-200">
            <input
              type="checkbox"
              name={FIELD.compare}
              value="1"
              checked={compare}
              onChange={(e) => {
                if (e.target.checked) {
                  setB({ ...a });
                  setModelB(a.model ?? "");
                  // Side B needs its model's templates from the loader; A's are already there.
                  void reload({ ...withTypedModels(), b: { ...a } });
                } else {
                  edit(setB)(null);
                }
              }}
              data-ct-compare-toggle=""
            />
            Compare with a second template
          </label>
          <input type="hidden" name={FIELD.whitespace} value="0" />
          <label className="flex items-center gap-2 text-gray-800 dark:text-gray-200">
            <input type="checkbox" name={FIELD.whitespace} value="1" checked={whitespace} onChange={(e) => edit(setWhitespace)(e.target.checked)} data-ct-ws="" />
            Show whitespace <span className="font-mono text-gray-500 dark:text-gray-400">· → ↵</span>
          </label>
          {hydrated ? (
            shareUrl ? (
              <span className="flex items-center gap-2 text-gray-700 dark:text-gray-300" data-ct-share="">
                <CopyButton text={shareUrl} description="link to this state" />
                <span className="text-xs text-gray-500 dark:text-gray-400">The address bar holds the whole lab state.</span>
              </span>
            ) : null
          ) : (
            <button type="submit" data-ct-render="" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
              Render
            </button>
          )}
        </div>
        <div className="grid gap-6 lg:grid-cols-[minmax(0,4fr)_minmax(0,7fr)]">
          <div className="space-y-3">
            <h2 className="text-base font-semibold text-gray-900 dark:text-white">Conversation</h2>
            <ConversationEditor conversation={conversation} onChange={edit(setConversation)} />
          </div>
          <div className="space-y-3 lg:sticky lg:top-4 lg:self-start">
            <h2 className="text-base font-semibold text-gray-900 dark:text-white">Output</h2>
            {compare ? <CompareSummary a={outA} b={outB} /> : null}
            <div className={`grid gap-3 ${compare ? "xl:grid-cols-2" : ""}`}>
              {outA ? (
                <ChatTemplateOutput
                  outcome={outA}
                  whitespace={whitespace}
                  specialTokens={[tokensA.bos, tokensA.eos]}
                  changed={comparison?.changedA ?? []}
                  side={compare ? "a" : null}
                  title={compare ? "A" : "Rendered prompt"}
                  status={status(!dirty)}
                  templateName={textA?.name ?? null}
                />
              ) : (
                emptyOutcome
              )}
              {compare ? (
                outB ? (
                  <ChatTemplateOutput
                    outcome={outB}
                    whitespace={whitespace}
                    specialTokens={[tokensB.bos, tokensB.eos]}
                    changed={comparison?.changedB ?? []}
                    side="b"
                    title="B"
                    status={status(!dirty)}
                    templateName={textB?.name ?? null}
                  />
                ) : (
                  emptyOutcome
                )
              ) : null}
            </div>
            {compare && textA && textB ? <TemplateDiff a={textA.text} b={textB.text} /> : null}
          </div>
        </div>
      </form>
    </div>
  );
}
