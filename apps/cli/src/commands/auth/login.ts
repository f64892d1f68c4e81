// gauntlet auth login [--no-browser] [--with-token]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import type { Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { withSpinner } from "../../spinner.ts";
import { authDepsOf, loginServer, type AuthDeps } from "./shared.ts";

export interface LoginOptions {
  /** "token": read a token from standard input; "browser": sign in on the server's page. */
  method: "token" | "browser";
  /** Open the page in a browser, rather than only print its address. */
  openBrowser: boolean;
  json: boolean;
}

/** The token a pasted or piped line gives. */
async function pastedToken({ io }: AuthDeps): Promise<string> {
  if (io.in.isTTY)
    throw new CliError(
      "--with-token reads the token from standard input: gauntlet auth login --with-token < token.txt",
      EXIT.usage,
    );
  const token = (await io.in.readAll()).trim();
  if (!token) throw new CliError("--with-token: standard input was empty", EXIT.usage);
  return token;
}

const WITH_TOKEN_HINT =
  "Elsewhere, sign in with a token: gauntlet auth login --with-token < token.txt";
/** Said under "Opening …": a machine without a browser would otherwise wait without a word. */
const HEADLESS_HINT = `No browser opened? Press Ctrl-C and run gauntlet auth login --no-browser to get the address, or --with-token.`;

/** The token the server's sign-in page hands back (through a one-shot local listener). */
async function browserToken(options: LoginOptions, deps: AuthDeps): Promise<string> {
  const { io, server } = deps;
  const { openBrowser, startBrowserLogin } = await import("../../browser-login.ts");
  const pending = await startBrowserLogin(server);
  const opened = options.openBrowser && openBrowser(pending.url);
  writeNote(
    io,
    opened
      ? `Opening ${pending.url} in your browser…\n${HEADLESS_HINT}`
      : `Open this address in a browser on this machine to sign in:\n  ${pending.url}${options.openBrowser ? `\n(No display to open a browser on here. ${WITH_TOKEN_HINT})` : ""}`,
  );
  const code = await withSpinner(
    "waiting for you to sign in in the browser",
    () => pending.code,
    io.err,
  );
  const anonymous = await deps.client({ anonymous: true });
  return (await anonymous.auth.exchangeCode({ body: { code } })).token;
}

export async function runLogin(options: LoginOptions, deps: AuthDeps): Promise<void> {
  const { io, server } = deps;
  const token =
    options.method === "token" ? await pastedToken(deps) : await browserToken(options, deps);
  const me = await (await deps.client({ token })).whoami();
  if (me.subject_type === "anonymous")
    throw new CliError(`the server at ${server} does not accept this token`, EXIT.auth);
  const { saveCredential } = await import("@gauntlet/core");
  const key = saveCredential(server, {
    token,
    subject_type: me.subject_type,
    user_email: me.user_email,
  });
  if (options.json) return writeJson(io, me);
  const role = me.subject_type === "user" && me.is_admin ? "admin" : me.subject_type;
  writeNote(io, `Signed in to ${key} as ${me.user_email} (${role}).`);
}

export function loginCommand(
  parent: Command,
  factory: Factory,
  run: (options: LoginOptions, deps: AuthDeps) => Promise<void> = runLogin,
): Command {
  return parent
    .command("login")
    .description("Sign in through the server's sign-in page in your browser")
    .option("--no-browser", "print the sign-in address instead of opening a browser")
    .option("--with-token", "read a token from standard input instead")
    .addHelpText(
      "after",
      '\nExamples:\n  $ gauntlet auth login --server https://gauntlet.example.com\n  $ gauntlet auth login --server http://127.0.0.1:8787 --no-browser\n  $ echo "$TOKEN" | gauntlet auth login --with-token',
    )
    .action(async (opts: { browser: boolean; withToken?: boolean }, cmd: Command) => {
      const options: LoginOptions = {
        method: opts.withToken ? "token" : "browser",
        openBrowser: opts.browser,
        json: wantsJson(cmd),
      };
      await run(options, await authDepsOf(factory, cmd, await loginServer(cmd)));
    });
}
