// The one formatter for the workspace: `pnpm format` writes, `pnpm format:check` (run in CI) fails
// on any file it would change. Imports are ordered node builtins, packages, our own, then relative.
import { fileURLToPath } from "node:url";

// Resolved here, beside this package's own dependency, so that any package of the workspace can use it.
const sortImports = fileURLToPath(import.meta.resolve("@ianvs/prettier-plugin-sort-imports"));

/** @type {import("prettier").Config} */
export default {
  printWidth: 100,
  plugins: [sortImports],
  importOrder: [
    "<BUILTIN_MODULES>",
    "",
    "<THIRD_PARTY_MODULES>",
    "",
    "^@gauntlet/(.*)$",
    "",
    "^[.]",
  ],
  importOrderTypeScriptVersion: "5.0.0",
};
