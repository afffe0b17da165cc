/**
 * In 2024 the Hub moved its legacy one-part model ids (`gpt2`, `bert-base-uncased`, `t5-small`)
 * into organisations, and redirects the old URLs there. These are the organisations it moved them
 * into; a one-part id that names no model of its own is looked for under each, and the site
 * redirects only when exactly one of them holds it.
 */
export const LEGACY_ID_ORGS = ["openai-community", "google-bert", "FacebookAI", "google-t5", "distilbert", "albert", "xlnet", "almanach", "flaubert", "transfo-xl", "Salesforce"] as const;

export function legacyIdCandidates(name: string): string[] {
  return LEGACY_ID_ORGS.map((org) => `${org}/${name}`);
}
