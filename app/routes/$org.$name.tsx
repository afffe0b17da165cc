import { useState } from "react";
import { data, useLocation } from "react-router";
import type { Route } from "./+types/$org.$name";
import { ErrorPanel, GeneralErrorBoundary, SuggestionList } from "#app/ui/general-error-boundary.tsx";
import { InferenceSnippets } from "#app/snippets/snippets-panel.tsx";
import { ModelCard, ModelCardToc } from "#app/model-page/model-card.tsx";
import { ModelFiles } from "#app/model-page/model-files.tsx";
import { ModelHeader } from "#app/model-page/model-header.tsx";
import { ModelChatDemo, type SlotRequest } from "#app/demos/chat/slot.tsx";
import type { InferencePanel } from "#app/snippets/inference-panel.server.ts";
import { useFollowedPanel } from "#app/snippets/use-followed-panel.ts";
import { GgufPanel } from "#app/model-page/gguf-panel.tsx";
import { ModelProviders, ModelSpaces, ModelTree } from "#app/model-page/model-sidebar.tsx";
import { MODEL_TABS, ModelTabs } from "#app/model-page/model-tabs.tsx";
import { UseThisModel, hasUsageCode } from "#app/model-page/use-this-model.tsx";
import { ChatTemplateTab, ChatTemplateWarning } from "#app/chat-template/model-tab.tsx";
import { LiveDetailsNotice } from "#app/model-page/live-details-notice.tsx";
import { loadModelPage } from "#app/model-page/model-page.server.ts";
import { filesViewStatus } from "#app/model-page/files.server.ts";
import { compareWithHref } from "#app/compare/compare-setup.ts";
import { compareTaskFor } from "#app/compare/compare-tasks.ts";

export const meta: Route.MetaFunction = ({ data }) => {
  if (!data) return [{ title: "Model not found · Modelyard" }, { name: "robots", content: "noindex" }];
  const { model, seo } = data;
  return [
    { title: `${model.id} · Modelyard` },
    { name: "description", content: seo.description },
    { property: "og:title", content: model.id },
    { property: "og:description", content: seo.description },
    { property: "og:type", content: "website" },
    { property: "og:url", content: seo.canonical },
    { property: "og:site_name", content: "Modelyard" },
    { name: "twitter:card", content: "summary" },
    { tagName: "link", rel: "canonical", href: seo.canonical },
  ];
};

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const page = await loadModelPage(`${params.org}/${params.name}`, url, context);
  // Built here, as on /playground, so the page's JavaScript does not carry /compare's task records.
  const compare = compareWithHref(page.model.id, compareTaskFor(page.model), page.providers.offered.find((p) => p !== "auto") ?? null);
  return data({ ...page, compare }, { status: filesViewStatus(page.files) });
}

export default function ModelPage({ loaderData }: Route.ComponentProps) {
  const { model, tab, compare } = loaderData;
  const location = useLocation();
  const hub = model.hubUrl.slice(0, model.hubUrl.length - model.id.length - 1);
  return (
    <div className="mx-auto max-w-7xl px-4 py-6" data-model-page={model.id}>
      <ModelHeader
        model={model}
        actions={
          <>
            <UseThisModel use={loaderData.use} modelId={model.id} search={location.search} providerCode={loaderData.providers.offered.length > 0} />
            {compare ? (
              <a href={compare} data-compare-with="" className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-900">
                Compare with…
              </a>
            ) : null}
          </>
        }
      />
      <ModelTabs modelId={model.id} current={tab} tabs={MODEL_TABS.filter((t) => t !== "chat-template" || loaderData.hasChatTemplate || tab === t)} />
      {loaderData.live ? (
        <div className="mt-4">
          <LiveDetailsNotice notice={loaderData.live} modelId={model.id} />
        </div>
      ) : null}
      {loaderData.chatTemplateWarning && tab !== "chat-template" ? (
        <div className="mt-4">
          <ChatTemplateWarning issue={loaderData.chatTemplateWarning} href={`/${model.id}?tab=chat-template`} />
        </div>
      ) : null}
      <div className="mt-6">
        {tab === "card" ? (
          // One column on a phone that never grows past the screen: an auto track would take the widest
          // nowrap text (a GGUF file name) as its minimum and push the page sideways.
          <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
            <ModelCard card={loaderData.card} empty={loaderData.cardEmpty} summary={loaderData.summary} modelId={model.id} hubUrl={model.hubUrl} />
            <aside aria-label="About this model" className="space-y-4">
              <ModelChatDemo modelId={model.id} />
              <GgufPanel gguf={loaderData.gguf} />
              <ModelProviders providers={loaderData.providers} modelId={model.id} usageCode={hasUsageCode(loaderData.use)} />
              <ModelTree tree={loaderData.tree} modelId={model.id} hub={hub} />
              <ModelSpaces spaces={loaderData.spaces} hub={hub} />
              <ModelCardToc card={loaderData.card} />
            </aside>
          </div>
        ) : null}
        {tab === "files" && loaderData.files ? <ModelFiles files={loaderData.files} modelId={model.id} /> : null}
        {tab === "inference" ? (
          loaderData.inference ? (
            <InferenceTab modelId={model.id} initial={loaderData.inference} />
          ) : (
            <div className="max-w-2xl">
              <ModelProviders providers={loaderData.providers} modelId={model.id} usageCode={hasUsageCode(loaderData.use)} />
            </div>
          )
        ) : null}
        {tab === "chat-template" ? (
          loaderData.chatTemplate ? (
            <ChatTemplateTab key={model.id} data={loaderData.chatTemplate} />
          ) : (
            <p className="text-sm text-gray-700 dark:text-gray-300">This catalogue has no chat template for this model.</p>
          )
        ) : null}
      </div>
    </div>
  );
}

/**
 * The inference tab: the snippets panel and, beside it, the demo slot's task widget with its
 * parameters; the panel follows the widget's provider, text and parameters as the playground's does.
 */
function InferenceTab({ modelId, initial }: { modelId: string; initial: InferencePanel }) {
  const [request, setRequest] = useState<SlotRequest | null>(null);
  const panel = useFollowedPanel(initial, request, initial.state.streaming) ?? initial;
  return (
    // Two columns only once a widget is there (a chat model's tab, or one nothing runs, has none).
    <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:has-[[data-task-widget]]:grid-cols-[minmax(0,1fr)_24rem]" data-inference-tab="">
      {/* The widget first on a phone, as on the playground; beside the code, and in view, on a wide screen. */}
      <aside aria-label="Try the model" className="hidden has-[[data-task-widget]]:block lg:sticky lg:top-4 lg:col-start-2 lg:row-start-1 lg:self-start">
        <ModelChatDemo modelId={modelId} beside onRequestChange={setRequest} />
      </aside>
      <div className="min-w-0 lg:col-start-1 lg:row-start-1">
        {/* Keyed by provider: the panel's own form fields are uncontrolled and keep their first value. */}
        <InferenceSnippets key={panel.state.provider} initial={panel} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ message, suggestions }) => (
          <ErrorPanel title="Model not found" message={message}>
            <SuggestionList suggestions={suggestions} />
          </ErrorPanel>
        ),
      }}
    />
  );
}
