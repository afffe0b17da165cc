import { MarkdownContent } from "#app/markdown/markdown-content.tsx";
import { TableOfContents } from "#app/ui/table-of-contents.tsx";
import type { ModelPageData, SummaryLine } from "#app/model-page/model-page.server.ts";

const lineText = (line: SummaryLine) => line.map((p) => (typeof p === "string" ? p : p.text)).join("");

function MetadataSummary({ summary }: { summary: SummaryLine[] }) {
  return (
    <>
      <p className="mt-3 text-sm text-gray-700 dark:text-gray-300">What the catalogue’s metadata says:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {summary.map((line) => (
          <li key={lineText(line)}>
            {line.map((part, i) =>
              typeof part === "string" ? (
                part
              ) : (
                <a key={i} href={part.href} className="text-indigo-700 underline hover:no-underline dark:text-indigo-300" rel="nofollow noopener">
                  {part.text}
                </a>
              ),
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The rendered README (front matter removed), with a table of contents for long cards. */
export function ModelCard({ card, empty, summary, modelId, hubUrl }: { card: ModelPageData["card"]; empty: boolean; summary: SummaryLine[]; modelId: string; hubUrl: string }) {
  if (!card && empty) {
    return (
      <section aria-labelledby="card-empty" className="self-start rounded-lg border border-dashed border-gray-300 p-6 [overflow-wrap:anywhere] dark:border-gray-700" data-card-empty="" data-card-known-empty="">
        <h2 id="card-empty" className="text-lg font-semibold">
          No model card
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          {`The repository of ${modelId} has no README, or an empty one, as imported into this catalogue. `}
          <a href={hubUrl} className="text-indigo-700 underline hover:no-underline dark:text-indigo-300" data-hub-link="">
            {modelId} on the Hub
          </a>
          .
        </p>
        <MetadataSummary summary={summary} />
      </section>
    );
  }
  if (!card) {
    // The bundled catalogue leaves card prose out, so a missing card says nothing about the authors.
    const fileName = `${modelId.replace("/", "__")}.md`;
    return (
      <section aria-labelledby="card-empty" className="self-start rounded-lg border border-dashed border-gray-300 p-6 [overflow-wrap:anywhere] dark:border-gray-700" data-card-empty="">
        <h2 id="card-empty" className="text-lg font-semibold">
          No model card in this catalogue
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          {`This catalogue has no model card for ${modelId}. The Hub may have one: `}
          <a href={hubUrl} className="text-indigo-700 underline hover:no-underline dark:text-indigo-300" data-hub-link="">
            {modelId} on the Hub
          </a>
          .
        </p>
        <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
          To add it, save the card as <code className="font-mono text-xs">{fileName}</code> in a folder and run{" "}
          <code className="font-mono text-xs">modelyard import &lt;folder&gt;</code>, or run the server with{" "}
          <code className="font-mono text-xs">MODELYARD_LIVE=1</code> to fetch missing details from the Hub when a page is opened.
        </p>
        <MetadataSummary summary={summary} />
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
