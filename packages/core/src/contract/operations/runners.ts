// The runner work queue (docs/api.md, "Runner work queue"): machine tokens only. Every call about a
// leased job presents the lease's own secret too, so a token alone never reports on a job.
import { z } from "zod";

import { Uuid } from "../../ids.ts";
import {
  COMMISSIONER_RELAY_FRAME_BYTES,
  CommissionerJobEnd,
  CommissionerJobState,
  CommissionerLeaseRequest,
  CommissionerLeaseResponse,
  CommissionerRelayInfo,
  CommissionerRelayQuery,
} from "../../models/commissioner-job.ts";
import { Bytes } from "../../models/common.ts";
import {
  ArtifactUploaded,
  CompleteJobRequest,
  FailJobRequest,
  HeartbeatResponse,
  JobState,
  LeaseRequest,
  LeaseResponse,
  RunnerRef,
} from "../../models/runner-job.ts";
import { defineOperation, LEASE_TOKEN_HEADER } from "../operation.ts";

const JobParams = z.object({ job_id: Uuid });

export const ArtifactName = z
  .string()
  .regex(
    /^(game-config|logs|error-info|results|replay|policy-log-\d{1,3}|policy-artifact-\d{1,3}|state-\d{1,3})$/,
  );

export const runnerOperations = {
  leaseJobs: defineOperation({
    id: "leaseJobs",
    method: "POST",
    path: "/v2/runner/jobs/lease",
    tag: "Runners",
    summary: "Lease up to `capacity` episode jobs",
    auth: "required",
    access: "runner",
    complexity: 1,
    body: LeaseRequest,
    status: 200,
    response: LeaseResponse,
  }),
  heartbeatJob: defineOperation({
    id: "heartbeatJob",
    method: "POST",
    path: "/v2/runner/jobs/{job_id}/heartbeat",
    tag: "Runners",
    summary: "Extend a lease",
    auth: "required",
    access: "runner",
    leaseTokenHeader: LEASE_TOKEN_HEADER,
    complexity: 1,
    params: JobParams,
    body: RunnerRef,
    status: 200,
    response: HeartbeatResponse,
  }),
  uploadJobArtifact: defineOperation({
    id: "uploadJobArtifact",
    method: "PUT",
    path: "/v2/runner/jobs/{job_id}/artifacts/{artifact_name}",
    tag: "Runners",
    summary: "Upload one artifact of the leased episode",
    auth: "required",
    access: "runner",
    leaseTokenHeader: LEASE_TOKEN_HEADER,
    complexity: 1,
    params: JobParams.extend({ artifact_name: ArtifactName }),
    body: Bytes,
    bodyContentType: "application/octet-stream",
    status: 200,
    response: ArtifactUploaded,
  }),
  completeJob: defineOperation({
    id: "completeJob",
    method: "POST",
    path: "/v2/runner/jobs/{job_id}/complete",
    tag: "Runners",
    summary: "Report results; completing twice is a no-op",
    auth: "required",
    access: "runner",
    leaseTokenHeader: LEASE_TOKEN_HEADER,
    complexity: 1,
    params: JobParams,
    body: CompleteJobRequest,
    status: 200,
    response: JobState,
  }),
  failJob: defineOperation({
    id: "failJob",
    method: "POST",
    path: "/v2/runner/jobs/{job_id}/fail",
    tag: "Runners",
    summary: "Report a failed episode (or return the job unrun)",
    auth: "required",
    access: "runner",
    leaseTokenHeader: LEASE_TOKEN_HEADER,
    complexity: 1,
    params: JobParams,
    body: FailJobRequest,
    status: 200,
    response: JobState,
  }),
  downloadBlob: defineOperation({
    id: "downloadBlob",
    method: "GET",
    path: "/v2/runner/blobs/{sha256}",
    tag: "Runners",
    summary: "Download a coworld or policy bundle by its hash",
    auth: "required",
    access: "runner",
    complexity: 1,
    params: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
    status: 200,
    response: Bytes,
    responseKind: "bytes",
  }),
} as const;

const CommissionerJobParams = z.object({ job_id: Uuid });

/** A coworld's commissioner as runner work (models/commissioner-job.ts). */
export const commissionerJobOperations = {
  leaseCommissionerJob: defineOperation({
    id: "leaseCommissionerJob",
    method: "POST",
    path: "/v2/runner/commissioner-jobs/lease",
    tag: "Runners",
    summary: "Lease one commissioner session, if one waits",
    description:
      "A league run by its coworld's own commissioner asks for one session at a time (scheduling, migration, a round); a runner takes it here, starts the commissioner runnable in its sandbox and bridges its `/round` socket to `relay_url`. `job` is null when none waits.",
    auth: "required",
    access: "runner",
    complexity: 1,
    body: CommissionerLeaseRequest,
    status: 200,
    response: CommissionerLeaseResponse,
  }),
  endCommissionerJob: defineOperation({
    id: "endCommissionerJob",
    method: "POST",
    path: "/v2/runner/commissioner-jobs/{job_id}/end",
    tag: "Runners",
    summary: "Report a commissioner session's end and its log; a repeat is a no-op",
    auth: "required",
    access: "runner",
    leaseTokenHeader: LEASE_TOKEN_HEADER,
    complexity: 1,
    params: CommissionerJobParams,
    body: CommissionerJobEnd,
    status: 200,
    response: CommissionerJobState,
  }),
  commissionerJobRelay: defineOperation({
    id: "commissionerJobRelay",
    method: "GET",
    path: "/v2/runner/commissioner-jobs/{job_id}/relay",
    tag: "Runners",
    summary: "The commissioner's side of a session (WebSocket, for the runner)",
    description: `The runner that leased the job connects here with the token of its \`relay_url\` once the commissioner answers \`/healthz\`, and bridges frames with the commissioner's \`/round\` socket: the server's messages arrive one per text frame; the runner sends each of the commissioner's as text frames of at most ${COMMISSIONER_RELAY_FRAME_BYTES} bytes, "+" starting each but the last, "." the last. Closes: 1000 the session ended, 4401 unknown job or wrong token, 4410 the session is over, 4413 a message past 16 MiB.`,
    auth: "none",
    complexity: 1,
    params: CommissionerJobParams,
    query: CommissionerRelayQuery,
    status: 200,
    response: CommissionerRelayInfo,
  }),
} as const;
