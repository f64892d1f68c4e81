// The server's layering (docs/architecture.md, "Inside the server"): infrastructure never
// imports a feature or the composition root, a feature never imports the composition root nor a
// feature of a higher tier, and production code never imports test code.
import base from "@gauntlet/eslint-config";

const INFRASTRUCTURE = ["shared", "store", "blobs", "auth", "limiter", "events", "http"];
// Features in tiers (docs/architecture.md, "Feature tiers"): a feature imports features of its own
// tier and of the tiers below it, never above. `access` is below them all: every rule of who may
// see, seat or read what, asked by every feature, importing none.
const TIERS = [
  ["access"],
  // catalog and work queue
  [
    "service",
    "home",
    "identity",
    "audit",
    "games",
    "policies",
    "coworlds",
    "episodes",
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
const ROOT_FILES = ["app.ts", "server.ts", "index.ts"].flatMap((file) =>
  ["../", "../../", "../../../"].map((up) => `${up}${file}`),
);
const COMPOSITION = [...ROOT_FILES, "**/cli/**", "**/embedded/**"];
const TEST_CODE = ["**/testing/**", "**/*.test.ts", "**/test/**"];
const TESTS = ["**/*.test.ts", "**/*.test-d.ts", "testing/**", "test/**"];

const restrict = (group, message) => ({ group, message });

export default [
  ...base,
  {
    files: INFRASTRUCTURE.map((dir) => `src/${dir}/**/*.ts`),
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
            restrict(COMPOSITION, "Infrastructure never imports the composition root."),
            restrict(TEST_CODE, "Production code never imports test code."),
          ],
        },
      ],
    },
  },
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
              restrict(TEST_CODE, "Production code never imports test code."),
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
      "no-restricted-imports": [
        "error",
        { patterns: [restrict(TEST_CODE, "Production code never imports test code.")] },
      ],
    },
  },
];
