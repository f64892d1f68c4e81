// One League as the API answers it, for tests and benchmarks that script a server's answers
// (the SDK's, the TUI's): parsed by the contract's schema, so a fixture cannot drift from it.
// `@gauntlet/server/fixtures` loads this file alone (the testing helpers load the whole server).
import { League } from "@gauntlet/core";

const AT = "2025-01-01T00:00:00Z";
const USER = "user_00000000-0000-4000-8000-000000000001";

export function sampleLeague(overrides: Partial<League> = {}): League {
  return League.parse({
    id: "league_00000000-0000-4000-8000-000000000001",
    name: "League",
    commissioner_key: "ladder",
    game: {
      id: "game_00000000-0000-4000-8000-000000000001",
      name: "Game",
      owner_user_id: USER,
      created_at: AT,
      coworld_name: null,
      coworld_id: null,
      description: null,
      notes: null,
    },
    mod: null,
    created_at: AT,
    description: null,
    commissioner_config: {},
    commissioner_migration_version: "1",
    rounds_paused_at: null,
    settings: {},
    filler_policy_version_ids: [],
    rules: {},
    public: true,
    hidden: false,
    is_game_of_week: false,
    disabled_at: null,
    notes: null,
    commissioner_user_id: USER,
    ...overrides,
  });
}
