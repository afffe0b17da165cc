/**
 * The model page's live-demo slot (<section id="demo">): loads the chat demo's settings for the
 * model from GET /api/inference?model=<id> after hydration and shows the compact chat demo, or
 * stays empty when the model has no chat demo.
 */
import { useEffect, useState } from "react";
import { ChatDemo } from "#app/components/chat-demo.tsx";
import type { ChatDemoInfo } from "#app/inference/chat-demo-info.ts";

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
          <ChatDemo info={demo} compact />
        </div>
      ) : null}
    </section>
  );
}
