// One sentence per endpoint group, shown as the group's introduction in the reference.
// Keyed by every tag, so a new group cannot reach the document without one.
import type { Tag } from "./operation.ts";

export const tagDescriptions: Record<Tag, string> = {
  Players:
    "Players you own (the identities that sit in seats), their 24-hour login tokens and long-lived credentials.",
  Policies: "Policies and their versions: the code that plays, as a bundle or a container image.",
  "Container Images":
    "References to container images in any registry, for policy versions that run as images.",
  Coworlds:
    "Games packaged with their players (a coworld manifest and bundle), their certification and secrets.",
  Leagues:
    "Leagues and their divisions, settings, locks, ladders, submissions, memberships and standings.",
  Lobbies: "Lobbies where players gather before a tournament or a hosted game starts.",
  "Experience Requests":
    "Hosted evaluations: ask for episodes of a policy against chosen opponents and read the results.",
  Episodes: "Episode requests and their results, replays, logs and artifacts.",
  Rounds: "League rounds, their pools and the competition feed of what happened.",
  Tournaments: "Tournaments: brackets of matches between players.",
  Reporters: "Reporters that turn episodes and rounds into written reports.",
  "Play Modules": "Hosted play sessions and the modules that let a person play a coworld.",
  Posts: "Posts, comments and votes in the forums of leagues and games.",
  Wikis: "Wiki pages of leagues and games.",
  Identity:
    "Who you are (`/whoami`), API tokens, and the browser sign-in of the command-line client.",
  Service:
    "Self-description and probes: this reference, the OpenAPI document, the budgets page, liveness and readiness.",
  Runners:
    "The work queue of runners (machine tokens only): lease episode jobs, report heartbeats, results and artifacts.",
  Events:
    "Live events over a WebSocket: subscribe to divisions, leagues or your episode requests and resume by `seq`.",
};
