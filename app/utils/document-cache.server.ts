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
  /**
   * The document's UTF-8 bytes, cut where its CSP nonce stood; each answer joins them with a
   * nonce of its own. Kept as bytes, not a string: a string body is scanned for lone surrogates
   * and encoded again on every answer, most of a kept answer's time (ADR 0035).
   */
  parts: Buffer[];
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

const nonceAttribute = (nonce: string) => Buffer.from(` nonce="${nonce}"`);

/** The kept document for the slot, as bytes, with its nonce in place of the one it was rendered with. */
export function keptDocument(slot: DocumentSlot): Buffer<ArrayBuffer> | undefined {
  const parts = documents.get(slot.key)?.parts;
  if (!parts) return undefined;
  const attribute = nonceAttribute(slot.nonce);
  const joined: Buffer[] = [];
  for (const [i, part] of parts.entries()) {
    if (i > 0) joined.push(attribute);
    joined.push(part);
  }
  return Buffer.concat(joined);
}

/** Keeps a document rendered for the slot (its UTF-8 bytes, with the slot's nonce in them). */
export function keepDocument(slot: DocumentSlot, html: Buffer): void {
  const attribute = nonceAttribute(slot.nonce);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = html.indexOf(attribute); at >= 0; at = html.indexOf(attribute, from)) {
    parts.push(html.subarray(from, at));
    from = at + attribute.length;
  }
  parts.push(html.subarray(from));
  documents.set(slot.key, { parts, bytes: html.byteLength });
}
