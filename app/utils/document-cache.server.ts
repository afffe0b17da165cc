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

/** Where a response's document is kept: its key, and the CSP nonce this response carries. */
export interface DocumentSlot {
  key: string;
  nonce: string;
}

/**
 * This response's slot, or null when its document is not kept: a route that has not opted in, an
 * error, action data, a status other than 200, or no nonce to put back.
 */
export function documentSlot(url: string, status: number, context: EntryContext, islands: IslandStore | null, nonce: string | undefined): DocumentSlot | null {
  const s = context.staticHandlerContext;
  if (status !== 200 || !nonce || !islands || islands.mode !== "defer" || s.errors || s.actionData || context.isSpaMode) return null;
  const leaf = s.matches[s.matches.length - 1];
  if (!leaf || !optsIn(leaf.route.handle)) return null;
  // The islands' HTML is most of the page; a digest keeps the key short. Fed piece by piece, so
  // no copy of the page's HTML is made on the way.
  const digest = createHash("sha1");
  for (const [k, v] of islands.html) digest.update(k).update("\u0000").update(v).update("\u0001");
  return { key: `${url}\u0000${JSON.stringify(s.loaderData)}\u0000${digest.digest("base64")}`, nonce };
}

/** The kept document for the slot, with its nonce in place of the one it was rendered with. */
export function keptDocument(slot: DocumentSlot): string | undefined {
  return documents.get(slot.key)?.parts.join(` nonce="${slot.nonce}"`);
}

/** Keeps a document rendered for the slot (with the slot's nonce in it). */
export function keepDocument(slot: DocumentSlot, html: string): void {
  documents.set(slot.key, { parts: html.split(` nonce="${slot.nonce}"`), bytes: html.length * 2 });
}
