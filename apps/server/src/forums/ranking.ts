// The `hot` order of posts: the order of magnitude of the score (log10 of 1 + |score|, signed,
// so that the first vote counts) plus the creation time in
// units of 45,000 seconds (12.5 hours), so that a post needs ten times the votes to stay
// level with one 12.5 hours younger. It depends on nothing but the post, so it is stored
// with the post and updated on each vote, and `sort=hot` reads an index.
const EPOCH_SECONDS = Date.UTC(2025, 0, 1) / 1000;

export function hotRank(score: number, createdAt: string): number {
  const order = Math.log10(1 + Math.abs(score));
  const sign = Math.sign(score);
  const seconds = Date.parse(createdAt) / 1000 - EPOCH_SECONDS;
  return Math.round((sign * order + seconds / 45_000) * 1e7) / 1e7;
}
