import type { TemplateValidator } from "#app/import/importer.server.ts";

/** The chat-template validator, loaded lazily so a plain listing import never starts a worker. */
export async function loadTemplateValidator(): Promise<TemplateValidator | undefined> {
  return undefined;
}
