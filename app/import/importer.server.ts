import type { ChatTemplateIssue, ChatTemplateSource, ChatTemplateStatus, ProviderMapping } from "#app/catalog/model-record.ts";
import { trendingScore } from "#app/catalog/trending.ts";
import { taskOf } from "#app/catalog/chat-model.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import {
  type DetailsRow,
  type ExistingModel,
  type NewDetailsRow,
  type NewModelRow,
  type ProviderRow,
  fetchExistingModels,
  indexNewModelIds,
  replaceModelBases,
  replaceModelProviders,
  replaceModelTags,
  replaceSpaceLinks,
  upsertDetails,
  upsertModels,
} from "#app/db/queries/import.server.ts";
import { finishBulkLoad, startBulkLoad } from "#app/db/queries/bulk-load.server.ts";
import { bumpCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";
import { type NormalizedRecord, deriveFacts, normalizeRecord, readTokenizerSettings } from "#app/import/normalize.ts";
import { type SourceItem, readSources } from "#app/import/read-sources.server.ts";
import { describeIssues, importRecordSchema } from "#app/import/record-schema.ts";
import { deriveTransformersInfo } from "#app/catalog/transformers-info.ts";
import { storesPackedQuantisedWeights } from "#app/catalog/parameter-count.ts";
import { importRejections, importRows } from "#app/utils/metrics.server.ts";

export interface Rejection {
  source: string;
  line: number;
  id: string | null;
  reason: string;
}

export interface ImportProgress {
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  source: string;
  elapsedMs: number;
}

export interface ImportSummary extends ImportProgress {
  rejections: Rejection[];
}

export type TemplateValidator = (
  source: ChatTemplateSource,
  bosToken: string | null,
  eosToken: string | null,
) => Promise<{ status: ChatTemplateStatus; issue: ChatTemplateIssue | null }>;

export interface ImportOptions {
  /** Date the download/like counts were taken (YYYY-MM-DD); null means live counts. */
  statsAsOf?: string | null;
  batchSize?: number;
  onProgress?: (p: ImportProgress) => void;
  validateTemplate?: TemplateValidator;
  /** Called with what is happening during the slow steps after a bulk load. */
  onStep?: (what: string) => void;
}

interface Pending {
  rec: NormalizedRecord;
  createDefaults: Record<string, unknown> | undefined;
}

const json = (v: unknown): string => JSON.stringify(v);
const parseJson = <T>(s: string | null | undefined, fallback: T): T => (s == null ? fallback : (JSON.parse(s) as T));

function pick<T>(incoming: T | undefined, existing: T, fallback?: T): T {
  if (incoming !== undefined) return incoming;
  return existing ?? (fallback as T);
}

function sameRow(a: Record<string, unknown>, b: Record<string, unknown>, skip: string[]): boolean {
  for (const k of Object.keys(a)) {
    if (skip.includes(k)) continue;
    if (a[k] !== b[k]) return false;
  }
  return true;
}

function stringDefault(d: Record<string, unknown> | undefined, key: string): string | null {
  const v = d?.[key];
  return typeof v === "string" ? v : null;
}

/**
 * The record's own transformersInfo wins and is kept until a later record replaces it; otherwise it
 * is derived from the merged config, tags and pipeline tag on every import (ADR 0014), so a list
 * row gets the Transformers snippet the Hub would show, and a later config improves it.
 */
function resolveTransformersInfo(
  rec: NormalizedRecord,
  ed: DetailsRow | null,
  input: Parameters<typeof deriveTransformersInfo>[0],
): { info: string | null; source: string | null } {
  if (rec.transformersInfo != null) return { info: json(rec.transformersInfo), source: "hub" };
  if (rec.transformersInfo === undefined && ed?.transformers_info != null && ed.transformers_info_source === "hub") {
    return { info: ed.transformers_info, source: "hub" };
  }
  const derived = deriveTransformersInfo(input);
  return derived ? { info: json(derived.info), source: derived.source } : { info: null, source: null };
}

interface Planned {
  model: NewModelRow;
  details: NewDetailsRow | null;
  tags: string[] | null;
  providers: ProviderMapping[] | null;
  bases: Array<{ id: string; relation: string }> | null;
  spaces: string[] | null;
  templateToValidate: { source: ChatTemplateSource; bos: string | null; eos: string | null } | null;
  isNew: boolean;
}

/**
 * Merges one normalized record over what the catalogue holds. Returns null when nothing would
 * change, which is what makes a second import of the same data a no-op.
 */
function plan(p: Pending, existing: ExistingModel | undefined, statsAsOf: string | null, now: string): Planned | null {
  const { rec, createDefaults } = p;
  const e = existing?.model;
  const ed = existing?.details ?? null;
  const isNew = !e;
  const d = isNew ? createDefaults : undefined;

  const tags = rec.tags ?? (e ? parseJson<string[]>(e.tags, []) : ((d?.["tags"] as string[] | undefined) ?? []));
  const cardData = rec.cardData !== undefined ? rec.cardData : parseJson<Record<string, unknown> | null>(ed?.card_data, null);
  const facts = deriveFacts(tags, cardData);

  const oldProviders = parseJson<ProviderMapping[]>(ed?.provider_mapping, []);
  const providers = rec.providers ?? oldProviders;

  const safetensors = rec.safetensors !== undefined ? rec.safetensors : parseJson<Record<string, unknown> | null>(ed?.safetensors, null);
  const ggufMeta = rec.gguf !== undefined ? rec.gguf : parseJson<Record<string, unknown> | null>(ed?.gguf, null);
  const paramsFrom = (o: Record<string, unknown> | null) => (typeof o?.["total"] === "number" ? o["total"] : null);

  const statsGiven = rec.downloads !== undefined || rec.likes !== undefined;
  const downloads = pick(rec.downloads, e?.downloads as number, 0);
  const likes = pick(rec.likes, e?.likes as number, 0);
  const createdAt = pick(rec.createdAt, e?.created_at ?? null, null);
  // A record without counts dates none: a new model keeps its zeros as defaults, not as counts of
  // the snapshot (hasKnownCounts), and a known one keeps the date of the counts it has.
  const statsOf = statsGiven ? statsAsOf : (e?.stats_as_of ?? null);

  // Chat template: config (tokenizer_config) wins, then GGUF metadata.
  const config = rec.config !== undefined ? rec.config : parseJson<Record<string, unknown> | null>(ed?.config, null);
  // Packed quantised storage (AWQ, GPTQ: several weights per I32) is no parameter count, and no
  // earlier import's figure for it is either: the listing's size filter gets nothing for such a row.
  const params = storesPackedQuantisedWeights({ safetensors, config, tags })
    ? paramsFrom(ggufMeta)
    : (paramsFrom(safetensors) ?? paramsFrom(ggufMeta) ?? e?.params ?? null);
  const tok = readTokenizerSettings(config);
  const ggufTemplate = typeof ggufMeta?.["chat_template"] === "string" ? ggufMeta["chat_template"] : null;
  const chatTemplate = tok.chatTemplate ?? ggufTemplate;
  // A template taken from the GGUF renders with the GGUF's own BOS/EOS tokens, as llama.cpp does.
  const fromGguf = tok.chatTemplate == null && ggufTemplate != null;
  const ggufToken = (key: "bos_token" | "eos_token") => (typeof ggufMeta?.[key] === "string" ? ggufMeta[key] : null);
  const bosToken = fromGguf ? (ggufToken("bos_token") ?? tok.bosToken) : tok.bosToken;
  const eosToken = fromGguf ? (ggufToken("eos_token") ?? tok.eosToken) : tok.eosToken;
  const chatTemplateJson = chatTemplate == null ? null : json(chatTemplate);
  const templateChanged =
    chatTemplateJson !== (ed?.chat_template ?? null) || bosToken !== (ed?.bos_token ?? null) || eosToken !== (ed?.eos_token ?? null);

  // A record with no pipeline tag is filed under the one task its provider mappings name (migration
  // 0013); a tag taken that way before is not the record's own, and is worked out again.
  const ownTag = pick(rec.pipelineTag, e?.pipeline_tag_from === "mapping" ? null : (e?.pipeline_tag ?? null), stringDefault(d, "pipeline_tag"));
  const mappedTag = ownTag === null ? taskOf({ pipelineTag: null, inferenceProviderMapping: providers }) : null;

  const model: NewModelRow = {
    id: rec.id,
    author: rec.author ?? e?.author ?? (rec.id.includes("/") ? rec.id.split("/")[0]! : ""),
    pipeline_tag: ownTag ?? mappedTag,
    pipeline_tag_from: mappedTag === null ? null : "mapping",
    library_name: pick(rec.libraryName, e?.library_name ?? null, stringDefault(d, "library_name")),
    license: facts.license,
    downloads,
    likes,
    trending_score: trendingScore({ likes, downloads, createdAt, asOf: statsOf }),
    params,
    created_at: createdAt,
    last_modified: pick(rec.lastModified, e?.last_modified ?? null, null),
    gated: pick(rec.gated, (e?.gated as "false" | "auto" | "manual" | undefined) ?? "false", "false"),
    stats_as_of: statsOf,
    providers: json(providers.map((x) => x.provider)),
    tags: json(tags),
    chat_template_status: chatTemplate == null ? null : templateChanged ? null : (e?.chat_template_status ?? null),
    imported_at: now,
  };

  const transformersInfo = resolveTransformersInfo(rec, ed, {
    config,
    tags,
    pipelineTag: ownTag,
    libraryName: model.library_name ?? null,
  });

  const touchesDetails =
    !!ed ||
    transformersInfo.info !== null ||
    [
      rec.sha, rec.cardMarkdown, rec.cardData, rec.config, rec.siblings, rec.safetensors, rec.gguf, rec.widgetData,
      rec.transformersInfo, rec.modelIndex, rec.spaces, rec.providers,
    ].some((v) => v !== undefined);

  let details: NewDetailsRow | null = null;
  if (touchesDetails) {
    details = {
      sha: pick(rec.sha, ed?.sha ?? null, null),
      languages: json(facts.languages),
      datasets: json(facts.datasets),
      base_models: json(facts.baseModels),
      card_md: pick(rec.cardMarkdown, ed?.card_md ?? null, null),
      card_data: cardData == null ? null : json(cardData),
      config: config == null ? null : json(config),
      chat_template: chatTemplateJson,
      bos_token: bosToken,
      eos_token: eosToken,
      chat_template_issue: templateChanged ? null : (ed?.chat_template_issue ?? null),
      siblings: rec.siblings !== undefined ? json(rec.siblings) : (ed?.siblings ?? "[]"),
      safetensors: safetensors == null ? null : json(safetensors),
      gguf: ggufMeta == null ? null : json(ggufMeta),
      widget_data: rec.widgetData !== undefined ? (rec.widgetData == null ? null : json(rec.widgetData)) : (ed?.widget_data ?? null),
      transformers_info: transformersInfo.info,
      transformers_info_source: transformersInfo.source,
      model_index: rec.modelIndex !== undefined ? (rec.modelIndex == null ? null : json(rec.modelIndex)) : (ed?.model_index ?? null),
      spaces: rec.spaces !== undefined ? json(rec.spaces) : (ed?.spaces ?? "[]"),
      provider_mapping: json(providers),
    };
  }

  const modelSame = !!e && sameRow(model, e, ["imported_at", "trending_score"]);
  const detailsSame =
    details === null || (!!ed && sameRow(details, ed, []));
  if (!isNew && modelSame && detailsSame && !templateChanged) return null;

  const oldFacts = e ? deriveFacts(parseJson<string[]>(e.tags, []), parseJson(ed?.card_data, null)) : null;
  const tagsChanged = isNew || json([...facts.filterTags].sort()) !== json([...(oldFacts?.filterTags ?? [])].sort());
  const basesChanged = isNew || json(facts.baseModels) !== json(oldFacts?.baseModels ?? []);
  const providersChanged = rec.providers !== undefined && json(providers) !== json(oldProviders);
  const spacesChanged = rec.spaces !== undefined && json(rec.spaces) !== (ed?.spaces ?? "[]");

  return {
    model,
    details,
    tags: tagsChanged ? facts.filterTags : null,
    providers: providersChanged || (isNew && providers.length) ? providers : null,
    bases: basesChanged ? facts.baseModels : null,
    spaces: spacesChanged ? (rec.spaces ?? []) : null,
    templateToValidate: chatTemplate != null && templateChanged ? { source: chatTemplate, bos: bosToken, eos: eosToken } : null,
    isNew,
  };
}

/**
 * Imports records in transactional batches: a crash loses at most the batch in flight, and
 * every committed batch is complete (model, details, tags, providers and links together).
 */
export async function importPaths(handle: DatabaseHandle, paths: string[], opts: ImportOptions = {}): Promise<ImportSummary> {
  return importItems(handle, readSources(paths), opts);
}

export async function importItems(
  handle: DatabaseHandle,
  items: AsyncIterable<SourceItem>,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  let batchSize = opts.batchSize ?? 2000;
  const statsAsOf = opts.statsAsOf ?? null;
  const started = Date.now();
  const summary: ImportSummary = { rows: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, source: "", elapsedMs: 0, rejections: [] };
  const seen = new Map<string, Map<string, number>>();
  let batch: Pending[] = [];
  // A crashed bulk load left work pending: finish it before touching the data.
  await finishBulkLoad(handle, opts.onStep);
  const bulk = (await countModels(handle.db)) === 0 && (await startBulkLoad(handle));
  // Filling an empty catalogue: bigger transactions rewrite each tag-index page fewer times.
  if (bulk && opts.batchSize === undefined) batchSize = 10_000;
  let lastReport = 0;

  const reject = (source: string, line: number, id: string | null, reason: string) => {
    summary.rejected++;
    summary.rejections.push({ source, line, id, reason });
    importRejections.inc();
  };

  const report = (force = false) => {
    const now = Date.now();
    if (!opts.onProgress || (!force && now - lastReport < 250)) return;
    lastReport = now;
    opts.onProgress({ ...summary, elapsedMs: now - started });
  };

  const flush = async () => {
    if (!batch.length) return;
    const current = batch;
    batch = [];
    const now = new Date().toISOString();
    const existing = await fetchExistingModels(handle.db, current.map((p) => p.rec.id));
    const planned: Planned[] = [];
    for (const p of current) {
      const pl = plan(p, existing.get(p.rec.id), statsAsOf, now);
      if (pl) planned.push(pl);
      else summary.unchanged++;
    }
    importRows.inc({ outcome: "unchanged" }, current.length - planned.length);
    if (!planned.length) return;

    // Template validation renders templates, so it runs before the write transaction opens.
    if (opts.validateTemplate) {
      for (const pl of planned) {
        if (!pl.templateToValidate) continue;
        const { source, bos, eos } = pl.templateToValidate;
        const res = await opts.validateTemplate(source, bos, eos);
        pl.model.chat_template_status = res.status;
        if (pl.details) pl.details.chat_template_issue = res.issue ? json(res.issue) : null;
      }
    }

    await handle.db.transaction().execute(async (trx) => {
      const rids = await upsertModels(trx, planned.map((p) => p.model), handle.sqlite);
      const ridOf = new Map(rids.map((r) => [r.id, r.rid]));
      const rid = (p: Planned) => ridOf.get(p.model.id)!;
      indexNewModelIds(
        handle.sqlite,
        planned.filter((p) => p.isNew).map((p) => ({ rid: rid(p), id: p.model.id })),
      );

      const details = planned.filter((p) => p.details).map((p) => ({ ...p.details!, rid: rid(p) }));
      if (details.length) await upsertDetails(trx, details);

      const tagged = planned.filter((p) => p.tags);
      if (tagged.length) {
        await replaceModelTags(
          trx,
          tagged.filter((p) => !p.isNew).map(rid),
          // Sorted by tag so inserts walk each tag's range of the (tag, rid) key in order.
          tagged
            .flatMap((p) => p.tags!.map((tag) => ({ rid: rid(p), tag })))
            .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : a.rid - b.rid)),
          handle.sqlite,
        );
      }
      const withProviders = planned.filter((p) => p.providers);
      if (withProviders.length) {
        await replaceModelProviders(
          trx,
          withProviders.map(rid),
          withProviders.flatMap((p) =>
            p.providers!.map(
              (m): ProviderRow => ({
                rid: rid(p),
                provider: m.provider,
                provider_id: m.providerId,
                task: m.task,
                status: m.status,
                adapter: m.adapter,
                adapter_weights_path: m.adapterWeightsPath,
              }),
            ),
          ),
        );
      }
      const withBases = planned.filter((p) => p.bases);
      if (withBases.length) {
        await replaceModelBases(
          trx,
          withBases.filter((p) => !p.isNew).map(rid),
          withBases.flatMap((p) => p.bases!.map((b) => ({ rid: rid(p), base_id: b.id, relation: b.relation }))),
          handle.sqlite,
        );
      }
      const withSpaces = planned.filter((p) => p.spaces);
      if (withSpaces.length) {
        await replaceSpaceLinks(
          trx,
          withSpaces.map((p) => p.model.id),
          withSpaces.flatMap((p) => p.spaces!.map((s) => ({ space_id: s, model_id: p.model.id }))),
        );
      }
      await bumpCatalogueGeneration(trx);
    });
    let inserted = 0;
    for (const p of planned) if (p.isNew) inserted++;
    summary.inserted += inserted;
    summary.updated += planned.length - inserted;
    importRows.inc({ outcome: "inserted" }, inserted);
    importRows.inc({ outcome: "updated" }, planned.length - inserted);
  };

  for await (const item of items) {
    // A batch never spans two files: records for one id in two files must merge in order.
    if (item.source !== summary.source && batch.length) await flush();
    summary.rows++;
    summary.source = item.source;
    if (item.kind === "reject") {
      reject(item.source, item.line, null, item.reason);
      report();
      continue;
    }
    const parsed = importRecordSchema.safeParse(item.value);
    const rawId =
      item.value && typeof item.value === "object" && "id" in item.value && typeof item.value.id === "string" ? item.value.id : null;
    if (!parsed.success) {
      reject(item.source, item.line, rawId, describeIssues(parsed.error));
      report();
      continue;
    }
    if (!parsed.data.id && !parsed.data.modelId) {
      reject(item.source, item.line, null, "id: missing (every record needs an 'id' like 'org/name')");
      report();
      continue;
    }
    const rec = normalizeRecord(parsed.data);
    let perFile = seen.get(item.source);
    if (!perFile) seen.set(item.source, (perFile = new Map<string, number>()));
    const firstLine = perFile.get(rec.id);
    if (firstLine !== undefined) {
      reject(item.source, item.line, rec.id, `duplicate id '${rec.id}' (first seen on line ${firstLine}); the first one was kept`);
      report();
      continue;
    }
    perFile.set(rec.id, item.line);
    batch.push({ rec, createDefaults: item.createDefaults });
    if (batch.length >= batchSize) {
      await flush();
      report(true);
    }
  }
  await flush();
  if (bulk) await finishBulkLoad(handle, opts.onStep);
  summary.elapsedMs = Date.now() - started;
  report(true);
  return summary;
}

export type { DetailsRow };
