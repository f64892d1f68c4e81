// Reporters: programs that analyse episodes, rounds and divisions and publish write-ups
// (docs/api.md, "Reporters"). A reporter run (`rrun_…`) groups the outputs of one run over one
// subject; its outputs are the hosted service's Reporter run output records (spec-records.ts).
import { z } from "zod";

import { idSchema, ReporterRunId } from "../ids.ts";
import { queryInt, Timestamp } from "./common.ts";

export const ReporterId = idSchema("reporter");
export const ReporterOutputId = idSchema("reporterOutput");

/** The largest output body a reporter may post (413 above it). */
export const MAX_REPORTER_OUTPUT_BYTES = 5 * 1024 * 1024;

export const ReporterMode = z.enum(["manual", "live"]).meta({
  id: "ReporterMode",
  description:
    "`manual`: runs are opened by hand; `live`: the reporter follows live events and opens runs itself.",
});

/**
 * One output a reporter declares it writes (the hosted service's outputs contract); other keys
 * kept.
 */
export const ReporterOutputDecl = z
  .looseObject({
    name: z.string().trim().min(1).max(200),
    type: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .meta({ description: "From the output catalog, e.g. `render-html`." }),
    description: z.string().max(2000).meta({ description: "What the output means." }),
    schema: z
      .string()
      .max(2000)
      .optional()
      .meta({ description: "A JSON Schema URI (json outputs)." }),
    optional: z.boolean().optional(),
  })
  .meta({ id: "ReporterOutputDecl" });
const ReporterOutputs = z.array(ReporterOutputDecl).max(100);

export const RegisterReporterRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    display_name: z.string().trim().min(1).max(200).optional().meta({
      description: "The title to show; by default the name.",
    }),
    description: z.string().max(2000).optional(),
    type: z.string().trim().min(1).max(64).optional().meta({
      description:
        "What the reporter writes about, e.g. `round-summary`; free text, filterable. `general` when a new reporter is registered without it.",
    }),
    mode: ReporterMode.optional().meta({
      description: "`manual` when a new reporter is registered without it.",
    }),
    outputs: ReporterOutputs.optional().meta({
      description:
        "The outputs the reporter writes (the hosted service's contract), kept as given.",
    }),
  })
  .meta({
    id: "RegisterReporterRequest",
    description:
      "An upsert by name among the caller's reporters: a new name is created (with a key); an existing one takes the fields sent and keeps the rest, and its key.",
  });

export const Reporter = z
  .object({
    id: ReporterId,
    name: z.string(),
    display_name: z
      .string()
      .meta({ description: "The title to show (the hosted service's field); by default `name`." }),
    description: z.string().meta({ description: "Empty when none was given." }),
    type: z.string(),
    mode: ReporterMode,
    user_id: z.string().meta({
      description:
        "The owner: reporter runs act under this user's identity for the shared budgets.",
    }),
    created: Timestamp,
    created_at: Timestamp.meta({
      description: "The same as `created` (the hosted service's clients read this one).",
    }),
    key_rotated_at: Timestamp.nullable(),
    outputs: ReporterOutputs.meta({ description: "As registered; empty when none was given." }),
    run_count: z.number().int(),
    output_count: z.number().int(),
  })
  .meta({ id: "Reporter", description: "A reporter; its key is never part of it." });

export const RegisteredReporter = Reporter.extend({
  created: z.boolean().meta({
    description:
      "True when this registration created the reporter, false when it updated one of the caller's (`created_at` says when it was made).",
  }),
  reporter_key: z.string().nullable().meta({
    description:
      "Send as `X-Reporter-Key` when posting outputs. Shown once, when the reporter is created (null on an update: the key is unchanged): only its SHA-256 hash is stored.",
  }),
}).meta({ id: "RegisteredReporter" });

/** A reporter's new key (rotation always issues one). */
export const RotatedReporterKey = Reporter.extend({
  reporter_key: z.string().meta({
    description:
      "Send as `X-Reporter-Key` when posting outputs. Shown once: only its SHA-256 hash is stored.",
  }),
}).meta({ id: "RotatedReporterKey" });

export const ReporterIdParams = z.object({ reporter_id: ReporterId });
export const ReporterOutputIdParams = z.object({ output_id: ReporterOutputId });
export const ReporterRunIdParams = z.object({ reporter_run_id: ReporterRunId });

export const ListReportersQuery = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "Words of the name or description (case-insensitive)." }),
  type: z
    .union([z.string().max(64), z.array(z.string().max(64)).max(20)])
    .optional()
    .meta({ description: "One type, or the key repeated for several (any of them)." }),
  mode: z
    .union([ReporterMode, z.literal("all")])
    .optional()
    .meta({ description: "`all` (or left out) for every mode." }),
  author: z.string().max(200).optional().meta({ description: "The owner's user id or email." }),
  limit: queryInt(1, 200).default(50),
  offset: queryInt(0, 100_000).default(0),
});

export const ReporterSubjectType = z
  .enum(["episode", "round", "division", "text"])
  .meta({ id: "ReporterSubjectType" });

export const OpenReporterRunRequest = z
  .strictObject({
    subject_type: ReporterSubjectType,
    subject_id: z.string().min(1).max(200).optional().meta({
      description:
        "The episode request, round or division id; required unless `subject_type` is `text`.",
    }),
    subject_text: z.string().min(1).max(2000).optional().meta({
      description: "Free text naming the subject; required when `subject_type` is `text`.",
    }),
  })
  .superRefine((v, ctx) => {
    if (v.subject_type === "text" && v.subject_text === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["subject_text"],
        message: "subject_text is required when subject_type is text",
      });
    if (v.subject_type !== "text" && v.subject_id === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["subject_id"],
        message: `subject_id is required when subject_type is ${v.subject_type}`,
      });
  })
  .meta({ id: "OpenReporterRunRequest" });

export const ReporterRun = z
  .object({
    id: ReporterRunId,
    reporter_id: ReporterId,
    user_id: z.string(),
    subject_type: ReporterSubjectType,
    subject_id: z.string().nullable(),
    subject_text: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "ReporterRun" });

export const PostReporterOutputQuery = z.object({
  reporter_run_id: ReporterRunId,
  name: z.string().trim().min(1).max(200),
  type: z.string().trim().min(1).max(64).meta({
    description:
      "The output's kind: `html`, `markdown`, `json`, `text`, or another word of the reporter's.",
  }),
  media_type: z
    .string()
    .regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(;\s*[a-z0-9_-]+=[a-z0-9_.-]+)*$/i)
    .max(200)
    .optional()
    .meta({
      description:
        "Served with the bytes; by default derived from `type` (`html` → text/html, `markdown` → text/markdown, `json` → application/json, `text` → text/plain, else application/octet-stream).",
    }),
});

export type Reporter = z.infer<typeof Reporter>;
export type RegisteredReporter = z.infer<typeof RegisteredReporter>;
export type RotatedReporterKey = z.infer<typeof RotatedReporterKey>;
export type RegisterReporterRequest = z.input<typeof RegisterReporterRequest>;
export type ReporterRun = z.infer<typeof ReporterRun>;
export type OpenReporterRunRequest = z.infer<typeof OpenReporterRunRequest>;
export type ListReportersQuery = z.infer<typeof ListReportersQuery>;
export type PostReporterOutputQuery = z.infer<typeof PostReporterOutputQuery>;
