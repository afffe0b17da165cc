import { sql } from "kysely";
import { SORT_KEYS, type SortKey } from "#app/catalog/sort-keys.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { SORT_COLUMN, orderBy } from "#app/catalog-search/sql/sql.server.ts";

/** Bytes of the id list parsed per slice: about a millisecond. */
const PARSE_SLICE = 250_000;

/**
 * Every row id in each sort's descending order, as the listing's own ORDER BY puts them
 * (`orderBy`), so a page read from these cannot disagree with one read from the database.
 *
 * Each order is read as comma-separated text (one value per query crosses to the event loop, where
 * structured rows would be hundreds of thousands of objects), and parsed here in slices.
 */
export async function readSortOrders<T>(handle: DatabaseHandle, pause: () => Promise<void>, keep: (order: Uint32Array) => T): Promise<Record<SortKey, T>> {
  const out: Partial<Record<SortKey, T>> = {};
  // Each order is made into what is kept before the next is read: one full order at a time.
  for (const sort of SORT_KEYS) out[sort] = keep(handle.dialect === "sqlite" ? await readSqliteOrder(handle, sort, pause) : await readPostgresOrder(handle, sort, pause));
  return out as Record<SortKey, T>;
}

/** Rows per chunk of a SQLite order: a few hundred kilobytes of text per message from the reader thread. */
const SQLITE_CHUNK = 50_000;

/**
 * SQLite walks the sort's own index, which is already in this order, and
 * group_concat keeps its input's order: four times faster than sorting inside the aggregate.
 * SQLite is pinned with better-sqlite3, and the page tests compare with ORDER BY on both engines.
 * In chunks: one 5 MB string grew each reader thread's heap by tens of megabytes for good.
 */
async function readSqliteOrder(handle: DatabaseHandle, sort: SortKey, pause: () => Promise<void>): Promise<Uint32Array> {
  const index = sql.raw(`models_${SORT_COLUMN[sort]}`);
  const order = orderBy(handle.dialect, sort, false);
  const parts: Uint32Array[] = [];
  let total = 0;
  for (let offset = 0; ; offset += SQLITE_CHUNK) {
    const r = await sql<{ ids: string | null }>`select group_concat(rid, ',') as ids from (select m.rid from models m indexed by ${index} order by ${order} limit ${SQLITE_CHUNK} offset ${offset})`.execute(handle.reader);
    const part = await parseIds(r.rows[0]?.ids ?? "", pause);
    parts.push(part);
    total += part.length;
    if (part.length < SQLITE_CHUNK) break;
  }
  const ids = new Uint32Array(total);
  let at = 0;
  for (const part of parts) {
    ids.set(part, at);
    at += part.length;
  }
  return ids;
}

/** PostgreSQL sorts inside the aggregate, in its own process. */
async function readPostgresOrder(handle: DatabaseHandle, sort: SortKey, pause: () => Promise<void>): Promise<Uint32Array> {
  const order = orderBy(handle.dialect, sort, false);
  const r = await sql<{ ids: string | null }>`select string_agg(m.rid::text, ',' order by ${order}) as ids from models m`.execute(handle.reader);
  return parseIds(r.rows[0]?.ids ?? "", pause);
}

/** "3,1,2" → [3, 1, 2], in slices (over bytes: indexing a long string is slower than a buffer). */
export async function parseIds(text: string, pause: () => Promise<void>): Promise<Uint32Array> {
  if (text === "") return new Uint32Array(0);
  const bytes = Buffer.from(text, "latin1");
  let n = 1;
  for (let from = 0; from < bytes.length; from += PARSE_SLICE) {
    const to = Math.min(bytes.length, from + PARSE_SLICE);
    for (let i = from; i < to; i++) if (bytes[i] === 44) n++;
    await pause();
  }
  const ids = new Uint32Array(n);
  let k = 0;
  let v = 0;
  for (let from = 0; from < bytes.length; from += PARSE_SLICE) {
    const to = Math.min(bytes.length, from + PARSE_SLICE);
    for (let i = from; i < to; i++) {
      const c = bytes[i]!;
      if (c === 44) {
        ids[k++] = v;
        v = 0;
      } else v = v * 10 + (c - 48);
    }
    if (to < bytes.length) await pause();
  }
  ids[k] = v;
  return ids;
}
