import { ggufFilesWithQuant, ggufHeaderOf, isGgufRepo } from "#app/catalog/gguf.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { GGUF_TEMPLATE_NAME } from "#app/chat-template/lab-sides.ts";
import { FIELD } from "#app/chat-template/preview-state.ts";
import { formatBytes, formatNumber, formatParams } from "#app/utils/format.ts";

/** The model page's GGUF panel: what the imported header holds and the repo's quantised files. */
export interface GgufPanelView {
  /** False when the repo is GGUF by its library, tags or files but no header was imported. */
  headerImported: boolean;
  architecture: string | null;
  /** Tokens, formatted; null when the header does not say. */
  contextLength: string | null;
  /** From the header's tensor count; null when it holds no tensors (a header-only file) or none was read. */
  params: string | null;
  /** Where the GGUF's own chat template is previewed; null when the header holds none. */
  chatTemplate: { href: string; label: string } | null;
  /** Each file links to "Use this model" with that file filled into the commands. */
  files: Array<{ name: string; quant: string | null; size: string | null; parts: number; href: string }>;
}

export interface GgufFileOption {
  name: string;
  /** "Q4_K_M · 4.9 GB": the quantisation first, since that is what a visitor chooses. */
  label: string;
}

export function ggufFileOptions(model: Pick<CatalogModel, "siblings">): GgufFileOption[] {
  return ggufFilesWithQuant(model).map((f) => {
    const size = formatBytes(f.size);
    const head = [f.quant ?? "unknown quantisation", size, f.parts > 1 ? `${f.parts} parts` : null].filter((x) => x !== null).join(" · ");
    return { name: f.rfilename, label: `${head} (${f.rfilename})` };
  });
}

/** Null for a repo that is not GGUF, or one whose header and file list the catalogue both lack. */
export function buildGgufPanel(model: CatalogModel): GgufPanelView | null {
  if (!isGgufRepo(model)) return null;
  const header = ggufHeaderOf(model);
  const files = ggufFilesWithQuant(model);
  if (header === null && files.length === 0) return null;
  let chatTemplate: GgufPanelView["chatTemplate"] = null;
  if (header?.chat_template !== undefined) {
    // The importer keeps the GGUF template as the model's own when tokenizer_config has none, so the
    // tab previews it; a different tokenizer_config template wins there, and the lab compares both.
    chatTemplate =
      model.chatTemplate === header.chat_template
        ? { href: `/${model.id}?tab=chat-template`, label: "Preview the chat template" }
        : {
            href: `/chat-template?${new URLSearchParams([
              [FIELD.side("a", "model"), model.id],
              [FIELD.compare, "1"],
              [FIELD.side("b", "model"), model.id],
              [FIELD.side("b", "template"), GGUF_TEMPLATE_NAME],
            ]).toString()}`,
            label: "Compare the GGUF chat template with tokenizer_config's",
          };
  }
  return {
    headerImported: header !== null,
    architecture: header?.architecture ?? null,
    contextLength: header?.context_length === undefined ? null : formatNumber(header.context_length),
    params: header?.total ? formatParams(header.total) : null,
    chatTemplate,
    files: files.map((f) => ({
      name: f.rfilename,
      quant: f.quant,
      size: formatBytes(f.size),
      parts: f.parts,
      href: `/${model.id}?${new URLSearchParams([["gguf", f.rfilename]]).toString()}`,
    })),
  };
}
