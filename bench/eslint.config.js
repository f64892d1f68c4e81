import base from "@gauntlet/eslint-config";

export default [
  ...base,
  {
    // Benchmarks measure what the packages export: a deep path into another package's source
    // would bind them to its layout (the server's inner parts are `@gauntlet/server/bench`).
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(\\.\\./)+(apps|packages)/", message: "Import the package's entry point." },
          ],
        },
      ],
    },
  },
];
