import { taskOf } from "#app/catalog/chat-model.ts";
import { type CatalogModel, type ChatTemplateIssue, type GatedMode, hasKnownCounts } from "#app/catalog/model-record.ts";
import { getDb } from "#app/db/db.server.ts";
import { findSimilarModelIds, getModelById } from "#app/db/queries/models.server.ts";
import { type DerivedGroup, existingModelIds, listDerivedModels, listModelsByAuthor, listSpacesUsingModel, type SpaceUsingModel } from "#app/db/queries/model-tree.server.ts";
import { isShadowedModelId } from "#app/catalog/model-id.ts";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";
import { MODEL_TABS, type ModelTab } from "#app/model-page/model-tabs.tsx";
import { shouldShowTableOfContents } from "#app/ui/table-of-contents.tsx";
import { GGUF_FILE_PLACEHOLDER, getLibrarySnippets } from "#app/snippets/library-snippets.ts";
import { getLocalAppSnippets } from "#app/snippets/local-app-snippets.ts";
import { buildGgufPanel, type GgufFileOption, ggufFileOptions, type GgufPanelView } from "#app/model-page/gguf.server.ts";
import { defaultGgufFile, ggufFilesWithQuant, isGgufRepo } from "#app/catalog/gguf.ts";
import { storesPackedQuantisedWeights } from "#app/catalog/parameter-count.ts";
import { licenseText, type NamedLicense, namedLicenseOf } from "#app/catalog/license.ts";
import { snippetTaskFor, supportedProvidersFor, unsupportedProvidersFor, stagingProvidersFor } from "#app/snippets/providers.ts";
import { scopeOf } from "#app/utils/request-context.ts";
import { notFound, type Suggestion } from "#app/ui/general-error-boundary.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { type IslandHtml, toIsland } from "#app/utils/html-island.ts";
import { highlightCode } from "#app/utils/highlight.server.ts";
import { COLOR_CLASSES, getTaskInfo } from "#app/catalog/task-colors.ts";
import { formatNumber, formatParams } from "#app/utils/format.ts";
import { buildFilesView, type FilesView } from "#app/model-page/files.server.ts";
import { buildInferencePanel, type InferencePanel, parseInferenceState, snippetOrigin } from "#app/snippets/inference-panel.server.ts";
import { type ChatTemplateTabData, chatTemplateWarning, loadChatTemplateTab } from "#app/chat-template/model-tab.server.ts";
import { type LiveDetailsNotice, withLiveDetails } from "#app/model-page/live.server.ts";


/** A sentence of the metadata summary: its text, with links where the data holds one (a licence's own page). */
export type SummaryLine = Array<string | { text: string; href: string }>;

/** A piece of code as shown (highlighted HTML) and as copied (the exact text). */
export interface Code {
  text: string;
  html: string;
}

export interface ModelHeaderView {
  id: string;
  author: string;
  pipelineTag: string | null;
  taskName: string | null;
  /** Chip classes from COLOR_CLASSES, resolved here so the task table stays off the client. */
  taskClasses: { chip: string; dot: string } | null;
  /** The record names no task: the chip's is the one its provider mappings name. */
  taskFromMapping: boolean;
  libraryName: string | null;
  license: string | null;
  /** The card's own name for the licence (license_name), with its http(s) license_link. */
  namedLicense: NamedLicense | null;
  tags: string[];
  downloads: number;
  likes: number;
  statsAsOf: string | null;
  params: number | null;
  createdAt: string | null;
  lastModified: string | null;
  gated: GatedMode;
  languages: string[];
  datasets: string[];
  hubUrl: string;
}

export interface UseThisModelView {
  library: {
    name: string;
    label: string;
    repoUrl: string;
    docsUrl: string | null;
    snippets: Code[];
    error: string | null;
    /** The .gguf file the code loads with gguf_file= (a repo of GGUF weights only), or the library's placeholder. */
    ggufFile: { name: string; placeholder: boolean } | null;
  } | null;
  /** The library the catalogue names for the model, if any: why `library` is null differs. */
  libraryName: string | null;
  localApps: Array<{
    key: string;
    label: string;
    docsUrl: string;
    deeplink: string | null;
    error: string | null;
    blocks: Array<{ title: string; setup: Code | null; commands: Code[] }>;
  }>;
  /** The repo's .gguf files, for the quantisation picker. */
  ggufFiles: GgufFileOption[];
  /** The file in the commands: the visitor's pick, else defaultGgufFile's; null when no .gguf file is known. */
  selectedGguf: string | null;
  /** The visitor picked the file (?gguf=), so the menu opens on the commands. */
  ggufChosen: boolean;
  /**
   * A GGUF repo with no known .gguf file, so the commands keep the library's placeholders: the
   * catalogue has no file list for it, or its list names no .gguf file. Null otherwise.
   */
  ggufFilesUnknown: "no-file-list" | "no-gguf-file" | null;
}

export interface ModelPageData {
  model: ModelHeaderView;
  tab: ModelTab;
  card: { html: IslandHtml; headings: Array<{ depth: number; id: string; text: string }>; hasMath: boolean; showToc: boolean; error: string | null } | null;
  /** The catalogue holds the card, and it is empty: the repository has no README (or an empty one). */
  cardEmpty: boolean;
  /** Sentences describing the model from its metadata, for models without a card. */
  summary: SummaryLine[];
  files: FilesView | null;
  tree: { bases: Array<{ id: string; relation: string; local: boolean }>; derived: DerivedGroup[] };
  spaces: { total: number; items: SpaceUsingModel[] };
  use: UseThisModelView;
  /** `task` is what a mapped provider the client cannot call would be asked to do: conversational for a chat model, else the pipeline tag. */
  providers: { offered: string[]; staging: string[]; unsupported: string[]; task: string | null };
  inference: InferencePanel | null;
  /** The GGUF panel; null for other repos and for GGUF repos with neither header nor file list. */
  gguf: GgufPanelView | null;
  /** The "Chat template" tab (app/chat-template/model-tab.server.ts); null on other tabs or without a template. */
  chatTemplate: ChatTemplateTabData | null;
  hasChatTemplate: boolean;
  /** Set when the template failed validation at import: every tab shows a warning. */
  chatTemplateWarning: ChatTemplateIssue | null;
  seo: { description: string; canonical: string };
  /** Set when live details (MODELYARD_LIVE=1) were wanted and could not be fetched. */
  live: LiveDetailsNotice | null;
}

/** Relative links and images in a card point at the model's files on the Hub (or MODELYARD_HUB_URL). */
export function fileUrlResolver(hub: string, id: string, revision: string) {
  return (path: string, kind: "link" | "image"): string | null => {
    const clean = path.replace(/^(?:\.\/)+/, "").replace(/^\/+/, "");
    if (clean === "" || clean.startsWith("../")) return null;
    return `${hub}/${id}/${kind === "image" ? "resolve" : "blob"}/${encodeURIComponent(revision)}/${encodeURI(clean)}`;
  };
}

/** Which grammar to colour a snippet with. Only the colours depend on it: the text is never changed. */
export function guessSnippetLanguage(text: string): string {
  if (/^\s*(?:import\s*\{|import\s+\w+\s+from\s+["']|const\s|let\s|await\s)/m.test(text) && !/^\s*from\s+\w/m.test(text)) return "javascript";
  if (/^\s*(?:from\s+[\w.]+\s+import|import\s+[\w.]+\s*$|import\s+[\w.]+\s+as\s|def\s|class\s|print\()/m.test(text)) return "python";
  if (/^\s*(?:#!|\$ |pip3? |git |huggingface-cli |hf |docker |curl |wget |npm |npx |brew |ollama |llama-|vllm |python3? -m |cd |export |mlx_lm|\.\/|uv |pipx )/m.test(text)) return "shellscript";
  return "python";
}

function code(text: string, lang = guessSnippetLanguage(text)): Code {
  return { text, html: highlightCode(text, lang) };
}

export function buildUseThisModel(model: CatalogModel, gguf: string | null): UseThisModelView {
  const ggufFiles = ggufFileOptions(model);
  const chosen = gguf !== null && ggufFiles.some((f) => f.name === gguf) ? gguf : null;
  const selectedGguf = chosen ?? defaultGgufFile(ggufFilesWithQuant(model))?.rfilename ?? null;
  const lib = getLibrarySnippets(model, selectedGguf ? { ggufFile: selectedGguf } : {});
  const apps = getLocalAppSnippets(model, selectedGguf ? { filepath: selectedGguf } : {});
  return {
    library: lib
      ? {
          name: lib.library,
          label: lib.prettyLabel,
          repoUrl: lib.repoUrl,
          docsUrl: lib.docsUrl ?? null,
          snippets: lib.snippets.map((s) => code(s)),
          error: lib.error ?? null,
          ggufFile: lib.ggufFile === undefined ? null : { name: lib.ggufFile, placeholder: lib.ggufFile === GGUF_FILE_PLACEHOLDER },
        }
      : null,
    libraryName: model.libraryName,
    localApps: apps.map((app) => ({
      key: app.key,
      label: app.prettyLabel,
      docsUrl: app.docsUrl,
      deeplink: app.deeplink ?? null,
      error: app.error ?? null,
      blocks: (app.snippets ?? []).map((b) => ({
        title: b.title,
        setup: b.setup === undefined ? null : code(b.setup, "shellscript"),
        commands: (Array.isArray(b.content) ? b.content : [b.content]).map((c) => code(c, guessSnippetLanguage(c) === "python" ? "shellscript" : guessSnippetLanguage(c))),
      })),
    })),
    ggufFiles,
    selectedGguf,
    ggufChosen: chosen !== null,
    ggufFilesUnknown: ggufFiles.length > 0 || !isGgufRepo(model) ? null : model.siblings.length === 0 ? "no-file-list" : "no-gguf-file",
  };
}

function metadataSummary(model: CatalogModel, taskName: string | null, bases: readonly { id: string }[]): SummaryLine[] {
  const out: Array<string | SummaryLine> = [];
  const task = taskName?.toLowerCase();
  const what = task ? `${/^[aeiou]/.test(task) ? "an" : "a"} ${task} model` : "a model";
  // Legacy ids without an organisation (`t5-base`) have no author to name.
  out.push(`${model.id} is ${what}${model.libraryName ? ` for ${model.libraryName}` : ""}${model.author ? ` published by ${model.author}` : ""}.`);
  const named = namedLicenseOf(model.cardData, model.license);
  if (model.license && named !== null) {
    out.push([`Its license is ${model.license} (`, named.href === null ? named.name : { text: named.name, href: named.href }, ")."]);
  } else if (model.license) out.push(`Its license is ${model.license}.`);
  const params = formatParams(model.params);
  if (params) out.push(`It has ${params} parameters.`);
  if (bases.length) out.push(`It is based on ${bases.map((b) => b.id).join(", ")}.`);
  if (model.datasets.length) out.push(`Datasets: ${model.datasets.slice(0, 10).join(", ")}.`);
  if (model.languages.length) out.push(`Languages: ${model.languages.slice(0, 20).join(", ")}.`);
  if (model.siblings.length) out.push(`The repository holds ${formatNumber(model.siblings.length)} files.`);
  if (model.gated) out.push("Access is gated: the authors ask visitors to accept conditions before downloading.");
  return out.map((line) => (typeof line === "string" ? [line] : line));
}

/** "Did you mean" ids: the catalogue's substring match, then the name's first word, then the author's models. */
async function closeModelIds(db: Parameters<typeof findSimilarModelIds>[0], id: string): Promise<string[]> {
  const similar = await findSimilarModelIds(db, id);
  if (similar.length) return similar;
  const name = id.split("/").pop() ?? id;
  const word = name.split(/[-_.]/)[0] ?? "";
  if (word.length >= 3 && word !== name) {
    const byWord = await findSimilarModelIds(db, word);
    if (byWord.length) return byWord;
  }
  return id.includes("/") ? listModelsByAuthor(db, id.split("/")[0]!) : [];
}

function pickTab(url: URL): ModelTab {
  const tab = url.searchParams.get("tab");
  if (tab !== null && (MODEL_TABS as readonly string[]).includes(tab)) return tab as ModelTab;
  // A shared snippet link (?provider=…) opens the panel it configures.
  return url.searchParams.has("provider") ? "inference" : "card";
}

/** Loads a model for its page, or throws the model 404 with its closest ids as suggestions. */
export async function loadModelPage(id: string, url: URL, context: unknown): Promise<ModelPageData> {
  const page = await findModelPage(id, url, context);
  if (!page) throw notFound(`No model '${id}' in this catalogue.`, await modelSuggestions(id));
  return page;
}

/** Ids close to one the catalogue lacks, as links for a 404's "Did you mean". */
export async function modelSuggestions(id: string): Promise<Suggestion[]> {
  return (await closeModelIds(getDb().db, id)).map((similar) => ({ href: `/${similar}`, label: similar }));
}

/** A model's page data, or null when the catalogue has no such model. */
export async function findModelPage(id: string, url: URL, context: unknown): Promise<ModelPageData | null> {
  const scope = scopeOf(context);
  const { db } = getDb();
  const { model, live } = isShadowedModelId(id)
    ? { model: null, live: null }
    : await withLiveDetails(await getModelById(db, id), () => getModelById(db, id));
  if (!model) return null;
  const tab = pickTab(url);
  const hub = getEnv().MODELYARD_HUB_URL.replace(/\/+$/, "");
  const revision = model.sha ?? "main";
  const taskInfo = model.pipelineTag ? getTaskInfo(model.pipelineTag) : null;
  const taskName = taskInfo?.name ?? null;

  const [derived, spaces, local] = await Promise.all([
    listDerivedModels(db, model.id),
    listSpacesUsingModel(db, model.id),
    existingModelIds(db, model.baseModels.map((b) => b.id)),
  ]);

  let card: ModelPageData["card"] = null;
  if (tab === "card" && model.cardMarkdown && model.cardMarkdown.trim() !== "") {
    const rendered = await renderMarkdown(model.cardMarkdown, {
      resolveRelativeUrl: fileUrlResolver(hub, model.id, revision),
      cacheKey: `${model.id}@${revision}`,
      idPrefix: "md-",
    });
    card = { html: toIsland(scope.islands, rendered.html), headings: rendered.headings, hasMath: rendered.hasMath, showToc: shouldShowTableOfContents(rendered), error: rendered.error };
  }

  const gguf = model.gguf;
  const ggufTotal = gguf && typeof gguf["total"] === "number" ? gguf["total"] : null;
  const header: ModelHeaderView = {
    id: model.id,
    author: model.author,
    pipelineTag: model.pipelineTag,
    taskName,
    taskClasses: taskInfo ? { chip: COLOR_CLASSES[taskInfo.color].chip, dot: COLOR_CLASSES[taskInfo.color].dot } : null,
    taskFromMapping: model.pipelineTagFrom === "mapping",
    libraryName: model.libraryName,
    license: model.license,
    namedLicense: namedLicenseOf(model.cardData, model.license),
    tags: model.tags,
    downloads: model.downloads,
    likes: model.likes,
    statsAsOf: model.statsAsOf,
    // A database imported before packed storage was told apart may still hold its element count.
    params: storesPackedQuantisedWeights(model) ? null : (model.params ?? ggufTotal),
    createdAt: model.createdAt,
    lastModified: model.lastModified,
    gated: model.gated,
    languages: model.languages,
    datasets: model.datasets,
    hubUrl: `${hub}/${model.id}`,
  };
  const bases = model.baseModels.map((b) => ({ id: b.id, relation: b.relation, local: local.has(b.id) }));
  const offered = supportedProvidersFor(model);

  const description = [
    `${model.id}: ${taskName ? `${taskName} model` : "model"}${model.libraryName ? ` for ${model.libraryName}` : ""}`,
    model.license ? `, ${licenseText(model.license, header.namedLicense)} license` : "",
    // Zeros the catalogue does not hold as counts (hasKnownCounts) would be a false fact in every search result.
    hasKnownCounts(model) ? `. ${formatNumber(model.downloads)} downloads in 30 days, ${formatNumber(model.likes)} likes${model.statsAsOf ? ` (snapshot of ${model.statsAsOf})` : ""}.` : ".",
    offered.length ? ` Code for ${offered.filter((p) => p !== "auto").join(", ")}, the model's library and local apps.` : " Usage code for its library and local apps.",
  ].join("");

  return {
    model: header,
    tab,
    card,
    cardEmpty: model.cardMarkdown !== null && model.cardMarkdown.trim() === "",
    summary: card ? [] : metadataSummary({ ...model, params: header.params }, taskName, bases),
    files: tab === "files" ? buildFilesView(model, url.searchParams.get("file"), hub, revision, scope.islands) : null,
    tree: { bases, derived },
    spaces: { total: spaces.total, items: spaces.spaces },
    use: buildUseThisModel(model, url.searchParams.get("gguf")),
    providers: { offered, staging: stagingProvidersFor(model), unsupported: unsupportedProvidersFor(model), task: snippetTaskFor(model) ?? taskOf(model) },
    gguf: buildGgufPanel(model),
    inference: tab === "inference" && offered.length > 0 ? buildInferencePanel(model, parseInferenceState(url.searchParams, model), {}, snippetOrigin(url.href)) : null,
    chatTemplate: tab === "chat-template" ? await loadChatTemplateTab(model, url, scope.clientAddress ?? undefined) : null,
    hasChatTemplate: model.chatTemplate !== null,
    chatTemplateWarning: chatTemplateWarning(model),
    seo: { description, canonical: `${url.origin}/${model.id}` },
    live,
  };
}
