// Shared budgets: capacities, the four-bucket decision, the headers, client pacing.
export * from "./capacities.ts";
export * from "./gcra.ts";
export * from "./headers.ts";
export * from "./pacing.ts";
