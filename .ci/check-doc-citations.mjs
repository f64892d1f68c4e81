// Source files cite the repository's own documents: a file in docs/ and its section
// (`docs/api.md, "Conventions"`), never the documents this project was first written from
// (API.md, ARCHITECTURE.md, RUNTIME.md, SPEC.md), which are not in the repository, nor their
// numbered sections ("spec 8.3", "§4"). Prints one line per citation, exits 1 if any.
// Usage: node .ci/check-doc-citations.mjs [repo root]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(process.argv[2] ?? ".");
const self = ".ci/check-doc-citations.mjs";
const files = execFileSync(
  "git",
  [
    "ls-files",
    "-z",
    "--cached",
    "--others",
    "--exclude-standard",
    "--",
    "*.ts",
    "*.tsx",
    "*.js",
    "*.mjs",
    "*.cjs",
  ],
  { cwd: root, encoding: "utf8" },
)
  .split("\0")
  .filter((file) => file !== "" && file !== self && existsSync(resolve(root, file)));

// Upper-case names: the repository's own are lower-case under docs/ (docs/api.md).
const patterns = [
  /\b(?:API|ARCHITECTURE|RUNTIME|DEPLOY|SPEC)\.md\b/,
  /\b(?:ARCHITECTURE|SPEC)'s\b/,
  /\b[Ss]pec(?:ification)?\s+(?:part\s+|section\s+|§\s*)?\d+(?:\.\d+)*/,
  /§\s*\d/,
];

// A comment's lines are read as one (a citation may break across them): each line is joined to
// the next that continues a comment, and a hit is reported at the line it starts on.
const problems = [];
for (const file of files) {
  const lines = readFileSync(resolve(root, file), "utf8").split("\n");
  lines.forEach((text, index) => {
    const next = /^\s*(?:\/\/|\*)\s?(.*)$/.exec(lines[index + 1] ?? "");
    const joined = next ? `${text} ${next[1]}` : text;
    if (patterns.some((pattern) => pattern.test(text) || pattern.test(joined)))
      problems.push(`${file}:${index + 1}: ${text.trim()}`);
  });
}

for (const problem of problems) console.log(problem);
if (problems.length > 0) {
  console.log(
    `${problems.length} citation(s) of documents outside the repository: cite a file in docs/ and its section, or say why directly.`,
  );
  process.exit(1);
}
