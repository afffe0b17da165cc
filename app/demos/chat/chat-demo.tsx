/**
 * The chat demo: a conversation with a conversational model through POST /api/inference
 * (streamed), with a system prompt, provider picker, parameters from the chat-completion spec,
 * stop / regenerate / edit-and-resend, per-reply metrics, errors shown in place with the input
 * kept, and a refusal (with the reason) when the model's chat template failed validation.
 */
import { type ClipboardEvent, type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { KeyNote } from "#app/auth/key-note.tsx";
import { useServerKeyState } from "#app/auth/viewer.ts";
import { MAX_IMAGE_BYTES, MAX_IMAGES, messageContent } from "#app/demos/chat/image-attachments.ts";
import { ChatMarkdown } from "#app/demos/chat/markdown.tsx";
import { readVisitorToken } from "#app/utils/visitor-token.ts";
import { type ChatDemoInfo, type ChatParameterSpec, routeFields } from "#app/demos/chat/demo-info.ts";
import { checkBlob } from "#app/demos/shared/media-file.ts";
import { createStreamEventParser, type StreamEvent } from "#app/inference/stream-events.ts";
import { DemoErrorAlert } from "#app/demos/shared/demo-error.tsx";

type Final = Extract<StreamEvent, { type: "final" }>;

interface Turn {
  id: number;
  role: "user" | "assistant";
  content: string;
  status: "streaming" | "done" | "stopped" | "error";
  final?: Final;
  /** Why a reply that had begun was cut off (status "error"). */
  error?: DemoError;
  /** Images attached to a user message, as data: URLs. */
  images?: string[];
}

interface DemoError {
  message: string;
  hint: string | null;
  code: string;
}

export interface ChatSettings {
  provider: string;
  streaming: boolean;
  temperature: number;
  max_tokens: number;
  top_p: number;
}

/** The conversation as it stands, for the playground's "Save session". */
export interface ChatConversation {
  system: string;
  provider: string;
  parameters: { temperature: number; max_tokens: number; top_p: number };
  turns: ReadonlyArray<Pick<Turn, "role" | "content" | "status" | "final" | "error">>;
}

let nextId = 1;

const fieldCls =
  "w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm text-gray-900 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100";

function toDemoError(body: unknown, status: number): DemoError {
  if (typeof body === "object" && body !== null && "error" in body) {
    const e = body.error;
    if (typeof e === "object" && e !== null) {
      const r = e as Record<string, unknown>;
      return {
        message: typeof r["message"] === "string" ? r["message"] : `The request failed (${status}).`,
        hint: typeof r["hint"] === "string" ? r["hint"] : null,
        code: typeof r["code"] === "string" ? r["code"] : "error",
      };
    }
  }
  return { message: `The request failed (${status}).`, hint: null, code: "error" };
}

export function ChatTemplateRefusal({ problem, modelId }: { problem: NonNullable<ChatDemoInfo["templateProblem"]>; modelId: string }) {
  const where = [problem.templateName ? `template “${problem.templateName}”` : null, problem.line !== null ? `line ${problem.line}` : null, problem.column !== null ? `column ${problem.column}` : null]
    .filter(Boolean)
    .join(", ");
  return (
    <div role="status" data-chat-template-refusal="" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
      <p className="font-semibold">No live demo: this model’s chat template failed validation.</p>
      <p className="mt-1">
        The conversation could not be formatted the way {modelId} expects, so a demo would show misleading replies. The problem{where ? ` (${where})` : ""}:
      </p>
      <pre className="mt-2 whitespace-pre-wrap rounded bg-white/70 p-2 font-mono text-xs dark:bg-black/30">{problem.message}</pre>
    </div>
  );
}

export function ChatDemo({
  info,
  onSettingsChange,
  onConversationChange,
  compact = false,
}: {
  info: ChatDemoInfo;
  onSettingsChange?: (s: ChatSettings) => void;
  onConversationChange?: (c: ChatConversation) => void;
  compact?: boolean;
}) {
  const ids = useId();
  const [system, setSystem] = useState("");
  const [turns, setTurns] = useState<Turn[]>([]);
  const [input, setInput] = useState("");
  const [images, setImages] = useState<string[]>([]);
  const [attachProblem, setAttachProblem] = useState<string | null>(null);
  const [provider, setProvider] = useState(info.providers[0]?.value ?? "");
  const [temperature, setTemperature] = useState(info.parameters.temperature.default);
  const [maxTokens, setMaxTokens] = useState(info.parameters.max_tokens.default);
  const [topP, setTopP] = useState(info.parameters.top_p.default);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DemoError | null>(null);
  const [hasToken, setHasToken] = useState<boolean | null>(null);
  const keyState = useServerKeyState(info.serverKey);
  const abortRef = useRef<AbortController | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);

  useEffect(() => setHasToken(readVisitorToken() !== null), []);
  useEffect(() => {
    onSettingsChange?.({ provider, streaming: true, temperature, max_tokens: maxTokens, top_p: topP });
  }, [provider, temperature, maxTokens, topP, onSettingsChange]);
  useEffect(() => {
    onConversationChange?.({ system, provider, parameters: { temperature, max_tokens: maxTokens, top_p: topP }, turns });
  }, [system, provider, temperature, maxTokens, topP, turns, onConversationChange]);
  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [turns]);

  if (info.templateProblem) return <ChatTemplateRefusal problem={info.templateProblem} modelId={info.modelId} />;

  /** Runs one reply for `history` (ending with the user's message). */
  async function run(history: Turn[], restoreInput: string, restoreImages: string[] = []) {
    setError(null);
    const assistant: Turn = { id: nextId++, role: "assistant", content: "", status: "streaming" };
    setTurns([...history, assistant]);
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    const messages = [
      ...(system.trim() ? [{ role: "system" as const, content: system.trim() }] : []),
      ...history.map((t) => ({ role: t.role, content: t.images?.length ? messageContent(t.content, t.images) : t.content })),
    ];
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "text/event-stream" };
    const token = readVisitorToken();
    if (token) headers["X-Provider-Token"] = token;
    const update = (patch: Partial<Turn>) => setTurns((ts) => ts.map((t) => (t.id === assistant.id ? { ...t, ...patch } : t)));
    let content = "";
    let failed: DemoError | null = null;
    try {
      const res = await fetch("/api/inference", {
        method: "POST",
        headers,
        body: JSON.stringify({
          model: info.modelId,
          ...routeFields(provider),
          messages,
          parameters: { temperature, max_tokens: maxTokens, top_p: topP },
          stream: true,
        }),
        signal: controller.signal,
      });
      if (!res.ok || !res.headers.get("content-type")?.startsWith("text/event-stream")) {
        failed = toDemoError(await res.json().catch(() => null), res.status);
      } else if (res.body) {
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        const feed = createStreamEventParser((event) => {
          if (event.type === "token") {
            content += event.delta;
            update({ content });
          } else if (event.type === "final") {
            update({ content: event.message.content, final: event, status: "done" });
          } else if (event.type === "error") {
            failed = { message: event.error.message, hint: event.error.hint ?? null, code: event.error.code };
          }
        });
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          feed(value);
        }
      }
    } catch (e) {
      if (controller.signal.aborted) {
        update({ status: "stopped" });
      } else {
        failed = { message: e instanceof Error ? e.message : String(e), hint: "The connection to Modelyard failed. Check your network and try again.", code: "network" };
      }
    } finally {
      abortRef.current = null;
      setBusy(false);
    }
    if (!failed) setTurns((ts) => ts.map((t) => (t.id === assistant.id && t.status === "streaming" ? { ...t, status: "done" } : t)));
    if (failed && content !== "") {
      // Cut off after it began: what arrived stays, marked, with the message that asked for it.
      const cause = failed;
      setTurns((ts) => ts.map((t) => (t.id === assistant.id ? { ...t, content, status: "error", error: cause } : t)));
      setError(failed);
    } else if (failed) {
      // Shown where the reply would have been; the message goes back in the box so nothing is lost.
      setTurns(history.slice(0, -1));
      setInput(restoreInput);
      setImages(restoreImages);
      setError(failed);
      requestAnimationFrame(() => inputRef.current?.focus());
    }
  }

  function send(e?: FormEvent) {
    e?.preventDefault();
    const text = input.trim();
    if ((!text && images.length === 0) || busy) return;
    const attached = images;
    setInput("");
    setImages([]);
    setAttachProblem(null);
    const turn: Turn = { id: nextId++, role: "user", content: text, status: "done", ...(attached.length > 0 ? { images: attached } : {}) };
    void run([...turns.filter((t) => t.status !== "streaming"), turn], text, attached);
  }

  /** Checks each image by its bytes and size, then keeps it as a data: URL typed by those bytes. */
  async function attach(files: readonly File[]) {
    let count = images.length;
    for (const file of files) {
      if (count >= MAX_IMAGES) return setAttachProblem(`At most ${MAX_IMAGES} images per message.`);
      const check = await checkBlob(file, ["image"]);
      if (!check.ok) return setAttachProblem(check.message);
      if (file.size > MAX_IMAGE_BYTES) return setAttachProblem(`This image is ${(file.size / 1e6).toFixed(1)} MB; a chat image may be at most ${(MAX_IMAGE_BYTES / 1e6).toFixed(1)} MB.`);
      const url = await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => (typeof reader.result === "string" ? resolve(reader.result) : reject(new Error("The image could not be read.")));
        reader.onerror = () => reject(reader.error ?? new Error("The image could not be read."));
        reader.readAsDataURL(file);
      });
      count += 1;
      setImages((old) => [...old, url.replace(/^data:[^;,]*/, `data:${check.mime}`)]);
    }
    setAttachProblem(null);
  }

  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    if (!info.acceptsImages) return;
    const files = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
    if (files.length === 0) return;
    e.preventDefault();
    void attach(files);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  }

  function stop() {
    abortRef.current?.abort();
  }

  function regenerate() {
    const lastUser = turns.map((t) => t.role).lastIndexOf("user");
    if (lastUser < 0 || busy) return;
    const history = turns.slice(0, lastUser + 1);
    void run(history, history[lastUser]?.content ?? "", history[lastUser]?.images ?? []);
  }

  function edit(index: number) {
    if (busy) return;
    const turn = turns[index];
    if (!turn) return;
    setTurns(turns.slice(0, index));
    setInput(turn.content);
    setImages(turn.images ?? []);
    setError(null);
    requestAnimationFrame(() => inputRef.current?.focus());
  }

  const last = turns.at(-1);
  const providerLabel = info.providers.find((p) => p.value === provider)?.label ?? provider;

  return (
    <div className="space-y-3 text-sm" data-chat-demo={info.modelId}>
      <details className="rounded-md border border-gray-200 dark:border-gray-800" open={!compact}>
        <summary className="cursor-pointer select-none px-3 py-2 font-medium">Settings</summary>
        <div className={`grid gap-3 px-3 pb-3 ${compact ? "" : "sm:grid-cols-2"}`}>
          <label className="block">
            <span className="mb-1 block text-xs font-medium text-gray-600 dark:text-gray-400">Provider</span>
            <select name="provider" value={provider} onChange={(e) => setProvider(e.target.value)} className={fieldCls} disabled={busy}>
              {info.providers.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.kind === "endpoint" ? `${p.label} (configured endpoint)` : p.label}
                </option>
              ))}
            </select>
          </label>
          <label className="block">
            <span className="mb-1 block text-xs font-medium text-gray-600 dark:text-gray-400" title={info.parameters.max_tokens.description}>
              Max tokens
            </span>
            <input
              type="number"
              name="max_tokens"
              min={info.parameters.max_tokens.min}
              max={info.parameters.max_tokens.max}
              step={1}
              value={maxTokens}
              onChange={(e) => setMaxTokens(Math.min(info.parameters.max_tokens.max, Math.max(info.parameters.max_tokens.min, Math.round(Number(e.target.value) || 1))))}
              className={fieldCls}
            />
          </label>
          <RangeSetting label="Temperature" name="temperature" spec={info.parameters.temperature} value={temperature} onChange={setTemperature} />
          <RangeSetting label="Top-p" name="top_p" spec={info.parameters.top_p} value={topP} onChange={setTopP} />
          <label className={`block ${compact ? "" : "sm:col-span-2"}`}>
            <span className="mb-1 block text-xs font-medium text-gray-600 dark:text-gray-400">System prompt</span>
            <textarea name="system" rows={2} value={system} onChange={(e) => setSystem(e.target.value)} placeholder="Optional instructions for the model" className={fieldCls} />
          </label>
        </div>
      </details>

      <div
        ref={logRef}
        role="log"
        aria-live="polite"
        aria-label="Conversation"
        className={`${compact ? "max-h-96" : "max-h-[32rem]"} min-h-24 space-y-3 overflow-y-auto rounded-md border border-gray-200 bg-gray-50 p-3 dark:border-gray-800 dark:bg-gray-900/50`}
      >
        {turns.length === 0 && !error ? (
          <p className="text-gray-500 dark:text-gray-400">
            Send a message to chat with {info.modelId} on {providerLabel}.
          </p>
        ) : null}
        {turns.map((t, i) =>
          t.role === "user" ? (
            <div key={t.id} className="group ml-6 rounded-lg bg-indigo-600 px-3 py-2 text-white" data-turn="user">
              {t.images?.length ? (
                <div className="mb-1 flex flex-wrap gap-1" data-turn-images={t.images.length}>
                  {t.images.map((url, k) => (
                    <img key={k} src={url} alt={`Attached image ${k + 1}`} className="h-20 max-w-[10rem] rounded object-cover" />
                  ))}
                </div>
              ) : null}
              {t.content ? <p className="whitespace-pre-wrap break-words">{t.content}</p> : null}
              <button type="button" onClick={() => edit(i)} disabled={busy} className="mt-1 text-xs text-indigo-100 underline hover:text-white disabled:opacity-50">
                Edit and resend
              </button>
            </div>
          ) : (
            <div key={t.id} className="mr-6 rounded-lg bg-white px-3 py-2 ring-1 ring-gray-200 dark:bg-gray-950 dark:ring-gray-800" data-turn="assistant" data-status={t.status}>
              {t.content === "" && t.status === "streaming" ? <p className="animate-pulse text-gray-500 dark:text-gray-400">Waiting for the first token…</p> : <ChatMarkdown source={t.content} />}
              {t.status === "stopped" ? <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">Stopped.</p> : null}
              {t.status === "error" ? (
                <p className="mt-1 text-xs text-red-700 dark:text-red-300" data-cut-off="" title={t.error?.message}>
                  Cut off here.
                </p>
              ) : null}
              {t.final ? <Metrics final={t.final} /> : null}
            </div>
          ),
        )}
        {error ? <DemoErrorAlert error={error} kind="chat" /> : null}
      </div>

      <form onSubmit={send} className="space-y-2">
        <label htmlFor={`${ids}-input`} className="sr-only">
          Message
        </label>
        <textarea
          id={`${ids}-input`}
          ref={inputRef}
          name="message"
          rows={compact ? 2 : 3}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          placeholder={info.acceptsImages ? "Message (Enter to send; attach or paste images)" : "Message (Enter to send, Shift+Enter for a new line)"}
          className={`${fieldCls} resize-y`}
        />
        {info.acceptsImages ? (
          <div className="space-y-1" data-chat-attachments="">
            {images.length > 0 ? (
              <ul className="flex flex-wrap gap-2" aria-label="Attached images">
                {images.map((url, k) => (
                  <li key={k} className="relative">
                    <img src={url} alt={`Image ${k + 1} to send`} className="h-16 max-w-[8rem] rounded border border-gray-200 object-cover dark:border-gray-700" />
                    <button
                      type="button"
                      onClick={() => setImages((old) => old.filter((_, j) => j !== k))}
                      className="mt-0.5 block text-xs text-gray-700 underline dark:text-gray-300"
                    >
                      Remove image {k + 1}
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            {attachProblem ? (
              <p role="alert" data-chat-attach-problem="" className="text-xs text-red-800 dark:text-red-200">
                {attachProblem}
              </p>
            ) : null}
          </div>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          {busy ? (
            <button type="button" onClick={stop} className="rounded-md bg-gray-800 px-3 py-1.5 font-medium text-white hover:bg-gray-700 dark:bg-gray-200 dark:text-gray-900">
              Stop
            </button>
          ) : (
            <button type="submit" disabled={input.trim() === "" && images.length === 0} className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
              Send
            </button>
          )}
          {info.acceptsImages ? (
            <label className="cursor-pointer rounded-md border border-gray-300 px-3 py-1.5 hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-900">
              Attach image
              <input
                type="file"
                name="image"
                accept="image/png,image/jpeg,image/gif,image/webp"
                multiple
                disabled={busy}
                className="sr-only"
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  e.target.value = "";
                  void attach(files);
                }}
              />
            </label>
          ) : null}
          <button
            type="button"
            onClick={regenerate}
            disabled={busy || !last || last.role !== "assistant"}
            className="rounded-md border border-gray-300 px-3 py-1.5 hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:hover:bg-gray-900"
          >
            Regenerate
          </button>
          {turns.length > 0 && !busy ? (
            <button type="button" onClick={() => { setTurns([]); setError(null); }} className="px-2 py-1.5 text-gray-600 underline dark:text-gray-400">
              Clear
            </button>
          ) : null}
          <span className="ml-auto text-xs text-gray-500 dark:text-gray-400">
            <KeyNote hasToken={hasToken} keyState={keyState} />
          </span>
        </div>
      </form>
    </div>
  );
}

function RangeSetting({ label, name, spec, value, onChange }: { label: string; name: string; spec: ChatParameterSpec; value: number; onChange: (value: number) => void }) {
  return (
    <label className="block">
      <span className="mb-1 flex justify-between text-xs font-medium text-gray-600 dark:text-gray-400" title={spec.description}>
        <span>{label}</span>
        <output>{value.toFixed(2)}</output>
      </span>
      <input type="range" name={name} min={spec.min} max={spec.max} step={spec.step} value={value} onChange={(e) => onChange(Number(e.target.value))} className="w-full accent-indigo-600" />
    </label>
  );
}

function Metrics({ final }: { final: Final }) {
  const u = final.usage;
  const parts = [
    final.timing.timeToFirstTokenMs !== null ? `first token ${Math.round(final.timing.timeToFirstTokenMs)} ms` : null,
    final.timing.tokensPerSecond !== null ? `${final.timing.tokensPerSecond.toFixed(1)} tokens/s` : null,
    u.promptTokens !== null ? `${u.promptTokens} prompt` : null,
    u.completionTokens !== null ? `${u.completionTokens} completion tokens${u.source === "counted" ? " (counted)" : ""}` : null,
  ].filter((p): p is string => p !== null);
  return (
    <p className="mt-2 border-t border-gray-100 pt-1 text-xs text-gray-500 dark:border-gray-800 dark:text-gray-400" data-chat-metrics="">
      {parts.join(" · ")}
    </p>
  );
}
