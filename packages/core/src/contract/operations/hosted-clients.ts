// Paths of the hosted service that its own clients (coworld, softmax-cli, cogames) call, served as
// views of Gauntlet's own operations (docs/api.md "The hosted service's clients"). Kept in a group
// of their own, after the rest of the contract.
import { z } from "zod";

import { PlayerId, Uuid } from "../../ids.ts";
import { Bytes } from "../../models/common.ts";
import { JobArtifactType } from "../../models/episode.ts";
import {
  ContentUploadParams,
  ContentUploadPut,
  ContentUploadQuery,
  MAX_BUNDLE_BYTES,
  ReplayViewerBundleCompleted,
  ReplayViewerBundleRequest,
  ReplayViewerBundleStarted,
  ReporterUploadCompleted,
  ReporterUploadCompleteRequest,
  ReporterUploadRequest,
  ReporterUploadStarted,
} from "../../models/hosted-uploads.ts";
import { PolicyVersion } from "../../models/policy.ts";
import { defineOperation, MAX_FORM_BODY_BYTES } from "../operation.ts";
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
    maxBodyBytes: MAX_FORM_BODY_BYTES,
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
  requestReporterUpload: defineOperation({
    id: "requestReporterUpload",
    method: "POST",
    path: "/v2/reporters/upload",
    tag: "Reporters",
    summary:
      "Start uploading a reporter's bundle: an address to PUT it to, or the version it already is",
    description:
      "`name` is one of the caller's own reporters (registered with `/v2/reporters/register`; another user's name is 404). The same bytes (`content_hash`, their SHA-256) and `attributes` as an existing version answer that version and no address. The address expires after an hour; PUT the bytes there, then complete.",
    auth: "required",
    access: "user",
    complexity: 10,
    body: ReporterUploadRequest,
    status: 200,
    response: ReporterUploadStarted,
  }),
  completeReporterUpload: defineOperation({
    id: "completeReporterUpload",
    method: "POST",
    path: "/v2/reporters/upload/complete",
    tag: "Reporters",
    summary: "Complete a reporter bundle's upload: its next version (or the version it already is)",
    description:
      "Versions count from 1 per owner and name, and a version is referenced as `owner_user_id/name@version`. 409 when no bytes with that hash were PUT to an address this caller started.",
    auth: "required",
    access: "user",
    complexity: 10,
    body: ReporterUploadCompleteRequest,
    status: 200,
    response: ReporterUploadCompleted,
  }),
  putContentUpload: defineOperation({
    id: "putContentUpload",
    method: "PUT",
    path: "/v2/content-uploads/{upload_id}",
    tag: "Reporters",
    summary: "The signed address of a reporter or replay viewer bundle upload: the bundle's bytes",
    description:
      "Authenticated by its signature, not a bearer token; 403 when the signature is wrong or expired, 422 when the bytes are not the SHA-256 and size the upload was started with.",
    auth: "none",
    complexity: 10,
    params: ContentUploadParams,
    query: ContentUploadQuery,
    body: Bytes,
    bodyContentType: "application/octet-stream",
    // Clients PUT the bytes as they are (coworld's sends no Content-Type), as to a bucket.
    bodyAnyMediaType: true,
    maxBodyBytes: MAX_BUNDLE_BYTES,
    status: 200,
    response: ContentUploadPut,
  }),
  requestReplayViewerBundleUpload: defineOperation({
    id: "requestReplayViewerBundleUpload",
    method: "POST",
    path: "/v2/coworlds/replay-viewer-bundles/upload",
    tag: "Coworlds",
    summary: "Start uploading a coworld's replay viewer bundle (a zip with an index.html)",
    description:
      "Answers `bundle: sha256:<hash>` (what a manifest's `game.replay_viewer.bundle` names) and an address to PUT the zip to, or no address when a bundle with those bytes was already completed.",
    auth: "required",
    access: "user",
    complexity: 10,
    body: ReplayViewerBundleRequest,
    status: 200,
    response: ReplayViewerBundleStarted,
  }),
  completeReplayViewerBundleUpload: defineOperation({
    id: "completeReplayViewerBundleUpload",
    method: "POST",
    path: "/v2/coworlds/replay-viewer-bundles/upload/complete",
    tag: "Coworlds",
    summary: "Complete a replay viewer bundle's upload",
    description:
      "409 when no bytes with that hash and size were PUT to an address this caller started.",
    auth: "required",
    access: "user",
    complexity: 10,
    body: ReplayViewerBundleRequest,
    status: 200,
    response: ReplayViewerBundleCompleted,
  }),
} as const;
