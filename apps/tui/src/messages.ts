// Words the command prints before the UI starts.
export type Env = Readonly<Record<string, string | undefined>>;

export const NO_SERVER_MESSAGE_HINT =
  "no Gauntlet server configured: pass --server <url>, set GAUNTLET_SERVER, or sign in with `gauntlet auth login --server <url>`";
