// Absolute file-system paths never reach a caller: an error message that quotes one (a runner's
// failure report, an fs error folded into a message) would show where the server keeps its data,
// and a hostile user collects exactly that. Each path keeps its last segment, so a report still
// says which file (`…/bot.py`); URLs are left alone (their paths follow a host, not a boundary).
const ABSOLUTE_PATH = /(?<![\w.:/~-])\/(?:[\w.@+=,~-]+\/)+([\w.@+=,~-]*)/g;

export function scrubPaths(message: string): string {
  return message.replace(ABSOLUTE_PATH, (_, last: string) => `…/${last}`);
}
