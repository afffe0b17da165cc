import { useEffect, useRef } from "react";
import { CodeBlock } from "#app/ui/code-block.tsx";
import type { UseThisModelView } from "#app/model-page/model-page.server.ts";

const headingCls = "text-sm font-semibold text-gray-900 dark:text-gray-100";
const linkCls = "text-indigo-700 underline dark:text-indigo-300";

function LocalApp({ app }: { app: UseThisModelView["localApps"][number] }) {
  return (
    <details className="group rounded-md border border-gray-200 dark:border-gray-800" data-local-app={app.key}>
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium hover:bg-gray-50 dark:hover:bg-gray-900">{app.label}</summary>
      <div className="space-y-3 border-t border-gray-200 p-3 dark:border-gray-800">
        {app.error ? <p className="text-sm text-red-800 dark:text-red-300">This app's snippet failed for this model: {app.error}</p> : null}
        {app.deeplink ? (
          <p className="text-sm">
            <a href={app.deeplink} className={linkCls} rel="nofollow">
              Open {app.label} with this model
            </a>{" "}
            (needs {app.label} installed).
          </p>
        ) : null}
        {app.blocks.map((block, i) => (
          <div key={i} className="space-y-2">
            {block.setup ? <CodeBlock {...block.setup} title={`${block.title}: setup`} copyDescription={`${app.label} setup`} /> : null}
            {block.commands.map((c, j) => (
              <CodeBlock key={j} {...c} title={block.commands.length > 1 ? `${block.title} (${j + 1}/${block.commands.length})` : block.title} copyDescription={`${app.label}: ${block.title}`} />
            ))}
          </div>
        ))}
        <p className="text-xs">
          <a href={app.docsUrl} className={linkCls} rel="nofollow noopener">
            {app.label} documentation
          </a>
        </p>
      </div>
    </details>
  );
}

/**
 * "Use this model": a disclosure (<details>/<summary>) so it opens with Enter or Space, is
 * announced as expanded/collapsed, and works without JavaScript. With JavaScript, Escape and a
 * click outside close it and focus returns to the button.
 */
/** Whether "Use this model" holds any code: library snippets or a local app. */
export const hasUsageCode = (use: UseThisModelView): boolean => !!use.library?.snippets.length || use.localApps.length > 0;

export function UseThisModel({ use, modelId, search, providerCode }: { use: UseThisModelView; modelId: string; search: string; providerCode: boolean }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && details.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (details.open && e.target instanceof Node && !details.contains(e.target)) details.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);
  const hidden = new URLSearchParams(search);
  hidden.delete("gguf");
  const empty = !hasUsageCode(use);
  return (
    <details ref={ref} className="relative w-full sm:w-auto" open={use.ggufChosen} data-use-this-model="">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-lg bg-indigo-700 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-800 [&::-webkit-details-marker]:hidden">
        Use this model
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </summary>
      <div
        role="region"
        aria-label={`Code to use ${modelId}`}
        className="z-30 mt-2 max-h-[75vh] w-full space-y-4 overflow-y-auto rounded-lg border border-gray-200 bg-white p-4 shadow-xl sm:absolute sm:right-0 sm:w-[min(46rem,calc(100vw-2rem))] dark:border-gray-800 dark:bg-gray-950"
      >
        {empty ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">
            No usage code is known for this model
            {use.library !== null ? "" : use.libraryName === null ? ": the catalogue names no library for it" : `: its library, ${use.libraryName}, is not one @huggingface/tasks describes`}.
            {providerCode ? (
              <>
                {" "}
                <a href={`/${modelId}?tab=inference`} className={linkCls}>
                  Code to call it through an inference provider
                </a>{" "}
                is on the Inference providers tab.
              </>
            ) : null}
          </p>
        ) : null}
        {use.library ? (
          <section aria-labelledby="use-library" className="space-y-2">
            <h2 id="use-library" className={headingCls}>
              {use.library.label}
            </h2>
            {use.library.error ? <p className="text-sm text-red-800 dark:text-red-300">The library's snippet failed for this model: {use.library.error}</p> : null}
            {use.library.ggufFile ? (
              <p className="text-sm text-gray-700 dark:text-gray-300" data-library-gguf-file="">
                The catalogue knows only GGUF weights for this repo, so the code loads one file with <code className="font-mono text-[0.9em]">gguf_file</code> (transformers dequantises it, for the architectures it reads from GGUF):{" "}
                {use.library.ggufFile.placeholder ? (
                  <>
                    this catalogue lists none of those files, so put a .gguf file name from the repo&apos;s files on the Hub in place of <code className="font-mono text-[0.9em]">{use.library.ggufFile.name}</code>.
                  </>
                ) : (
                  <>
                    <code className="font-mono text-[0.9em] break-all">{use.library.ggufFile.name}</code>, the file the local-app commands below use.
                  </>
                )}
              </p>
            ) : null}
            {use.library.snippets.map((s, i) => (
              <CodeBlock key={i} {...s} title={use.library!.snippets.length > 1 ? `${use.library!.label} (${i + 1}/${use.library!.snippets.length})` : use.library!.label} copyDescription={`${use.library!.label} snippet ${i + 1}`} />
            ))}
            <p className="text-xs">
              <a href={use.library.docsUrl ?? use.library.repoUrl} className={linkCls} rel="nofollow noopener">
                {use.library.label} documentation
              </a>
            </p>
          </section>
        ) : null}
        {use.localApps.length ? (
          <section aria-labelledby="use-local-apps" className="space-y-2">
            <h2 id="use-local-apps" className={headingCls}>
              Local apps
            </h2>
            {use.ggufFilesUnknown ? (
              <p className="text-sm text-gray-700 dark:text-gray-300" data-gguf-files-unknown="">
                {use.ggufFilesUnknown === "no-file-list" ? "This catalogue holds no file list for this GGUF repo" : "This repo's file list in the catalogue names no .gguf file"}, so the commands keep the placeholders{" "}
                <code className="font-mono text-[0.9em]">{"{{QUANT_TAG}}"}</code> and <code className="font-mono text-[0.9em]">{"{{GGUF_FILE}}"}</code>: you must pick a quantisation yourself and put its tag (such as Q4_K_M) and file name, from the repo&apos;s files on the Hub, in their place.
              </p>
            ) : null}
            {use.ggufFiles.length > 0 ? (
              <form method="get" className="flex flex-wrap items-end gap-2 text-sm">
                {[...hidden].map(([k, v]) => (
                  <input key={k} type="hidden" name={k} value={v} />
                ))}
                <label className="flex max-w-full min-w-0 flex-col gap-1">
                  <span>Quantisation (GGUF file) for the commands</span>
                  {/* Known files always fill the commands (the Q4_K_M file until another is picked): no placeholder option. */}
                  <select name="gguf" defaultValue={use.selectedGguf ?? undefined} className="max-w-full rounded-md border border-gray-300 bg-white px-2 py-1 dark:border-gray-700 dark:bg-gray-900">
                    {use.ggufFiles.map((f) => (
                      <option key={f.name} value={f.name}>
                        {f.label}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="submit" className="rounded-md border border-gray-300 px-2 py-1 dark:border-gray-700">
                  Use file
                </button>
              </form>
            ) : null}
            {use.localApps.map((app) => (
              <LocalApp key={app.key} app={app} />
            ))}
          </section>
        ) : null}
      </div>
    </details>
  );
}
