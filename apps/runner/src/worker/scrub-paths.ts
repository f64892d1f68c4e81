// Error texts the runner reports reach the API (and the public episode page): they name no
// path of the runner's machine. An absolute path of two or more segments becomes `<path>`;
// URLs and a single `/healthz` are left alone.
const ABSOLUTE_PATH = /(?<![\w:/.~-])\/(?:[\w.@+~-]+\/)+[\w.@+~-]*/g;

export function scrubPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, "<path>");
}
