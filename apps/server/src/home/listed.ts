// How much of each division the web view lists. The retention policy keeps the files of at least
// the episodes listed here (retention/expire-artifacts.ts), so a replay link the page shows leads
// to a replay.
export const LISTED_ROUNDS = 5;
export const LISTED_EPISODES = 6;
