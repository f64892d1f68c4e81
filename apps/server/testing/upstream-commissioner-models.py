"""Checks messages a platform sent a commissioner, and a built-in commissioner's answers, against
the hosted service's own models.

Usage: upstream-commissioner-models.py PROTOCOL_PY MESSAGES_JSON
PROTOCOL_PY is Metta-AI/coworld's src/coworld/commissioner/protocol.py, read from a fetched
repository at test time (never kept in this one); it is loaded by path, so none of the coworld
package's other dependencies are needed. Prints one JSON object: the types checked and, for each
message the models refuse, its index, type and pydantic's errors.
"""

import importlib.util
import json
import sys

spec = importlib.util.spec_from_file_location("upstream_protocol", sys.argv[1])
if spec is None or spec.loader is None:
    sys.exit(f"cannot load {sys.argv[1]}")
protocol = importlib.util.module_from_spec(spec)
# Its annotations are strings (postponed evaluation): pydantic resolves them through the module.
sys.modules[spec.name] = protocol
spec.loader.exec_module(protocol)

# The platform's messages by wire type: upstream names a model's type only in its to_json.
MODELS = {
    "round_start": protocol.RoundStart,
    "episodes_accepted": protocol.EpisodeAccepted,
    "episodes_rejected": protocol.EpisodesRejected,
    "episode_result": protocol.EpisodeResult,
    "episode_failed": protocol.EpisodeFailed,
    "round_abort": protocol.RoundAbort,
    "schedule_rounds_request": protocol.ScheduleRoundsRequest,
    "league_migration_config_request": protocol.LeagueMigrationConfigRequest,
    "league_migration_request": protocol.LeagueMigrationRequest,
    # A commissioner's own messages, for the built-in commissioners' answers.
    "schedule_episodes": protocol.ScheduleEpisodes,
    "round_complete": protocol.RoundComplete,
    "schedule_rounds_response": protocol.ScheduleRoundsResponse,
}

with open(sys.argv[2], encoding="utf8") as f:
    messages = json.load(f)

refused = []
checked = {}
for index, message in enumerate(messages):
    kind = message.get("type")
    model = MODELS.get(kind)
    if model is None:
        refused.append({"index": index, "type": kind, "errors": "no upstream model for this type"})
        continue
    body = {k: v for k, v in message.items() if k != "type"}
    try:
        parsed = model.model_validate(body)
    except Exception as error:  # pydantic.ValidationError, or a validator's own error
        refused.append({"index": index, "type": kind, "errors": str(error)})
        continue
    # The upstream model writes the same message back (fields it knows, with their defaults):
    # every field we sent must survive as we sent it, or a commissioner reads something else.
    echoed = parsed.to_json()
    lost = [k for k in body if k not in echoed]
    if lost:
        refused.append({"index": index, "type": kind, "errors": f"fields upstream drops: {lost}"})
        continue
    checked[kind] = checked.get(kind, 0) + 1

print(json.dumps({"checked": checked, "refused": refused}))
