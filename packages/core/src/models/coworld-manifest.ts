// The coworld manifest (`coworld_manifest.json`, docs/runtime.md). Unknown fields are kept (loose
// objects), known fields are checked, and every issue's path names the field at fault.
import { z } from "zod";

/** Semantic Versioning 2.0.0 (semver.org's reference expression). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

const Text = z.string().min(1);

/** A JSON object (configs, schemas): anything but an array or null. */
const JsonObject = z.record(z.string(), z.unknown());

export const CoworldDocRef = z
  .discriminatedUnion("type", [
    z.looseObject({
      type: z.literal("text"),
      value: Text.meta({ description: "Inline Markdown." }),
    }),
    z.looseObject({
      type: z.literal("uri"),
      value: Text.meta({
        description: "An http(s) address, or a path relative to the coworld's directory.",
      }),
    }),
  ])
  .meta({ id: "CoworldDocRef", description: "A document: inline text or a reference." });

export const RunnableEnv = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name"), z.string())
  .meta({
    id: "RunnableEnv",
    description: "Public environment for a runnable. Never secrets: manifests are public.",
  });

/** CPUs as a number (1.5) or a Kubernetes-style quantity ("2", "500m"). */
const CpuQuantity = z.union([
  z.number().positive().max(256),
  z.string().regex(/^(\d+(\.\d+)?|\d+m)$/, 'CPUs such as 1, "1.5" or "500m"'),
]);

export const RunnableResources = z
  .looseObject({
    limits: z
      .looseObject({
        cpu: CpuQuantity.optional().meta({
          description:
            "CPUs the runnable may use at once. On a player entry it is the cap of every seat of the coworld's episodes (each also has an equal share); on the game, the game's.",
        }),
      })
      .optional(),
  })
  .meta({ id: "RunnableResources" });

/** CPUs of a `resources.limits.cpu` quantity; null when not given or not positive. */
export function cpusOf(resources: unknown): number | null {
  const cpu = (resources as { limits?: { cpu?: unknown } } | undefined)?.limits?.cpu;
  const parsed = CpuQuantity.safeParse(cpu);
  if (!parsed.success) return null;
  const value =
    typeof parsed.data === "number"
      ? parsed.data
      : parsed.data.endsWith("m")
        ? Number(parsed.data.slice(0, -1)) / 1000
        : Number(parsed.data);
  return value > 0 ? value : null;
}

const runnableFields = {
  image: Text.optional().meta({ description: "Container image (the docker runtime)." }),
  resources: RunnableResources.optional(),
  run: z.array(Text).min(1).optional().meta({
    description:
      "argv. On the process runtime it runs with the coworld's directory as working directory, and `node` as argv[0] means the runner's own Node.",
  }),
  env: RunnableEnv.optional(),
};

function requireImageOrRun(
  value: { image?: string | undefined; run?: string[] | undefined },
  ctx: z.RefinementCtx,
): void {
  if (value.image === undefined && value.run === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["run"],
      message: "a runnable needs `image`, `run`, or both",
    });
  }
}

export const GameRunnable = z
  .looseObject({ type: z.literal("game"), ...runnableFields })
  .superRefine(requireImageOrRun)
  .meta({ id: "GameRunnable" });

export const PlayerRunnable = z
  .looseObject({
    type: z.literal("player"),
    id: Text,
    name: Text,
    description: Text,
    ...runnableFields,
  })
  .superRefine(requireImageOrRun)
  .meta({
    id: "PlayerRunnable",
    description: "A bundled player: a baseline for certification and filler seats.",
  });

/**
 * The runtime config schema. It must require `tokens`, a string array whose `minItems` and
 * `maxItems` bound the roster (docs/runtime.md).
 */
export const CoworldConfigSchema = JsonObject.superRefine((schema, ctx) => {
  const required = schema.required;
  if (!Array.isArray(required) || !required.includes("tokens")) {
    ctx.addIssue({
      code: "custom",
      path: ["required"],
      message: "the config schema must require `tokens`",
    });
  }
  const tokens = objectAt(schema, ["properties", "tokens"]);
  if (tokens === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["properties", "tokens"],
      message: "the config schema must declare `tokens`",
    });
    return;
  }
  const at = (key: string) => ["properties", "tokens", key];
  if (tokens.type !== "array") {
    ctx.addIssue({ code: "custom", path: at("type"), message: "`tokens` must be of type array" });
  }
  const items = objectAt(tokens, ["items"]);
  if (items?.type !== "string") {
    ctx.addIssue({
      code: "custom",
      path: at("items"),
      message: "`tokens` items must be of type string",
    });
  }
  const { minItems, maxItems } = tokens;
  if (!isCount(minItems) || minItems < 1) {
    ctx.addIssue({
      code: "custom",
      path: at("minItems"),
      message: "`tokens` needs an integer minItems of at least 1",
    });
  }
  if (!isCount(maxItems)) {
    ctx.addIssue({
      code: "custom",
      path: at("maxItems"),
      message: "`tokens` needs an integer maxItems",
    });
  } else if (isCount(minItems) && maxItems < minItems) {
    ctx.addIssue({
      code: "custom",
      path: at("maxItems"),
      message: "`tokens` maxItems is below its minItems",
    });
  }
}).meta({
  id: "CoworldConfigSchema",
  description: "JSON Schema of the runtime config; requires a bounded string array `tokens`.",
});

/**
 * The results schema: must require a `scores` array (one number per slot; the runner checks the
 * count).
 */
export const CoworldResultsSchema = JsonObject.superRefine((schema, ctx) => {
  const required = schema.required;
  if (!Array.isArray(required) || !required.includes("scores")) {
    ctx.addIssue({
      code: "custom",
      path: ["required"],
      message: "the results schema must require `scores`",
    });
  }
  if (objectAt(schema, ["properties", "scores"])?.type !== "array") {
    ctx.addIssue({
      code: "custom",
      path: ["properties", "scores"],
      message: "`scores` must be declared as an array",
    });
  }
}).meta({
  id: "CoworldResultsSchema",
  description: "JSON Schema the final results must satisfy; requires `scores`.",
});

/** A token-free game config (variants and certification): the runner adds the tokens. */
const TokenFreeConfig = JsonObject.superRefine((config, ctx) => {
  if ("tokens" in config) {
    ctx.addIssue({
      code: "custom",
      path: ["tokens"],
      message: "author-owned configs omit `tokens`: the runner adds them",
    });
  }
}).meta({ id: "TokenFreeGameConfig" });

export const CoworldGame = z
  .looseObject({
    name: Text,
    version: z.string().regex(SEMVER, "a semantic version such as 1.2.3"),
    description: Text,
    owner: Text,
    docs: z.looseObject({ readme: CoworldDocRef }),
    config_schema: CoworldConfigSchema,
    results_schema: CoworldResultsSchema,
    runnable: GameRunnable,
  })
  .meta({ id: "CoworldGame" });

export const CoworldVariant = z
  .looseObject({
    id: Text,
    name: Text,
    description: Text.optional(),
    game_config: TokenFreeConfig,
  })
  .meta({ id: "CoworldVariant", description: "A named, token-free game config." });

/**
 * One seat of the certification episode: a bundled player by id (upstream's shape), with
 * optional query parameters added to that seat's WebSocket address.
 */
export const CertificationPlayer = z
  .looseObject({
    player_id: Text.meta({ description: "The `id` of one of the manifest's `player[]` entries." }),
    initial_params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  })
  .meta({ id: "CertificationPlayer" });

export const CoworldCertification = z
  .looseObject({
    game_config: TokenFreeConfig,
    players: z
      .array(CertificationPlayer)
      .min(1)
      .meta({ description: "Ordered seats, slot 0 first." }),
  })
  .meta({ id: "CoworldCertification", description: "The episode that proves the package works." });

/** A supporting role runnable (commissioner, reporter, grader, …): kept as written, not run yet. */
const RoleRunnable = z.looseObject({ id: Text.optional() }).meta({ id: "CoworldRoleRunnable" });
const RoleSection = z.array(RoleRunnable).optional();

/** The longest `episode_timeout_minutes` a manifest may ask for (the hosted service's bound). */
export const MAX_EPISODE_TIMEOUT_MINUTES = 100;

export const EpisodeTimeoutMinutes = z
  .number()
  .int()
  .min(1)
  .max(MAX_EPISODE_TIMEOUT_MINUTES)
  .meta({
    description: `An episode of this coworld ends as \`timeout\` after this long at most (1–${MAX_EPISODE_TIMEOUT_MINUTES}): it caps the job's deadline.`,
  });

export const CoworldManifest = z
  .looseObject({
    game: CoworldGame,
    player: z.array(PlayerRunnable).min(1),
    variants: z.array(CoworldVariant).min(1),
    certification: CoworldCertification,
    tags: z.array(Text).min(3),
    commissioner: RoleSection,
    reporter: RoleSection,
    grader: RoleSection,
    diagnoser: RoleSection,
    optimizer: RoleSection,
    players_per_user: z.number().int().min(1).optional().meta({
      description:
        "At most this many of one user's players compete in a league of this coworld at once (a submission past it is refused).",
    }),
    episode_timeout_minutes: EpisodeTimeoutMinutes.optional(),
  })
  .superRefine((manifest, ctx) => {
    duplicates(manifest.player.map((p) => p.id)).forEach((index) =>
      ctx.addIssue({
        code: "custom",
        path: ["player", index, "id"],
        message: "player ids must be unique",
      }),
    );
    duplicates(manifest.variants.map((v) => v.id)).forEach((index) =>
      ctx.addIssue({
        code: "custom",
        path: ["variants", index, "id"],
        message: "variant ids must be unique",
      }),
    );
    const ids = new Set(manifest.player.map((p) => p.id));
    manifest.certification.players.forEach((seat, index) => {
      if (!ids.has(seat.player_id)) {
        ctx.addIssue({
          code: "custom",
          path: ["certification", "players", index, "player_id"],
          message: `no bundled player has the id "${seat.player_id}"`,
        });
      }
    });
    const bounds = rosterBounds(manifest);
    const seats = manifest.certification.players.length;
    if (seats < bounds.min || seats > bounds.max) {
      ctx.addIssue({
        code: "custom",
        path: ["certification", "players"],
        message: `the certification roster has ${seats} seats; the config schema allows ${bounds.min}–${bounds.max}`,
      });
    }
  })
  .meta({
    id: "CoworldManifest",
    description: "`coworld_manifest.json`: a game packaged with its players (docs/runtime.md).",
  });

export type CoworldDocRef = z.infer<typeof CoworldDocRef>;
export type GameRunnable = z.infer<typeof GameRunnable>;
export type PlayerRunnable = z.infer<typeof PlayerRunnable>;
export type CoworldVariant = z.infer<typeof CoworldVariant>;
export type CertificationPlayer = z.infer<typeof CertificationPlayer>;
export type CoworldCertification = z.infer<typeof CoworldCertification>;
export type CoworldManifest = z.infer<typeof CoworldManifest>;

/**
 * How many players an episode of this coworld seats: the bounds of `tokens` in the config schema.
 */
export function rosterBounds(manifest: Pick<CoworldManifest, "game">): {
  min: number;
  max: number;
} {
  const tokens = objectAt(manifest.game.config_schema, ["properties", "tokens"]);
  const min = tokens?.minItems;
  const max = tokens?.maxItems;
  // A parsed manifest always has both; the fallback only serves half-built objects.
  return { min: isCount(min) ? min : 1, max: isCount(max) ? max : isCount(min) ? min : 1 };
}

function objectAt(
  root: Record<string, unknown>,
  path: string[],
): Record<string, unknown> | undefined {
  let node: unknown = root;
  for (const key of path) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === "object" && node !== null && !Array.isArray(node)
    ? (node as Record<string, unknown>)
    : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** Indexes of entries that repeat an earlier one. */
function duplicates(values: string[]): number[] {
  const seen = new Set<string>();
  return values.flatMap((value, index) => {
    if (seen.has(value)) return [index];
    seen.add(value);
    return [];
  });
}

// The episode shapes (results, error info) belong to the same runtime contract; they are
// re-exported here so that the package index names this contract in one line.
export * from "./episode-outcome.ts";
