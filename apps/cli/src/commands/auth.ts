// gauntlet auth login|status|logout|token, gauntlet auth player list|create|use
import type { Command } from "commander";

import { checkId, clientOf, serverOf, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import { withSpinner } from "../spinner.ts";
import type { CommandGroup } from "./group.ts";

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliError(
      "--with-token reads the token from standard input: gauntlet auth login --with-token < token.txt",
      EXIT.usage,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}

/** Where login goes: --server, GAUNTLET_SERVER, else the last server signed in to. */
async function loginServer(cmd: Command): Promise<string> {
  try {
    return await serverOf(cmd);
  } catch {
    throw new CliError(
      "which server? pass --server URL (or set GAUNTLET_SERVER): gauntlet auth login --server https://gauntlet.example.com",
      EXIT.usage,
    );
  }
}

export const auth: CommandGroup = {
  register(program) {
    const group = program
      .command("auth")
      .description("Sign in, see who you are, manage player identities")
      .addHelpText(
        "after",
        "\nTokens are saved per server in $XDG_CONFIG_HOME/gauntlet/credentials.json (else ~/.config/gauntlet), mode 0600.\nGAUNTLET_TOKEN, when set, is used instead of the saved token.",
      );

    group
      .command("login")
      .description("Sign in through the server's sign-in page in your browser")
      .option("--no-browser", "print the sign-in address instead of opening a browser")
      .option("--with-token", "read a token from standard input instead")
      .addHelpText(
        "after",
        '\nExamples:\n  $ gauntlet auth login --server https://gauntlet.example.com\n  $ gauntlet auth login --server http://127.0.0.1:8787 --no-browser\n  $ echo "$TOKEN" | gauntlet auth login --with-token',
      )
      .action(async (opts: { browser: boolean; withToken?: boolean }, cmd: Command) => {
        const server = await loginServer(cmd);
        const { saveCredential } = await import("@gauntlet/core");
        let token: string;
        if (opts.withToken) {
          token = await readStdin();
          if (!token) throw new CliError("--with-token: standard input was empty", EXIT.usage);
        } else {
          const { openBrowser, startBrowserLogin } = await import("../browser-login.ts");
          const pending = await startBrowserLogin(server);
          const opened = opts.browser && openBrowser(pending.url);
          note(
            opened
              ? `Opening ${pending.url} in your browser…`
              : `Open this address in a browser to sign in:\n  ${pending.url}`,
          );
          const code = await withSpinner(
            "waiting for you to sign in in the browser",
            () => pending.code,
          );
          const anonymous = await clientOf(cmd, { anonymous: true });
          token = (await anonymous.auth.exchangeCode({ body: { code } })).token;
        }
        const client = await clientOf(cmd, { token });
        const me = await client.whoami();
        if (me.subject_type === "anonymous")
          throw new CliError(`the server at ${server} does not accept this token`, EXIT.auth);
        const key = saveCredential(server, {
          token,
          subject_type: me.subject_type,
          user_email: me.user_email,
        });
        if (wantsJson(cmd)) return printJson(me);
        note(`Signed in to ${key} as ${me.user_email} (${me.subject_type}).`);
      });

    group
      .command("status")
      .description("Who you are, on which server, and your rate budget (exit 4 when not signed in)")
      .action(async (_opts: unknown, cmd: Command) => {
        const server = await serverOf(cmd);
        const { resolveToken } = await import("@gauntlet/core");
        const resolved = resolveToken({ server });
        if (!resolved)
          throw new CliError(`not signed in to ${server}: run \`gauntlet auth login\``, EXIT.auth);
        const client = await clientOf(cmd);
        const me = await client.whoami();
        if (me.subject_type === "anonymous")
          throw new CliError(
            `the token for ${server} was refused: run \`gauntlet auth login\` to sign in again`,
            EXIT.auth,
          );
        if (wantsJson(cmd)) return printJson(me);
        const budget = client.lastBudget;
        printFields([
          ["server", server],
          ["signed in as", me.user_email],
          ["subject", `${me.subject_type} ${me.subject_id ?? ""}`.trim()],
          ["admin", me.is_admin ? "yes" : "no"],
          [
            "token from",
            resolved.source === "env"
              ? "GAUNTLET_TOKEN"
              : resolved.source === "credentials"
                ? "saved sign-in"
                : "option",
          ],
          ...(budget
            ? Object.entries(budget.buckets).map(
                ([name, b]) => [`budget ${name}`, b ? `${b.remaining}/${b.limit}` : "-"] as const,
              )
            : [["budget", "not reported"] as const]),
        ]);
      });

    group
      .command("logout")
      .description("Forget the token saved for the server")
      .action(async (_opts: unknown, cmd: Command) => {
        const server = await serverOf(cmd);
        const { removeCredential } = await import("@gauntlet/core");
        const removed = removeCredential(server);
        if (wantsJson(cmd)) return printJson({ server, removed });
        note(removed ? `Signed out of ${server}.` : `Not signed in to ${server}; nothing to do.`);
      });

    group
      .command("token")
      .description(
        'Print the token for the server (for curl: -H "Authorization: Bearer $(gauntlet auth token)")',
      )
      .action(async (_opts: unknown, cmd: Command) => {
        const server = await serverOf(cmd);
        const { resolveToken } = await import("@gauntlet/core");
        const resolved = resolveToken({ server });
        if (!resolved)
          throw new CliError(`not signed in to ${server}: run \`gauntlet auth login\``, EXIT.auth);
        if (wantsJson(cmd)) return printJson({ server, token: resolved.token });
        process.stdout.write(`${resolved.token}\n`);
      });

    const player = group
      .command("player")
      .description("Player identities: the names your policies compete under");
    player
      .command("list")
      .description("List your players")
      .action(async (_opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const players = await client.players.list();
        if (wantsJson(cmd)) return printJson(players);
        printTable(
          ["id", "name", "created"],
          players.map((p) => [p.id, p.name, shortTime(p.created_at)]),
          "no players yet: gauntlet auth player create NAME",
        );
      });
    player
      .command("create")
      .description("Create a player")
      .argument("<name>", "the player's name")
      .action(async (name: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const created = await client.players.create({ body: { name } });
        if (wantsJson(cmd)) return printJson(created);
        note(`created player ${created.name} (${created.id})`);
      });
    player
      .command("use")
      .description("Act as one of your players: saves a 24-hour player token for the server")
      .argument("<player>", "player id (ply_…)")
      .addHelpText("after", "\nRun `gauntlet auth login` to act as yourself again.")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const player_id = await checkId("player", id, "PLAYER");
        const server = await serverOf(cmd);
        const client = await clientOf(cmd);
        const login = await client.players.login({ player_id });
        const { saveCredential } = await import("@gauntlet/core");
        saveCredential(server, { token: login.token, subject_type: "player" });
        if (wantsJson(cmd)) return printJson(login);
        note(`Now acting as player ${player_id} on ${server}.`);
      });
  },
};
