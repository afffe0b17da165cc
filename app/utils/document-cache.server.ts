import { createHash } from "node:crypto";
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
  /** The document cut where its CSP nonce stood; each answer joins it with a nonce of its own. */
  parts: string[];
  bytes: number;
}

const documents = new Lru<CachedDocument>({ maxBytes: 16 * 1024 * 1024, sizeOf: (d) => d.bytes });

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
  // The islands' HTML is most of the page; a digest keeps the key short. Fed piece by piece, so
  // no copy of the page's HTML is made on the way.
  const digest = createHash("sha1");
  for (const [k, v] of islands.html) digest.update(k).update("\u0000").update(v).update("\u0001");
  return `${url}\u0000${JSON.stringify(s.loaderData)}\u0000${digest.digest("base64")}`;
}

/** The kept document for `key`, with `nonce` in place of the one it was rendered with. */
export function keptDocument(key: string, nonce: string): string | undefined {
  return documents.get(key)?.parts.join(` nonce="${nonce}"`);
}

export function keepDocument(key: string, html: string, nonce: string): void {
  documents.set(key, { parts: html.split(` nonce="${nonce}"`), bytes: html.length * 2 });
}
