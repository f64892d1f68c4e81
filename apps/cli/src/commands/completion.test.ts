// `gauntlet completion` without a process: the shell is checked, and each script is built from
// the real command tree (a nested verb and the global options are in it), written to the
// command's standard output. No server: the command asks for no client.
import { execFileSync } from "node:child_process";

import { describe, expect, it } from "vitest";

import { runInProcess } from "../../test/in-process.ts";

const gauntlet = (args: readonly string[]) =>
  runInProcess(args, { url: "http://127.0.0.1:9", token: null });

describe("gauntlet completion", () => {
  it("refuses a shell it cannot write for, in one line with exit 2", async () => {
    expect(await gauntlet(["completion", "tcsh"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "gauntlet: SHELL: 'tcsh' is not supported (expected bash, zsh or fish)\n",
    });
  });

  it("writes bash, zsh and fish scripts from the command tree", async () => {
    const bash = await gauntlet(["completion", "bash"]);
    expect(bash).toMatchObject({ code: 0, stderr: "" });
    expect(bash.stdout).toContain(`"reporter output") words="post list" ;;`);
    const zsh = await gauntlet(["completion", "zsh"]);
    expect(zsh.stdout.startsWith("#compdef gauntlet\n")).toBe(true);
    expect(zsh.stdout).toContain(bash.stdout);
    const fish = await gauntlet(["completion", "fish"]);
    expect(fish.stdout).toContain(
      "complete -c gauntlet -n '__fish_seen_subcommand_from lobby' -a 'claim'",
    );
    expect(fish.stdout).toContain("complete -c gauntlet -n '__fish_use_subcommand' -l 'json'");
  });

  it("the bash script completes a verb of a group", async () => {
    const script = (await gauntlet(["completion", "bash"])).stdout;
    const probe = `${script}\nCOMP_WORDS=(gauntlet tournament ad); COMP_CWORD=2; _gauntlet; echo "\${COMPREPLY[@]}"`;
    expect(execFileSync("bash", ["-c", probe], { encoding: "utf8" })).toBe("advance\n");
  });
});
