/** Page sections, chosen with ?tab= so every view is a plain link that works without JavaScript. */
export const MODEL_TABS = ["card", "files", "inference", "chat-template"] as const;
export type ModelTab = (typeof MODEL_TABS)[number];

/**
 * Section links for the tabs above. To add a view (e.g. "Chat template"), add its id to MODEL_TABS,
 * a label here, and its data to loadModelPage (app/model-page/model-page.server.ts).
 */
const LABELS: Record<ModelTab, string> = {
  card: "Model card",
  files: "Files",
  inference: "Inference providers",
  "chat-template": "Chat template",
};

export function ModelTabs({ modelId, current, tabs }: { modelId: string; current: ModelTab; tabs: readonly ModelTab[] }) {
  return (
    // The row wraps rather than scrolls: a phone showed the active "Chat template" tab as "Ch", cut
    // at the edge of a row that gave no sign it scrolled.
    <nav aria-label="Model page sections" className="mt-4 border-b border-gray-200 dark:border-gray-800">
      <ul className="flex flex-wrap gap-x-1">
        {tabs.map((t) => (
          <li key={t}>
            <a
              href={t === "card" ? `/${modelId}` : `/${modelId}?tab=${t}`}
              aria-current={t === current ? "page" : undefined}
              className={`-mb-px inline-block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap ${t === current ? "border-indigo-600 text-gray-900 dark:text-white" : "border-transparent text-gray-700 hover:border-gray-300 hover:text-gray-900 dark:text-gray-300 dark:hover:text-white"}`}
            >
              {LABELS[t]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
