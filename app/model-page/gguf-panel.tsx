import type { GgufPanelView } from "#app/model-page/gguf.server.ts";

const linkCls = "text-indigo-700 hover:underline dark:text-indigo-300";

/** What the repo's GGUF header holds and its quantised files, as the Hub's GGUF panel shows them. */
export function GgufPanel({ gguf }: { gguf: GgufPanelView | null }) {
  if (!gguf) return null;
  const facts: Array<[string, string]> = [];
  if (gguf.architecture) facts.push(["Architecture", gguf.architecture]);
  if (gguf.contextLength) facts.push(["Context length", `${gguf.contextLength} tokens`]);
  if (gguf.params) facts.push(["Parameters", gguf.params]);
  return (
    <section aria-labelledby="gguf-panel" className="rounded-lg border border-gray-200 p-4 dark:border-gray-800" data-gguf-panel="">
      <h2 id="gguf-panel" className="text-sm font-semibold">
        GGUF
      </h2>
      {facts.length ? (
        <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          {facts.map(([k, v]) => (
            <div key={k} className="contents" data-gguf-fact={k}>
              <dt className="text-gray-600 dark:text-gray-400">{k}</dt>
              <dd className="font-mono break-words">{v}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
          {gguf.headerImported ? "The imported GGUF header names no architecture, context length or parameter count." : "No GGUF header was imported for this repo, so its architecture and context length are not known here."}
        </p>
      )}
      {gguf.chatTemplate ? (
        <p className="mt-2 text-sm">
          <a href={gguf.chatTemplate.href} className={linkCls}>
            {gguf.chatTemplate.label}
          </a>
        </p>
      ) : null}
      {gguf.files.length ? (
        <div className="mt-3">
          <h3 className="text-xs font-semibold text-gray-600 uppercase dark:text-gray-400">Files by quantisation</h3>
          <ul className="mt-1 space-y-1 text-sm" aria-label="GGUF files">
            {gguf.files.map((f) => (
              <li key={f.name} className="flex items-baseline justify-between gap-2" data-gguf-file={f.name}>
                <a href={f.href} className={`${linkCls} block min-w-0 flex-1`} title={`Use ${f.name} in the local-app commands`}>
                  <span className="font-mono font-semibold">{f.quant ?? "unknown quantisation"}</span>
                  {f.parts > 1 ? <span className="ml-1.5 text-xs text-gray-600 dark:text-gray-400">in {f.parts} parts</span> : null}
                  <span className="block truncate font-mono text-xs text-gray-600 dark:text-gray-400">{f.name}</span>
                </a>
                {f.size ? <span className="shrink-0 text-xs text-gray-700 tabular-nums dark:text-gray-300">{f.size}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
