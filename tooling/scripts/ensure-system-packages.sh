#!/usr/bin/env bash
# Installs the Debian packages that the browser and terminal tests drive (chromium, tmux, …)
# when a command of theirs is missing. Idempotent and quiet when everything is there.
# Usage: ensure-system-packages.sh chromium tmux
set -euo pipefail
missing=()
for pkg in "$@"; do
  case "$pkg" in
    chromium) command -v chromium >/dev/null 2>&1 || missing+=(chromium) ;;
    *) command -v "$pkg" >/dev/null 2>&1 || missing+=("$pkg") ;;
  esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-system-packages: missing ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
# One install at a time: several test files may ask at once.
exec 9>/tmp/gauntlet-apt.lock
flock 9
still=()
for pkg in "${missing[@]}"; do command -v "$pkg" >/dev/null 2>&1 || still+=("$pkg"); done
[ ${#still[@]} -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${still[@]}" >/dev/null
