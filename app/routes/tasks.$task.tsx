import type { Route } from "./+types/tasks.$task";
import { COLOR_CLASSES } from "#app/catalog/task-colors.ts";
import { requestScope } from "#app/utils/request-context.ts";
import {
  getProposeLinks,
  getRelatedTasks,
  getTaskGuideData,
  getTaskLibraries,
  getTaskSummary,
  loadTaskGuide,
  suggestTasks,
} from "#app/task-guides/tasks.server.ts";
import { taskAssetUrl } from "#app/catalog/task-assets.ts";
import { MarkdownContent } from "#app/markdown/markdown-content.tsx";
import { shouldShowTableOfContents, TableOfContents } from "#app/ui/table-of-contents.tsx";
import { notFound } from "#app/ui/general-error-boundary.tsx";
import { type ResolvedDemoEntry, TaskDemo } from "#app/task-guides/task-demo.tsx";
import { compareWithHref } from "#app/compare/compare-setup.ts";
import { isCompareTask } from "#app/compare/compare-tasks.ts";
import { ExampleList, ExternalMark, type ExampleItem } from "#app/task-guides/task-examples.tsx";
import { Section, TaskErrorBoundary } from "#app/task-guides/task-page-parts.tsx";
import { TaskVideo } from "#app/task-guides/task-video.tsx";
import { getDb } from "#app/db/db.server.ts";
import { findCatalogueModelIds, getTaskModelCounts } from "#app/db/queries/task-counts.server.ts";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/format.ts";
import { toIsland } from "#app/utils/html-island.ts";

export const meta: Route.MetaFunction = ({ data: loaderData }) =>
  loaderData
    ? [
        { title: `${loaderData.task.name} · Tasks · Modelyard` },
        { name: "description", content: loaderData.task.summary || `${loaderData.task.name}: models and resources.` },
      ]
    : [{ title: "Task not found · Modelyard" }];

/** Guide headings get this prefix so they never collide with the page's own section ids. */
const GUIDE_ID_PREFIX = "guide-";

export async function loader({ params, context }: Route.LoaderArgs) {
  const task = getTaskSummary(params.task);
  if (!task) {
    throw notFound(`There is no task “${params.task}”.`, suggestTasks(params.task).map((t) => ({ href: `/tasks/${t.id}`, label: t.name })));
  }
  const env = getEnv();
  const hub = env.MODELYARD_HUB_URL.replace(/\/+$/, "");
  const guideData = getTaskGuideData(task.id);
  const { db } = getDb();
  const exampleIds = guideData ? [...guideData.models.map((m) => m.id), ...guideData.widgetModels] : [];
  const [md, counts, present] = await Promise.all([loadTaskGuide(task.id), getTaskModelCounts(db), findCatalogueModelIds(db, exampleIds)]);
  const guide = md ? await renderMarkdown(md, { idPrefix: GUIDE_ID_PREFIX }) : null;

  const modelLink = (id: string): { href: string; external: boolean } =>
    present.has(id) ? { href: `/${id}`, external: false } : { href: `${hub}/${id}`, external: true };
  const resolveEntry = (entry: NonNullable<typeof guideData>["demo"]["inputs"][number]): ResolvedDemoEntry =>
    entry.type === "img" || entry.type === "audio" ? { ...entry, url: taskAssetUrl(env.MODELYARD_TASK_ASSET_BASE, task.id, entry.filename) } : entry;

  return {
    task,
    palette: COLOR_CLASSES,
    count: counts[task.id] ?? 0,
    guide: guide ? { html: toIsland(context.get(requestScope).islands, guide.html), headings: guide.headings, hasMath: guide.hasMath, showToc: shouldShowTableOfContents(guide) } : null,
    demo: guideData && (guideData.demo.inputs.length > 0 || guideData.demo.outputs.length > 0)
      ? { inputs: guideData.demo.inputs.map(resolveEntry), outputs: guideData.demo.outputs.map(resolveEntry) }
      : null,
    models: (guideData?.models ?? []).map((m): ExampleItem => ({ id: m.id, description: m.description, ...modelLink(m.id) })),
    widgetModels: (guideData?.widgetModels ?? []).map((id) => ({ id, ...modelLink(id) })),
    datasets: (guideData?.datasets ?? []).map((d): ExampleItem => ({ id: d.id, description: d.description, href: `${hub}/datasets/${d.id}`, external: true })),
    spaces: (guideData?.spaces ?? []).map((s): ExampleItem => ({ id: s.id, description: s.description, href: `${hub}/spaces/${s.id}`, external: true })),
    metrics: guideData?.metrics ?? [],
    youtubeId: guideData?.youtubeId ?? null,
    libraries: getTaskLibraries(task.id),
    related: getRelatedTasks(task.id).map((t) => ({ id: t.id, name: t.name, color: t.color, hasGuide: t.hasGuide })),
    propose: getProposeLinks(task.id, env.MODELYARD_PROPOSE_URL_TEMPLATE),
    hubDatasetsUrl: task.hideInDatasets ? null : `${hub}/datasets?task_categories=task_categories:${task.id}`,
  };
}

export default function Task({ loaderData }: Route.ComponentProps) {
  const { task, palette, count, guide, demo, models, widgetModels, datasets, spaces, metrics, youtubeId, libraries, related, propose, hubDatasetsUrl } =
    loaderData;
  const c = palette[task.color];
  return (
    <div className="mx-auto max-w-7xl px-4 py-8" data-task-page={task.id}>
      <nav aria-label="Breadcrumb" className="text-sm text-gray-600 dark:text-gray-400">
        <a href="/tasks" className="hover:underline">
          Tasks
        </a>
        <span aria-hidden="true"> / </span>
        {/* The modality's own section: a text filter by its name also matched other modalities' tasks ("Other" found 6, of three modalities). */}
        <a href={`/tasks#modality-${task.modality}`} className="hover:underline">
          {task.modalityLabel}
        </a>
      </nav>

      <header className={`mt-3 border-l-4 pl-4 ${c.accent}`} data-color={task.color}>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className={`inline-flex items-center gap-1.5 rounded-md px-2 py-0.5 font-medium ring-1 ring-inset ${c.chip}`}>
            <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${c.dot}`} />
            {task.modalityLabel}
          </span>
          {!task.hasGuide ? <span className="rounded bg-gray-100 px-1.5 py-0.5 text-gray-700 dark:bg-gray-800 dark:text-gray-300">No guide yet</span> : null}
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight">{task.name}</h1>
        {task.summary ? <p className="mt-2 max-w-3xl text-lg text-gray-700 dark:text-gray-300">{task.summary}</p> : null}
        {task.canonicalId ? (
          <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
            This task is part of{" "}
            <a href={`/tasks/${task.canonicalId}`} className="font-medium text-indigo-700 underline dark:text-indigo-300">
              {task.canonicalName}
            </a>
            .
          </p>
        ) : null}
        <p className="mt-3 text-sm">
          {task.hideInModels ? (
            <span className="text-gray-600 dark:text-gray-400">
              {count === 0 ? "No model in this catalogue carries" : `${formatNumber(count)} catalogue ${count === 1 ? "model carries" : "models carry"}`} this task (not offered as a models filter).
            </span>
          ) : count === 0 ? (
            <span className="text-gray-600 dark:text-gray-400">No model in this catalogue carries this task.</span>
          ) : (
            <a href={`/models?pipeline_tag=${encodeURIComponent(task.id)}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
              Browse {formatNumber(count)} {task.name} {count === 1 ? "model" : "models"}
            </a>
          )}
          {isCompareTask(task.id) ? (
            <>
              {" · "}
              <a href={compareWithHref("", task.id, null) ?? "/compare"} data-compare-task="" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                Compare models on this task
              </a>
            </>
          ) : null}
        </p>
      </header>

      <div className="mt-8 grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          {task.subtasks.length > 0 ? (
            <Section id="subtasks" title="Subtasks">
              <ul className="flex flex-wrap gap-1.5 text-sm">
                {task.subtasks.map((s) => (
                  <li key={s.type} className={`rounded-md px-2 py-0.5 ring-1 ring-inset ${c.chip}`}>
                    {s.name}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
          {demo ? (
            <Section id="demo" title="Demo">
              <TaskDemo demo={demo} barClass={c.bar} />
            </Section>
          ) : null}
          {youtubeId ? (
            <Section id="video" title="Video">
              <div className="max-w-xl">
                <TaskVideo youtubeId={youtubeId} title={`${task.name} explained`} />
              </div>
            </Section>
          ) : null}
          {guide ? (
            <section aria-label={`${task.name} guide`} className="mt-10">
              <MarkdownContent html={guide.html} hasMath={guide.hasMath} />
            </section>
          ) : (
            <Section id="guide" title="About this task">
              <p className="text-gray-700 dark:text-gray-300">
                The task catalogue has no guide for {task.name} yet. You can write one: the links under “Propose updates” open
                the template contributors start from.
              </p>
            </Section>
          )}
        </div>

        <aside className="min-w-0 text-sm" aria-label="Resources">
          {guide?.showToc ? <TableOfContents headings={guide.headings} className="mb-8 [&_a]:py-1" /> : null}
          {models.length > 0 ? (
            <Section id="models" title="Models">
              <ExampleList items={models} kind="models" />
            </Section>
          ) : null}
          {widgetModels.length > 0 ? (
            <Section id="try-it" title="Try it">
              <ul className="space-y-2" data-example-list="widget-models">
                {widgetModels.map((m) => (
                  <li key={m.id} className="flex flex-wrap items-center gap-2">
                    <span className="font-mono font-semibold break-all">{m.id}</span>
                    <a
                      href={m.external ? m.href : `/playground${m.href}`}
                      data-try-it={m.id}
                      className="rounded-md bg-indigo-600 px-2 py-0.5 text-xs font-medium text-white hover:bg-indigo-700"
                      {...(m.external ? { rel: "noopener noreferrer" } : {})}
                    >
                      Try it<span className="sr-only"> with {m.id}</span>
                    </a>
                    {m.external ? <ExternalMark /> : null}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
          {datasets.length > 0 || hubDatasetsUrl ? (
            <Section id="datasets" title="Datasets">
              <ExampleList items={datasets} kind="datasets" />
              {hubDatasetsUrl ? (
                <p className="mt-3">
                  <a href={hubDatasetsUrl} rel="noopener noreferrer" data-hub-datasets="" className="text-indigo-700 hover:underline dark:text-indigo-300">
                    Browse {task.name} datasets on the Hub
                  </a>
                  <ExternalMark />
                </p>
              ) : null}
            </Section>
          ) : null}
          {spaces.length > 0 ? (
            <Section id="spaces" title="Spaces (demos)">
              <ExampleList items={spaces} kind="spaces" />
            </Section>
          ) : null}
          {metrics.length > 0 ? (
            <Section id="metrics" title="Metrics">
              <dl className="space-y-2" data-example-list="metrics">
                {metrics.map((m) => (
                  <div key={m.id}>
                    <dt className="font-mono font-semibold">{m.id}</dt>
                    <dd className="text-gray-700 dark:text-gray-300">{m.description || "No description in the task catalogue."}</dd>
                  </div>
                ))}
              </dl>
            </Section>
          ) : null}
          {libraries.length > 0 ? (
            <Section id="libraries" title="Libraries">
              <ul className="flex flex-wrap gap-1.5" data-example-list="libraries">
                {libraries.map((l) => (
                  <li key={l.key}>
                    <a
                      href={`/models?library=${encodeURIComponent(l.key)}&pipeline_tag=${encodeURIComponent(task.id)}`}
                      className="inline-block rounded-md border border-gray-300 px-2 py-0.5 hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-900"
                    >
                      {l.label}
                    </a>
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
          {related.length > 0 ? (
            <Section id="related" title="Related tasks">
              <ul className="space-y-1.5" data-example-list="related">
                {related.map((t) => (
                  <li key={t.id} className="flex items-center gap-2">
                    <span aria-hidden="true" className={`h-2 w-2 rounded-full ${palette[t.color].dot}`} />
                    <a href={`/tasks/${t.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                      {t.name}
                    </a>
                    {!t.hasGuide ? <span className="text-xs text-gray-600 dark:text-gray-400">(no guide yet)</span> : null}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
          <Section id="propose-updates" title="Propose updates">
            <p className="text-gray-700 dark:text-gray-300">This page is built from the open task catalogue. Suggest a change to its source:</p>
            <ul className="mt-2 space-y-1.5">
              {propose.map((p) => (
                <li key={p.file}>
                  <a href={p.url} data-propose={p.file} rel="noopener noreferrer" className="text-indigo-700 hover:underline dark:text-indigo-300">
                    {p.label}
                  </a>
                </li>
              ))}
            </ul>
          </Section>
        </aside>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <TaskErrorBoundary />;
}
