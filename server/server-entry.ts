import type { ServerBuild } from "react-router";
import type * as EntryModule from "#app/entry.server.tsx";

/**
 * The server build's entry module (app/entry.server.tsx). `modelyard serve` takes what it runs
 * from here instead of importing app/ itself, so its process holds one copy of app/ (ADR 0019).
 * Only the type comes from app/; the values come from the build.
 */
export type ServerEntry = typeof EntryModule;

// Every export, so a build from older sources (or a mistyped re-export) is named at start-up
// rather than failing on first use.
const EXPORTS = {
  default: true,
  streamTimeout: true,
  startBackgroundWork: true,
  onFacetIndexBuilt: true,
  validateChatTemplate: true,
  setDb: true,
  openMigratedDatabase: true,
  syncTaskSpaces: true,
  countModels: true,
  importIntoEmptyCatalogue: true,
  finishBulkLoad: true,
  configuredEndpoints: true,
  serveInference: true,
  serveOpenAi: true,
  getEnv: true,
  createIslandStore: true,
  jsonError: true,
  isDatabaseUnavailable: true,
  DATABASE_DOWN_MESSAGE: true,
  methodNotAllowed: true,
  openAiErrorText: true,
  createRequestContext: true,
  yieldToEventLoop: true,
  runAsRequest: true,
  gateRequest: true,
  handleError: true,
  accessStartNotes: true,
  startAccountHousekeeping: true,
  startDraining: true,
  metricsText: true,
  log: true,
  noteUser: true,
  requestFinished: true,
  requestIdFor: true,
  endActiveStreams: true,
  abortWaitingCalls: true,
  gatewayWritesSettled: true,
} as const satisfies Record<keyof ServerEntry, true>;

export function serverEntryOf(build: ServerBuild): ServerEntry {
  const entry: object = build.entry.module;
  const missing = Object.keys(EXPORTS).filter((name) => !(name in entry));
  if (missing.length) {
    throw new Error(`The server build's entry lacks ${missing.join(", ")}; rebuild it with \`modelyard build\`.`);
  }
  return entry as ServerEntry;
}
