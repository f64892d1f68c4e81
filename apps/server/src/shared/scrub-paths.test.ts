import { describe, expect, it } from "vitest";

import { scrubPaths } from "./scrub-paths.ts";

describe("scrubPaths", () => {
  it("keeps only the last segment of absolute paths, wherever they sit in a message", () => {
    expect(
      scrubPaths(
        `ENOENT: no such file or directory, open '/var/lib/gauntlet/runner/bundles/ab12/bot.py'`,
      ),
    ).toBe(`ENOENT: no such file or directory, open '…/bot.py'`);
    expect(scrubPaths('File "/home/srv/data/work/job-1/play.py", line 3 (/tmp/x/)')).toBe(
      'File "…/play.py", line 3 (…/)',
    );
    expect(scrubPaths("policy exited: /data/blobs/ab/cd")).not.toContain("/data");
  });

  it("leaves URLs, relative paths and plain text alone", () => {
    const text = "see https://example.test/v2/episodes/1 and ./bot/main.py, exit code 1";
    expect(scrubPaths(text)).toBe(text);
  });
});
