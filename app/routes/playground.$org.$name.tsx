import { useCallback, useMemo, useState } from "react";
import type { Route } from "./+types/playground.$org.$name";
import { type ChatConversation, ChatDemo, type ChatSettings } from "#app/demos/chat/chat-demo.tsx";
import { TaskWidget } from "#app/demos/task-widget.tsx";
import type { WidgetRequest } from "#app/demos/shared/widget-frame.tsx";
import { RequestCode } from "#app/demos/shared/request-code.tsx";
import type { TaskWidgetInfo } from "#app/demos/shared/widget-info.ts";
import { taskWidgetInfo } from "#app/demos/task-widget-info.server.ts";
import { ErrorPanel, GeneralErrorBoundary, notFound } from "#app/ui/general-error-boundary.tsx";
import { InferenceSnippets } from "#app/snippets/snippets-panel.tsx";
import { useFollowedPanel } from "#app/snippets/use-followed-panel.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { isChatModel, taskOf } from "#app/catalog/chat-model.ts";
import { chatDemoInfo } from "#app/demos/chat/demo-info.server.ts";
import { buildInferencePanel, type InferencePanel, parseInferenceState, snippetOrigin } from "#app/snippets/inference-panel.server.ts";
import { supportedProvidersFor } from "#app/snippets/providers.ts";
import { WIDGET_TASKS } from "#app/tasks/task-records.ts";
import { compareWithHref } from "#app/compare/compare-setup.ts";
import { compareTaskFor } from "#app/compare/compare-tasks.ts";
import { PlaygroundSessionBar } from "#app/compare/playground-session.tsx";
import type { Session } from "#app/compare/session-schema.ts";
import { modelyardVersion } from "#app/compare/version.server.ts";

export const meta: Route.MetaFunction = ({ data: d }) =>
  d ? [{ title: `Playground · ${d.modelId} · Modelyard` }, { name: "robots", content: "noindex" }] : [{ title: "Playground · Modelyard" }];

export async function loader({ params, url }: Route.LoaderArgs) {
  const id = `${params.org}/${params.name}`;
  const model = await getModelById(getDb().db, id);
  if (!model) throw notFound(`There is no model “${id}” in this catalogue.`);
  const demo = chatDemoInfo(model, process.env);
  const widget = demo ? null : taskWidgetInfo(model, process.env);
  const reason = demo || widget
    ? null
    : isChatModel(model)
      ? "This catalogue lists no inference provider for this model, and no endpoint is configured for it, so there is nothing to chat with here."
      : `The playground runs chat models and these tasks: ${WIDGET_TASK_LIST}. ${taskOf(model) ? `This model's task is ${taskOf(model)}.` : "This model names no task."}`;
  let snippets: InferencePanel | null = null;
  const live = demo ?? (widget && widget.providers.length > 0 ? widget : null);
  if (live && supportedProvidersFor(model).length > 0) {
    const q = new URLSearchParams(url.searchParams);
    const first = live.providers.find((p) => p.kind === "provider")?.value;
    if (!q.has("provider") && first) q.set("provider", first);
    if (demo && !q.has("stream")) q.set("stream", "1");
    snippets = buildInferencePanel(model, parseInferenceState(q, model), {}, snippetOrigin(url.href));
  }
  const liveRoute = (demo ?? widget)?.providers[0]?.value ?? null;
  return { modelId: model.id, demo, widget, reason, snippets, compare: compareWithHref(model.id, compareTaskFor(model), liveRoute), version: modelyardVersion() };
}

const WIDGET_TASK_LIST = WIDGET_TASKS.join(", ");

export default function Playground({ loaderData }: Route.ComponentProps) {
  const { modelId, demo, widget, reason, snippets, compare, version } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-6">
      <p className="text-sm text-gray-600 dark:text-gray-400">
        <a href={`/${modelId}`} className="underline">
          {modelId}
        </a>{" "}
        · Playground
        {compare ? (
          <>
            {" · "}
            <a href={compare} data-compare-with="" className="underline">
              Compare with…
            </a>
          </>
        ) : null}
      </p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight">{demo ? `Chat with ${modelId}` : widget ? `${widget.taskName} with ${modelId}` : `Playground: ${modelId}`}</h1>
      <div className="mt-6">
        {demo ? (
          <PlaygroundBody demo={demo} snippets={snippets} version={version} />
        ) : widget ? (
          <WidgetPlayground widget={widget} snippets={snippets} />
        ) : (
          <p className="rounded-lg border border-gray-200 p-4 text-sm dark:border-gray-800" data-no-demo="">
            {reason}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * A task widget, its request as code (inputs and parameters included), and the library's snippets
 * panel following its provider, its parameters and, where the input is one text, that text.
 */
function WidgetPlayground({ widget, snippets }: { widget: TaskWidgetInfo; snippets: InferencePanel | null }) {
  const [request, setRequest] = useState<WidgetRequest | null>(null);
  const onRequestChange = useCallback((r: WidgetRequest) => setRequest(r), []);
  const panel = useFollowedPanel(snippets, request, false);
  return (
    <div className="space-y-10">
      <TaskWidget info={widget} onRequestChange={onRequestChange} />
      <RequestCode modelId={widget.modelId} request={request} />
      {panel ? <InferenceSnippets key={panel.state.provider} initial={panel} /> : null}
    </div>
  );
}

/** The demo, and the snippets panel following the demo's provider and streaming setting. */
export function PlaygroundBody({ demo, snippets, version }: { demo: NonNullable<Route.ComponentProps["loaderData"]["demo"]>; snippets: InferencePanel | null; version: string }) {
  const [provider, setProvider] = useState<string | null>(null);
  const [conversation, setConversation] = useState<ChatConversation | null>(null);
  const [opened, setOpened] = useState<Session | null>(null);
  const onSettingsChange = useCallback((s: ChatSettings) => setProvider(s.provider), []);
  const followed = useMemo(() => (provider === null ? null : { provider }), [provider]);
  const panel = useFollowedPanel(snippets, followed, true);
  const js = panel?.languages.find((l) => l.language === "js")?.clients[0];
  return (
    <div className="space-y-10">
      <PlaygroundSessionBar
        modelId={demo.modelId}
        conversation={conversation}
        modelyardVersion={version}
        snippet={js && panel?.state.provider === conversation?.provider ? { language: "js", client: js.client, code: js.text } : null}
        opened={opened}
        onOpen={setOpened}
      />
      <div hidden={opened !== null}>
        <ChatDemo info={demo} onSettingsChange={onSettingsChange} onConversationChange={setConversation} />
      </div>
      {/* Keyed by provider: the panel's own form fields are uncontrolled and keep their first value. */}
      {panel ? <InferenceSnippets key={`${panel.state.provider}-${String(panel.state.streaming)}`} initial={panel} /> : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: ({ message }) => <ErrorPanel title="Model not found" message={message} /> }} />;
}
