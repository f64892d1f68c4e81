// The SDK's name for every contract operation: `[group, method]` gives
// `client.<group>.<method>(…)`; a null group puts the method on the client itself.
// `satisfies Record<OperationId, …>` makes an operation added to the contract without a
// name here a compile error (and a name for an operation that no longer exists, too).
//
// Method names: list, get, create, update (PATCH), replace… (PUT/POST of a whole
// document), delete/revoke, and a verb for actions.
import type { OperationId } from "@gauntlet/core";

export type ResourceName = readonly [group: string | null, method: string];

export const resources = {
  // Service
  getOpenApi: ["service", "openapi"],
  getDocs: ["service", "docs"],
  getDocsScript: ["service", "docsScript"],
  getBudgetsDoc: ["service", "rateLimitDocs"],
  healthz: ["service", "health"],
  readyz: ["service", "ready"],
  // Identity and sign-in
  whoami: [null, "whoami"],
  cliLoginPage: ["auth", "loginPage"],
  cliLoginSubmit: ["auth", "submitLogin"],
  exchangeAuthCode: ["auth", "exchangeCode"],
  listTokens: ["tokens", "list"],
  createToken: ["tokens", "create"],
  revokeToken: ["tokens", "revoke"],
  // Players
  listPlayers: ["players", "list"],
  createPlayer: ["players", "create"],
  playerLogin: ["players", "login"],
  listPlayerCredentials: ["playerCredentials", "list"],
  createPlayerCredential: ["playerCredentials", "create"],
  revokePlayerCredentials: ["playerCredentials", "revokeAll"],
  // Games and mods
  listGames: ["games", "list"],
  getGame: ["games", "get"],
  createGame: ["games", "create"],
  listMods: ["mods", "list"],
  getMod: ["mods", "get"],
  createMod: ["mods", "create"],
  // Leagues and divisions
  listLeagues: ["leagues", "list"],
  createLeague: ["leagues", "create"],
  getGameOfWeek: ["leagues", "gameOfWeek"],
  getLeague: ["leagues", "get"],
  updateLeague: ["leagues", "update"],
  getLeagueSettings: ["leagues", "getSettings"],
  replaceLeagueSettings: ["leagues", "replaceSettings"],
  getLeagueLocks: ["leagues", "getLocks"],
  updateLeagueLocks: ["leagues", "updateLocks"],
  setRoundsPaused: ["leagues", "setRoundsPaused"],
  getDivisionLadder: ["leagues", "divisionLadder"],
  replaceDivisions: ["leagues", "replaceDivisions"],
  listDivisions: ["divisions", "list"],
  getDivision: ["divisions", "get"],
  // Container images and policies
  uploadContainerImage: ["containerImages", "upload"],
  completeContainerImage: ["containerImages", "complete"],
  listContainerImages: ["containerImages", "list"],
  getContainerImage: ["containerImages", "get"],
  uploadPolicyBundle: ["policyBundles", "upload"],
  completePolicyBundle: ["policyBundles", "complete"],
  createPolicySecretEnv: ["policies", "createSecretEnv"],
  createPolicyVersion: ["policyVersions", "create"],
  listPolicyVersions: ["policyVersions", "list"],
  getPolicyVersion: ["policyVersions", "get"],
  searchPolicyVersions: ["policyVersions", "search"],
  // Coworlds
  uploadCoworldBundle: ["coworlds", "uploadBundle"],
  uploadCoworld: ["coworlds", "upload"],
  listCoworlds: ["coworlds", "list"],
  getCoworld: ["coworlds", "get"],
  getCertification: ["coworlds", "getCertification"],
  certifyCoworld: ["coworlds", "certify"],
  putCoworldSecret: ["coworldSecrets", "put"],
  listCoworldSecrets: ["coworldSecrets", "list"],
  deleteCoworldSecret: ["coworldSecrets", "delete"],
  // Episodes
  listEpisodeRequests: ["episodeRequests", "list"],
  listEpisodeChanges: ["episodeRequests", "changes"],
  getEpisodeRequest: ["episodeRequests", "get"],
  getEpisodeArtifact: ["episodeRequests", "getArtifact"],
  getEpisodeBundle: ["episodeRequests", "getBundle"],
  getEpisodeStats: ["episodeRequests", "getStats"],
  listPolicyArtifacts: ["episodeRequests", "listPolicyArtifacts"],
  getPolicyLog: ["episodeRequests", "getPolicyLog"],
  // Runner work queue (machine tokens)
  leaseJobs: ["runner", "lease"],
  heartbeatJob: ["runner", "heartbeat"],
  uploadJobArtifact: ["runner", "uploadArtifact"],
  completeJob: ["runner", "complete"],
  failJob: ["runner", "fail"],
  downloadBlob: ["runner", "downloadBlob"],
  // League play
  createLeagueSubmission: ["leagueSubmissions", "create"],
  listLeagueSubmissions: ["leagueSubmissions", "list"],
  listLeaguePolicyMemberships: ["memberships", "list"],
  setMembershipChampion: ["memberships", "setChampion"],
  retireMembership: ["memberships", "retire"],
  listRounds: ["rounds", "list"],
  getRound: ["rounds", "get"],
  listPools: ["pools", "list"],
  getPool: ["pools", "get"],
  triggerRound: ["leagues", "triggerRound"],
  getSeedPolicies: ["leagues", "getSeedPolicies"],
  replaceSeedPolicies: ["leagues", "replaceSeedPolicies"],
  getDivisionLeaderboard: ["divisions", "leaderboard"],
  getDivisionLeaderboards: ["divisions", "leaderboards"],
  listCompetitionEvents: ["competitionEvents", "list"],
  // `client.events` also has `subscribe` (the WebSocket itself, client.ts).
  subscribeEvents: ["events", "info"],
  // Experience requests (hosted evaluations)
  createExperienceRequest: ["experienceRequests", "create"],
  listExperienceRequests: ["experienceRequests", "list"],
  getExperienceRequest: ["experienceRequests", "get"],
  listExperienceRequestEpisodes: ["experienceRequests", "episodes"],
  cancelExperienceRequest: ["experienceRequests", "cancel"],
  // Bulk episode upload
  startBulkUpload: ["bulkUploads", "start"],
  putBulkUploadFile: ["bulkUploads", "putFile"],
  completeBulkUpload: ["bulkUploads", "complete"],
  // Reporters (posting an output takes the reporter's key: `headers: { "X-Reporter-Key": key }`)
  registerReporter: ["reporters", "register"],
  rotateReporterKey: ["reporters", "rotateKey"],
  listReporters: ["reporters", "list"],
  getReporter: ["reporters", "get"],
  listReporterOutputs: ["reporters", "listOutputs"],
  openReporterRun: ["reporterRuns", "open"],
  getReporterRunOutput: ["reporterRuns", "output"],
  postReporterOutput: ["reporterOutputs", "post"],
  getReporterOutput: ["reporterOutputs", "get"],
  // Forums, posts, comments and votes
  listForums: ["forums", "list"],
  listForumPosts: ["forums", "posts"],
  searchForumPosts: ["forums", "search"],
  createPost: ["posts", "create"],
  getPost: ["posts", "get"],
  getPostMarkdown: ["posts", "markdown"],
  updatePost: ["posts", "update"],
  deletePost: ["posts", "delete"],
  votePost: ["posts", "vote"],
  createComment: ["comments", "create"],
  updateComment: ["comments", "update"],
  deleteComment: ["comments", "delete"],
  voteComment: ["comments", "vote"],
  // Wikis
  listWikis: ["wikis", "list"],
  getWikiPage: ["wikis", "getPage"],
  putWikiPage: ["wikis", "replacePage"],
  listWikiPageRevisions: ["wikis", "revisions"],
  searchWiki: ["wikis", "search"],
  // Players' public profiles
  getPlayerProfile: ["players", "profile"],
  updatePlayerProfile: ["players", "updateProfile"],
  // The campaign board (spec 4.1 for migrate-board)
  getCampaignBoard: ["campaign", "get"],
  getCampaignHistory: ["campaign", "history"],
  migrateCampaignBoard: ["campaign", "migrate"],
  // Play modules (static browser bundles per coworld version)
  uploadPlayModule: ["playModules", "upload"],
  listPlayModules: ["playModules", "list"],
  getPlayModule: ["playModules", "get"],
  getPlayModuleFile: ["playModules", "getFile"],
  // Lobbies
  getLobbyAccess: ["lobbies", "access"],
  createLobby: ["lobbies", "create"],
  getLobby: ["lobbies", "get"],
  claimLobbySeat: ["lobbies", "claim"],
  leaveLobby: ["lobbies", "leave"],
  startLobby: ["lobbies", "start"],
  cancelLobby: ["lobbies", "cancel"],
  // Hosted play sessions (the two socket addresses answer their description to a plain GET)
  createPlaySession: ["playSessions", "create"],
  getPlaySession: ["playSessions", "get"],
  playSessionSocket: ["playSessions", "socketInfo"],
  playSessionRelay: ["playSessions", "relayInfo"],
  // Tournaments
  createTournament: ["tournaments", "create"],
  listTournaments: ["tournaments", "list"],
  getTournament: ["tournaments", "get"],
  updateTournament: ["tournaments", "update"],
  lockTournament: ["tournaments", "lock"],
  startTournament: ["tournaments", "start"],
  advanceTournament: ["tournaments", "advance"],
  cancelTournament: ["tournaments", "cancel"],
} as const satisfies Record<OperationId, ResourceName>;

export type Resources = typeof resources;
