/**
 * One SQLite read connection in a worker thread (app/db/sqlite-readers.server.ts starts these).
 * A catalogue search can be one synchronous statement of tens of milliseconds; run here, it
 * holds this thread rather than the event loop that serves every other request.
 */
import { parentPort, workerData } from "node:worker_threads";
import SQLite from "better-sqlite3";
import { statementCache } from "#app/db/statement-cache.server.ts";

export interface ReaderJob {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

export type ReaderReply = { id: number; rows: unknown[] } | { id: number; error: string; code: string | null };

export interface ReaderWorkerData {
  file: string;
  cacheKib: number;
}

const port = parentPort;
if (port) {
  const data = workerData as ReaderWorkerData;
  const db = new SQLite(data.file, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  db.pragma(`cache_size = -${data.cacheKib}`);
  db.pragma("temp_store = MEMORY");
  db.pragma("mmap_size = 0");
  // The planner asks the same few shapes again and again.
  const prepare = statementCache(db);
  port.on("message", (job: ReaderJob) => {
    try {
      const statement = prepare(job.sql);
      if (!statement.reader) throw new Error("the read pool runs only statements that return rows");
      const reply: ReaderReply = { id: job.id, rows: statement.all(job.parameters) };
      port.postMessage(reply);
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : null;
      const reply: ReaderReply = { id: job.id, error: error instanceof Error ? error.message : String(error), code };
      port.postMessage(reply);
    }
  });
}
