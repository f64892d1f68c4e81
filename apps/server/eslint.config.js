// The server's layering (docs/architecture.md, "Inside the server"): infrastructure never
// imports a feature or the composition root, a feature never imports the composition root,
// and production code never imports test code.
import base from "@gauntlet/eslint-config";

const INFRASTRUCTURE = ["shared", "store", "blobs", "auth", "limiter", "events", "http"];
const FEATURES = [
  "service",
  "identity",
  "games",
  "policies",
  "coworlds",
  "episodes",
  "leagues",
  "evaluations",
  "reporters",
  "forums",
  "wikis",
  "profiles",
  "tournaments",
  "campaign",
  "lobbies",
  "play",
];
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
  {
    files: FEATURES.map((dir) => `src/${dir}/**/*.ts`),
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
          ],
        },
      ],
    },
  },
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
