/**
 * Stands where the mask token goes when the catalogue cannot say which one the model's tokenizer
 * uses (a list row with no config and no model-type tag): the snippets carry it, and wherever they
 * are shown (the model page's panel, a saved comparison's columns) this note says to replace it.
 * The same {{…}} form as LOCAL_APPS' {{GGUF_FILE}}, so it cannot pass for a real token such as
 * [MASK] or <mask>. Its own module so the compare page's client code takes it without the
 * libraries model-data.ts reads.
 */
export const MASK_TOKEN_PLACEHOLDER = "{{MASK_TOKEN}}";

export function MaskTokenNote({ className = "text-sm" }: { className?: string }) {
  return (
    <p className={`rounded-md bg-amber-50 p-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100 ${className}`} data-mask-token-note="">
      This catalogue does not say which mask token this model&apos;s tokenizer uses, so the example reads <code>{MASK_TOKEN_PLACEHOLDER}</code> where it goes: replace it with the
      tokenizer&apos;s mask token (<code>mask_token</code> in its tokenizer_config.json) before you run the code.
    </p>
  );
}
