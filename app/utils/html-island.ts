/**
 * Large trusted HTML (a rendered card, a highlighted file) that a loader hands to the page.
 *
 * React Router serialises loader data into the document for hydration, so HTML shown with
 * dangerouslySetInnerHTML travelled twice: once as markup and once, escaped, inside a script.
 * For a document request the loader therefore returns only `key`; the server render takes the
 * HTML from the request's island store and the browser reads it back from the markup when it
 * hydrates. Client navigations (`.data` requests) render nothing on the server, so they carry
 * `html` inline. ADR 0007.
 */
export interface IslandHtml {
  key: string;
  html?: string;
}

/** Per-request store: `defer` for document requests, `inline` for data requests. */
export interface IslandStore {
  mode: "defer" | "inline";
  html: Map<string, string>;
}

export function createIslandStore(mode: IslandStore["mode"]): IslandStore {
  return { mode, html: new Map() };
}

/** Wraps HTML for loader data: deferred to the markup when the request renders a document. */
export function toIsland(store: IslandStore | undefined, html: string): IslandHtml {
  if (!store || store.mode === "inline") return { key: "inline", html };
  const key = `i${store.html.size + 1}`;
  store.html.set(key, html);
  return { key };
}
