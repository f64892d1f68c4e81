// Shared lint rules: the house rules (no `any`, no non-null `!`, ESM only) and type-aware checks
// for code that is async throughout (no floating or misused promises, no conditions the types
// say are always or never true). Each package lints with its own tsconfig through the project
// service; plain JavaScript files (configs, browser play modules) are linted without types. Two
// layout checks hold in every package (docs/architecture.md, "Checks that keep the layout"):
// production code never imports test code, and no file is longer than the line budget
// (line-budget.js).
import { join, relative } from "node:path";

import js from "@eslint/js";
import tseslint from "typescript-eslint";

import { LINE_BUDGET, OVER_BUDGET } from "./line-budget.js";

/**
 * Import paths that lead to test code: test files, a package's `test/` and `testing/` folders
 * and its `testing` export (`@gauntlet/server/testing`, `@gauntlet/runner/testing`), the server's
 * test-only exports, and the test libraries. Production code — a package's `src/` outside its
 * tests — imports none of them.
 */
export const TEST_CODE = [
  "**/*.test.ts",
  "**/*.test-d.ts",
  "**/test/**",
  "**/testing",
  "**/testing/**",
  "**/*test-support*",
  "@gauntlet/server/fixtures",
  "@gauntlet/server/bench",
  "@gauntlet/vitest-config",
  "vitest",
  "vitest/**",
  "ink-testing-library",
  "fast-check",
];
export const TEST_CODE_MESSAGE =
  "Production code never imports test code: test helpers live in the package's testing/ (or test/) folder, for tests.";
/** Test files and test helpers, as a package's config names them. */
export const TESTS = ["**/*.test.ts", "**/*.test-d.ts", "**/test/**", "**/testing/**"];

// A package lints from its own folder (`eslint .` through turbo), where its config's patterns
// start; the exceptions are named from the repository's root, so they are made relative to it.
const repositoryRoot = join(import.meta.dirname, "../..");
const exempt = Object.keys(OVER_BUDGET)
  .map((file) => relative(process.cwd(), join(repositoryRoot, file)))
  .filter((file) => !file.startsWith(".."));

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**"] },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true },
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Buffer: "readonly",
        fetch: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        structuredClone: "readonly",
        queueMicrotask: "readonly",
        setImmediate: "readonly",
        performance: "readonly",
        crypto: "readonly",
        WebSocket: "readonly",
        Blob: "readonly",
        FormData: "readonly",
        URLSearchParams: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-dynamic-delete": "off",
      // Handlers and interface implementations are async by contract even where they do not
      // await: a sync throw there would escape the promise chain callers rely on.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unnecessary-condition": "error",
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.name='require']", message: "ESM only: use import." },
        // A bare `.catch(() => undefined)` (or `=> null`) hides the unexpected with the expected
        // and says nothing.
        ...[
          "[arguments.0.body.type='Identifier'][arguments.0.body.name='undefined']",
          "[arguments.0.body.type='Literal'][arguments.0.body.raw='null']",
          "[arguments.0.body.body.length=0]",
        ].map((body) => ({
          selector: `CallExpression[callee.property.name='catch'][arguments.0.params.length=0]${body}`,
          message:
            "Ignore only the expected failure and rethrow the rest; for cleanup whose failure leaves nothing to do, `bestEffort` or `settled` from @gauntlet/core.",
        })),
      ],
    },
  },
  {
    // Tests: hooks clean up what a failed `beforeAll` may have left unset (the types cannot say
    // so), and vitest's asymmetric matchers (`expect.any`, `expect.objectContaining`) are `any`.
    files: ["**/*.test.ts", "**/*.test.tsx", "**/*.test-d.ts", "**/test/**", "**/testing/**"],
    rules: {
      "@typescript-eslint/no-unnecessary-condition": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
    },
  },
  { files: ["**/*.js", "**/*.mjs", "**/*.cjs"], ...tseslint.configs.disableTypeChecked },
  {
    files: ["**/*.ts"],
    rules: {
      "max-lines": ["error", { max: LINE_BUDGET, skipBlankLines: false, skipComments: false }],
    },
  },
  ...(exempt.length ? [{ files: exempt, rules: { "max-lines": "off" } }] : []),
  {
    files: ["src/**/*.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: TEST_CODE, message: TEST_CODE_MESSAGE }] },
      ],
    },
  },
);
