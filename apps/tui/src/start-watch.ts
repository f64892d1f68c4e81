// Mounts the app with Ink on a terminal and settles with the exit code when it quits. Loaded
// lazily by run-watch.ts, so that importing the package does not load React.
import { render, type Instance, type RenderOptions } from "ink";
import { createElement as h } from "react";

import type { DivisionStandingsView } from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";

import { App } from "./app.ts";
import { ThemeContext, type Theme } from "./components/theme.ts";
import { describeError } from "./data/describe-error.ts";
import type { Notices } from "./data/notices.ts";
import type { TargetFlags } from "./data/resolve-target.ts";
import { routeConsole } from "./data/route-console.ts";

export interface MountOptions {
  client: Gauntlet;
  notices: Notices;
  flags: TargetFlags;
  /** The first screen's one request, already under way. */
  opening?: Promise<DivisionStandingsView> | null;
  theme: Theme;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Overrides of Ink's options (the benchmark draws into a recording stream). */
  render?: Partial<RenderOptions>;
}

export interface MountedWatch {
  instance: Instance;
  /** Settles with the exit code once the app has quit and the terminal is restored. */
  exited: Promise<number>;
}

/**
 * Ink's options for drawing on `stdout`. Ink treats any environment with `CI` set as
 * non-interactive and then draws only the last frame, on exit: `gauntlet watch` in a shell that
 * exports CI would show a blank screen until it quits. A TTY is a person's terminal, CI or not,
 * so interactivity follows the stream alone.
 */
export function inkOptions(stdout: NodeJS.WritableStream): Partial<RenderOptions> {
  return { interactive: "isTTY" in stdout && stdout.isTTY === true };
}

export function mountWatch(options: MountOptions): MountedWatch {
  let code = 0;
  const { client, notices, flags, theme, opening = null } = options;
  const server = client.baseUrl ?? "";
  const restoreConsole = routeConsole(notices);
  // Whatever escapes the app's own handling ends up in the status line, not over the screen.
  const onFault = (error: unknown) => notices.report("error", describeError(error).text);
  process.on("uncaughtException", onFault);
  process.on("unhandledRejection", onFault);
  const instance = render(
    h(
      ThemeContext.Provider,
      { value: theme },
      h(App, { client, notices, server, flags, opening, onExit: (c: number) => (code = c) }),
    ),
    {
      stdin: options.stdin,
      stdout: options.stdout,
      stderr: options.stderr,
      exitOnCtrlC: false,
      patchConsole: false,
      alternateScreen: true,
      incrementalRendering: true,
      ...inkOptions(options.stdout),
      ...options.render,
    },
  );
  const exited = instance
    .waitUntilExit()
    .then(
      () => code,
      (error: unknown) => {
        options.stderr.write(`gauntlet watch: ${describeError(error).text}\n`);
        return 1;
      },
    )
    .finally(() => {
      process.off("uncaughtException", onFault);
      process.off("unhandledRejection", onFault);
      restoreConsole();
    });
  return { instance, exited };
}
