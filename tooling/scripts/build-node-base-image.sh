#!/usr/bin/env bash
# Builds the docker runtime's offline base image, `gauntlet/node-base:<node version>` (also
# tagged `:<major>`), without pulling anything: a root file system of one Node binary (by
# default the project's pinned `node` devDependency), the shared libraries it links (ldd), a
# minimal /etc with a non-root user `gauntlet` (uid and gid 1000), an empty /tmp — and no
# shell, no package manager. `docker import` turns it into an image that runs as that user.
# Does nothing when the tag exists (pass --force to rebuild). Prints the full tag.
# Usage: build-node-base-image.sh [--force] [path/to/node]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
force=0
if [ "${1:-}" = "--force" ]; then force=1; shift; fi
node_bin=$(readlink -f "${1:-$root/node_modules/node/bin/node}")
[ -x "$node_bin" ] || { echo "build-node-base-image: no Node binary at $node_bin" >&2; exit 1; }
version=$("$node_bin" -p 'process.versions.node')
tag="gauntlet/node-base:$version"
major_tag="gauntlet/node-base:${version%%.*}"

if [ "$force" -eq 0 ] && docker image inspect "$tag" >/dev/null 2>&1; then
  docker tag "$tag" "$major_tag"
  echo "$tag"
  exit 0
fi

rootfs=$(mktemp -d)
trap 'rm -rf "$rootfs"' EXIT
mkdir -p "$rootfs"/{usr/local/bin,etc,tmp,home/gauntlet,proc,sys,dev}
chmod 1777 "$rootfs/tmp"
cp "$node_bin" "$rootfs/usr/local/bin/node"
# Every library the binary links, at the path the dynamic loader looks for it.
ldd "$node_bin" | awk '/=> \// { print $3 } /^\t\// { print $1 }' | while read -r lib; do
  mkdir -p "$rootfs$(dirname "$lib")"
  cp -L "$lib" "$rootfs$lib"
done
cat >"$rootfs/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/usr/sbin/nologin
gauntlet:x:1000:1000:gauntlet:/home/gauntlet:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
PASSWD
cat >"$rootfs/etc/group" <<'GROUP'
root:x:0:
gauntlet:x:1000:
nogroup:x:65534:
GROUP
echo "hosts: files dns" >"$rootfs/etc/nsswitch.conf"
chown 1000:1000 "$rootfs/home/gauntlet"

tar -C "$rootfs" --numeric-owner -c . | docker import \
  --change 'USER 1000:1000' \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/gauntlet' \
  --change 'WORKDIR /home/gauntlet' \
  --change 'CMD ["node"]' \
  --change "LABEL org.gauntlet.node-version=$version" \
  - "$tag" >/dev/null
docker tag "$tag" "$major_tag"
echo "$tag"
