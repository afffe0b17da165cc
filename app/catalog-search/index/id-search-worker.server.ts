/**
 * The search thread: scans a generation's id text, which it shares with the event loop's thread
 * (SharedArrayBuffer, so no copy), for one term at a time, and posts the matching row ids back
 * (id-search-thread.server.ts starts it; docs/decisions/0033-id-search-thread.md).
 */
import { parentPort } from "node:worker_threads";
import { IdScan, candidateRanges } from "#app/catalog-search/index/id-scan.server.ts";

export interface SearchJob {
  id: number;
  text: Uint8Array;
  ends: Uint32Array;
  ridBase: number;
  /** The text's trigram filter (id-scan.server.ts). */
  filter: Uint32Array;
  /** The term, ASCII-lower-cased, as latin1 bytes. */
  needle: Uint8Array;
  /** This thread's share of the text: the part-th of `parts` equal runs of filter blocks. */
  part: number;
  parts: number;
}

export type SearchReply = { id: number; rids: Uint32Array } | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on("message", (job: SearchJob) => {
    try {
      const text = Buffer.from(job.text.buffer, job.text.byteOffset, job.text.byteLength);
      const needle = Buffer.from(job.needle);
      const scan = new IdScan(text, job.ends, job.ridBase, needle);
      // Every candidate range in one go: this thread has no one else to make room for.
      scan.ranges(candidateRanges(job.ends, job.filter, needle, job.part, job.parts));
      const rids = scan.result();
      const reply: SearchReply = { id: job.id, rids };
      port.postMessage(reply, [rids.buffer]);
    } catch (error) {
      const reply: SearchReply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    }
  });
}
