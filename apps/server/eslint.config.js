// The server's layering (docs/architecture.md, "Inside the server"): infrastructure never
// imports a feature, the composition root or infrastructure of a higher tier, a feature never
// imports the composition root nor a feature of a higher tier, and production code never imports
// test code.
import { readdirSync } from "node:fs";
import { join } from "node:path";

import base, { TEST_CODE, TEST_CODE_MESSAGE, TESTS } from "@gauntlet/eslint-config";

// Infrastructure in tiers, lowest first: a part imports parts of its own tier and the tiers below.
// The token cache is told of revocations through a channel it is handed (auth/authenticate.ts),
// so auth sits below the live-events layer that checks a socket's identity; the handler seam
// (http/) sits on top and names what handlers read (HandlerSettings), not config.ts.
const INFRASTRUCTURE_TIERS = [
  ["shared", "store"],
  ["blobs", "limiter", "auth"],
  ["events"],
  ["http"],
];
const INFRASTRUCTURE = INFRASTRUCTURE_TIERS.flat();
// Features in tiers (docs/architecture.md, "Feature tiers"): a feature imports features of its own
// tier and of the tiers below it, never above. `access` is below them all: every rule of who may
// see, seat or read what, asked by every feature, importing none.
const TIERS = [
  ["access"],
  // the work queue: below the catalog, since a coworld's certification queues an episode
  ["episodes"],
  // catalog
  [
    "service",
    "home",
    "identity",
    "audit",
    "games",
    "policies",
    "coworlds",
    "forums",
    "wikis",
    "retention",
    "bundle-uploads",
  ],
  // competition
  ["leagues", "profiles", "reporters", "campaign", "coworld-league-seeds"],
  // experiences
  ["evaluations", "tournaments", "lobbies", "play", "tournament-view", "cogames-stats"],
];
const FEATURES = TIERS.flat();
// The composition root's files, as a file inside src/ (one to three folders deep) names them.
const ROOT_FILES = ["app.ts", "server.ts", "index.ts", "config.ts"].flatMap((file) =>
  ["../", "../../", "../../../"].map((up) => `${up}${file}`),
);
const COMPOSITION_FOLDERS = ["cli", "embedded"];
const COMPOSITION = [...ROOT_FILES, ...COMPOSITION_FOLDERS.map((dir) => `**/${dir}/**`)];

// The folders of src/ stay flat (docs/architecture.md, "Why the folders stay flat"): a folder's
// tier is said here, once. A folder named nowhere would escape every rule above, so the lint
// stops until it is placed.
const placed = new Set([...INFRASTRUCTURE, ...FEATURES, ...COMPOSITION_FOLDERS]);
const unplaced = readdirSync(join(import.meta.dirname, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !placed.has(entry.name))
  .map((entry) => entry.name);
if (unplaced.length)
  throw new Error(
    `apps/server/src/${unplaced.join(", ")}: put each folder in a tier (INFRASTRUCTURE_TIERS or TIERS in apps/server/eslint.config.js) and in docs/architecture.md's tables`,
  );

const restrict = (group, message) => ({ group, message });

export default [
  ...base,
  ...INFRASTRUCTURE_TIERS.map((tier, level) => {
    const above = INFRASTRUCTURE_TIERS.slice(level + 1).flat();
    return {
      files: tier.map((dir) => `src/${dir}/**/*.ts`),
      ignores: TESTS,
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              restrict(
                FEATURES.map((f) => `**/${f}/**`),
                "Infrastructure never imports a feature: take what you need as a parameter, and let the composition root (src/app.ts) wire it.",
              ),
              restrict(
                COMPOSITION,
                "Infrastructure never imports the composition root (config.ts included): name what you read, and let the composition root hand it over.",
              ),
              restrict(TEST_CODE, TEST_CODE_MESSAGE),
              ...(above.length
                ? [
                    restrict(
                      above.map((part) => `**/${part}/**`),
                      `Infrastructure imports only its own tier and those below (${tier.join(", ")} may not import ${above.join(", ")}): take what you need as a parameter.`,
                    ),
                  ]
                : []),
            ],
          },
        ],
      },
    };
  }),
  ...TIERS.map((tier, level) => {
    const above = TIERS.slice(level + 1).flat();
    return {
      files: tier.map((dir) => `src/${dir}/**/*.ts`),
      ignores: TESTS,
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              restrict(
                COMPOSITION,
                "A feature never imports the composition root: it is given what it needs.",
              ),
              restrict(TEST_CODE, TEST_CODE_MESSAGE),
              ...(above.length
                ? [
                    restrict(
                      above.map((f) => `**/${f}/**`),
                      `A feature imports only its own tier and those below (${tier.join(", ")} may not import ${above.join(", ")}): ask access/ for a rule, or let the composition root pass what you need.`,
                    ),
                  ]
                : []),
            ],
          },
        ],
      },
    };
  }),
  {
    files: ["src/**/*.ts"],
    ignores: [
      ...TESTS,
      ...INFRASTRUCTURE.map((dir) => `src/${dir}/**`),
      ...FEATURES.map((dir) => `src/${dir}/**`),
    ],
    rules: {
      "no-restricted-imports": ["error", { patterns: [restrict(TEST_CODE, TEST_CODE_MESSAGE)] }],
    },
  },
];
