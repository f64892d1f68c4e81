// Experience requests: hosted evaluations (docs/api.md, "Groups").
import { z } from "zod";

import { EpisodeRequest } from "../../models/episode.ts";
import {
  CreateExperienceRequest,
  ExperienceRequestDetail,
  ExperienceRequestIdParams,
  ExperienceRequestPage,
  ListExperienceRequestsQuery,
} from "../../models/experience-request.ts";
import {
  CoworldNameParams,
  CreateStateSnapshot,
  PlayerState,
  PlayerStateParams,
  StateSnapshot,
} from "../../models/player-state.ts";
import { defineOperation } from "../operation.ts";

export const experienceRequestOperations = {
  getPlayerState: defineOperation({
    id: "getPlayerState",
    method: "GET",
    path: "/v2/player-states/{coworld_name}/{player_id}",
    tag: "Experience Requests",
    summary: "A player's live state in a stateful coworld (its owner or an admin)",
    description:
      "The state the player's last `head` episode on a version of this coworld left; 404 when there is none, or to anyone but the player's owner and admins.",
    auth: "required",
    complexity: 5,
    params: PlayerStateParams,
    status: 200,
    response: PlayerState,
  }),
  createStateSnapshot: defineOperation({
    id: "createStateSnapshot",
    method: "POST",
    path: "/v2/player-states/{coworld_name}/snapshots",
    tag: "Experience Requests",
    summary: "Freeze your players' live states in a coworld as an immutable snapshot",
    description:
      "Every player named must be the caller's and have a state; an experience request with `state: {type: snapshot}` starts each seat's player from it, every time the same bytes. Counted in the caller's state quota.",
    auth: "required",
    complexity: 10,
    params: CoworldNameParams,
    body: CreateStateSnapshot,
    status: 201,
    response: StateSnapshot,
  }),
  createExperienceRequest: defineOperation({
    id: "createExperienceRequest",
    method: "POST",
    path: "/v2/experience-requests",
    tag: "Experience Requests",
    summary: "Evaluate a roster over N episodes (1–100) on the runners",
    description:
      "Each roster slot is a fixed policy (`policy_ref`), one of the `top_n` of the target division's standings, or a `random` competing champion, drawn per episode. The episodes are queued at once; the row's counts by state always add up to `episode_count`. Live events on topic `experience-request:{id}`.",
    auth: "required",
    complexity: 50,
    body: CreateExperienceRequest,
    status: 201,
    response: ExperienceRequestDetail,
  }),
  listExperienceRequests: defineOperation({
    id: "listExperienceRequests",
    method: "GET",
    path: "/v2/experience-requests",
    tag: "Experience Requests",
    summary: "List experience requests, newest first",
    description:
      "A page `{entries, total_count, limit, offset}`; `limit` 1–200. Callers see their own requests (admins all; `mine=true` narrows an admin to their own).",
    auth: "required",
    complexity: 10,
    query: ListExperienceRequestsQuery,
    status: 200,
    response: ExperienceRequestPage,
  }),
  getExperienceRequest: defineOperation({
    id: "getExperienceRequest",
    method: "GET",
    path: "/v2/experience-requests/{experience_request_id}",
    tag: "Experience Requests",
    summary: "Get an experience request with its episodes",
    auth: "required",
    complexity: 10,
    params: ExperienceRequestIdParams,
    status: 200,
    response: ExperienceRequestDetail,
  }),
  listExperienceRequestEpisodes: defineOperation({
    id: "listExperienceRequestEpisodes",
    method: "GET",
    path: "/v2/experience-requests/{experience_request_id}/episodes",
    tag: "Experience Requests",
    summary: "The episode requests of an experience request",
    auth: "required",
    complexity: 10,
    params: ExperienceRequestIdParams,
    status: 200,
    response: z.array(EpisodeRequest),
  }),
  cancelExperienceRequest: defineOperation({
    id: "cancelExperienceRequest",
    method: "POST",
    path: "/v2/experience-requests/{experience_request_id}/cancel",
    tag: "Experience Requests",
    summary: "Cancel: queued episodes are withdrawn, running ones finish",
    description: "409 `conflict` when the request has already ended.",
    auth: "required",
    complexity: 10,
    params: ExperienceRequestIdParams,
    status: 200,
    response: ExperienceRequestDetail,
  }),
} as const;
