// The runner work queue (docs/api.md, "Runner work queue"): machine tokens only. Every call about a
// leased job presents the lease's own secret too, so a token alone never reports on a job.
import { z } from "zod";

import { Uuid } from "../../ids.ts";
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
