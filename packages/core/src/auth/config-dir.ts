// Where the command-line client keeps its files: `$XDG_CONFIG_HOME/gauntlet`, else
// `~/.config/gauntlet` (the same on every platform, so the docs give one path).
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigLocation {
  /** Defaults to `process.env`. */
  env?: Env;
  /** Defaults to the user's home directory. */
  home?: string;
}

export function configDir(options: ConfigLocation = {}): string {
  const env = options.env ?? process.env;
  const xdg = env.XDG_CONFIG_HOME;
  // XDG: a relative value is invalid and must be ignored.
  if (xdg && isAbsolute(xdg)) return join(xdg, "gauntlet");
  return join(options.home ?? homedir(), ".config", "gauntlet");
}

export function credentialsPath(options: ConfigLocation = {}): string {
  return join(configDir(options), "credentials.json");
}
