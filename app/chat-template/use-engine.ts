import { useEffect, useState } from "react";
import type { renderChatTemplate } from "#app/chat-template/render.ts";

export type RenderChatTemplate = typeof renderChatTemplate;

/**
 * Loads the chat-template engine (and @huggingface/jinja with it) in the browser, only when a
 * preview is on screen: the dynamic import puts both in their own chunk, outside the page's
 * main bundle. Null until loaded (and during server rendering).
 */
export function useChatTemplateEngine(): { render: RenderChatTemplate | null; failed: string | null } {
  const [render, setRender] = useState<RenderChatTemplate | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import("#app/chat-template/render.ts")
      .then((mod) => {
        if (live) setRender(() => mod.renderChatTemplate);
      })
      .catch((error: unknown) => {
        if (live) setFailed(error instanceof Error ? error.message : String(error));
      });
    return () => {
      live = false;
    };
  }, []);
  return { render, failed };
}
