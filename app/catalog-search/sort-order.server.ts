import { sql } from "kysely";
import { SORT_KEYS, type SortKey } from "#app/catalog/sort-keys.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { orderBy } from "#app/catalog-search/sql.server.ts";

/** Bytes of the id list parsed per slice: about a millisecond. */
const PARSE_SLICE = 250_000;

/**
 * Every row id in each sort's descending order, as the listing's own ORDER BY puts them
 * (`orderBy`), so a page read from these cannot disagree with one read from the database.
 *
 * Each order is one aggregate query (the database sorts, in its own process or SQLite's reader
 * thread) that returns the ids as one comma-separated string: a single value crosses to the event
 * loop, and it is parsed here in slices.
 */
export async function readSortOrders(handle: DatabaseHandle, pause: () => Promise<void>): Promise<Record<SortKey, Uint32Array>> {
  const out: Partial<Record<SortKey, Uint32Array>> = {};
  for (const sort of SORT_KEYS) {
    const order = orderBy(handle.dialect, sort, false);
    const q =
      handle.dialect === "sqlite"
        ? sql<{ ids: string | null }>`select group_concat(m.rid, ',' order by ${order}) as ids from models m`
        : sql<{ ids: string | null }>`select string_agg(m.rid::text, ',' order by ${order}) as ids from models m`;
    const r = await q.execute(handle.reader);
    out[sort] = await parseIds(r.rows[0]?.ids ?? "", pause);
  }
  return out as Record<SortKey, Uint32Array>;
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
