import { providerLabel } from "#app/snippets/provider-label.ts";
import type { ReactNode } from "react";
import type { ModelPageData } from "#app/model-page/model-page.server.ts";
import { formatCompact, formatNumber } from "#app/utils/format.ts";

const RELATION_LABELS: Record<string, string> = {
  finetune: "Fine-tunes",
  quantized: "Quantizations",
  adapter: "Adapters",
  merge: "Merges",
  derived: "Derived models",
};
const BASE_LABELS: Record<string, string> = {
  finetune: "fine-tuned from",
  quantized: "quantized from",
  adapter: "adapter for",
  merge: "merged from",
  derived: "derived from",
};

const linkCls = "text-indigo-700 hover:underline dark:text-indigo-300";

function Box({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-gray-200 p-4 dark:border-gray-800">
      <h2 id={id} className="text-sm font-semibold">
        {title}
      </h2>
      <div className="mt-2 text-sm">{children}</div>
    </section>
  );
}

export function ModelTree({ tree, modelId, hub }: { tree: ModelPageData["tree"]; modelId: string; hub: string }) {
  if (tree.bases.length === 0 && tree.derived.length === 0) return null;
  return (
    <Box id="model-tree" title="Model tree">
      {tree.bases.length ? (
        <ul className="space-y-1" aria-label="Base models">
          {tree.bases.map((b) => (
            <li key={`${b.relation}:${b.id}`}>
              <span className="text-gray-600 dark:text-gray-400">{BASE_LABELS[b.relation] ?? "derived from"} </span>
              <a href={b.local ? `/${b.id}` : `${hub}/${b.id}`} className={`${linkCls} font-mono break-all`}>
                {b.id}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {tree.derived.length ? (
        <div className={tree.bases.length ? "mt-3" : undefined}>
          <p className="font-mono text-xs break-all text-gray-600 dark:text-gray-400">{modelId}</p>
          {tree.derived.map((g) => (
            <details key={g.relation} className="mt-1" data-relation={g.relation}>
              <summary className="cursor-pointer">
                {RELATION_LABELS[g.relation] ?? g.relation}: <span className="font-semibold">{formatNumber(g.count)}</span>
              </summary>
              <ul className="mt-1 space-y-0.5 pl-4">
                {g.models.map((m) => (
                  <li key={m.id} className="flex justify-between gap-2">
                    <a href={`/${m.id}`} className={`${linkCls} truncate font-mono text-xs`}>
                      {m.id}
                    </a>
                    <span className="shrink-0 text-xs text-gray-600 dark:text-gray-400">{formatCompact(m.downloads)}</span>
                  </li>
                ))}
              </ul>
              {g.count > g.models.length ? (
                <a href={`/models?filter=${encodeURIComponent(`base_model:${modelId}`)}`} className={`${linkCls} mt-1 inline-block pl-4 text-xs`}>
                  All {formatNumber(g.count)} {(RELATION_LABELS[g.relation] ?? g.relation).toLowerCase()} of {modelId}
                </a>
              ) : null}
            </details>
          ))}
          {/* The Hub counts its whole tree; these are the models this catalogue holds. */}
          <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">Counts cover this catalogue’s models only.</p>
        </div>
      ) : null}
    </Box>
  );
}

export function ModelSpaces({ spaces, hub }: { spaces: ModelPageData["spaces"]; hub: string }) {
  if (spaces.total === 0) return null;
  return (
    <Box id="model-spaces" title={`Spaces using this model in this catalogue (${formatNumber(spaces.total)})`}>
      <ul className="flex flex-wrap gap-1.5">
        {spaces.items.map((s) => (
          <li key={s.id}>
            <a href={`${hub}/spaces/${s.id}`} className="inline-block max-w-full truncate rounded-md bg-gray-100 px-2 py-0.5 font-mono text-xs hover:underline dark:bg-gray-800" title={s.title ?? s.id}>
              {s.id}
            </a>
          </li>
        ))}
      </ul>
      {spaces.total > spaces.items.length ? (
        <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">and {formatNumber(spaces.total - spaces.items.length)} more</p>
      ) : null}
    </Box>
  );
}

export function ModelProviders({ providers, modelId, usageCode }: { providers: ModelPageData["providers"]; modelId: string; usageCode: boolean }) {
  const named = providers.offered.filter((p) => p !== "auto");
  return (
    <Box id="model-providers" title="Inference providers">
      {named.length ? (
        <>
          <p>{named.map((p) => providerLabel(p, providers.staging.includes(p))).join(", ")}</p>
          <a href={`/${modelId}?tab=inference`} className={`${linkCls} mt-2 inline-block`}>
            Code to call {modelId} through a provider
          </a>
        </>
      ) : (
        <p className="text-gray-700 dark:text-gray-300" data-no-provider="">
          {providers.unsupported.length === 0
            ? "This catalogue lists no inference provider for this model."
            : `This catalogue lists no inference provider for this model that it can call: it is mapped to ${providers.unsupported.join(", ")}, ${
                providers.task === null
                  ? "but names no task, so there is no request to make."
                  : `which the @huggingface/inference client this site runs cannot call for ${providers.task}.`
              }`}
          {usageCode ? " Use the library or local-app code under “Use this model”." : null}
        </p>
      )}
    </Box>
  );
}

