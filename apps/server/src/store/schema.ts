// Table shapes for Kysely. JSON documents are stored as text and booleans as 0/1 integers so
// that one migration set and one set of queries serve SQLite and PostgreSQL alike.
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
  kind: string;
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
  type: string;
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
  status: string;
  substatus: string;
  is_champion: number;
  start_time: string;
  end_time: string | null;
  created_at: string;
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

export interface Database {
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
}
