/** The widget's current request as code for this site's API, following every change in the widget. */
import { useEffect, useState } from "react";
import { curlForRequest } from "#app/demos/shared/request-snippet.ts";
import type { WidgetRequest } from "#app/demos/shared/widget-frame.tsx";
import { CodeBlock } from "#app/ui/code-block.tsx";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function RequestCode({ modelId, request }: { modelId: string; request: WidgetRequest | null }) {
  const [origin, setOrigin] = useState<string | null>(null);
  useEffect(() => setOrigin(window.location.origin), []);
  // No provider: nothing can run it, so there is no request to show.
  if (origin === null || request === null || request.provider === "") return null;
  const text = curlForRequest(origin, modelId, request);
  return (
    <section aria-label="This request as code" data-widget-request-code="" className="space-y-2">
      <h2 className="text-lg font-semibold">This request, on this site’s API</h2>
      <p className="text-sm text-gray-700 dark:text-gray-300">The inputs and parameters set above, as the widget sends them. Put your token in place of hf_***.</p>
      {/* Focusable, as shiki's blocks are, so a keyboard can scroll a long line (axe scrollable-region-focusable). */}
      <CodeBlock html={`<pre tabindex="0"><code>${escapeHtml(text)}</code></pre>`} text={text} title="Shell" copyDescription="the request as curl" />
    </section>
  );
}
