import type { IslandStore } from "#app/utils/html-island.ts";

// What server/app.ts's getLoadContext gives every loader, action and the document render.
declare module "react-router" {
  interface AppLoadContext {
    /** The client's socket address, for per-client limits. */
    clientAddress?: string;
    /** This response's CSP nonce (server/security-headers.ts); the document's inline scripts carry it. */
    cspNonce?: string | undefined;
    /** Absent when a loader is called outside the HTTP server (tests, scripts). */
    islands?: IslandStore;
  }
}

export {};
