import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { type EntryContext, isRouteErrorResponse, type RouterContextProvider, ServerRouter } from "react-router";
import { IslandStoreContext } from "#app/ui/html-island.tsx";
import { documentSlot, keepDocument, keptDocument } from "#app/utils/document-cache.server.ts";
import { scopeOf } from "#app/utils/request-context.ts";
import { yieldToEventLoop } from "#app/utils/time-slice.server.ts";
import { log } from "#app/utils/logger.server.ts";

// React Router's default Node entry, plus two things: the request's HTML island store is given to
// the render, so large HTML reaches the document once (app/utils/html-island.ts, ADR 0007); and the
// response's CSP nonce goes on every inline script React and React Router write (ADR 0013).
// <ServerRouter nonce> is the default for <Scripts>, <ScrollRestoration> and <Links>.

export const streamTimeout = 5_000;

// What `modelyard serve` (cli/serve-command.ts, server/app.ts) runs in its process, taken from
// this build rather than imported from app/ again, so the process holds one copy of each module
// and its state: the database handle, the gateway, the facet index, the log (ADR 0019).
export { accessStartNotes, startAccountHousekeeping } from "#app/auth/housekeeping.server.ts";
export { gateRequest } from "#app/auth/request-gate.server.ts";
export { onFacetIndexBuilt } from "#app/catalog-search/index/background.server.ts";
export { startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
export { validateChatTemplate } from "#app/chat-template/validate.server.ts";
export { setDb } from "#app/db/db.server.ts";
export { openMigratedDatabase } from "#app/db/migrate.server.ts";
export { syncTaskSpaces } from "#app/db/queries/spaces.server.ts";
export { countModels } from "#app/db/queries/stats.server.ts";
export { importIntoEmptyCatalogue } from "#app/import/first-load.server.ts";
export { finishBulkLoad } from "#app/db/queries/bulk-load.server.ts";
export { configuredEndpoints } from "#app/inference/endpoints.server.ts";
export { serveInference } from "#app/inference/node-adapter.server.ts";
export { endActiveStreams } from "#app/inference/stream.server.ts";
export { abortWaitingCalls } from "#app/inference/execute.server.ts";
export { gatewayWritesSettled } from "#app/inference/gateway.server.ts";
export { serveOpenAi } from "#app/openai-api/v1-handler.server.ts";
export { getEnv } from "#app/utils/env.server.ts";
export { startDraining } from "#app/utils/health.server.ts";
export { metricsText } from "#app/utils/metrics.server.ts";
export { log } from "#app/utils/logger.server.ts";
export { noteUser, requestFinished } from "#app/utils/request-log.server.ts";
export { requestIdFor } from "#app/auth/client-address.server.ts";
export { createIslandStore } from "#app/utils/html-island.ts";
export { jsonError, methodNotAllowed } from "#app/utils/http.server.ts";
export { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from "#app/utils/database-errors.ts";
export { openAiErrorText } from "#app/openai-api/openai-errors.ts";
export { createRequestContext } from "#app/utils/request-context.ts";
export { runAsRequest, yieldToEventLoop } from "#app/utils/time-slice.server.ts";

/**
 * React 19 renders the shell in a microtask, so without a break the loader's last step, React
 * Router's data encoding, the whole render and the first flush are one turn of the event loop:
 * 8–12 ms for a listing page on the bench machine, the longest turns under mixed traffic. The render
 * starts in a turn of its own, and the shell is written out in the next, so every other request
 * and timer gets in between (docs/decisions/0027-listing-answered-from-memory.md).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const scope = scopeOf(loadContext);
  const nonce = scope.cspNonce;
  // A document already rendered from the same data is sent again as it is (ADR 0035).
  const slot = documentSlot(request.url, responseStatusCode, routerContext, scope.islands ?? null, nonce);
  const kept = slot ? keptDocument(slot) : undefined;
  if (kept !== undefined) {
    // Written in a turn of its own, as a render's first bytes are: the loaders' turn ends here.
    await yieldToEventLoop();
    responseHeaders.set("Content-Type", "text/html");
    responseHeaders.append("Server-Timing", 'document;desc="kept"');
    return new Response(kept, { headers: responseHeaders, status: responseStatusCode });
  }
  if (slot) responseHeaders.append("Server-Timing", 'document;desc="rendered"');
  await yieldToEventLoop();
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <IslandStoreContext.Provider value={scope.islands ?? null}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </IslandStoreContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // The document's bytes are kept as they pass when it may be sent again.
          const chunks: Buffer[] | null = slot ? [] : null;
          const body = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              chunks?.push(chunk);
              callback(null, chunk);
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              if (slot && chunks && !failed) keepDocument(slot, Buffer.concat(chunks));
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          void yieldToEventLoop().then(() => pipe(body));
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          if (shellRendered) log().error({ err: error }, "rendering failed after the shell was sent");
        },
      },
    );
  });
}

/**
 * What React Router logs of a request that failed. A method a page does not take (POST to a page
 * without a form, PUT, DELETE) is the visitor's mistake, answered 405: one line, no stack trace.
 */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) {
    log().warn(`[http] ${request.method.slice(0, 10)} ${new URL(request.url).pathname.slice(0, 200)}: ${error.status} ${error.statusText}`);
    return;
  }
  log().error({ err: error }, `[http] ${request.method.slice(0, 10)} ${new URL(request.url).pathname.slice(0, 200)} failed`);
}
