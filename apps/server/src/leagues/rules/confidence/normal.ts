// The standard normal distribution: its CDF and quantile, for intervals read as normal.

/** Φ, the standard normal CDF (Abramowitz–Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Φ⁻¹(p) for 0 < p < 1, by bisection on Φ (to 1e-9; a handful of calls per standings). */
export function normalQuantile(p: number): number {
  let low = -40;
  let high = 40;
  while (high - low > 1e-9) {
    const mid = (low + high) / 2;
    if (normalCdf(mid) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
