const DAY_MS = 86_400_000;

/**
 * The catalogue has no time series, so "trending" is a velocity estimate from one snapshot:
 * engagement (likes, plus the square root of 30-day downloads, so download giants do not drown
 * out community interest) divided by a gently growing function of age. New models with real
 * traction rise; old giants stay visible but yield.
 * Documented in docs/decisions/0003-trending-score.md.
 */
export function trendingScore(input: {
  likes: number;
  downloads: number;
  createdAt: string | null;
  asOf: string | null;
}): number {
  const asOf = input.asOf ? Date.parse(input.asOf) : Date.now();
  const created = input.createdAt ? Date.parse(input.createdAt) : Number.NaN;
  const ageDays = Number.isNaN(created) ? 365 : Math.max(0, (asOf - created) / DAY_MS);
  const engagement = input.likes + Math.sqrt(input.downloads);
  const score = engagement / Math.pow(ageDays + 14, 0.8);
  return Math.round(score * 1e6) / 1e6;
}
