// The platform's messages this commissioner reads (Metta-AI/coworld COMMISSIONER.md and
// commissioner/protocol.py), checked field by field. Fields it does not use are not read, so a
// platform that adds fields still talks to it; a field it uses with the wrong shape, or a
// message type the protocol does not have, is a ProtocolError.
import {
  array,
  boolean,
  id,
  integer,
  number,
  object,
  optional,
  ProtocolError,
  string,
  stringMap,
  type Json,
} from "./read.ts";

export interface Division {
  id: string;
  name: string;
  level: number;
  type: string;
}

export interface Membership {
  id: string;
  division_id: string;
  policy_version_id: string;
  player_id: string | null;
  status: string;
  substatus: string | null;
  is_champion: boolean;
}

export interface RecentRound {
  division_id: string;
  round_number: number;
  status: string;
}

export interface RecentResult {
  division_id: string;
  round_number: number;
  policy_version_id: string;
  rank: number;
}

export interface Variant {
  id: string;
  game_config: Json;
}

export interface Score {
  policy_version_id: string;
  score: number;
}

export type PlatformMessage =
  | {
      type: "schedule_rounds_request";
      divisions: Division[];
      active_memberships: Membership[];
      recent_rounds: RecentRound[];
    }
  | { type: "league_migration_config_request"; divisions: Division[] }
  | { type: "league_migration_request"; divisions: Division[]; memberships: Membership[] }
  | {
      type: "round_start";
      round_id: string;
      round_number: number;
      divisions: Division[];
      memberships: Membership[];
      recent_results: RecentResult[];
      variants: Variant[];
      state: unknown;
    }
  | { type: "episodes_accepted"; request_ids: string[] }
  | { type: "episodes_rejected"; request_ids: string[]; errors: Record<string, string> }
  | { type: "episode_result"; request_id: string; scores: Score[] }
  | { type: "episode_failed"; request_id: string; error: string }
  | { type: "round_abort"; reason: string };

function division(value: unknown, where: string): Division {
  const d = object(value, where);
  return {
    id: id(d.id, `${where}.id`),
    name: string(d.name, `${where}.name`),
    level: integer(d.level, `${where}.level`),
    type: optional(d.type, `${where}.type`, string) ?? "competition",
  };
}

function membership(value: unknown, where: string): Membership {
  const m = object(value, where);
  id(m.league_id, `${where}.league_id`);
  return {
    id: id(m.id, `${where}.id`),
    division_id: id(m.division_id, `${where}.division_id`),
    policy_version_id: id(m.policy_version_id, `${where}.policy_version_id`),
    player_id: optional(m.player_id, `${where}.player_id`, string),
    status: optional(m.status, `${where}.status`, string) ?? "competing",
    substatus: optional(m.substatus, `${where}.substatus`, string),
    is_champion: optional(m.is_champion, `${where}.is_champion`, boolean) ?? false,
  };
}

function recentRound(value: unknown, where: string): RecentRound {
  const r = object(value, where);
  id(r.id, `${where}.id`);
  return {
    division_id: id(r.division_id, `${where}.division_id`),
    round_number: integer(r.round_number, `${where}.round_number`),
    status: string(r.status, `${where}.status`),
  };
}

function recentResult(value: unknown, where: string): RecentResult {
  const r = object(value, where);
  id(r.round_id, `${where}.round_id`);
  number(r.score, `${where}.score`);
  return {
    division_id: id(r.division_id, `${where}.division_id`),
    round_number: integer(r.round_number, `${where}.round_number`),
    policy_version_id: id(r.policy_version_id, `${where}.policy_version_id`),
    rank: integer(r.rank, `${where}.rank`),
  };
}

function variant(value: unknown, where: string): Variant {
  const v = object(value, where);
  string(v.name, `${where}.name`);
  return {
    id: string(v.id, `${where}.id`),
    game_config: object(v.game_config, `${where}.game_config`),
  };
}

function score(value: unknown, where: string): Score {
  const s = object(value, where);
  return {
    policy_version_id: id(s.policy_version_id, `${where}.policy_version_id`),
    score: number(s.score, `${where}.score`),
  };
}

function league(value: unknown, where: string): void {
  const l = object(value, where);
  id(l.id, `${where}.id`);
}

/** One text frame from the platform, as a message; throws ProtocolError when it is none. */
export function parsePlatformMessage(text: string): PlatformMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ProtocolError("message", "is not JSON");
  }
  const m = object(raw, "message");
  const type = string(m.type, "message.type");
  const at = (field: string) => `${type}.${field}`;
  switch (type) {
    case "schedule_rounds_request":
      league(m.league, at("league"));
      return {
        type,
        divisions: array(m.divisions, at("divisions"), division),
        active_memberships: array(m.active_memberships, at("active_memberships"), membership),
        recent_rounds: array(m.recent_rounds, at("recent_rounds"), recentRound),
      };
    case "league_migration_config_request":
      league(m.league, at("league"));
      return { type, divisions: array(m.divisions, at("divisions"), division) };
    case "league_migration_request":
      league(m.league, at("league"));
      return {
        type,
        divisions: array(m.divisions, at("divisions"), division),
        memberships: array(m.memberships, at("memberships"), membership),
      };
    case "round_start":
      league(m.league, at("league"));
      return {
        type,
        round_id: id(m.round_id, at("round_id")),
        round_number: integer(m.round_number, at("round_number")),
        divisions: array(m.divisions, at("divisions"), division),
        memberships: array(m.memberships, at("memberships"), membership),
        recent_results: array(m.recent_results, at("recent_results"), recentResult),
        variants: array(m.variants, at("variants"), variant),
        state: m.state ?? null,
      };
    case "episodes_accepted":
      return { type, request_ids: array(m.request_ids, at("request_ids"), string) };
    case "episodes_rejected":
      return {
        type,
        request_ids: array(m.request_ids, at("request_ids"), string),
        errors: stringMap(m.errors, at("errors")),
      };
    case "episode_result":
      return {
        type,
        request_id: string(m.request_id, at("request_id")),
        scores: array(m.scores, at("scores"), score),
      };
    case "episode_failed":
      return {
        type,
        request_id: string(m.request_id, at("request_id")),
        error: string(m.error, at("error")),
      };
    case "round_abort":
      return { type, reason: string(m.reason, at("reason")) };
    default:
      throw new ProtocolError("message.type", `${JSON.stringify(type)} is not a platform message`);
  }
}
