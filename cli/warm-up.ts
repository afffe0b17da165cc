import type { AddressInfo } from "node:net";

/**
 * Pages the server asks itself for once the catalogue's background work is done: V8 compiles a
 * function on its first call and optimises it once it has run a while, and the first /models
 * request of a process spent some 100 ms compiling the loader, the listing code and the page's
 * components (issue 14 measured the first request of every filter set, including in the seconds
 * after start). One view for each way the in-memory listing finds rows and pages
 * (memory-listing.server.ts): facet profiles alone, a common and a rare search (a walk of the sort
 * order, and a few rows sorted by the database), an author and a prefixed tag (candidate rows from
 * SQL), a size range inside a bucket, and the API's list. ADR 0037 found nineteen views of every
 * shape the planner took better than six; the planner's shapes are gone (issue 33), and so are the
 * views that only it told apart.
 *
 * Last, one page of highlighted code: the first such page of a process makes the shared shiki
 * highlighter and compiles its grammars (app/utils/highlight.server.ts), which took a task guide
 * or the API docs some 0.5 s, against 10–80 ms once made.
 */
export const WARM_PATHS = [
  "/models",
  "/models?pipeline_tag=text-generation&library=transformers&sort=likes",
  "/models?search=llama&other=gguf",
  "/models?search=zephyr-7b&license=mit&sort=created",
  "/models?author=google&other=endpoints_compatible&sort=downloads",
  "/models?other=base_model:meta-llama/Meta-Llama-3-8B&sort=updated",
  "/models?params=7-8&sort=trending",
  "/api/models?limit=30",
  "/api/models?search=instruct&filter=conversational&sort=createdAt&limit=30",
  "/docs/api",
];

/** The address the server can reach itself at, from what it listens on. */
export function loopbackUrl(address: AddressInfo): string {
  const wildcard = address.address === "::" || address.address === "0.0.0.0";
  const host = wildcard ? (address.family === "IPv6" ? "::1" : "127.0.0.1") : address.address;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}

/** Best effort: a page that fails here fails for its visitor too, with its own error. */
export async function warmUp(base: string): Promise<void> {
  for (const path of WARM_PATHS) {
    try {
      // Uncompressed: gzip here and its undoing in fetch cost the event loop some 25–40 ms of the
      // warm-up at 3.04M rows, while the first visitors' requests wait on it.
      const res = await fetch(base + path, { signal: AbortSignal.timeout(15_000), headers: { "user-agent": "modelyard-warm-up", "accept-encoding": "identity" } });
      await res.arrayBuffer();
    } catch {
      // Nothing to do: the visitor's own request will report whatever went wrong.
    }
  }
}
