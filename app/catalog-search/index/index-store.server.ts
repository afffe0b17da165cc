import v8 from "node:v8";
import vm from "node:vm";
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { FacetIndexParts } from "#app/catalog-search/index/facet-index.server.ts";
import { SORT_KEYS, type SortKey } from "#app/catalog/sort-keys.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";

/**
 * The listing index saved with the catalogue generation it was built from (ADR 0045). Building it
 * reads and parses every row (some 20 s at 760k models, 70 s at 3M); loading it is a read of its
 * arrays' bytes. A process that starts on an unchanged catalogue, or a second instance on the same
 * PostgreSQL, loads it, so the window in which the database answers listings alone is short.
 *
 * Layout: the arrays' bytes in chunks (seq 1…n), then the header (seq 0: the parts as JSON with
 * each typed array replaced by its kind and length), written last and in one statement, so a
 * build is visible only once it is whole.
 */

/** Bumped when the saved layout changes meaning without changing shape; older saves are then rebuilt. */
const FORMAT = 1;
/** Bytes per chunk row: well under PostgreSQL's 1 GB bytea limit, and one allocation at a time to read. */
const CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Chunks read per query when loading. One: each chunk is garbage once copied, and the thread's
 * collector lets some 60 MB of them pile up before it runs; eight per query put the server's peak
 * RSS at 3.04M models at 528–530 MB, one at 469–471, for the same load time (ADR 0046).
 */
const CHUNKS_PER_READ = 1;

const TYPED = { Uint8Array, Int32Array, Uint32Array } as const;
type TypedName = keyof typeof TYPED;
type Typed = Uint8Array | Int32Array | Uint32Array;

const u32 = z.instanceof(Uint32Array);
const orderSchema = z.strictObject({ head: u32, inHead: z.instanceof(Uint8Array) });
const ordersSchema = z.strictObject(Object.fromEntries(SORT_KEYS.map((k) => [k, orderSchema])) as Record<SortKey, typeof orderSchema>);

const coverageSchema = z.strictObject({
  rows: z.number().int().nonnegative(),
  unranked: z.number().int().nonnegative(),
  asOf: z.strictObject({ from: z.string(), to: z.string() }).nullable(),
});

/** What a loaded header must hold: the parts exactly, so a save from a different layout is rebuilt rather than misread. */
const partsSchema = z.strictObject({
  data: z.strictObject({
    generation: z.number().int(),
    ridBase: z.number().int(),
    byRid: z.instanceof(Int32Array),
    counts: u32,
    pTask: u32,
    pLibrary: u32,
    pLicense: u32,
    pBucket: z.instanceof(Uint8Array),
    pTagEnd: u32,
    tagIds: u32,
    pProviderEnd: u32,
    providerIds: u32,
    tasks: z.array(z.string()),
    libraries: z.array(z.string()),
    licenses: z.array(z.string()),
    tags: z.array(z.string()),
    providers: z.array(z.string()),
  }),
  listing: z
    .strictObject({
      ids: z.strictObject({ text: z.instanceof(Uint8Array), ends: u32, ridBase: z.number().int().nonnegative(), filter: u32 }),
      orders: ordersSchema,
      coverage: z.strictObject(Object.fromEntries(SORT_KEYS.map((k) => [k, coverageSchema])) as Record<SortKey, typeof coverageSchema>),
    })
    .nullable(),
}) satisfies z.ZodType<FacetIndexParts>;

const headerSchema = z.strictObject({
  format: z.number().int(),
  arrays: z.array(z.strictObject({ kind: z.enum(["Uint8Array", "Int32Array", "Uint32Array"]), length: z.number().int().nonnegative(), shared: z.boolean() })),
  parts: z.unknown(),
});

const TYPED_MARK = "$typed";

function kindOf(value: unknown): TypedName | null {
  if (value instanceof Uint8Array) return "Uint8Array";
  if (value instanceof Int32Array) return "Int32Array";
  if (value instanceof Uint32Array) return "Uint32Array";
  return null;
}

/** The parts as a header (JSON, typed arrays replaced by their place in `arrays`) and the arrays themselves. */
export function encodeParts(parts: FacetIndexParts): { header: Buffer; arrays: Typed[] } {
  const arrays: Typed[] = [];
  const described: Array<{ kind: TypedName; length: number; shared: boolean }> = [];
  const json = JSON.stringify(parts, (_key, value: unknown) => {
    const kind = kindOf(value);
    if (!kind) return value;
    const array = value as Typed;
    arrays.push(array);
    // The ids are shared memory, which the search thread scans (ADR 0033); they are loaded as such.
    described.push({ kind, length: array.length, shared: array.buffer instanceof SharedArrayBuffer });
    return { [TYPED_MARK]: arrays.length - 1 };
  });
  return { header: Buffer.from(JSON.stringify({ format: FORMAT, arrays: described, parts: JSON.parse(json) as unknown })), arrays };
}

/** `value` with each `{ $typed: i }` replaced by `arrays[i]`. */
function revive(value: unknown, arrays: Typed[]): unknown {
  if (Array.isArray(value)) return value.map((v: unknown) => revive(v, arrays));
  if (!value || typeof value !== "object") return value;
  const entries: Array<[string, unknown]> = Object.entries(value);
  const mark: unknown = entries.length === 1 && entries[0]?.[0] === TYPED_MARK ? entries[0][1] : undefined;
  if (typeof mark === "number") return arrays[mark];
  return Object.fromEntries(entries.map(([k, v]) => [k, revive(v, arrays)]));
}

/** The chunks of `arrays`' bytes, in order, each at most CHUNK_BYTES. */
function* chunksOf(arrays: Typed[]): Generator<Buffer> {
  for (const a of arrays) {
    // A Buffer over the array's own bytes (no copy): the SQLite driver takes blobs as Buffers.
    const bytes = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) yield bytes.subarray(at, Math.min(bytes.byteLength, at + CHUNK_BYTES));
  }
}

/**
 * Saves `parts` under its generation, unless the catalogue has moved past it or a save of it is
 * there. `replacing` names saves the caller found unreadable (loadSavedIndex's `broken`): they go
 * first, since they would otherwise stand in for this one and every start would build again.
 * Older generations' saves are deleted once this one is whole. Returns whether this
 * save is the one kept (another instance's save of the same generation may be kept instead).
 */
export async function saveIndexParts(db: Kysely<Database>, parts: FacetIndexParts, replacing: readonly string[] = []): Promise<boolean> {
  const generation = parts.data.generation;
  if ((await getCatalogueGeneration(db)) !== generation) return false;
  if (replacing.length) await db.deleteFrom("listing_index").where("generation", "=", generation).where("build", "in", [...replacing]).execute();
  // Another instance's save, or one that another setting of MODELYARD_LISTING_INDEX reads: kept.
  if (await savedBuild(db, generation)) return false;
  const build = randomUUID();
  const { header, arrays } = encodeParts(parts);
  let seq = 1;
  try {
    for (const chunk of chunksOf(arrays)) {
      await db.insertInto("listing_index").values({ build, seq: seq++, generation, bytes: chunk }).execute();
    }
    const saved = await db.transaction().execute(async (trx) => {
      // An import that landed while the chunks were written makes this a save of an older catalogue.
      if ((await getCatalogueGeneration(trx)) !== generation) return false;
      await trx.insertInto("listing_index").values({ build, seq: 0, generation, bytes: header }).execute();
      return true;
    });
    if (!saved) throw new Error("the catalogue changed while its index was saved");
  } catch (e) {
    await db.deleteFrom("listing_index").where("build", "=", build).execute().catch(() => undefined);
    if (e instanceof Error && e.message.startsWith("the catalogue changed")) return false;
    throw e;
  }
  // Older generations, and builds of them that never got their header (a process that stopped
  // while saving), are no use to anyone once this one is whole.
  await db.deleteFrom("listing_index").where("generation", "<", generation).execute();
  // Two instances that built the same generation at once both saved it: the build that sorts first
  // is the one every loader reads (savedBuild), so the other whole ones are deleted by whichever
  // save ends last. A build still being written (no header yet) is left to finish and do the same.
  const kept = await savedBuild(db, generation);
  if (kept) {
    const whole = db.selectFrom("listing_index").select("build").where("generation", "=", generation).where("seq", "=", 0);
    await db.deleteFrom("listing_index").where("generation", "=", generation).where("build", "<>", kept.build).where("build", "in", whole).execute();
  }
  return kept?.build === build;
}

/** The build of `generation` that loaders read: the first whole one by build id. */
async function savedBuild(db: Kysely<Database>, generation: number): Promise<{ build: string; bytes: Uint8Array } | undefined> {
  return db.selectFrom("listing_index").select(["build", "bytes"]).where("generation", "=", generation).where("seq", "=", 0).orderBy("build").limit(1).executeTakeFirst();
}

/** The header of a save, if this code reads its layout: the parts' shape checked with empty arrays in place of the chunks. */
function readableHeader(bytes: Uint8Array): z.infer<typeof headerSchema> | null {
  try {
    const header = headerSchema.safeParse(JSON.parse(Buffer.from(bytes).toString("utf8")));
    if (!header.success || header.data.format !== FORMAT) return null;
    const empty = header.data.arrays.map((a): Typed => new TYPED[a.kind](0));
    return partsSchema.safeParse(revive(header.data.parts, empty)).success ? header.data : null;
  } catch {
    return null;
  }
}

/** The parts saved for `generation`, or null when there are none this process can use (loadSavedIndex). */
export async function loadIndexParts(db: Kysely<Database>, generation: number, withListing: boolean): Promise<FacetIndexParts | null> {
  const loaded = await loadSavedIndex(db, generation, withListing);
  return "parts" in loaded ? loaded.parts : null;
}

/**
 * The parts saved for `generation`; else `none` (no save, or one of the other
 * MODELYARD_LISTING_INDEX setting, which its instances read), or `broken`, the build id of a save
 * no one can read (another layout, a chunk missing), which the caller's own save replaces.
 */
export async function loadSavedIndex(db: Kysely<Database>, generation: number, withListing: boolean): Promise<{ parts: FacetIndexParts } | { none: true } | { broken: string }> {
  const head = await savedBuild(db, generation);
  if (!head) return { none: true };
  const parts = await readSave(db, head, generation);
  if (!parts) return { broken: head.build };
  return (parts.listing !== null) === withListing ? { parts } : { none: true };
}

/**
 * Frees the chunks read so far. Each is a 4 MB buffer outside the heap, which V8 collects only once
 * some 64 MB of them are dead: a load's peak RSS stood ~30 MB higher at 3.04M rows. A minor
 * collection frees them (gc exposed as jest-leak-detector does it); without one, the load only
 * peaks higher.
 */
let minorGc: (() => void) | undefined;
function freeChunks(): void {
  if (!minorGc) {
    try {
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc") as (options: { type: "minor" }) => void;
      minorGc = () => gc({ type: "minor" });
    } catch {
      minorGc = () => undefined;
    }
  }
  minorGc();
}

async function readSave(db: Kysely<Database>, head: { build: string; bytes: Uint8Array }, generation: number): Promise<FacetIndexParts | null> {
  const header = readableHeader(head.bytes);
  if (!header) return null;
  const arrays = header.arrays.map((a): Typed => {
    const size = a.length * TYPED[a.kind].BYTES_PER_ELEMENT;
    const buffer = a.shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    return a.kind === "Uint8Array" ? new Uint8Array(buffer) : a.kind === "Int32Array" ? new Int32Array(buffer) : new Uint32Array(buffer);
  });
  // Copy the chunks into the arrays in order, reading a few chunks per query.
  let array = 0;
  let at = 0;
  for (let seq = 1; array < arrays.length; seq += CHUNKS_PER_READ) {
    const rows = await db
      .selectFrom("listing_index")
      .select(["seq", "bytes"])
      .where("build", "=", head.build)
      .where("seq", ">=", seq)
      .where("seq", "<", seq + CHUNKS_PER_READ)
      .orderBy("seq")
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      while (array < arrays.length && arrays[array]!.byteLength === at) {
        array++;
        at = 0;
      }
      const target = arrays[array];
      if (!target) return null;
      const into = new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
      if (at + row.bytes.byteLength > into.byteLength) return null;
      into.set(row.bytes, at);
      at += row.bytes.byteLength;
    }
    freeChunks();
  }
  while (array < arrays.length && arrays[array]!.byteLength === at) {
    array++;
    at = 0;
  }
  // A save missing chunks (which its header, written last, should rule out) is rebuilt, not trusted.
  if (array < arrays.length) return null;
  const parts = partsSchema.safeParse(revive(header.parts, arrays));
  if (!parts.success || parts.data.data.generation !== generation) return null;
  return parts.data;
}
