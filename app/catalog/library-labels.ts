import { LIBRARY_LABELS } from "#app/catalog/catalog-index.generated.ts";

/** The library's display name from @huggingface/tasks (`prettyLabel`), else the raw key. */
export function libraryLabel(key: string): string {
  return Object.hasOwn(LIBRARY_LABELS, key) ? LIBRARY_LABELS[key]! : key;
}

export function isKnownLibrary(key: string): boolean {
  return Object.hasOwn(LIBRARY_LABELS, key);
}
