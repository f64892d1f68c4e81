#!/usr/bin/env bash
# Makes a Docker engine answer on this machine for the docker runtime's tests and CI: installs
# Debian's docker.io when dockerd is missing (as root), and starts dockerd in the background
# (logging to $GAUNTLET_DOCKERD_LOG, default /tmp/gauntlet-dockerd.log) when `docker info` gets
# no answer, then waits until it answers. Idempotent and quiet; exits non-zero with one line on
# stderr when no engine can be had.
set -euo pipefail
log="${GAUNTLET_DOCKERD_LOG:-/tmp/gauntlet-dockerd.log}"
wait_s="${GAUNTLET_DOCKERD_WAIT_SECONDS:-60}"

answers() { timeout 10 docker info >/dev/null 2>&1; }

if command -v docker >/dev/null 2>&1 && answers; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-docker: no Docker engine answers and starting one needs root" >&2
  exit 1
fi
# One at a time: several test files (or CI steps) may ask at once.
exec 9>/tmp/gauntlet-docker.lock
flock 9
if command -v docker >/dev/null 2>&1 && answers; then exit 0; fi
if ! command -v dockerd >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends docker.io >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends docker.io >/dev/null 2>&1; } \
    || { echo "ensure-docker: apt-get could not install docker.io" >&2; exit 1; }
fi
if ! pgrep -x dockerd >/dev/null 2>&1; then
  # setsid: the engine outlives this script and the test process that called it.
  setsid nohup dockerd >>"$log" 2>&1 </dev/null &
fi
for _ in $(seq 1 "$wait_s"); do
  if answers; then exit 0; fi
  sleep 1
done
echo "ensure-docker: dockerd did not answer within ${wait_s} s (see $log)" >&2
exit 1
