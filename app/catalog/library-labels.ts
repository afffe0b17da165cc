import { MODEL_LIBRARIES_UI_ELEMENTS } from "@huggingface/tasks";

/** The library's display name from @huggingface/tasks (`prettyLabel`), else the raw key. */
export function libraryLabel(key: string): string {
  return Object.hasOwn(MODEL_LIBRARIES_UI_ELEMENTS, key)
    ? MODEL_LIBRARIES_UI_ELEMENTS[key as keyof typeof MODEL_LIBRARIES_UI_ELEMENTS].prettyLabel
    : key;
}

export function isKnownLibrary(key: string): boolean {
  return Object.hasOwn(MODEL_LIBRARIES_UI_ELEMENTS, key);
}
