import { type FormEvent, useEffect, useId, useState } from "react";
import type { Route } from "./+types/settings";
import { checkToken, clearVisitorToken, maskedToken, readVisitorToken, saveVisitorToken } from "#app/utils/visitor-token.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Settings · Modelyard" },
  { name: "description", content: "Keep your Hugging Face token in this browser to run live demos." },
];

/** The visitor's token lives in this browser's localStorage only; this page never sends it anywhere. */
export default function SettingsPage() {
  const id = useId();
  const [saved, setSaved] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [value, setValue] = useState("");
  const [message, setMessage] = useState<{ kind: "ok" | "error" | "info"; text: string } | null>(null);

  useEffect(() => {
    setSaved(readVisitorToken());
    setLoaded(true);
  }, []);

  function onSave(e: FormEvent) {
    e.preventDefault();
    const check = checkToken(value);
    if (!check.ok) {
      setMessage({ kind: "error", text: check.reason });
      return;
    }
    try {
      saveVisitorToken(value);
    } catch {
      setMessage({ kind: "error", text: "This browser refused to store the token (storage is disabled or full)." });
      return;
    }
    setSaved(value.trim());
    setValue("");
    setMessage({
      kind: "ok",
      text: check.isHf
        ? "Saved in this browser. Live demos will now run on your Hugging Face account."
        : "Saved in this browser. It does not start with hf_, so it only works with the provider that issued it.",
    });
  }

  function onClear() {
    clearVisitorToken();
    setSaved(null);
    setMessage({ kind: "info", text: "Removed. This browser no longer holds a token." });
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      <section aria-labelledby={`${id}-token`} className="mt-6 space-y-4">
        <h2 id={`${id}-token`} className="text-lg font-semibold">
          Your Hugging Face token
        </h2>
        <div className="space-y-2 text-sm text-gray-700 dark:text-gray-300">
          <p>Live demos call inference providers, which need a token. Add yours to run demos on your own account and quota.</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              The token is kept <strong>only in this browser</strong> (its local storage). Modelyard’s server does not store it and never writes it to a log.
            </li>
            <li>It is sent with each demo request you make, in the X-Provider-Token header, and used for that request only.</li>
            <li>
              Create a fine-grained token with the “Make calls to Inference Providers” permission at{" "}
              <a className="text-indigo-700 underline dark:text-indigo-300" href="https://huggingface.co/settings/tokens" target="_blank" rel="noopener noreferrer">
                huggingface.co/settings/tokens
              </a>
              . A provider’s own key also works, for that provider only.
            </li>
            <li>Anyone who can use this browser profile can read it. Clear it on shared computers.</li>
          </ul>
        </div>

        <div className="rounded-lg border border-gray-200 p-4 dark:border-gray-800" data-token-status={loaded ? (saved ? "saved" : "none") : "loading"}>
          <p className="text-sm">
            {!loaded ? "Checking this browser…" : saved ? (
              <>
                Saved token: <code className="font-mono">{maskedToken(saved)}</code>
              </>
            ) : (
              "No token saved in this browser."
            )}
          </p>
          <form onSubmit={onSave} className="mt-3 flex flex-wrap items-end gap-2">
            <label className="min-w-64 flex-1">
              <span className="mb-1 block text-xs font-medium text-gray-600 dark:text-gray-400">{saved ? "Replace with" : "Token"}</span>
              <input
                type="password"
                name="token"
                autoComplete="off"
                spellCheck={false}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                placeholder="hf_…"
                className="w-full rounded-md border border-gray-300 bg-white px-2 py-1.5 font-mono text-sm dark:border-gray-700 dark:bg-gray-900"
              />
            </label>
            <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">
              Save
            </button>
            <button
              type="button"
              onClick={onClear}
              disabled={!saved}
              className="rounded-md border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:hover:bg-gray-900"
            >
              Clear token
            </button>
          </form>
          {message ? (
            <p
              role={message.kind === "error" ? "alert" : "status"}
              className={`mt-3 text-sm ${message.kind === "error" ? "text-red-700 dark:text-red-300" : "text-green-800 dark:text-green-300"}`}
            >
              {message.text}
            </p>
          ) : null}
        </div>
      </section>
    </div>
  );
}
