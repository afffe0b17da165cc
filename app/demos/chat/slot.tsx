/**
 * The model page's live-demo slot (<section id="demo">): loads what the model's demo needs from
 * GET /api/inference?model=<id> after hydration and shows the compact chat demo for a chat model,
 * or the task's widget for a model something can run, or stays empty. Beside the inference
 * snippets (`beside`) it shows only a task widget, with its parameters, and reports each request
 * for the panel to follow; a chat model's panel keeps its own provider picker there.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import type { ChatDemoInfo } from "#app/demos/chat/demo-info.ts";
import type { TaskWidgetInfo } from "#app/demos/shared/widget-info.ts";

// Loaded on demand: the demo appears only after the fetch below, so its code need not be on the
// model page's critical path (it is most of the page's own JavaScript).
const ChatDemo = lazy(() => import("#app/demos/chat/chat-demo.tsx").then((m) => ({ default: m.ChatDemo })));
const TaskWidget = lazy(() => import("#app/demos/task-widget.tsx").then((m) => ({ default: m.TaskWidget })));

type DemoAnswer = { demo?: ChatDemoInfo | null; widget?: TaskWidgetInfo | null };

/** What the slot's demo would send: its provider and, for a task widget, its inputs and parameters. */
export type SlotRequest = { provider: string; inputs?: unknown; parameters?: Record<string, unknown> };

export function ModelChatDemo({ modelId, beside = false, onRequestChange }: { modelId: string; beside?: boolean; onRequestChange?: (request: SlotRequest) => void }) {
  const [found, setFound] = useState<{ demo: ChatDemoInfo | null; widget: TaskWidgetInfo | null } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch(`/api/inference?model=${encodeURIComponent(modelId)}`, { signal: controller.signal })
      .then((r): Promise<DemoAnswer> | DemoAnswer => (r.ok ? (r.json() as Promise<DemoAnswer>) : {}))
      .then((body) => setFound({ demo: body.demo ?? null, widget: body.widget ?? null }))
      .catch(() => {});
    return () => controller.abort();
  }, [modelId]);
  const demo = beside ? null : (found?.demo ?? null);
  // On the model page a widget shows only where something can run the model; the playground
  // shows the task's example otherwise.
  const widget = found?.widget && found.widget.providers.length > 0 ? found.widget : null;
  return (
    <section id="demo" aria-label="Live demo" data-demo-slot="">
      {demo || widget ? (
        <div className="rounded-lg border border-gray-200 p-3 dark:border-gray-800">
          <div className="mb-2 flex items-baseline justify-between gap-2">
            <h2 className="text-sm font-semibold">Try it: {demo ? "chat" : widget?.taskName}</h2>
            <a href={`/playground/${modelId}`} className="text-xs text-indigo-700 underline dark:text-indigo-300">
              Open playground
            </a>
          </div>
          <Suspense fallback={<p className="text-xs text-gray-700 dark:text-gray-300">Loading the demo…</p>}>
            {demo ? <ChatDemo info={demo} compact /> : widget ? <TaskWidget info={widget} compact={!beside} {...(onRequestChange ? { onRequestChange } : {})} /> : null}
          </Suspense>
        </div>
      ) : null}
    </section>
  );
}
