import type * as validateModule from "#app/chat-template/validate.server.ts";
import type { TemplateValidator } from "#app/import/importer.server.ts";

type ValidateModule = typeof validateModule;
let loaded: ValidateModule | null = null;

/**
 * The chat-template validator for imports. The worker-thread sandbox behind it only starts when
 * a record actually carries a template.
 */
export async function loadTemplateValidator(): Promise<TemplateValidator> {
  return async (source, bos, eos) => {
    loaded ??= await import("#app/chat-template/validate.server.ts");
    return loaded.validateChatTemplate(source, bos, eos);
  };
}

/** Stops the sandbox's worker threads, if any started, so a finished import can exit. */
export async function closeTemplateValidator(): Promise<void> {
  if (!loaded) return;
  const { getChatTemplateSandbox } = await import("#app/chat-template/sandbox.server.ts");
  await getChatTemplateSandbox().close();
}
