import { Worker } from "node:worker_threads";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import type { ReaderJob, ReaderReply, ReaderWorkerData } from "#app/db/sqlite-reader-worker.server.ts";
import { workerStart } from "#app/utils/worker-start.server.ts";

// The server build rewrites this URL to the worker's emitted chunk (server/worker-entry-plugin.ts).
// Made when a pool starts, not when the module loads: the facet index thread bundles this module
// as code to evaluate, which has no import.meta.url, and never starts a pool.
const readerEntry = () => new URL("./sqlite-reader-worker.server.ts", import.meta.url);

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

interface Reader {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** A SQLite error from a reader, with better-sqlite3's code (SQLITE_BUSY, …) kept. */
export class SqliteReaderError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "SqliteReaderError";
  }
}

/**
 * Read-only connections to one SQLite file, each in its own worker thread: statements sent to
 * the least busy one, answered by message. WAL lets them read while the main connection writes;
 * each sees the last committed state, as a second process would.
 */
export class SqliteReaderPool {
  private readonly readers: Reader[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    size: number,
    cacheKib = 16_384,
  ) {
    const start = workerStart(readerEntry(), ["better-sqlite3"]);
    const data: ReaderWorkerData = { file, cacheKib };
    for (let i = 0; i < size; i++) {
      const worker = new Worker(start.script, { eval: start.eval, workerData: data });
      // Readers must not keep a finished CLI command alive; a pending query keeps its promise, not the process.
      worker.unref();
      const reader: Reader = { worker, pending: new Map() };
      worker.on("message", (reply: ReaderReply) => {
        const waiting = reader.pending.get(reply.id);
        if (!waiting) return;
        reader.pending.delete(reply.id);
        if ("rows" in reply) waiting.resolve(reply.rows);
        else waiting.reject(new SqliteReaderError(reply.error, reply.code));
      });
      worker.on("error", (error) => this.failAll(reader, error));
      worker.on("exit", (code) => {
        if (!this.closed) this.failAll(reader, new Error(`SQLite reader thread for ${this.file} exited with code ${code}`));
      });
      this.readers.push(reader);
    }
  }

  get size(): number {
    return this.readers.length;
  }

  private failAll(reader: Reader, error: Error): void {
    for (const waiting of reader.pending.values()) waiting.reject(error);
    reader.pending.clear();
    const i = this.readers.indexOf(reader);
    if (i >= 0) this.readers.splice(i, 1);
  }

  /** The rows of one read statement, from whichever reader has the fewest statements waiting. */
  all(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error("the SQLite read pool is closed"));
    let reader: Reader | undefined;
    for (const candidate of this.readers) if (!reader || candidate.pending.size < reader.pending.size) reader = candidate;
    if (!reader) return Promise.reject(new Error(`every SQLite reader thread for ${this.file} has stopped`));
    const id = this.nextId++;
    const job: ReaderJob = { id, sql, parameters };
    const target = reader;
    return new Promise<unknown[]>((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      if (target.pending.size === 1) target.worker.ref();
      target.worker.postMessage(job);
    }).finally(() => {
      if (target.pending.size === 0) target.worker.unref();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.readers.map((r) => r.worker.terminate()));
    this.readers.length = 0;
  }
}

class ReaderConnection implements DatabaseConnection {
  constructor(private readonly pool: SqliteReaderPool) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.pool.all(compiledQuery.sql, compiledQuery.parameters);
    return { rows: rows as R[] };
  }

   
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("the SQLite read pool does not stream; select a bounded page instead");
  }
}

class ReaderDriver implements Driver {
  private readonly connection: ReaderConnection;
  constructor(private readonly pool: SqliteReaderPool) {
    this.connection = new ReaderConnection(pool);
  }
  async init(): Promise<void> {}
  // Every caller shares the one connection object: statements are independent and the pool queues them.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  beginTransaction(): Promise<void> {
    return Promise.reject(new Error("the SQLite read pool has no transactions; write through the main connection"));
  }
  commitTransaction(): Promise<void> {
    return this.beginTransaction();
  }
  rollbackTransaction(): Promise<void> {
    return this.beginTransaction();
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.pool.close();
  }
}

/** A Kysely dialect whose statements run on a {@link SqliteReaderPool}: SELECTs only. */
export class SqliteReaderDialect implements Dialect {
  constructor(private readonly pool: SqliteReaderPool) {}
  createDriver(): Driver {
    return new ReaderDriver(this.pool);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
