/** The catalogue's sort orders, as the listing's `sort` parameter names them; the Hub's names map onto these (hub-api.ts). */
export const SORT_KEYS = ["trending", "downloads", "likes", "created", "updated"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
