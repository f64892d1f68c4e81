"""Opens a hosted replay of a round's episode with coworld's own client: `CoworldApiClient` from
coworld's api_client.py (loaded from the path given, never a copy in this repository), making the
calls `coworld replay EREQ --hosted` makes: `get_episode_request`, then `create_replay_session`
with the row's coworld_id, episode_id and replay_url. The episode is the round's first with a
replay, found with `list_episode_requests(round_id=...)`. Prints what it got as JSON.

Usage: python3 upstream-coworld-replay.py API_CLIENT_PY SERVER_URL ROUND_ID  (the token in
SOFTMAX_TOKEN: what `softmax get-token` printed)

api_client.py needs pydantic 2 and httpx. This python brings pydantic 2; httpx, when it has none,
comes from Debian's packages (python3-httpx, 0.23: the same calls as the 0.28 coworld declares).
coworld's package __init__ is not run: it imports the certifier and runner (kubernetes, pyarrow,
docker), which the client does not use.
"""

import importlib.util
import json
import os
import sys

try:
    import httpx  # noqa: F401
except ImportError:
    sys.path.append("/usr/lib/python3/dist-packages")

api_client_path, server_url, round_id = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("coworld_api_client", api_client_path)
assert spec is not None and spec.loader is not None
api_client = importlib.util.module_from_spec(spec)
# Registered before it runs: pydantic resolves the models' postponed annotations by module name.
sys.modules[spec.name] = api_client
spec.loader.exec_module(api_client)

with api_client.CoworldApiClient(server_url=server_url, token=os.environ["SOFTMAX_TOKEN"]) as client:
    rows = client.list_episode_requests(round_id=round_id)
    played = [row for row in rows if row.replay_url is not None and row.episode_id is not None]
    if not played:
        sys.exit(f"no episode of round {round_id} has a replay yet: {[row.status for row in rows]}")
    episode = client.get_episode_request(played[0].id)
    assert episode.coworld_id is not None and episode.episode_id is not None
    assert episode.replay_url is not None
    session = client.create_replay_session(
        coworld_id=episode.coworld_id, episode_id=episode.episode_id, replay_uri=episode.replay_url
    )
    print(
        json.dumps(
            {
                "episode_request_id": episode.id,
                "coworld_id": episode.coworld_id,
                "episode_id": str(episode.episode_id),
                "replay_url": episode.replay_url,
                "viewer_url": session.viewer_url,
                "ready": session.ready,
            }
        )
    )
