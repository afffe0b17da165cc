import type { AddressInfo } from "node:net";

/**
 * Pages the server asks itself for once the catalogue's background work is done: V8 compiles a
 * function on its first call and optimises it once it has run a while, and the first /models
 * request of a process spent some 100 ms compiling the loader, the planner and the page's
 * components (issue 14 measured the first request of every filter set, including in the seconds
 * after start). Distinct filter sets of every shape a visitor's view takes (facets only, one or
 * several facets, a search common or rare, with a facet or an author, an author, each sort, the
 * API's), because sixteen new views at once right after six warm-up views still took 100 ms more
 * main-thread time, and 90 ms more of V8's compiler thread, than sixteen more did after them
 * (ADR 0037).
 */
export const WARM_PATHS = [
  "/models",
  "/models?pipeline_tag=text-generation&sort=likes",
  "/models?search=model&sort=downloads",
  "/models?other=conversational&license=apache-2.0&sort=created",
  "/api/models?limit=30",
  "/api/models?search=model&sort=likes&limit=30",
  "/models?author=google&other=endpoints_compatible&sort=downloads",
  "/models?pipeline_tag=text-classification&library=transformers&other=autotrain_compatible&sort=created",
  "/models?search=llama&other=gguf",
  "/models?search=whisper&license=mit&sort=created",
  "/models?search=bert&author=google&sort=likes",
  "/models?library=peft&sort=updated",
  "/models?other=safetensors&sort=downloads",
  "/models?pipeline_tag=image-classification&sort=created",
  "/models?license=mit&sort=likes",
  "/api/models?author=facebook&sort=lastModified&limit=30",
  "/api/models?filter=text-classification&sort=downloads&limit=30",
  "/api/models?search=instruct&filter=conversational&sort=createdAt&limit=30",
  "/api/models?pipeline_tag=fill-mask&library=transformers&sort=trendingScore&limit=30",
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
      const res = await fetch(base + path, { signal: AbortSignal.timeout(15_000), headers: { "user-agent": "modelyard-warm-up" } });
      await res.arrayBuffer();
    } catch {
      // Nothing to do: the visitor's own request will report whatever went wrong.
    }
  }
}
