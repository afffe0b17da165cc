import { CodeBlock } from "#app/ui/code-block.tsx";
import type { FilesView } from "#app/model-page/files.server.ts";
import { formatBytes, formatNumber } from "#app/utils/format.ts";

const linkCls = "text-indigo-700 hover:underline dark:text-indigo-300";

function viewHref(modelId: string, path: string) {
  return `/${modelId}?tab=files&file=${encodeURIComponent(path)}#file-viewer`;
}

export function ModelFiles({ files, modelId }: { files: FilesView; modelId: string }) {
  const { viewer } = files;
  // List-API rows carry file names without sizes: an unknown size is left out, never shown as a dash.
  const sized = files.files.some((f) => f.size !== null);
  return (
    <div className="space-y-6">
      {viewer ? (
        <section id="file-viewer" aria-labelledby="file-viewer-title" className="scroll-mt-4">
          <h2 id="file-viewer-title" className="font-mono text-base font-semibold break-all">
            {viewer.path}
          </h2>
          {viewer.status === "shown" ? (
            <>
              <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
                {viewer.note}
                {viewer.url ? (
                  <>
                    {" "}
                    <a href={viewer.url} className={linkCls}>
                      Open the whole file on the Hub
                    </a>
                    .
                  </>
                ) : null}
              </p>
              {viewer.truncated ? <p className="text-sm text-amber-800 dark:text-amber-200">Only the beginning is shown.</p> : null}
              <div className="mt-2">
                <CodeBlock html={viewer.html} text={viewer.text} title={viewer.path} copyDescription={`contents of ${viewer.path}`} />
              </div>
            </>
          ) : viewer.status === "not-in-repo" ? (
            <p className="mt-1 text-sm text-gray-700 dark:text-gray-300" data-not-in-repo="">
              There is no file named <code className="font-mono break-all">{viewer.path}</code> in this repository&apos;s file list, as this catalogue holds it. Its files are listed below.
            </p>
          ) : (
            <p className="mt-1 text-sm text-gray-700 dark:text-gray-300" data-not-stored="">
              The catalogue does not store the contents of this file.{" "}
              <a href={viewer.url} className={linkCls}>
                Open {viewer.path} on the Hub
              </a>
              .
            </p>
          )}
        </section>
      ) : null}
      {files.viewable.length ? (
        <section aria-labelledby="stored-files">
          <h2 id="stored-files" className="text-base font-semibold">
            Metadata files in the catalogue
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {files.viewable.map((f) => (
              <li key={f.path}>
                <a href={viewHref(modelId, f.path)} className={`${linkCls} font-mono`} aria-current={viewer?.path === f.path ? "page" : undefined}>
                  {f.path}
                </a>{" "}
                <span className="text-gray-600 dark:text-gray-400">— {f.note}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="file-list">
        <h2 id="file-list" className="text-base font-semibold">
          Files
          {/* No list is not an empty repository: a count there would say "0 files". */}
          {files.files.length > 0 ? (
            <>
              {" "}
              <span className="font-normal text-gray-600 dark:text-gray-400">
                ({formatNumber(files.totalFiles)}
                {files.totalBytes !== null ? `, ${formatBytes(files.totalBytes)}` : ""})
              </span>
            </>
          ) : null}
        </h2>
        {files.files.length > 0 && !sized ? (
          <p className="mt-1 text-sm text-gray-700 dark:text-gray-300" data-no-sizes="">
            The catalogue has the file names but not their sizes.
          </p>
        ) : null}
        {files.files.length ? (
          <table className="mt-2 w-full table-fixed border-collapse text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">File</th>
                {sized ? <th scope="col">Size</th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
              {files.files.map((f) => (
                <tr key={f.path}>
                  {/* Whole names, wrapped where they must: truncated, a GGUF repo's files all read as the same prefix. */}
                  <td className="py-1.5 pr-3 font-mono break-words">
                    <a href={f.viewable ? viewHref(modelId, f.path) : files.blobBase + encodeURI(f.path)} className={linkCls} title={f.path}>
                      {f.path}
                    </a>
                  </td>
                  {sized ? <td className="w-24 py-1.5 text-right text-gray-600 tabular-nums dark:text-gray-400">{formatBytes(f.size)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">The catalogue has no file list for this model.</p>
        )}
        {files.totalFiles > files.files.length ? (
          <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">Only the first {formatNumber(files.files.length)} files are listed.</p>
        ) : null}
      </section>
    </div>
  );
}
