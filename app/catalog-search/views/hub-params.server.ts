import { INFERENCE_PROVIDERS } from "@huggingface/inference";
import { PIPELINE_TYPES } from "@huggingface/tasks";
import { z } from "zod";
import { HUB_EXPANDABLE, HUB_SORTS, type HubExpandable, type HubSort } from "#app/catalog/hub-api.ts";
import { isLanguageCode } from "#app/catalog/languages.ts";
import { type CatalogFilters, MAX_SEARCH_LENGTH, emptyFilters } from "#app/catalog-search/listing-params.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import { isCatalogueTask } from "#app/catalog/task-colors.ts";
import type { Cursor } from "#app/catalog-search/sql/sql.server.ts";
import { hubError } from "#app/utils/http.server.ts";

/**
 * Parameters of the Hub-compatible `/api/models` endpoints. Anything invalid throws a ParamError
 * that names the parameter and what it accepts; routes answer it with a 400.
 */

export const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 1000;

export class ParamError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
    readonly allowed: string | readonly string[],
  ) {
    super(message);
  }
}

const token = z.string().min(1).max(200).regex(/^[^\s<>"'`]+$/);
const flag = z.enum(["", "true", "false", "1", "0"]);
// Built once: constructing a zod schema per request cost about a millisecond of each API call.
const limitSchema = z.coerce.number().int().min(1).max(MAX_LIMIT);
// A row id is a 32-bit integer in both engines' schema; a larger one would fail the query (a 500).
const cursorSchema = z.object({ v: z.union([z.string(), z.number(), z.null()]), rid: z.number().int().nonnegative().max(2 ** 31 - 1) });

/**
 * Whether a cursor's sort value is one its sort's column can hold, as a cursor this server issued
 * is: PostgreSQL refuses to compare a bigint with "abc" or a real with 1e300, which would be a 500.
 * Downloads are a bigint, which PostgreSQL's driver hands over as a string of digits.
 */
function cursorFits(sort: SortKey, v: string | number | null): boolean {
  switch (sort) {
    case "downloads":
      return typeof v === "number" ? Number.isSafeInteger(v) : typeof v === "string" && /^-?\d{1,18}$/.test(v);
    case "likes":
      return typeof v === "number" && Number.isInteger(v) && Math.abs(v) < 2 ** 31;
    case "trending":
      return typeof v === "number" && Number.isFinite(v) && Math.abs(v) < 3e38;
    case "created":
    case "updated":
      return typeof v === "string" || v === null;
  }
}

export interface ListParams {
  filters: CatalogFilters;
  sort: HubSort;
  ascending: boolean;
  limit: number;
  full: boolean;
  cardData: boolean;
  config: boolean;
  expand: HubExpandable[];
  cursor: Cursor | null;
}

function single(params: URLSearchParams, name: string): string | null {
  const all = params.getAll(name);
  if (all.length > 1) throw new ParamError(name, `'${name}' may be given once`, "a single value");
  const v = all[0];
  return v === undefined ? null : v;
}

function parseFlag(params: URLSearchParams, name: string): boolean {
  const v = single(params, name);
  if (v === null) return false;
  const r = flag.safeParse(v.toLowerCase());
  if (!r.success) throw new ParamError(name, `'${name}' must be true or false, got '${v.slice(0, 40)}'`, ["true", "false"]);
  return r.data === "" || r.data === "true" || r.data === "1";
}

function parseToken(params: URLSearchParams, name: string, allowed: string): string | null {
  const v = single(params, name);
  if (v === null || v === "") return null;
  const r = token.safeParse(v);
  if (!r.success) throw new ParamError(name, `'${name}' is not valid: '${v.slice(0, 60)}'`, allowed);
  return r.data;
}

/**
 * What /docs/api says of each parameter `parseListParams` reads, in its words; a test holds the
 * two together (hub-list.server.test.ts).
 */
export const HUB_LIST_PARAMETERS: ReadonlyArray<{ name: string; accepts: string }> = [
  { name: "search", accepts: `Part of the model id, any case, up to ${MAX_SEARCH_LENGTH} characters.` },
  { name: "author", accepts: "A user or organisation: its models only." },
  { name: "pipeline_tag", accepts: "A task id, such as text-generation." },
  { name: "filter", accepts: "Tags every model carries (a library, license:mit, a language, a task), comma-separated or repeated; up to 10." },
  { name: "library", accepts: "A library, such as transformers or gguf." },
  { name: "license", accepts: "A licence id, such as apache-2.0." },
  { name: "language", accepts: "An ISO 639-1 code, such as en." },
  { name: "inference_provider", accepts: "One provider, such as together: the models the catalogue maps to it." },
  { name: "sort", accepts: `${Object.keys(HUB_SORTS).join(", ")}; trendingScore when left out.` },
  { name: "direction", accepts: "-1 (the default: largest or newest first) or 1." },
  { name: "limit", accepts: `Models a page, 1 to ${MAX_LIMIT}; ${DEFAULT_LIMIT} when left out.` },
  { name: "full", accepts: "true adds author, gated, lastModified, disabled, sha and siblings where the catalogue holds them." },
  { name: "cardData", accepts: "true adds the model card's metadata where the catalogue holds it." },
  { name: "config", accepts: "true adds the model's config where the catalogue holds it." },
  { name: "expand[]", accepts: "Repeated (as expand[] or expand): exactly these fields instead of the default set; also on /api/models/{id}." },
  { name: "cursor", accepts: "The next page's place: take it from the Link header, never make it." },
];

export function parseListParams(params: URLSearchParams): ListParams {
  const filters = emptyFilters();
  const search = single(params, "search");
  if (search !== null) {
    if (search.length > MAX_SEARCH_LENGTH) throw new ParamError("search", `'search' is longer than ${MAX_SEARCH_LENGTH} characters`, `up to ${MAX_SEARCH_LENGTH} characters`);
    filters.search = search.trim() || null;
  }
  filters.author = parseToken(params, "author", "a user or organisation name");
  const task = parseToken(params, "pipeline_tag", "a pipeline tag");
  if (task !== null) {
    if (!isCatalogueTask(task)) throw new ParamError("pipeline_tag", `Unknown pipeline_tag '${task}'`, PIPELINE_TYPES);
    filters.pipelineTag = task;
  }
  const library = parseToken(params, "library", "a library name such as transformers");
  if (library) filters.tags.push(library);
  const license = parseToken(params, "license", "a license id such as apache-2.0");
  if (license) filters.license = license.toLowerCase().replace(/^license:/, "");
  const language = parseToken(params, "language", "an ISO 639-1 code such as en");
  if (language) {
    if (!isLanguageCode(language.toLowerCase())) throw new ParamError("language", `Unknown language code '${language}'`, "ISO 639-1 codes such as en, fr, zh");
    filters.tags.push(language.toLowerCase());
  }
  for (const raw of params.getAll("filter")) {
    for (const f of raw.split(",")) {
      if (f === "") continue;
      const r = token.safeParse(f);
      if (!r.success) throw new ParamError("filter", `'filter' is not a valid tag: '${f.slice(0, 60)}'`, "tags such as text-generation, license:mit, en");
      // The Hub lets a task be given as a filter tag; its pipeline_tag is the reliable field.
      if (isCatalogueTask(r.data) && filters.pipelineTag === null) filters.pipelineTag = r.data;
      else filters.tags.push(r.data);
    }
  }
  if (filters.tags.length > 10) throw new ParamError("filter", "At most 10 tags can be combined", "up to 10 tags");
  const provider = parseToken(params, "inference_provider", "a provider name");
  if (provider) {
    const names = provider.split(",");
    if (names.length > 1) throw new ParamError("inference_provider", "One inference provider at a time", INFERENCE_PROVIDERS);
    filters.provider = names[0]!;
  }

  const sortRaw = single(params, "sort");
  let sort: HubSort = "trendingScore";
  if (sortRaw !== null && sortRaw !== "") {
    if (!Object.hasOwn(HUB_SORTS, sortRaw)) throw new ParamError("sort", `Unknown sort '${sortRaw.slice(0, 40)}'`, Object.keys(HUB_SORTS));
    sort = sortRaw as HubSort;
  }
  const dir = single(params, "direction");
  if (dir !== null && dir !== "-1" && dir !== "1") throw new ParamError("direction", `'direction' must be -1 or 1, got '${dir.slice(0, 20)}'`, ["-1", "1"]);

  const limitRaw = single(params, "limit");
  let limit = DEFAULT_LIMIT;
  if (limitRaw !== null) {
    const r = limitSchema.safeParse(limitRaw);
    if (!r.success || limitRaw.trim() === "") throw new ParamError("limit", `'limit' must be a whole number from 1 to ${MAX_LIMIT}, got '${limitRaw.slice(0, 20)}'`, `1-${MAX_LIMIT}`);
    limit = r.data;
  }

  const expand = parseExpand(params);

  let cursor: Cursor | null = null;
  const c = single(params, "cursor");
  if (c !== null) {
    try {
      cursor = cursorSchema.parse(JSON.parse(Buffer.from(c, "base64url").toString("utf8")));
      if (!cursorFits(HUB_SORTS[sort], cursor.v)) throw new Error("a sort value this sort's column cannot hold");
    } catch {
      throw new ParamError("cursor", "'cursor' is not one this server issued; follow the Link header", "the value from a Link: rel=\"next\" header");
    }
  }

  return {
    filters,
    sort,
    ascending: dir === "1",
    limit,
    full: parseFlag(params, "full"),
    cardData: parseFlag(params, "cardData"),
    config: parseFlag(params, "config"),
    expand,
    cursor,
  };
}


/** `expand[]=a&expand[]=b` (as the inference library sends) or `expand=a&expand=b` (as @huggingface/hub does). */
export function parseExpand(params: URLSearchParams): HubExpandable[] {
  const expand: HubExpandable[] = [];
  for (const name of ["expand", "expand[]"]) {
    for (const v of params.getAll(name)) {
      if (!(HUB_EXPANDABLE as readonly string[]).includes(v)) throw new ParamError("expand", `Unknown expand field '${v.slice(0, 60)}'`, HUB_EXPANDABLE);
      if (!expand.includes(v as HubExpandable)) expand.push(v as HubExpandable);
    }
  }
  return expand;
}

export function paramErrorResponse(e: ParamError): Response {
  return hubError(400, e.message, { parameter: e.parameter, allowed: e.allowed });
}
