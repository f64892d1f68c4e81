// The public surface of @gauntlet/core, named one by one and grouped (as the SDK's index is):
// a name not listed here is internal to the package, whatever its module exports.

// The contract: every operation's id, method, path, auth, complexity and schemas, the validation
// that turns zod issues into 422 items, and the OpenAPI document built from it.
export { contract, operations } from "./contract/index.ts";
export type {
  BodyOf,
  Contract,
  OperationId,
  ParamsOf,
  QueryOf,
  ResponseOf,
} from "./contract/index.ts";
export {
  accessOf,
  defineOperation,
  fillPath,
  ELEVATION_HEADER,
  LEASE_TOKEN_HEADER,
  routerPath,
  tags,
} from "./contract/operation.ts";
export type {
  Access,
  AuthMode,
  HttpMethod,
  OperationBody,
  OperationBodyInput,
  OperationDef,
  OperationParams,
  OperationParamsInput,
  OperationQuery,
  OperationQueryInput,
  OperationResponse,
  OperationResponseInput,
  ResponseKind,
  Tag,
} from "./contract/operation.ts";
export { toValidationItems } from "./contract/validation.ts";
export type { InputSource } from "./contract/validation.ts";
export { buildOpenApi } from "./contract/openapi.ts";
export type { OpenApiOptions } from "./contract/openapi.ts";
export { HealthStatus } from "./contract/operations/service.ts";
export { DivisionStandingsView } from "./contract/operations/standings.ts";
export { CliLoginForm, CliLoginQuery } from "./contract/operations/identity.ts";
export { WebSignInForm } from "./contract/operations/web-session.ts";

// Ids: one branded, prefixed string schema per kind of resource.
export {
  DivisionId,
  GameId,
  idPattern,
  idPrefixes,
  LeagueId,
  ModId,
  newId,
  PlayerId,
  ReporterRunId,
  TokenId,
  Uuid,
  uuidPattern,
} from "./ids.ts";
export type { IdKind } from "./ids.ts";

// Shapes every operation shares: timestamps, pages, the error bodies.
export { Bytes, FreeForm, QueryBoolean, Timestamp } from "./models/common.ts";
export {
  ErrorBody,
  ErrorType,
  RATE_LIMIT_ERROR_TYPE,
  RateLimitErrorBody,
  ValidationErrorBody,
  ValidationErrorItem,
} from "./models/errors.ts";
export {
  BulkUploadCompletion,
  GameSecretRecord,
  MigrateBoardRequest,
  ReporterRunOutput,
} from "./models/spec-records.ts";

// Saved credentials and the server a client talks to (CLI, SDK, TUI).
export {
  configDir,
  CredentialsFile,
  CredentialsFileError,
  credentialsPath,
  InvalidServerUrlError,
  loadCredentials,
  loadSavedToken,
  normalizeServerUrl,
  removeCredential,
  resolveServer,
  resolveToken,
  saveCredential,
  SavedCredential,
  SERVER_ENV,
  TOKEN_ENV,
} from "./auth/index.ts";
export type {
  ConfigLocation,
  CredentialsLocation,
  Env,
  ResolvedFrom,
  ResolvedServer,
  ResolvedToken,
  ResolveOptions,
  SaveCredentialInput,
  SaveOptions,
} from "./auth/index.ts";

// The shared budget: capacities, its arithmetic (server) and client pacing from its headers.
export {
  advise429,
  ANONYMOUS_CAPACITIES,
  assertCapacities,
  assertComplexity,
  BUCKET_HEADER_PREFIXES,
  BUDGET_BUCKETS,
  BUDGET_HEADER_NAMES,
  BudgetCapacities,
  BudgetCapacitiesPatch,
  budgetFullAtMicros,
  budgetHeaders,
  BudgetMode,
  BudgetOutcome,
  COMPLEXITY_HEADER,
  creditIntervalUs,
  decideBudget,
  decideBudgetAtMicros,
  DEFAULT_PACING,
  EMPTY_BUDGET_STATE,
  HOUR_MS,
  HOUR_US,
  isBudgetFull,
  isSharedBudgetRejection,
  MINUTE_MS,
  MINUTE_US,
  RATE_LIMIT_MODE_HEADER,
  RATE_LIMIT_OUTCOME_HEADER,
  RATE_LIMIT_RETRY_AFTER_HEADER,
  readBudgetSnapshot,
  RETRY_AFTER_HEADER,
  SERVICE_CAPACITIES,
  toMicros,
  USER_CAPACITIES,
} from "./budget/index.ts";
export type {
  Advise429Input,
  BucketReport,
  BudgetBucketName,
  BudgetBuckets,
  BudgetDecision,
  BudgetHeaderContext,
  BudgetSnapshot,
  BudgetState,
  DecideOptions,
  HeaderSource,
  PacingPolicy,
  RetryAdvice,
} from "./budget/index.ts";

// Identity: users, players, tokens, profiles.
export {
  AdminAuditEntry,
  AdminAuditQuery,
  AuthCodeExchangeRequest,
  AuthCodeExchangeResponse,
  CreatedPlayerCredential,
  CreatedToken,
  CreatePlayerCredentialRequest,
  CreatePlayerRequest,
  CreateTokenRequest,
  Player,
  PlayerCredential,
  PlayerLogin,
  SubjectType,
  Token,
  TokenKind,
  WebSession,
  WhoAmI,
} from "./models/identity.ts";
export { PlayerIdParams, PlayerProfile, UpdatePlayerProfile } from "./models/profile.ts";

// Games and coworlds: manifests, uploads, certification and the browser play modules.
export {
  CreateGameRequest,
  CreateModRequest,
  Game,
  GameIdParams,
  Mod,
  ModIdParams,
} from "./models/game.ts";
export {
  CertificationPlayer,
  CoworldCertification,
  CoworldConfigSchema,
  CoworldDocRef,
  CoworldGame,
  CoworldManifest,
  CoworldResultsSchema,
  CoworldVariant,
  EpisodeErrorInfo,
  EpisodeErrorType,
  EpisodeResults,
  EpisodeCpu,
  EpisodeTimings,
  GameRunnable,
  PlayerFailureDeclaration,
  PlayerRunnable,
  EpisodeTimeoutMinutes,
  MAX_EPISODE_TIMEOUT_MINUTES,
  rosterBounds,
  cpusOf,
  RunnableEnv,
  RunnableResources,
  RunnerLoad,
} from "./models/coworld-manifest.ts";
export {
  Certification,
  CertificationState,
  Coworld,
  CoworldBundleUpload,
  CoworldId,
  CoworldUploadRequest,
  SecretPathParams,
} from "./models/coworld.ts";
export {
  CoworldLeagueSeed,
  CoworldLeagueSeedParams,
  CreateCoworldLeagueSeedRequest,
  LeagueSeedId,
  PatchCommissionerRequest,
  UpdateCoworldLeagueSeedRequest,
} from "./models/coworld-league-seed.ts";
export {
  CoworldPlayModulesParams,
  PlayModule,
  PlayModuleFile,
  PlayModuleFileParams,
  PlayModuleFilePath,
  PlayModuleId,
  PlayModuleKind,
  PlayModuleParams,
  PlayModuleUploadQuery,
} from "./models/play-module.ts";

// Policies and their versions.
export {
  ContainerImage,
  ContainerImageId,
  ContainerImageUploadRequest,
  ContainerImageUploadResponse,
  CreatedPolicyVersion,
  CreatePolicyVersionRequest,
  IdRequest,
  PolicyBundle,
  PolicySecretEnvCreated,
  PolicySecretEnvRequest,
  PolicyVersion,
  PolicyVersionStatsPage,
  UpdatePolicyVersionRequest,
} from "./models/policy.ts";

// Episodes and evaluations: requests, campaigns, bulk uploads, and the runner's jobs.
export {
  ArtifactType,
  BundlePart,
  DEFAULT_BUNDLE_PARTS,
  EpisodeBundleQuery,
  EpisodeParticipant,
  EpisodeRequest,
  EpisodeRequestId,
  EpisodeRequestPage,
  EpisodeSource,
  EpisodeStats,
  EpisodeStatus,
  JobArtifactType,
  PolicyArtifactEntry,
} from "./models/episode.ts";
export {
  CreateExperienceRequest,
  ExperienceRequestDetail,
  ExperienceRequestId,
  ExperienceRequestIdParams,
  ExperienceRequestPage,
  ExperienceRequestRow,
  ExperienceRequestStatus,
  ExperienceTarget,
  ListExperienceRequestsQuery,
  MAX_EXPERIENCE_EPISODES,
  RosterPlayer,
  RosterSlot,
} from "./models/experience-request.ts";
export {
  CONFIG_OVERLAY_TAG,
  GAME_CONFIG_OVERLAY_FORMAT,
  GameConfigOverlayDocument,
  GameConfigOverlaySecretName,
} from "./models/config-overlay.ts";
export {
  CreateStateSnapshot,
  EpisodeStateRequest,
  MAX_PLAYER_STATE_BYTES,
  PLAYER_STATE_QUOTA_BYTES,
  PlayerState,
  PlayerStateRecord,
  StateSnapshot,
  StateSnapshotId,
} from "./models/player-state.ts";
export {
  CampaignBoard,
  CampaignCell,
  CampaignGeometry,
  CampaignHistoryEntry,
  CampaignTerritory,
  MigrateBoardReport,
} from "./models/campaign.ts";
export {
  BulkUploadCompleted,
  BulkUploadFileParams,
  BulkUploadFileQuery,
  BulkUploadId,
  BulkUploadPut,
  BulkUploadStarted,
  CompleteBulkUploadRequest,
} from "./models/bulk-upload.ts";
export {
  ArtifactUploaded,
  CompleteJobRequest,
  FailJobRequest,
  HeartbeatResponse,
  Isolation,
  JobPlayer,
  JobState,
  LeasedJob,
  LeaseRequest,
  LeaseResponse,
  RunnerRef,
  Runtime,
} from "./models/runner-job.ts";
export {
  COMMISSIONER_LOG_MAX_BYTES,
  COMMISSIONER_RELAY_FRAME_BYTES,
  CommissionerJob,
  CommissionerJobEnd,
  CommissionerJobState,
  CommissionerLeaseRequest,
  CommissionerLeaseResponse,
} from "./models/commissioner-job.ts";

// Leagues: divisions, rules, standings, the rating ledger, rounds and their live events.
export {
  ChangelogEntry,
  CommissionerDescription,
  CreateLeagueRequest,
  Division,
  DivisionIdParams,
  DivisionInput,
  DivisionLadderEntry,
  DivisionType,
  League,
  LeagueIdParams,
  LeagueLocks,
  ReplaceDivisionsRequest,
  RoundsPausedRequest,
  UpdateLeagueLocksRequest,
  UpdateLeagueRequest,
} from "./models/league.ts";
export {
  EloSettings,
  LadderSettings,
  OpenSkillSettings,
  parseLadderSettings,
  PromotionSettings,
  RankingKind,
  ScoreSettings,
  SeatingStrategy,
  TooFewPlayersPolicy,
} from "./models/ladder-settings.ts";
export {
  DivisionLeaderboard,
  DivisionLeaderboards,
  LeaderboardAxis,
  LeaderboardColumn,
  LeaderboardRecentRound,
  LeaderboardRow,
  LeaderboardSubjectType,
  LeaderboardView,
  LeaderboardViewRow,
  RankRange,
  RoundStatus,
  ScoreInterval,
} from "./models/leaderboard.ts";
export {
  DivisionPairwise,
  EpisodeVoid,
  PairwiseCell,
  RatingDifference,
  RatingsRecompute,
  RecomputeRatingsRequest,
  VoidEpisodeRequest,
} from "./models/ledger.ts";
export {
  AutoChampion,
  CompactCompetitionEvent,
  CompetitionEvent,
  CompetitionEventType,
  CreateLeagueSubmissionRequest,
  EventAudience,
  LeaguePolicyMembership,
  LeagueSubmission,
  ListCompetitionEventsQuery,
  ListLeagueSubmissionsQuery,
  ListMembershipsQuery,
  ListPoolsQuery,
  ListRoundsQuery,
  MembershipId,
  MembershipIdParams,
  MembershipStatus,
  MembershipSubstatus,
  PlayerRef,
  PolicyVersionRef,
  Pool,
  PoolId,
  PoolIdParams,
  PoolMember,
  ReplaceSeedPoliciesRequest,
  RetireMembershipRequest,
  Round,
  RoundCommissioner,
  RoundDetail,
  RoundId,
  RoundIdParams,
  RoundPage,
  RoundResult,
  RoundSkip,
  RoundWaiting,
  SeedPolicies,
  SubmissionId,
  SubmissionPreferences,
  SubmissionStatus,
  TriggerRoundRequest,
  TriggerRoundResponse,
} from "./models/league-play.ts";
export {
  EventsStreamInfo,
  LiveControlMessage,
  LiveEventMessage,
  liveTopicPatterns,
  SubscribeMessage,
} from "./models/live-events.ts";
export type { LiveControl, LiveEvent } from "./models/live-events.ts";

// Tournaments and the season views over them.
export {
  CreateTournament,
  MAX_EPISODES_PER_MATCH,
  MAX_TOURNAMENT_ENTRANTS,
  Tournament,
  TournamentBracket,
  TournamentEntrant,
  TournamentFormat,
  TournamentId,
  TournamentIdParams,
  TournamentMatch,
  TournamentMatchDecision,
  TournamentMatchStatus,
  TournamentPatch,
  TournamentStatus,
} from "./models/tournament.ts";
export {
  Season,
  SeasonDetail,
  SeasonLeaderboardEntry,
  SeasonLeaderboardType,
  SeasonMatch,
  SeasonMatchesQuery,
  SeasonMatchPlayer,
  SeasonMembershipEntry,
  SeasonPoliciesQuery,
  SeasonPolicyRef,
  SeasonPolicySummary,
  SeasonPool,
  SeasonPoolConfig,
  SeasonPoolLeaderboard,
  SeasonPoolMembership,
  SeasonProgress,
  SeasonScorePoliciesEntry,
  SeasonStage,
  SeasonSubmitRequest,
  SeasonSubmitted,
  SeasonTeam,
  SeasonTeamsQuery,
  SeasonVersion,
} from "./models/tournament-view.ts";

// Reporters and the uploads of hosted content (reporters, replay viewers).
export {
  ListReportersQuery,
  MAX_REPORTER_OUTPUT_BYTES,
  OpenReporterRunRequest,
  PostReporterOutputQuery,
  RegisteredReporter,
  RegisterReporterRequest,
  Reporter,
  ReporterId,
  ReporterIdParams,
  ReporterMode,
  ReporterOutputId,
  ReporterOutputIdParams,
  ReporterRun,
  ReporterOutputDecl,
  ReporterRunIdParams,
  ReporterSubjectType,
  RotatedReporterKey,
} from "./models/reporter.ts";
export {
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
  ReporterVersion,
} from "./models/hosted-uploads.ts";

// Playing live: lobbies, play sessions, hosted games.
export {
  ClaimLobbySeat,
  CreateLobby,
  LeagueLobbyParams,
  Lobby,
  LobbyAccess,
  LobbyId,
  LobbyParams,
  LobbySeat,
  LobbySeatInput,
  LobbySeatKind,
  LobbySeatParams,
  LobbyStatus,
  UpdateLobby,
} from "./models/lobby.ts";
export {
  CreatePlaySession,
  PlaySession,
  PlaySessionId,
  PlaySessionParams,
  PlaySessionSocketInfo,
  PlaySessionSocketQuery,
  PlaySessionStatus,
  PlaySocketNotice,
} from "./models/play-session.ts";
export {
  HostedGameCreate,
  HostedGameCreateResponse,
  HostedGameJoinResponse,
  HostedGameList,
  HostedGameParams,
  HostedGamePlayer,
  HostedGameSession,
  ReplayCapabilityParams,
  ReplaySessionCreate,
  ReplaySessionResponse,
} from "./models/hosted-game.ts";

// The cogames-compatible statistics and submissions.
export {
  AssayMission,
  AssayResults,
  AssayRun,
  AssayRunParams,
  AssayStatus,
  BrowsePoliciesQuery,
  CogamesEpisode,
  CogamesEpisodeParams,
  CogamesEpisodesQuery,
  CreateAssayRunRequest,
  EpisodeQueryRequest,
  EpisodeQueryResult,
  EpisodeWithTags,
  ListAssayRunsQuery,
  MAX_COGAMES_POLICY_ZIP_BYTES,
  MissionMetrics,
  PoliciesPage,
  PolicyRow,
  PolicySubmitCompleted,
  PolicySubmitCompleteRequest,
  PolicySubmitFileParams,
  PolicySubmitFileQuery,
  PolicySubmitPut,
  PolicySubmitStarted,
} from "./models/cogames-stats.ts";

// Community: forums and wikis.
export {
  Author,
  CastVote,
  Comment,
  CommentId,
  CommentIdParams,
  ContentFormat,
  CreateComment,
  CreatePost,
  Deleted,
  Forum,
  ForumId,
  ForumSearchPage,
  ForumSearchQuery,
  ForumSlugParams,
  ListForumPostsQuery,
  Post,
  PostDetail,
  PostId,
  PostIdParams,
  PostPage,
  PostSort,
  SearchQuery,
  Slug,
  UpdateComment,
  UpdatePost,
  VotedComment,
  VotedPost,
  VoteValue,
} from "./models/forum.ts";
export {
  ListRevisionsQuery,
  PageName,
  PutWikiPage,
  RevisionId,
  Wiki,
  WikiEdit,
  WikiId,
  WikiPage,
  WikiPageId,
  WikiPageIdParams,
  WikiPageParams,
  WikiRevision,
  WikiRevisionPage,
  WikiSearchHit,
  WikiSearchPage,
  WikiSearchQuery,
  WikiSlugParams,
} from "./models/wiki.ts";

// Dropping a promise's failure on purpose, with the reason in the name (see the lint rule).
export { bestEffort, settled, unlessGone } from "./best-effort.ts";
export { visible, visibleDeep } from "./terminal-text.ts";

// The commissioner protocol of the hosted service: the messages a league's commissioner and the
// platform exchange, and their bounds.
export {
  COMMISSIONER_IDLE_TIMEOUT_MS,
  COMMISSIONER_MAX_LIFETIME_MS,
  COMMISSIONER_MESSAGE_MAX_BYTES,
  COMMISSIONER_STARTUP_TIMEOUT_MS,
  COMMISSIONER_STATE_MAX_BYTES,
  jsonBytes,
  MEMBERSHIP_STATUS_COMPETING,
  MEMBERSHIP_SUBSTATUS_ACTIVE,
  MEMBERSHIP_SUBSTATUS_BENCHED,
} from "./commissioner/limits.ts";
export {
  CommissionerDivisionInfo,
  CommissionerEpisodeRequest,
  CommissionerMembershipEvent,
  CommissionerMembershipInfo,
  commissionerMessageSchemas,
  CommissionerRoundSpec,
  CommissionerToPlatform,
  EpisodeFailed,
  EpisodeResult,
  EpisodesAccepted,
  EpisodesRejected,
  LeagueMigrationConfigRequest,
  LeagueMigrationConfigResponse,
  LeagueMigrationRequest,
  LeagueMigrationResponse,
  PlatformToCommissioner,
  RoundAbort,
  RoundComplete,
  RoundStart,
  ScheduleEpisodes,
  ScheduleRoundsRequest,
  ScheduleRoundsResponse,
  stateToKeep,
} from "./commissioner/protocol.ts";
export type {
  CommissionerDivisionConfig,
  CommissionerMessageType,
  CommissionerRecentResult,
  CommissionerRoundInfo,
  CommissionerVariantInfo,
} from "./commissioner/protocol.ts";
