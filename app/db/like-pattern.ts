/** A LIKE pattern matching `term` anywhere, lower-cased, with `\` as the escape for its own wildcards. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
