// League play's pure core: ratings, round plans, round results, standings, promotion. No I/O;
// the scheduler and the HTTP handlers call these and store what they return.
export * from "./ratings/index.ts";
export * from "./seating/index.ts";
export { roundResults, type RoundResult } from "./round-results.ts";
export {
  divisionLeaderboard,
  leaderboardViews,
  standings,
  type StandingEntry,
  type StandingsOptions,
  type StandingsRecord,
} from "./standings.ts";
export type { StrengthSummary } from "./confidence/strength-summary.ts";
export { laplaceStrengths } from "./confidence/laplace.ts";
export { rowCertainty, type RowCertainty } from "./confidence/row-figures.ts";
export {
  planMoves,
  planPromotions,
  promotionDue,
  type DivisionStandings,
  type PromotionMove,
} from "./promotion.ts";
