// League submissions and policy memberships (docs/api.md, "League play in short").
import { z } from "zod";

import {
  CreateLeagueSubmissionRequest,
  LeaguePolicyMembership,
  LeagueSubmission,
  ListLeagueSubmissionsQuery,
  ListMembershipsQuery,
  MembershipIdParams,
  RetireMembershipRequest,
} from "../../models/league-play.ts";
import { defineOperation } from "../operation.ts";

export const leagueSubmissionOperations = {
  createLeagueSubmission: defineOperation({
    id: "createLeagueSubmission",
    method: "POST",
    path: "/v2/league-submissions",
    tag: "Leagues",
    summary: "Submit a policy version to a league",
    description:
      "Places the policy version in the league as a membership of the player (status `placed`), or records why not (`rejected`). A league whose submissions are locked answers 409 `submissions_locked`. Unknown or foreign league, policy version, player or division: 422 naming the field.",
    auth: "required",
    complexity: 10,
    body: CreateLeagueSubmissionRequest,
    status: 201,
    response: LeagueSubmission,
    idempotent: true,
  }),
  listLeagueSubmissions: defineOperation({
    id: "listLeagueSubmissions",
    method: "GET",
    path: "/v2/league-submissions",
    tag: "Leagues",
    summary: "List submissions, newest first",
    description: "Submissions to leagues you can see; `mine` keeps your own. `limit` 1–500.",
    auth: "optional",
    complexity: 10,
    query: ListLeagueSubmissionsQuery,
    status: 200,
    response: z.array(LeagueSubmission),
  }),
  listLeaguePolicyMemberships: defineOperation({
    id: "listLeaguePolicyMemberships",
    method: "GET",
    path: "/v2/league-policy-memberships",
    tag: "Leagues",
    summary: "List policy memberships, newest first",
    description:
      "`active_only`: qualifying or competing. `champions_only`: each player's champion. `limit` 1–500.",
    auth: "optional",
    complexity: 10,
    query: ListMembershipsQuery,
    status: 200,
    response: z.array(LeaguePolicyMembership),
  }),
  setMembershipChampion: defineOperation({
    id: "setMembershipChampion",
    method: "POST",
    path: "/v2/league-policy-memberships/{membership_id}/champion",
    tag: "Leagues",
    summary: "Make this membership its player's champion (the player's owner or the commissioner)",
    description:
      "The player's other memberships in the league stop being champion. A membership that is not competing answers 409.",
    auth: "required",
    complexity: 10,
    params: MembershipIdParams,
    status: 200,
    response: LeaguePolicyMembership,
  }),
  retireMembership: defineOperation({
    id: "retireMembership",
    method: "POST",
    path: "/v2/league-policy-memberships/{membership_id}/retire",
    tag: "Leagues",
    summary: "Retire a membership (the player's owner or the commissioner)",
    description:
      "A retired champion hands over to the player's newest other competing membership, if any. Retiring twice answers the retired membership.",
    auth: "required",
    complexity: 10,
    params: MembershipIdParams,
    body: RetireMembershipRequest,
    bodyOptional: true,
    status: 200,
    response: LeaguePolicyMembership,
  }),
} as const;
