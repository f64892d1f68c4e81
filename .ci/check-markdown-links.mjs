// Every relative link in the repository's Markdown must reach a file or folder inside the
// repository: inline links and images, reference definitions and HTML href/src. Links in code
// (fenced blocks, inline code) are not links. Prints one line per broken link, exits 1 if any.
// Usage: node .ci/check-markdown-links.mjs [repo root]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";

const root = resolve(process.argv[2] ?? ".");
const files = execFileSync(
  "git",
  ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"],
  { cwd: root, encoding: "utf8" },
)
  .split("\0")
  .filter((file) => file !== "" && existsSync(resolve(root, file)));

/** Blanks out code (keeping line numbers): fenced blocks and inline code spans. */
function withoutCode(text) {
  const lines = text.split("\n");
  let fence = null;
  const kept = lines.map((line) => {
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
      return "";
    }
    if (open) {
      fence = open[1];
      return "";
    }
    return line;
  });
  return kept.join("\n").replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));
}

function targetsOf(text) {
  const found = [];
  const patterns = [
    /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
    /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm,
    /\b(?:href|src)\s*=\s*["']([^"']+)["']/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ target: match[1].replace(/^<|>$/g, ""), line });
    }
  }
  return found;
}

const problems = [];
for (const file of files) {
  const text = withoutCode(readFileSync(resolve(root, file), "utf8"));
  for (const { target, line } of targetsOf(text)) {
    // Addresses with a scheme (https:, mailto:) and in-page anchors are not files.
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("//"))
      continue;
    const path = decodeURIComponent(target.replace(/[?#].*$/, ""));
    if (path === "") continue;
    const resolved = path.startsWith("/")
      ? resolve(root, `.${path}`)
      : resolve(dirname(resolve(root, file)), path);
    const inside = resolved === root || resolved.startsWith(root + sep);
    if (!inside) problems.push(`${file}:${line}: ${target} points outside the repository`);
    else if (!existsSync(resolved))
      problems.push(`${file}:${line}: ${target} does not exist (${relative(root, resolved)})`);
  }
}

for (const problem of problems) process.stderr.write(`${problem}\n`);
process.stdout.write(`markdown links: ${files.length} files checked, ${problems.length} broken\n`);
process.exit(problems.length === 0 ? 0 : 1);
