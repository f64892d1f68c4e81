#!/usr/bin/env bash
# Installs the Debian packages that the browser and terminal tests drive (chromium, tmux, …) and
# the runner's sandbox needs (bwrap) when a command of theirs is missing. Arguments are commands;
# a command whose Debian package has another name is mapped below. Idempotent and quiet when
# everything is there.
# Usage: ensure-system-packages.sh chromium tmux bwrap
set -euo pipefail
missing=()
for pkg in "$@"; do
  case "$pkg" in
    chromium) command -v chromium >/dev/null 2>&1 || missing+=(chromium) ;;
    bwrap) command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap) ;;
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
for pkg in "${missing[@]}"; do
  cmd="$pkg"
  [ "$pkg" = bubblewrap ] && cmd=bwrap
  command -v "$cmd" >/dev/null 2>&1 || still+=("$pkg")
done
[ ${#still[@]} -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${still[@]}" >/dev/null
