import { hash } from "node:crypto";
import type { EntryContext } from "react-router";
import type { IslandStore } from "#app/utils/html-island.ts";
import { Lru } from "#app/utils/lru.ts";

/**
 * Rendered documents of the routes that opt in (`handle = { cacheDocument: true }`), kept by
 * everything the render is made of: the URL, the status, every route's loader data and the HTML
 * islands, so an entry cannot outlive what it shows (docs/decisions/0035-rendered-documents.md).
 * A hit skips React's render and React Router's data encoding, the largest part of a warm page.
 */
interface CachedDocument {
  html: string;
  /** The CSP nonce the document was rendered with; each answer gets its own in its place. */
  nonce: string;
}

const documents = new Lru<CachedDocument>({ maxBytes: 16 * 1024 * 1024, sizeOf: (d) => d.html.length * 2 });

/** Whether a route's module asks for its documents to be kept: `export const handle = { cacheDocument: true }`. */
function optsIn(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && "cacheDocument" in handle && handle.cacheDocument === true;
}

/**
 * The key of this response's document, or null when it is not kept: a route that has not opted
 * in, an error, action data, a status other than 200, or no nonce to put back.
 */
export function documentKey(url: string, status: number, context: EntryContext, islands: IslandStore | null, nonce: string | undefined): string | null {
  const s = context.staticHandlerContext;
  if (status !== 200 || !nonce || !islands || islands.mode !== "defer" || s.errors || s.actionData || context.isSpaMode) return null;
  const leaf = s.matches[s.matches.length - 1];
  if (!leaf || !optsIn(leaf.route.handle)) return null;
  // The islands' HTML is most of the page; a digest keeps the key short.
  const islandDigest = hash("sha1", [...islands.html].map(([k, v]) => `${k}\u0000${v}`).join("\u0001"));
  return `${url}\u0000${JSON.stringify(s.loaderData)}\u0000${islandDigest}`;
}

/** The kept document for `key`, with `nonce` in place of the one it was rendered with. */
export function keptDocument(key: string, nonce: string): string | undefined {
  const kept = documents.get(key);
  if (!kept) return undefined;
  return kept.html.split(` nonce="${kept.nonce}"`).join(` nonce="${nonce}"`);
}

export function keepDocument(key: string, html: string, nonce: string): void {
  documents.set(key, { html, nonce });
}
