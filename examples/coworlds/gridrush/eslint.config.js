import base from "@gauntlet/eslint-config";

export default [
  ...base,
  // The browser client (the play module) runs in a page, not in Node.
  {
    files: ["play/**/*.js"],
    languageOptions: {
      globals: { document: "readonly", location: "readonly", HTMLElement: "readonly" },
    },
  },
];
