import { type FormEvent, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { CodeBlock } from "#app/ui/code-block.tsx";
import { CopyButton } from "#app/ui/copy-button.tsx";
import type { InferencePanel, PanelLanguage } from "#app/snippets/inference-panel.server.ts";

/** Where the settings page keeps the visitor's Hugging Face token (browser only, never sent by this panel). */
export const TOKEN_STORAGE_KEY = "modelyard.hfToken";

/**
 * Same rule as maskedTokenValue in app/snippets/inference-snippets.ts (kept separate so that module,
 * and @huggingface/inference with it, stays off the client; a unit test keeps the two equal).
 */
export function maskTokenForDisplay(token: string): string {
  if (token.length <= 8) return "*".repeat(token.length);
  return token.slice(0, 3) + "*".repeat(token.length - 3);
}

/**
 * Only hf_ tokens: for those, the library's output with the token equals its output with the
 * hf_*** placeholder, placeholder replaced (the placeholder is chosen to route the same way).
 */
export function isUsableToken(value: string | null): value is string {
  return value !== null && /^hf_[A-Za-z0-9_.:-]{5,509}$/.test(value);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const count = (s: string, part: string) => s.split(part).length - 1;

/** The highlighted HTML with the placeholder swapped for what may be shown of the token. */
export function htmlWithToken(html: string, text: string, placeholder: string, shown: string): string {
  if (count(html, placeholder) === count(text, placeholder)) return html.split(placeholder).join(escapeHtml(shown));
  // The highlighter split the placeholder across tokens: fall back to plain text rather than show it wrong.
  return `<pre class="shiki" tabindex="0"><code>${escapeHtml(text.split(placeholder).join(shown))}</code></pre>`;
}

function panelQuery(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (typeof v === "string" && v !== "") params.set(k, v);
  return params;
}

const fieldCls = "rounded-md border border-gray-300 bg-white px-2 py-1 text-sm dark:border-gray-700 dark:bg-gray-900";

export function InferenceSnippets({ initial }: { initial: InferencePanel }) {
  const fetcher = useFetcher<InferencePanel | { error: { message: string } }>();
  const [panel, setPanel] = useState(initial);
  const [lang, setLang] = useState<PanelLanguage>(initial.state.lang);
  const [token, setToken] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => setPanel(initial), [initial]);
  useEffect(() => {
    if (fetcher.data && "languages" in fetcher.data) setPanel(fetcher.data);
  }, [fetcher.data]);
  useEffect(() => {
    try {
      const saved = window.localStorage.getItem(TOKEN_STORAGE_KEY);
      setToken(isUsableToken(saved) ? saved : null);
    } catch {
      setToken(null);
    }
  }, []);

  const update = () => {
    const form = formRef.current;
    if (!form) return;
    const params = panelQuery(form);
    params.set("lang", lang);
    // A demo's text and parameters stay in the code when the visitor changes the panel's own
    // settings; they stay out of the address, which the demo does not read back.
    const fetched = new URLSearchParams(params);
    if (panel.follows.inputs !== undefined) fetched.set("inputs", panel.follows.inputs);
    if (panel.follows.parameters !== undefined) fetched.set("parameters", JSON.stringify(panel.follows.parameters));
    // The fetcher reports failures through its own state, which the panel renders.
    void fetcher.load(`/api/snippets?model=${encodeURIComponent(panel.modelId)}&${fetched}`);
    window.history.replaceState(window.history.state, "", `?${params}`);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    update();
  };
  const chooseLang = (l: PanelLanguage) => {
    setLang(l);
    const params = new URLSearchParams(window.location.search);
    params.set("lang", l);
    window.history.replaceState(window.history.state, "", `?${params}`);
  };

  const fetchError = fetcher.data && !("languages" in fetcher.data) ? fetcher.data.error.message : null;
  const current = panel.languages.find((l) => l.language === lang) ?? panel.languages[0];
  const baseQuery = new URLSearchParams({ tab: "inference", provider: panel.state.provider });
  if (panel.state.streaming) baseQuery.set("stream", "1");
  if (panel.state.billTo) baseQuery.set("bill_to", panel.state.billTo);
  const shownToken = token === null ? null : revealed ? token : maskTokenForDisplay(token);

  return (
    <section aria-labelledby="inference-title" className="space-y-4" data-inference-panel="">
      <div>
        <h2 id="inference-title" className="text-lg font-semibold">
          Call {panel.modelId} through an inference provider
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Code generated by @huggingface/inference for the provider you pick. “auto” lets the router choose.
          {panel.follows.inputs !== undefined || panel.follows.parameters !== undefined ? (
            <span data-follows-demo=""> It carries the {panel.follows.parameters !== undefined ? (panel.follows.inputs !== undefined ? "text and parameters" : "parameters") : "text"} set in the demo.</span>
          ) : null}
        </p>
      </div>
      <form ref={formRef} method="get" onSubmit={onSubmit} className="flex flex-wrap items-end gap-3 text-sm" aria-busy={fetcher.state !== "idle"}>
        <input type="hidden" name="tab" value="inference" />
        <label className="flex flex-col gap-1">
          <span className="font-medium">Provider</span>
          <select name="provider" defaultValue={panel.state.provider} onChange={update} className={fieldCls}>
            {panel.providers.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        {panel.conversational ? (
          <label className="flex items-center gap-2 pb-1">
            <input type="checkbox" name="stream" value="1" defaultChecked={panel.state.streaming} onChange={update} className="h-4 w-4" />
            <span>Stream the answer</span>
          </label>
        ) : null}
        <label className="flex flex-col gap-1">
          <span className="font-medium">Bill to (optional organisation)</span>
          <input name="bill_to" defaultValue={panel.state.billTo} placeholder="my-org" autoComplete="off" className={fieldCls} />
        </label>
        <button type="submit" className="rounded-md bg-gray-800 px-3 py-1.5 font-medium text-white hover:bg-gray-700 dark:bg-gray-200 dark:text-gray-900">
          Show code
        </button>
      </form>
      {panel.inputError || fetchError ? (
        <p role="alert" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {fetchError ?? panel.inputError}
        </p>
      ) : null}
      {panel.error ? <p className="text-sm text-red-800 dark:text-red-300">No code for this choice: {panel.error}</p> : null}
      <p className="text-sm text-gray-700 dark:text-gray-300" data-token-note="">
        {token === null ? (
          <>
            The token is shown as <code>{panel.placeholder}</code>: replace it with your own Hugging Face token, or save one in your browser settings.
          </>
        ) : (
          <>
            Your saved token is {revealed ? "shown" : "hidden"} in the code.{" "}
            <button type="button" onClick={() => setRevealed(!revealed)} className="font-medium text-indigo-700 underline dark:text-indigo-300" aria-pressed={revealed}>
              {revealed ? "Hide token" : "Reveal token"}
            </button>
          </>
        )}
      </p>
      {panel.languages.length ? (
        <div>
          <nav aria-label="Language" className="flex gap-1 border-b border-gray-200 dark:border-gray-800">
            {panel.languages.map((l) => (
              <a
                key={l.language}
                href={`?${baseQuery}&lang=${l.language}`}
                aria-current={l.language === current?.language ? "page" : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  chooseLang(l.language);
                }}
                className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${l.language === current?.language ? "border-indigo-600 text-indigo-800 dark:text-indigo-200" : "border-transparent text-gray-700 hover:text-gray-900 dark:text-gray-300"}`}
              >
                {l.label}
              </a>
            ))}
          </nav>
          <div className="mt-3 space-y-3" data-language={current?.language}>
            {current?.clients.map((c) => (
              <CodeBlock
                key={`${panel.state.provider}-${c.client}`}
                html={shownToken === null ? c.html : htmlWithToken(c.html, c.text, panel.placeholder, shownToken)}
                text={c.text}
                title={c.label}
                copyDescription={`${current.label} ${c.label} code`}
                badge={
                  c.verified ? (
                    <span className="rounded bg-green-50 px-1.5 py-0.5 text-[11px] font-medium text-green-800 ring-1 ring-green-200 dark:bg-green-950 dark:text-green-200 dark:ring-green-800" title="This kind of snippet is run in Modelyard's test suite against a simulator of the provider's API, not against the provider itself">
                      tested on a simulator
                    </span>
                  ) : null
                }
                extraActions={
                  token !== null ? <CopyButton text={c.text.split(panel.placeholder).join(token)} label="Copy with token" description={`${current.label} ${c.label} code including your token`} /> : null
                }
              />
            ))}
          </div>
        </div>
      ) : null}
    </section>
  );
}
