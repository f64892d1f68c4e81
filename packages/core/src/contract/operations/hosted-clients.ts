// Paths of the hosted service that its own clients (coworld, softmax-cli, cogames) call, served as
// views of Gauntlet's own operations (docs/api.md "The hosted service's clients"). Kept in a group
// of their own, after the rest of the contract.
import { z } from "zod";

import { PlayerId, Uuid } from "../../ids.ts";
import { Bytes } from "../../models/common.ts";
import { JobArtifactType } from "../../models/episode.ts";
import { PolicyVersion } from "../../models/policy.ts";
import { defineOperation } from "../operation.ts";
import { CliLoginForm, CliLoginQuery } from "./identity.ts";

const PlayerParams = z.object({ player_id: PlayerId });
const TokenValidity = z.object({ valid: z.boolean() }).meta({ id: "TokenValidity" });

export const hostedClientOperations = {
  cliAuthPage: defineOperation({
    id: "cliAuthPage",
    method: "GET",
    path: "/cli-auth",
    tag: "Identity",
    summary: "The sign-in page under the hosted service's current path (the same as /cli-login)",
    auth: "none",
    complexity: 1,
    query: CliLoginQuery,
    status: 200,
    response: z.string(),
    responseKind: "html",
  }),
  cliAuthSubmit: defineOperation({
    id: "cliAuthSubmit",
    method: "POST",
    path: "/cli-auth",
    tag: "Identity",
    summary: "Sign in; redirects to the callback with a one-time code, or shows the code",
    auth: "none",
    complexity: 10,
    body: CliLoginForm,
    bodyContentType: "application/x-www-form-urlencoded",
    status: 302,
    response: z.string(),
    responseKind: "html",
    pageStatuses: [200, 401],
  }),
  validateToken: defineOperation({
    id: "validateToken",
    method: "GET",
    path: "/validate",
    tag: "Identity",
    summary: "Whether the bearer token is valid",
    description:
      "Always 200: `{valid: true}` for a known, unrevoked, unexpired token, else `{valid: false}` (the hosted service's path, which command-line clients check a pasted token on).",
    auth: "optional",
    access: "public",
    invalidTokenIsAnonymous: true,
    complexity: 1,
    status: 200,
    response: TokenValidity,
  }),
  revokePlayerCredential: defineOperation({
    id: "revokePlayerCredential",
    method: "DELETE",
    path: "/players/{player_id}/credentials/{credential_id}",
    tag: "Players",
    summary: "Revoke one long-lived credential of a player",
    description: "It stops working at once, on every replica.",
    auth: "required",
    access: "owner",
    complexity: 10,
    params: PlayerParams.extend({ credential_id: Uuid }),
    status: 200,
    response: z.object({ id: Uuid }).meta({ id: "RevokedPlayerCredential" }),
  }),
  getJobArtifact: defineOperation({
    id: "getJobArtifact",
    method: "GET",
    path: "/jobs/{job_id}/artifacts/{artifact_type}",
    tag: "Episodes",
    summary: "An artifact of the episode a job played, by the job's id",
    description:
      "The same bytes as `/v2/episode-requests/{id}/artifacts/{artifact_type}` for the episode request whose `job_id` this is, with the same visibility (the hosted service's path). `error_info` and `game_config` are taken for `error-info` and `game-config`.",
    auth: "optional",
    complexity: 10,
    params: z.object({ job_id: Uuid, artifact_type: JobArtifactType }),
    status: 200,
    response: Bytes,
    responseKind: "bytes",
  }),
  getStatsPolicyVersion: defineOperation({
    id: "getStatsPolicyVersion",
    method: "GET",
    path: "/stats/policy-versions/{policy_version_id}",
    tag: "Policies",
    summary:
      "Get a policy version (the hosted service's path; the same as /v2/policy-versions/{id})",
    auth: "optional",
    complexity: 1,
    params: z.object({ policy_version_id: Uuid }),
    status: 200,
    response: PolicyVersion,
  }),
} as const;
