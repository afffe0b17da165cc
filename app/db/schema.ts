import type { ColumnType, Generated } from "kysely";

/**
 * Kysely table types. JSON lives in TEXT columns on both engines so the two dialects return the
 * same JavaScript values; see docs/decisions/0002-catalogue-schema.md.
 */
export interface ModelsTable {
  rid: Generated<number>;
  id: string;
  author: string;
  pipeline_tag: string | null;
  /** "mapping" when pipeline_tag is the one task the provider mappings name, the record naming none (migration 0013). */
  pipeline_tag_from: string | null;
  library_name: string | null;
  license: string | null;
  downloads: number;
  likes: number;
  trending_score: number;
  params: number | null;
  created_at: string | null;
  last_modified: string | null;
  gated: string;
  stats_as_of: string | null;
  /** Comma-free JSON array of provider names, denormalised for listing rows. */
  providers: string;
  tags: string;
  chat_template_status: string | null;
  imported_at: string;
}

export interface ModelDetailsTable {
  rid: number;
  sha: string | null;
  languages: string;
  datasets: string;
  base_models: string;
  card_md: string | null;
  card_data: string | null;
  config: string | null;
  chat_template: string | null;
  bos_token: string | null;
  eos_token: string | null;
  chat_template_issue: string | null;
  siblings: string;
  safetensors: string | null;
  gguf: string | null;
  widget_data: string | null;
  transformers_info: string | null;
  /** "hub", or how the importer derived transformers_info: "config", "tags", "task", "default" (migration 0007). */
  transformers_info_source: string | null;
  model_index: string | null;
  spaces: string;
  provider_mapping: string;
}

export interface ModelTagsTable {
  tag: string;
  rid: number;
}

export interface ModelProvidersTable {
  rid: number;
  provider: string;
  provider_id: string;
  task: string;
  status: string | null;
  adapter: string | null;
  adapter_weights_path: string | null;
}

export interface ModelBasesTable {
  rid: number;
  base_id: string;
  relation: string;
}

export interface SpacesTable {
  id: string;
  author: string;
  title: string | null;
  sdk: string | null;
  source: string;
}

export interface SpaceModelsTable {
  space_id: string;
  model_id: string;
}

/** Task guides (TASKS_DATA[task].spaces) that recommend a Space; migration 0002. */
export interface SpaceTasksTable {
  space_id: string;
  task: string;
  description: string | null;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface FacetCacheTable {
  key: string;
  generation: number;
  value: string;
  computed_at: ColumnType<string, string, string>;
}

/** The listing index saved per catalogue generation (migration 0011, app/catalog-search/index/index-store.server.ts). */
export interface ListingIndexTable {
  build: string;
  seq: number;
  generation: number;
  bytes: Uint8Array;
}

/** People who may sign in (migration 0009, ADR 0038). `disabled` is 0 or 1 on both engines. */
export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  role: string;
  disabled: number;
  password_hash: string | null;
  oidc_subject: string | null;
  quota_rpm: number | null;
  quota_tokens_per_day: number | null;
  created_at: string;
  last_sign_in_at: string | null;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface SignInLinksTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  display_prefix: string;
  /** Comma-separated: read, inference. */
  scopes: string;
  rpm: number | null;
  tokens_per_day: number | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface UsageRecordsTable {
  id: Generated<number>;
  at: string;
  day: string;
  user_id: string | null;
  token_id: string | null;
  subject: string;
  model: string | null;
  provider: string | null;
  task: string | null;
  paid_by: string;
  status: number;
  duration_ms: number;
  ttft_ms: number | null;
  tokens_in: number | null;
  tokens_out: number | null;
  bill_to: string | null;
  /** The route the call came through: /api/inference or a /v1 path (migration 0010). */
  endpoint: Generated<string>;
}

export interface RateCountersTable {
  key: string;
  window_start: number;
  count: number;
}

export interface Database {
  models: ModelsTable;
  model_details: ModelDetailsTable;
  model_tags: ModelTagsTable;
  model_providers: ModelProvidersTable;
  model_bases: ModelBasesTable;
  spaces: SpacesTable;
  space_models: SpaceModelsTable;
  space_tasks: SpaceTasksTable;
  meta: MetaTable;
  facet_cache: FacetCacheTable;
  listing_index: ListingIndexTable;
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_links: SignInLinksTable;
  api_tokens: ApiTokensTable;
  usage_records: UsageRecordsTable;
  rate_counters: RateCountersTable;
}
