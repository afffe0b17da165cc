/**
 * The licence a model card names beside its licence id, from the Hub's `license_name` and
 * `license_link` card fields: `license: other` with `license_name: tongyi-qianwen` is Qwen's own
 * licence, and "other" alone says nothing about it.
 */
export interface NamedLicense {
  name: string;
  /** The card's `license_link` when it is an absolute http(s) URL; a bare `LICENSE` is not linked. */
  href: string | null;
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The card's name for the model's licence; null without a licence id, without a name, or when the name only repeats the id. */
export function namedLicenseOf(cardData: Record<string, unknown> | null, license: string | null): NamedLicense | null {
  const name = cardData?.["license_name"];
  if (license === null || typeof name !== "string" || name.trim() === "" || name.trim() === license) return null;
  return { name: name.trim(), href: httpUrl(cardData?.["license_link"]) };
}

/** "other (tongyi-qianwen)": the licence id with the card's own name for it, as plain text. */
export function licenseText(license: string, named: NamedLicense | null): string {
  return named === null ? license : `${license} (${named.name})`;
}
