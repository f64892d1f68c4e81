// gauntlet auth login|status|logout|token, gauntlet auth player list|create|use. One file per
// verb (the player verbs together), each options -> run(options, deps).
import type { CommandGroup } from "../group.ts";
import { loginCommand } from "./login.ts";
import { logoutCommand } from "./logout.ts";
import { playerCommand } from "./player.ts";
import { statusCommand } from "./status.ts";
import { tokenCommand } from "./token.ts";

export const auth: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("auth")
      .description("Sign in, see who you are, manage player identities")
      .addHelpText(
        "after",
        "\nTokens are saved per server in $XDG_CONFIG_HOME/gauntlet/credentials.json (else ~/.config/gauntlet), mode 0600.\nGAUNTLET_TOKEN, when set, is used instead of the saved token.",
      );
    loginCommand(group, factory);
    statusCommand(group, factory);
    logoutCommand(group, factory);
    tokenCommand(group, factory);
    playerCommand(group, factory);
  },
};
