#!/usr/bin/env bash
# Installs the Debian packages that the browser and terminal tests drive (chromium, tmux, …), the
# runner's sandbox needs (bwrap) and the upstream Python clients' tests run under Debian's
# /usr/bin/python3 (python3-fastapi, …) when they are missing. Arguments are commands, or Debian
# package names starting with python3- (checked with dpkg); a command whose Debian package has
# another name is mapped below. Idempotent and quiet when everything is there.
# Usage: ensure-system-packages.sh chromium tmux bwrap python3-typer
set -euo pipefail

# The Debian package an argument needs when it is absent, else nothing.
needed() {
  case "$1" in
    chromium) command -v chromium >/dev/null 2>&1 || echo chromium ;;
    bwrap) command -v bwrap >/dev/null 2>&1 || echo bubblewrap ;;
    script) command -v script >/dev/null 2>&1 || echo bsdutils ;;
    python3-*)
      dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" || echo "$1"
      ;;
    *) command -v "$1" >/dev/null 2>&1 || echo "$1" ;;
  esac
}

missing=()
for arg in "$@"; do
  pkg=$(needed "$arg")
  [ -n "$pkg" ] && missing+=("$arg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
packages=()
for arg in "${missing[@]}"; do packages+=("$(needed "$arg")"); done
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-system-packages: missing ${packages[*]}; install them with: sudo apt-get install -y ${packages[*]}" >&2
  exit 1
fi
# One install at a time: several test files may ask at once.
exec 9>/tmp/gauntlet-apt.lock
flock 9
still=()
for arg in "${missing[@]}"; do
  pkg=$(needed "$arg")
  [ -n "$pkg" ] && still+=("$pkg")
done
[ ${#still[@]} -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${still[@]}" >/dev/null
