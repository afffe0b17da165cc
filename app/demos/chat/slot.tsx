/**
 * The model page's live-demo slot (<section id="demo">): loads the chat demo's settings for the
 * model from GET /api/inference?model=<id> after hydration and shows the compact chat demo, or
 * stays empty when the model has no chat demo.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import type { ChatDemoInfo } from "#app/demos/chat/demo-info.ts";

// Loaded on demand: the demo appears only after the fetch below, so its code need not be on the
// model page's critical path (it is most of the page's own JavaScript).
const ChatDemo = lazy(() => import("#app/demos/chat/chat-demo.tsx").then((m) => ({ default: m.ChatDemo })));

export function ModelChatDemo({ modelId }: { modelId: string }) {
  const [demo, setDemo] = useState<ChatDemoInfo | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch(`/api/inference?model=${encodeURIComponent(modelId)}`, { signal: controller.signal })
      .then((r) => (r.ok ? (r.json() as Promise<{ demo: ChatDemoInfo | null }>) : { demo: null }))
      .then((body) => setDemo(body.demo))
      .catch(() => {});
    return () => controller.abort();
  }, [modelId]);
  return (
    <section id="demo" aria-label="Live demo" data-demo-slot="">
      {demo ? (
        <div className="rounded-lg border border-gray-200 p-3 dark:border-gray-800">
          <div className="mb-2 flex items-baseline justify-between gap-2">
            <h2 className="text-sm font-semibold">Try it: chat</h2>
            <a href={`/playground/${modelId}`} className="text-xs text-indigo-700 underline dark:text-indigo-300">
              Open playground
            </a>
          </div>
          <Suspense fallback={<p className="text-xs text-gray-700 dark:text-gray-300">Loading the demo…</p>}>
            <ChatDemo info={demo} compact />
          </Suspense>
        </div>
      ) : null}
    </section>
  );
}
