import { MarkdownContent } from "#app/components/markdown-content.tsx";
import { TableOfContents } from "#app/components/table-of-contents.tsx";
import type { ModelPageData } from "#app/routes/model-page.server.ts";

/** The rendered README (front matter removed), with a table of contents for long cards. */
export function ModelCard({ card, summary, modelId }: { card: ModelPageData["card"]; summary: string[]; modelId: string }) {
  if (!card) {
    return (
      <section aria-labelledby="card-empty" className="rounded-lg border border-dashed border-gray-300 p-6 dark:border-gray-700" data-card-empty="">
        <h2 id="card-empty" className="text-lg font-semibold">
          No model card
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">The authors of {modelId} have not written a README. This is what its metadata says:</p>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm">
          {summary.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </section>
    );
  }
  return (
    <article aria-label="Model card" className="min-w-0">
      {card.error ? (
        <p role="note" className="mb-3 rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          This card could not be formatted, so its source is shown as text.
        </p>
      ) : null}
      <MarkdownContent html={card.html} hasMath={card.hasMath} id="model-card" />
    </article>
  );
}

/** The card's table of contents for the sidebar, when the card is long enough to need one. */
export function ModelCardToc({ card }: { card: ModelPageData["card"] }) {
  if (!card?.showToc) return null;
  return (
    <div className="rounded-lg border border-gray-200 p-4 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto dark:border-gray-800">
      <TableOfContents headings={card.headings} className="text-sm" />
    </div>
  );
}
