/**
 * GitHub-style heading slugs ("## Model Details" -> "model-details", repeats get "-1", "-2"),
 * written here because github-slugger is not a dependency. Like github-slugger it keeps
 * letters, marks, numbers, "_" and "-" in any script, drops other punctuation and symbols, and
 * turns each space into "-".
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

export class Slugger {
  readonly #taken: Set<string>;

  /** `taken` seeds ids that already exist in the document so slugs never duplicate them. */
  constructor(taken: Iterable<string> = []) {
    this.#taken = new Set(taken);
  }

  /** Returns a slug unique among those handed out and the seeded ids, after `prefix`. */
  slug(text: string, prefix = ""): string {
    const base = slugify(text) || "section";
    let candidate = base;
    for (let n = 1; this.#taken.has(prefix + candidate); n++) candidate = `${base}-${n}`;
    this.#taken.add(prefix + candidate);
    return candidate;
  }
}
