// Table shapes for Kysely, and nothing else: one interface per table and the Database map that
// names them, no code. It stays one file past the line budget (tooling/eslint/line-budget.js) on
// purpose: read top to bottom, it is the map of the schema, as the migrations build it. JSON
// documents are stored as text and booleans as 0/1 integers so that one migration set and one set
// of queries serve SQLite and PostgreSQL alike. Status columns take their values from the
// contract's enums, so a read needs no cast.
import type {
  Certification,
  CompetitionEventType,
  ContainerImage,
  ContentFormat,
  Division,
  EpisodeRequest,
  EventAudience,
  ExperienceRequestStatus,
  Forum,
  Isolation,
  JobState,
  LeaguePolicyMembership,
  LeagueSubmission,
  LobbySeatKind,
  LobbyStatus,
  PlayModuleKind,
  PlaySessionStatus,
  PolicyBundle,
  Reporter,
  ReporterRun,
  Round,
  Token,
  TournamentBracket,
  TournamentFormat,
  TournamentMatchStatus,
  TournamentStatus,
} from "@gauntlet/core";

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  is_admin: number;
  created_at: string;
}

export interface MachinesTable {
  id: string;
  name: string;
  owner_user_id: string;
  created_at: string;
}

export interface PlayersTable {
  id: string;
  name: string;
  owner_user_id: string;
  created_at: string;
}

export interface TokensTable {
  id: string;
  token_hash: string;
  /** user | machine | player */
  kind: Token["kind"];
  /** api (user/machine tokens) | login (24-hour player token) | credential (long-lived player) */
  purpose: string;
  name: string;
  user_id: string;
  machine_id: string | null;
  player_id: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuthCodesTable {
  code_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface GamesTable {
  id: string;
  name: string;
  owner_user_id: string;
  coworld_name: string | null;
  coworld_id: string | null;
  description: string | null;
  notes: string | null;
  created_at: string;
}

export interface ModsTable {
  id: string;
  game_id: string;
  name: string;
  owner_user_id: string;
  description: string | null;
  notes: string | null;
  created_at: string;
}

export interface LeaguesTable {
  id: string;
  name: string;
  commissioner_key: string;
  commissioner_user_id: string;
  game_id: string;
  mod_id: string | null;
  description: string | null;
  commissioner_config: string;
  commissioner_migration_version: string;
  rounds_paused_at: string | null;
  settings: string;
  filler_policy_version_ids: string;
  rules: string;
  public: number;
  hidden: number;
  is_game_of_week: number;
  disabled_at: string | null;
  notes: string | null;
  submissions_locked: number;
  game_version_locked: number;
  created_at: string;
  updated_at: string;
}

export interface DivisionsTable {
  id: string;
  league_id: string;
  name: string;
  level: number;
  type: Division["type"];
  description: string | null;
  hidden: number;
  archived_at: string | null;
  leaderboard_config: string;
  round_schedule: string;
  notes: string | null;
  commissioner_description: string;
  created_at: string;
}

export interface LeaguePolicyMembershipsTable {
  id: string;
  league_id: string;
  division_id: string;
  policy_version_id: string;
  player_id: string | null;
  status: LeaguePolicyMembership["status"];
  substatus: LeaguePolicyMembership["substatus"];
  is_champion: number;
  start_time: string;
  end_time: string | null;
  created_at: string;
  submission_id: string | null;
  retired_reason: string | null;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  request_hash: string;
  /** null while the first request is still running */
  status: number | null;
  response_body: string | null;
  created_at: string;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface ContainerImagesTable {
  id: string;
  owner_user_id: string;
  name: string;
  client_hash: string;
  status: ContainerImage["status"];
  created_at: string;
  completed_at: string | null;
}

export interface UploadsTable {
  id: string;
  owner_user_id: string;
  /** policy-bundle | coworld-bundle */
  kind: "policy-bundle" | "coworld-bundle";
  sha256: string;
  size_bytes: number;
  /** uploaded | complete */
  status: PolicyBundle["status"];
  created_at: string;
}

export interface PolicySecretEnvsTable {
  id: string;
  owner_user_id: string;
  ciphertext: string;
  variable_names: string;
  created_at: string;
}

export interface PoliciesTable {
  id: string;
  owner_user_id: string;
  name: string;
  created_at: string;
}

export interface PolicyVersionsTable {
  id: string;
  policy_id: string;
  version: number;
  container_image_id: string | null;
  bundle_upload_id: string | null;
  run: string | null;
  secret_env_id: string | null;
  tags: string;
  player_id: string | null;
  /** 1: others may seat it anywhere (access/versions.ts); 0: only where its owner entered it. */
  open_to_scrimmage: number;
  created_at: string;
}

export interface CoworldsTable {
  id: string;
  name: string;
  version: string;
  owner_user_id: string;
  game_id: string;
  manifest: string;
  manifest_hash: string;
  bundle_sha256: string | null;
  size_bytes: number;
  created_at: string;
}

export interface CoworldSecretsTable {
  coworld_name: string;
  secret_name: string;
  owner_user_id: string;
  ciphertext: string;
  size_bytes: number;
  updated_at: string;
}

export interface CertificationsTable {
  coworld_id: string;
  state: Certification["state"];
  episode_request_id: string | null;
  error: string | null;
  updated_at: string;
}

export interface EpisodeRequestsTable {
  id: string;
  requester_user_id: string;
  /** certification | round | experience | manual */
  purpose: string;
  coworld_id: string;
  league_id: string | null;
  division_id: string | null;
  round_id: string | null;
  pool_id: string | null;
  experience_request_id: string | null;
  /** The bulk upload an ingested episode came from (purpose `upload`). */
  bulk_upload_id: string | null;
  game_config: string;
  seed: number;
  max_steps: number | null;
  status: EpisodeRequest["status"];
  job_id: string | null;
  error_type: string | null;
  error: string | null;
  failed_policy_index: number | null;
  results: string | null;
  scores: string;
  change_seq: number;
  created_at: string;
  updated_at: string;
  /** When the retention policy removed its stored files (migration 018); null while kept. */
  artifacts_expired_at: string | null;
  /** EpisodeCpu (JSON) from the runner's last report (migration 022); null before or unmeasured. */
  cpu: string | null;
  /** The `request_id` the league's commissioner (a coworld's, or the built-in ladder) gave it (migration 025). */
  commissioner_request_id?: string | null;
  /** JSON: the commissioner's string tags of the episode (`{}` when none). */
  tags?: string;
  /** JSON: the public overrides the commissioner merged onto the variant (`{}` when none). */
  game_config_overrides?: string;
  /** The coworld secret holding the episode's private config overlay (migration 028); resolved
   * only when a runner takes the job, never stored resolved. */
  config_overlay_secret?: string | null;
  /** JSON EpisodeState (episodes/player-state.ts, migration 029); null for a stateless episode. */
  state?: string | null;
}

/** A player's live state in a coworld name (migration 029): sealed base64 of its bytes. */
export interface PlayerStatesTable {
  coworld_name: string;
  player_id: string;
  owner_user_id: string;
  ciphertext: string;
  /** sha256 of the content (kept inline above; no blob). */
  digest: string;
  size_bytes: number;
  updated_at: string;
}

/** An immutable copy of some players' states (migration 029). */
export interface StateSnapshotsTable {
  id: string;
  coworld_name: string;
  owner_user_id: string;
  /** JSON: [{player_id, sha256, size_bytes, ciphertext}] */
  players: string;
  size_bytes: number;
  created_at: string;
}

/** An episode struck from the rating record (migration 013). */
export interface EpisodeVoidsTable {
  episode_request_id: string;
  reason: string;
  voided_by_user_id: string;
  created_at: string;
}

export interface EpisodeParticipantsTable {
  episode_request_id: string;
  position: number;
  policy_version_id: string | null;
  bundled_player_id: string | null;
  player_id: string | null;
  display_name: string;
  /** A seat a person plays (migration 008): the sealed `{url}` its runner relays the seat to. */
  human_relay: string | null;
}

export interface JobsTable {
  id: string;
  episode_request_id: string;
  /** queued | leased | completed | failed */
  status: JobState["status"];
  runtime: string;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** SHA-256 of the current (or last) lease's secret; reports on the job must present it. */
  lease_token_hash: string | null;
  /** The machine that holds (or last held) the lease. */
  lease_machine_id: string | null;
  /** Where the runner of the current (or last) lease runs code, as it said (migration 016). */
  isolation: Isolation | null;
  /** When the current (or last) lease began (migration 019): a live game's join timeout runs from it. */
  leased_at: string | null;
  /** The class of work whose share the job is leased under: league, play, evaluation or certification (migration 021). */
  share_class: string;
  /** The user who asked for the job's episode: evaluations are shared out per requester (migration 021). */
  share_owner: string;
  deadline_ms: number;
  created_at: string;
  updated_at: string;
}

export interface ArtifactsTable {
  episode_request_id: string;
  name: string;
  sha256: string;
  size_bytes: number;
  media_type: string;
  created_at: string;
}

export interface LeagueSubmissionsTable {
  id: string;
  league_id: string;
  policy_version_id: string;
  player_id: string | null;
  submitted_by_user_id: string;
  /** pending | processing | placed | rejected */
  status: LeagueSubmission["status"];
  notes: string | null;
  auto_champion: LeagueSubmission["auto_champion"];
  preferences: string;
  membership_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface RoundsTable {
  id: string;
  league_id: string;
  division_id: string;
  round_number: number;
  /** pending | running | completed | failed */
  status: Round["status"];
  /** 1 until the round settles, then NULL (one unsettled round per division, by a unique index). */
  active: number | null;
  commissioner_key: string;
  execution_backend: string;
  coworld_id: string;
  round_config: string;
  round_display: string;
  episode_count: number;
  error: string | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
  /** The coworld commissioner runnable that ran it (migration 025); null for a built-in. */
  commissioner_runnable_id?: string | null;
  /** The version of the coworld whose commissioner ran it; null for a built-in. */
  commissioner_version?: string | null;
  /** JSON: the state its round_complete handed back, for the next round_start. */
  commissioner_state?: string | null;
  /** The commissioner's log (capped) when the round failed, for the league's owner. */
  commissioner_log?: string | null;
  /** The RoundSpec's idempotency_key: one round per key and league. */
  idempotency_key?: string | null;
  /** The replica running the round's commissioner session, until `lease_expires_at`. */
  lease_owner?: string | null;
  lease_expires_at?: string | null;
}

export interface PoolsTable {
  id: string;
  round_id: string;
  division_id: string;
  position: number;
  /** JSON: PoolMember[] */
  members: string;
  episode_count: number;
  created_at: string;
}

export interface RoundResultsTable {
  id: string;
  round_id: string;
  division_id: string;
  player_id: string;
  policy_version_id: string | null;
  rank: number;
  score: number;
  result_metadata: string;
  created_at: string;
}

export interface LadderRatingsTable {
  league_id: string;
  player_id: string;
  division_id: string;
  /** JSON RatingState, null before the first settled round. */
  state: string | null;
  rounds_played: number;
  /** JSON LeaderboardRecentRound[], newest first. */
  recent_rounds: string;
  active: number;
  updated_at: string;
}

export interface DivisionLeaderboardsTable {
  division_id: string;
  /** Counts up with every change (readers cache by it). */
  version: number;
  /** JSON LeaderboardRow[] (with recent rounds). */
  rows: string;
  /** JSON DivisionLeaderboards. */
  views: string;
  round_id: string | null;
  updated_at: string;
}

export interface CompetitionEventsTable {
  id: string;
  seq: number;
  event_type: CompetitionEventType;
  audience: EventAudience;
  user_id: string | null;
  league_id: string | null;
  division_id: string | null;
  round_id: string | null;
  episode_request_id: string | null;
  player_id: string | null;
  policy_version_id: string | null;
  /** The experience request the event belongs to (topic `experience-request:{id}`). */
  experience_request_id: string | null;
  /** JSON: the {id, name} of its player, policy version, league and division when it happened. */
  refs: string;
  headline: string;
  summary: string;
  payload: string;
  created_at: string;
}

// --- evaluations: experience requests ---
export interface ExperienceRequestsTable {
  id: string;
  requester_user_id: string;
  coworld_id: string;
  variant_id: string | null;
  league_id: string | null;
  division_id: string | null;
  /** submitted | running | completed | failed | cancelled (running is derived from the episodes on read) */
  status: ExperienceRequestStatus;
  episode_count: number;
  /** JSON: the create body as given (roster, overrides). */
  request: string;
  notes: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

// --- evaluations: bulk episode uploads ---
export interface BulkUploadsTable {
  id: string;
  user_id: string;
  s3_key: string;
  /** Signs the upload address (never shown). */
  signing_key: string;
  expires_at: string;
  /** started | uploaded | completed */
  status: "started" | "uploaded" | "completed";
  sha256: string | null;
  size_bytes: number | null;
  episodes_created: number | null;
  duckdb_uri: string | null;
  created_at: string;
  completed_at: string | null;
}

// --- reporters: keys (hashed), runs over a subject, and their outputs (bytes in the blob store) ---
export interface ReportersTable {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  type: string;
  mode: Reporter["mode"];
  /** SHA-256 of the reporter key (the key itself is shown once, never stored). */
  key_hash: string;
  created_at: string;
  key_rotated_at: string | null;
  /** The title to show (migration 020); null: the name. */
  display_name: string | null;
  /** The outputs contract, JSON (migration 020); null: none given. */
  outputs: string | null;
}

/** A coworld name's league seed (migration 020): the recipe its league was started from. */
export interface CoworldLeagueSeedsTable {
  id: string;
  coworld_name: string;
  template: string;
  /** JSON object, or null. */
  overrides: string | null;
  created_by: string;
  league_id: string | null;
  notes: string | null;
  created_at: string;
}

export interface ReporterRunsTable {
  id: string;
  reporter_id: string;
  /** episode | round | division | text */
  subject_type: ReporterRun["subject_type"];
  subject_id: string | null;
  subject_text: string | null;
  created_at: string;
}

/** A cogames policy upload (migration 015): its signed address, then the version it became. */
export interface PolicySubmitUploadsTable {
  id: string;
  user_id: string;
  s3_key: string;
  /** Signs the upload address (never shown). */
  signing_key: string;
  expires_at: string;
  /** The zip's blob, once PUT. */
  sha256: string | null;
  size_bytes: number | null;
  /** The version completing made (completing again answers it). */
  policy_version_id: string | null;
  created_at: string;
}

/** A cogames assay run (migration 015): one experience request per mission. */
export interface AssayRunsTable {
  id: string;
  user_id: string;
  policy_version_id: string;
  name: string | null;
  compat_version: string | null;
  /** JSON: `[{mission_name, experience_request_id}]`, in the order given. */
  missions: string;
  /** pending | completed | failed (settled by finalize) */
  status: "pending" | "completed" | "failed";
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

/** A signed upload address of a bundle (reporter or replay viewer); the bytes are a blob. */
export interface ContentUploadsTable {
  id: string;
  user_id: string;
  purpose: "reporter" | "replay_viewer";
  content_hash: string;
  size_bytes: number;
  /** Signs the upload address (never shown). */
  signing_key: string;
  expires_at: string;
  /** When bytes of the announced hash and size were PUT. */
  uploaded_at: string | null;
  completed_at: string | null;
  created_at: string;
}

/** A version of a reporter's bundle, per owner and reporter name. */
export interface ReporterVersionsTable {
  id: string;
  user_id: string;
  name: string;
  version: number;
  content_hash: string;
  size_bytes: number;
  /** The attributes as canonical JSON (sorted keys): equal attributes, equal text. */
  attributes: string;
  created_at: string;
}

export interface ReporterOutputsTable {
  id: string;
  reporter_id: string;
  reporter_run_id: string;
  name: string;
  type: string;
  media_type: string;
  size_bytes: number;
  /** The blob's SHA-256. */
  content_hash: string;
  created_at: string;
}

// Forums, wikis and player profiles (migration 006).
export interface ForumsTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** general | coworld */
  kind: Forum["kind"];
  coworld_name: string | null;
  created_at: string;
}

export interface PostsTable {
  id: string;
  forum_id: string;
  title: string;
  body: string;
  /** markdown | text */
  content_format: ContentFormat;
  author_user_id: string;
  author_player_id: string | null;
  idempotency_key: string | null;
  score: number;
  /** Stored so that `sort=hot` is an index scan (see forums/ranking.ts). */
  hot_rank: number;
  comment_count: number;
  created_at: string;
  updated_at: string;
  edited_at: string | null;
}

export interface PostCommentsTable {
  id: string;
  post_id: string;
  parent_comment_id: string | null;
  body: string;
  author_user_id: string;
  author_player_id: string | null;
  score: number;
  /** A repeat of the same key by the same author answers the first comment. */
  idempotency_key?: string | null;
  created_at: string;
  updated_at: string;
}

export interface ForumVotesTable {
  target_id: string;
  user_id: string;
  value: number;
  updated_at: string;
}

export interface WikisTable {
  id: string;
  slug: string;
  name: string;
  coworld_name: string | null;
  created_at: string;
}

export interface WikiPagesTable {
  id: string;
  wiki_id: string;
  name: string;
  /** Null until an edit gives one: the title is then the page's name. */
  title?: string | null;
  body: string;
  current_revision_id: string;
  revision_count: number;
  updated_by_user_id: string;
  created_at: string;
  updated_at: string;
}

export interface WikiRevisionsTable {
  id: string;
  page_id: string;
  parent_revision_id: string | null;
  body: string;
  summary: string | null;
  author_user_id: string;
  /** The player the author acted as, if any. */
  author_player_id?: string | null;
  /** A repeat of the same key by the same author answers the edit made first. */
  idempotency_key?: string | null;
  created_at: string;
}

export interface PlayerProfilesTable {
  player_id: string;
  display_name: string | null;
  avatar_url: string | null;
  bio: string | null;
  updated_at: string;
}

// Lobbies and play (migration 008): play modules and their files, lobbies and their seats.
export interface PlayModulesTable {
  id: string;
  coworld_id: string;
  kind: PlayModuleKind;
  entry: string;
  sha256: string;
  size_bytes: number;
  uploader_user_id: string;
  created_at: string;
}

export interface PlayModuleFilesTable {
  play_module_id: string;
  path: string;
  sha256: string;
  size_bytes: number;
  content_type: string;
}

export interface LobbiesTable {
  id: string;
  league_id: string;
  creator_user_id: string;
  variant_id: string | null;
  /** JSON object. */
  game_config_overrides: string;
  num_players: number;
  status: LobbyStatus;
  experience_request_id: string | null;
  episode_request_id: string | null;
  /** Set when the lobby is launched for live play (011). */
  play_session_id: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface PlaySessionsTable {
  id: string;
  /** Who created the session. */
  user_id: string;
  coworld_id: string;
  /** Set when the last human slot is joined and the game is queued. */
  episode_request_id: string | null;
  /** `solo`: one person against policies; `hosted`: every slot joined; `lobby`: a lobby's live game. */
  kind: PlaySessionKind;
  variant_id: string | null;
  /** JSON object: the game config the episode gets. */
  game_config: string;
  allow_spectators: number;
  lobby_id: string | null;
  status: PlaySessionStatus;
  error: string | null;
  /** Why it failed, as a code: its episode's error type (migration 019). */
  error_type: string | null;
  created_at: string;
  ended_at: string | null;
}

export type PlaySessionKind = "solo" | "hosted" | "lobby";

export interface PlaySessionSeatsTable {
  play_session_id: string;
  position: number;
  /** `human`: joined by a person or program (reserved when user_id is set before it is joined); `policy`: a policy plays it. */
  kind: "human" | "policy";
  label: string;
  user_id: string | null;
  policy_version_id: string | null;
  player_id: string | null;
  join_token_hash: string | null;
  relay_token_hash: string | null;
  joined_at: string | null;
  /** When the person's browser first connected to the seat's socket (migration 019). */
  connected_at: string | null;
}

export interface LobbySeatsTable {
  lobby_id: string;
  position: number;
  kind: LobbySeatKind;
  user_id: string | null;
  player_id: string | null;
  policy_version_id: string | null;
  claimed_at: string | null;
}

/** One state-changing request an admin made with elevated privileges; never its body. */
export interface AdminAuditTable {
  id: string;
  at: string;
  user_id: string;
  token_id: string;
  operation_id: string;
  method: string;
  path: string;
  status: number;
}

/** A coworld commissioner's session as runner work (leagues/commissioner/runner-jobs.ts). */
export interface CommissionerJobsTable {
  id: string;
  league_id: string;
  coworld_id: string;
  runnable_id: string;
  purpose: string;
  round_id: string | null;
  /** queued, leased, ended */
  status: string;
  relay_token_hash: string;
  lease_token_hash: string | null;
  lease_machine_id: string | null;
  runner_id: string | null;
  created_at: string;
  /** A queued job not leased by then is past its startup and is never leased. */
  lease_by: string;
  leased_at: string | null;
  ended_at: string | null;
  /** The runner's report (CommissionerJobEnd.outcome), or `abandoned` when the server gave up. */
  outcome: string | null;
  error: string | null;
  log: string | null;
}

export interface Database {
  player_states: PlayerStatesTable;
  state_snapshots: StateSnapshotsTable;
  users: UsersTable;
  machines: MachinesTable;
  players: PlayersTable;
  tokens: TokensTable;
  auth_codes: AuthCodesTable;
  games: GamesTable;
  mods: ModsTable;
  leagues: LeaguesTable;
  divisions: DivisionsTable;
  league_policy_memberships: LeaguePolicyMembershipsTable;
  idempotency_keys: IdempotencyKeysTable;
  counters: CountersTable;
  container_images: ContainerImagesTable;
  uploads: UploadsTable;
  policy_secret_envs: PolicySecretEnvsTable;
  policies: PoliciesTable;
  policy_versions: PolicyVersionsTable;
  coworlds: CoworldsTable;
  coworld_secrets: CoworldSecretsTable;
  coworld_league_seeds: CoworldLeagueSeedsTable;
  certifications: CertificationsTable;
  episode_requests: EpisodeRequestsTable;
  episode_participants: EpisodeParticipantsTable;
  episode_voids: EpisodeVoidsTable;
  jobs: JobsTable;
  artifacts: ArtifactsTable;
  league_submissions: LeagueSubmissionsTable;
  rounds: RoundsTable;
  pools: PoolsTable;
  round_results: RoundResultsTable;
  ladder_ratings: LadderRatingsTable;
  division_leaderboards: DivisionLeaderboardsTable;
  competition_events: CompetitionEventsTable;
  experience_requests: ExperienceRequestsTable;
  bulk_uploads: BulkUploadsTable;
  // reporters
  reporters: ReportersTable;
  reporter_runs: ReporterRunsTable;
  reporter_outputs: ReporterOutputsTable;
  reporter_versions: ReporterVersionsTable;
  content_uploads: ContentUploadsTable;
  // cogames client: policy uploads and assay runs
  policy_submit_uploads: PolicySubmitUploadsTable;
  assay_runs: AssayRunsTable;
  // The audit trail of elevated admin actions
  admin_audit: AdminAuditTable;
  commissioner_jobs: CommissionerJobsTable;
  // Forums, wikis and player profiles
  forums: ForumsTable;
  posts: PostsTable;
  post_comments: PostCommentsTable;
  forum_votes: ForumVotesTable;
  wikis: WikisTable;
  wiki_pages: WikiPagesTable;
  wiki_revisions: WikiRevisionsTable;
  player_profiles: PlayerProfilesTable;
  // Tournaments and the campaign board
  campaign_boards: CampaignBoardsTable;
  campaign_cells: CampaignCellsTable;
  campaign_history: CampaignHistoryTable;
  // Lobbies and play
  play_modules: PlayModulesTable;
  play_module_files: PlayModuleFilesTable;
  lobbies: LobbiesTable;
  lobby_seats: LobbySeatsTable;
  play_sessions: PlaySessionsTable;
  play_session_seats: PlaySessionSeatsTable;
  // Tournaments (009)
  tournaments: TournamentsTable;
  tournament_entrants: TournamentEntrantsTable;
  tournament_matches: TournamentMatchesTable;
}

// Tournaments and the campaign board
export interface CampaignBoardsTable {
  league_id: string;
  width: number;
  height: number;
  created_at: string;
  updated_at: string;
}

export interface CampaignCellsTable {
  league_id: string;
  x: number;
  y: number;
  owner_player_id: string | null;
  captured_round_id: string | null;
  captured_at: string | null;
}

export interface CampaignHistoryTable {
  id: string;
  league_id: string;
  round_id: string;
  player_id: string;
  x: number | null;
  y: number | null;
  previous_owner_player_id: string | null;
  created_at: string;
}

// Tournaments (009)
export interface TournamentsTable {
  id: string;
  league_id: string;
  name: string;
  format: TournamentFormat;
  status: TournamentStatus;
  episodes_per_match: number;
  variant_id: string | null;
  /** JSON object, or null. */
  game_config_overrides: string | null;
  /** given | standings */
  seeding: string;
  /** Waves started so far. */
  wave: number;
  winner_seed: number | null;
  error: string | null;
  created_by_user_id: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface TournamentEntrantsTable {
  tournament_id: string;
  seed: number;
  policy_version_id: string;
  player_id: string | null;
  display_name: string;
}

export interface TournamentMatchesTable {
  id: string;
  tournament_id: string;
  bracket: TournamentBracket;
  round: number;
  position: number;
  status: TournamentMatchStatus;
  seed_a: number | null;
  seed_b: number | null;
  winner_seed: number | null;
  decided_by: string | null;
  score_a: number | null;
  score_b: number | null;
  episodes_completed: number;
  experience_request_id: string | null;
  updated_at: string;
}
