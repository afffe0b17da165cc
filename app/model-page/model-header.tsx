import type { ReactNode } from "react";
import { hasKnownCounts } from "#app/catalog/model-record.ts";
import { CopyButton } from "#app/ui/copy-button.tsx";
import type { ModelHeaderView } from "#app/model-page/model-page.server.ts";
import { formatDate, formatNumber, formatParams } from "#app/utils/format.ts";

/** Tags that repeat what the header already says, or carry no meaning for a visitor. */
function displayTags(model: ModelHeaderView): string[] {
  const hidden = new Set([model.pipelineTag, model.libraryName, `license:${model.license}`].filter((t): t is string => !!t));
  return model.tags.filter((t) => !hidden.has(t) && !t.startsWith("region:"));
}

const chip = "inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset";
const neutral = `${chip} bg-gray-50 text-gray-800 ring-gray-200 hover:bg-gray-100 dark:bg-gray-900 dark:text-gray-200 dark:ring-gray-700 dark:hover:bg-gray-800`;

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="inline text-gray-600 dark:text-gray-400">{label} </dt>
      <dd className="inline font-medium">{children}</dd>
    </div>
  );
}

export function ModelHeader({ model, actions }: { model: ModelHeaderView; actions?: ReactNode }) {
  const params = formatParams(model.params);
  const tags = displayTags(model);
  const shown = tags.slice(0, 12);
  const more = tags.slice(12);
  const tagLink = (t: string) => (
    <li key={t}>
      <a href={`/models?filter=${encodeURIComponent(t)}`} className={neutral}>
        {t}
      </a>
    </li>
  );
  return (
    <header className="border-b border-gray-200 pb-4 dark:border-gray-800">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-2 font-mono text-xl font-bold [overflow-wrap:anywhere] sm:text-2xl">
            <span>
              <a href={`/${model.author}`} className="font-normal text-gray-600 hover:underline dark:text-gray-400" data-org-link="">
                {model.id.includes("/") ? `${model.author}/` : ""}
              </a>
              {model.id.includes("/") ? model.id.slice(model.author.length + 1) : model.id}
            </span>
            <CopyButton text={model.id} label="Copy id" description={`model id ${model.id}`} className="font-sans" />
          </h1>
          <ul className="mt-3 flex flex-wrap items-center gap-2" aria-label="Model facts">
            {model.pipelineTag && model.taskClasses ? (
              <li>
                {/* TaskChip's markup, with name and colours from the loader: importing TaskChip would ship @huggingface/tasks' task table (~54 KB gzip) to the browser. */}
                <a
                  href={`/models?pipeline_tag=${encodeURIComponent(model.pipelineTag)}`}
                  title={model.taskFromMapping ? "The task its inference-provider mappings name: the model's own record names none" : undefined}
                  className={`inline-flex items-center gap-1.5 rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset hover:underline ${model.taskClasses.chip}`}>
                  <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${model.taskClasses.dot}`} />
                  {model.taskName}
                </a>
              </li>
            ) : null}
            {model.libraryName ? (
              <li>
                <a href={`/models?library=${encodeURIComponent(model.libraryName)}`} className={neutral}>
                  Library: {model.libraryName}
                </a>
              </li>
            ) : null}
            {model.license && model.namedLicense ? (
              // "other" says nothing on its own: the card's name for the licence, linked to its text when the card links one.
              <li data-license-name="">
                <span className={`${chip} bg-gray-50 text-gray-800 ring-gray-200 dark:bg-gray-900 dark:text-gray-200 dark:ring-gray-700`}>
                  License:&nbsp;
                  <a href={`/models?license=${encodeURIComponent(model.license)}`} className="hover:underline">
                    {model.license}
                  </a>
                  &nbsp;(
                  {model.namedLicense.href ? (
                    <a href={model.namedLicense.href} className="underline hover:no-underline" rel="nofollow noopener">
                      {model.namedLicense.name}
                    </a>
                  ) : (
                    model.namedLicense.name
                  )}
                  )
                </span>
              </li>
            ) : model.license ? (
              <li>
                <a href={`/models?license=${encodeURIComponent(model.license)}`} className={neutral}>
                  License: {model.license}
                </a>
              </li>
            ) : null}
            {model.gated ? (
              <li>
                <span className={`${chip} bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-700`} title="The authors ask visitors to accept conditions before downloading">
                  Gated{model.gated === "manual" ? " (manual approval)" : ""}
                </span>
              </li>
            ) : null}
          </ul>
        </div>
        {/* One group, so the actions stay together at the right instead of spreading across the row. */}
        {actions ? <div className="flex w-full flex-wrap items-start gap-2 sm:w-auto">{actions}</div> : null}
      </div>
      <dl className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-gray-800 dark:text-gray-200">
        {hasKnownCounts(model) ? (
          <>
            <Stat label="Likes">{formatNumber(model.likes)}</Stat>
            <Stat label={model.statsAsOf ? "Downloads (30 days)" : "Downloads (last 30 days)"}>{formatNumber(model.downloads)}</Stat>
          </>
        ) : (
          <Stat label="Downloads and likes">not in this catalogue</Stat>
        )}
        {/* Counts from a snapshot are that day's, not today's: say so once, beside them. */}
        {model.statsAsOf ? <Stat label="Counts as of">{model.statsAsOf} snapshot</Stat> : null}
        {params ? <Stat label="Parameters">{params}</Stat> : null}
        {model.createdAt ? <Stat label="Created">{formatDate(model.createdAt)}</Stat> : null}
        {model.lastModified ? <Stat label="Updated">{formatDate(model.lastModified)}</Stat> : null}
      </dl>
      {tags.length ? (
        <div className="mt-3 text-xs">
          <h2 className="sr-only">Tags</h2>
          <ul className="flex flex-wrap gap-1.5">{shown.map(tagLink)}</ul>
          {more.length ? (
            <details className="mt-1.5">
              <summary className="cursor-pointer text-gray-700 dark:text-gray-300">{more.length} more tags</summary>
              <ul className="mt-1.5 flex flex-wrap gap-1.5">{more.map(tagLink)}</ul>
            </details>
          ) : null}
        </div>
      ) : null}
    </header>
  );
}
