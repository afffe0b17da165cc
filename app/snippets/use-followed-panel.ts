/**
 * The one way a snippets panel follows a live demo on the same page (the playground's and the
 * model page's): when the demo's provider, text or parameters change, the panel is fetched again
 * from GET /api/snippets with them, so the code shown is the request the demo would send.
 */
import { useEffect, useState } from "react";
import type { InferencePanel } from "#app/snippets/inference-panel.server.ts";

/** What a demo reports: its provider and, for a task widget, its inputs and parameters (a widget's request fits). */
export interface DemoRequest {
  provider: string;
  inputs?: unknown;
  parameters?: Record<string, unknown>;
}

/** The /api/snippets query for the panel following `request`, or null when there is nothing to fetch. */
export function followedPanelQuery(panel: InferencePanel, request: DemoRequest | null, stream: boolean): string | null {
  // A configured endpoint is not a provider the library writes code for; the panel stays as it is.
  if (request === null || request.provider === "" || request.provider.startsWith("endpoint:")) return null;
  const text = typeof request.inputs === "string" && request.inputs.length > 0 && request.inputs.length <= 4_000 ? request.inputs : null;
  // Chat settings are not task parameters: the chat demo's panel follows its provider only.
  const parameters = !panel.conversational && request.parameters && Object.keys(request.parameters).length > 0 ? request.parameters : null;
  if (request.provider === panel.state.provider && text === null && parameters === null) return null;
  const query = new URLSearchParams({ model: panel.modelId, provider: request.provider });
  if (stream) query.set("stream", "1");
  if (panel.state.billTo) query.set("bill_to", panel.state.billTo);
  if (text !== null) query.set("inputs", text);
  if (parameters !== null) query.set("parameters", JSON.stringify(parameters));
  return query.toString();
}

/**
 * The panel for the demo's current request, starting from the server's `initial` one. Text and
 * parameters are fetched after a pause in typing; an answer that is not a panel (a 400 for a
 * half-typed value) keeps the panel as it was.
 */
export function useFollowedPanel(initial: InferencePanel | null, request: DemoRequest | null, stream: boolean): InferencePanel | null {
  const [panel, setPanel] = useState(initial);
  const query = initial ? followedPanelQuery(initial, request, stream) : null;
  const typing = request !== null && (typeof request.inputs === "string" || Object.keys(request.parameters ?? {}).length > 0);
  // Back to what the first panel was written for (the text cleared, the parameters unset): show it again.
  const back = initial !== null && query === null && request !== null && request.provider === initial.state.provider;
  useEffect(() => {
    if (back) setPanel(initial);
  }, [back, initial]);
  useEffect(() => {
    if (query === null) return;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        fetch(`/api/snippets?${query}`, { signal: controller.signal })
          .then((r) => (r.ok ? (r.json() as Promise<InferencePanel>) : null))
          .then((p) => {
            if (p && "languages" in p) setPanel(p);
          })
          .catch(() => {});
      },
      typing ? 300 : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, typing]);
  return panel;
}
