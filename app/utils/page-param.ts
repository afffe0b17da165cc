import { z } from "zod";

// Any whole page number from 1 parses: whether it lies past the end depends on the count, so the
// page answers that (a 404 that links back) rather than this guessing at the range.
const pageSchema = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/**
 * A listing's `?page=` (/models, /spaces, /playground): the page, or the first page with a notice
 * to show when the value is not a page number.
 */
export function parsePageParam(raw: string | null): { page: number; problem: string | null } {
  if (raw === null) return { page: 1, problem: null };
  const parsed = pageSchema.safeParse(raw);
  return parsed.success ? { page: parsed.data, problem: null } : { page: 1, problem: `Page “${raw.slice(0, 12)}” is not a page number; showing the first page.` };
}
