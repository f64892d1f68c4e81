#!/usr/bin/env node
// round-reporter: GAUNTLET_SERVER, GAUNTLET_TOKEN (the owner's), GAUNTLET_REPORTER_KEY,
// REPORTER_ID and DIVISION_ID from the environment; runs until interrupted.
import { createClient } from "@gauntlet/sdk";

import { startRoundReporter } from "./round-reporter.ts";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`round-reporter: set ${name}\n`);
    process.exit(2);
  }
  return value;
}

const reporter = startRoundReporter({
  client: createClient(),
  reporterId: required("REPORTER_ID"),
  reporterKey: required("GAUNTLET_REPORTER_KEY"),
  divisionId: required("DIVISION_ID"),
  onPublished: (output) => process.stdout.write(`${output.name} ${output.url}\n`),
  onError: (error) =>
    process.stderr.write(
      `round-reporter: ${error instanceof Error ? error.message : String(error)}\n`,
    ),
});
process.once("SIGINT", () => reporter.close());
process.once("SIGTERM", () => reporter.close());
