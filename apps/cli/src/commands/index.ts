// Every top-level command, in the order `gauntlet --help` lists them, with what the root help
// shows of it and the group that registers it. A command line loads only the group it names
// (commands/select.ts), so a command's module is imported when that command runs; the root help
// is drawn from this table alone. A new group of the service is one folder or file exporting a
// CommandGroup, with a row here for each command it adds (help.test.ts checks the rows).
import type { CommandGroup } from "./group.ts";

export interface CommandEntry {
  readonly name: string;
  /** The command as the root help lists it: name, `[options]` if it has any, its arguments. */
  readonly term: string;
  readonly description: string;
  /** The group that registers this command (and maybe others: one loader per group). */
  readonly load: () => Promise<CommandGroup>;
}

const submit = async () => (await import("./submit/index.ts")).submit;

export const commandEntries: readonly CommandEntry[] = [
  {
    name: "auth",
    term: "auth",
    description: "Sign in, see who you are, manage player identities",
    load: async () => (await import("./auth/index.ts")).auth,
  },
  {
    name: "league",
    term: "league",
    description: "Leagues: list, show, create and run them",
    load: async () => (await import("./league/index.ts")).league,
  },
  {
    name: "division",
    term: "division",
    description: "Divisions: the tiers of a league",
    load: async () => (await import("./division.ts")).division,
  },
  {
    name: "campaign",
    term: "campaign",
    description: "The campaign board of a league: its cells and the rounds that moved them",
    load: async () => (await import("./campaign.ts")).campaign,
  },
  {
    name: "tournament",
    term: "tournament",
    description: "A league's tournaments: entrants, bracket, waves on the runners, the winner",
    load: async () => (await import("./tournament/index.ts")).tournament,
  },
  {
    name: "leaderboard",
    term: "leaderboard [options] [division]",
    description:
      "A division's standings: rank (and the ranks it could hold), player, score with its 95% interval, form, rounds, recent ranks",
    load: async () => (await import("./leaderboard.ts")).leaderboard,
  },
  {
    name: "round",
    term: "round",
    description: "Rounds: a division's scheduled sets of episodes",
    load: async () => (await import("./round.ts")).round,
  },
  {
    name: "events",
    term: "events [options]",
    description:
      "A league's competition feed, oldest first; --follow keeps printing live events below it",
    load: async () => (await import("./events.ts")).events,
  },
  {
    name: "coworld",
    term: "coworld",
    description: "Coworlds: the packaged games episodes run in",
    load: async () => (await import("./coworld/index.ts")).coworld,
  },
  {
    name: "policy",
    term: "policy",
    description: "Policies: your bots, uploaded as versions",
    load: async () => (await import("./policy/index.ts")).policy,
  },
  {
    name: "submit",
    term: "submit [options] <policy>",
    description: "Submit a policy version to a league",
    load: submit,
  },
  {
    name: "submissions",
    term: "submissions [options]",
    description: "League submissions (yours by default)",
    load: submit,
  },
  {
    name: "memberships",
    term: "memberships [options]",
    description: "Which policies play in which division (yours by default)",
    load: submit,
  },
  {
    name: "episode",
    term: "episode",
    description: "Episodes: single games between policies",
    load: async () => (await import("./episode/index.ts")).episode,
  },
  {
    name: "eval",
    term: "eval",
    description: "Hosted evaluations: play a roster of policies over N episodes on the runners",
    load: async () => (await import("./eval/index.ts")).evaluation,
  },
  {
    name: "lobby",
    term: "lobby",
    description: "Lobbies: seat policies together for one episode in a league",
    load: async () => (await import("./lobby/index.ts")).lobby,
  },
  {
    name: "play",
    term: "play [options] <coworld>",
    description: "Play a coworld in the browser against policies: prints the address to open",
    load: async () => (await import("./play/index.ts")).play,
  },
  {
    name: "hosted",
    term: "hosted",
    description: "Hosted games people and programs join live, and hosted replays",
    load: async () => (await import("./hosted/index.ts")).hosted,
  },
  {
    name: "reporter",
    term: "reporter",
    description: "Reporters: programs that write up episodes, rounds and divisions",
    load: async () => (await import("./reporter/index.ts")).reporter,
  },
  {
    name: "post",
    term: "post",
    description: "Forum posts: read, write, comment and vote",
    load: async () => (await import("./post/index.ts")).post,
  },
  {
    name: "wiki",
    term: "wiki",
    description: "Wikis: one per coworld; read, edit, history, search",
    load: async () => (await import("./wiki/index.ts")).wiki,
  },
  {
    name: "watch",
    term: "watch [options]",
    description: "Watch a league live in the terminal: standings, rounds and events as they happen",
    load: async () => (await import("./watch.ts")).watch,
  },
  {
    name: "admin",
    term: "admin",
    description: "Admin tools: the audit trail (an admin's powers need --elevated)",
    load: async () => (await import("./admin.ts")).admin,
  },
  {
    name: "completion",
    term: "completion <shell>",
    description: "Print a shell completion script (bash, zsh or fish)",
    load: async () => (await import("./completion.ts")).completion,
  },
];
