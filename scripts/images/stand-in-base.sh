#!/usr/bin/env bash
# Makes a local stand-in for the official node base image when no container registry can be reached
# (issue 13): Debian's debootstrap of the same release plus the pinned Node binary from the npm
# registry's `node` package, with npm and the `node` user (uid 1000) as in the official image, tagged
# with the exact reference the Dockerfiles use. The root filesystem is cached as a tarball under
# .cache/images/ (ignored by git), so a second run only imports it.
#   bash scripts/images/stand-in-base.sh node:24.21.0-bookworm-slim
set -euo pipefail
# debootstrap, chroot and the rootfs's groupadd and useradd live in sbin, which a minimal PATH lacks.
export PATH="$PATH:/usr/sbin:/sbin"
ref="${1:?usage: stand-in-base.sh node:<version>-<debian release>[-slim]}"
podman=(podman --storage-driver "${SELU_STORAGE_DRIVER:-vfs}")
[ -n "${SELU_PODMAN_ROOT:-}" ] && podman+=(--root "$SELU_PODMAN_ROOT")
full="docker.io/library/$ref"
if "${podman[@]}" image exists "$full"; then exit 0; fi
if timeout 60 "${podman[@]}" pull -q "$full" >/dev/null 2>&1; then exit 0; fi

[[ "$ref" =~ ^node:([0-9]+\.[0-9]+\.[0-9]+)-([a-z]+)(-slim)?$ ]] || { echo "stand-in-base: can't read a Node version and Debian release from $ref" >&2; exit 1; }
node_version="${BASH_REMATCH[1]}"
release="${BASH_REMATCH[2]}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="$root/.cache/images"
tarball="$cache/${ref//[:\/]/-}-$(uname -m).tar"
mkdir -p "$cache"
if [ ! -f "$tarball" ]; then
  command -v debootstrap >/dev/null || bash "$root/scripts/images/install-tools.sh"
  echo "stand-in-base: no registry for $ref; building a stand-in from Debian $release and node@$node_version" >&2
  work="$(mktemp -d "${TMPDIR:-/tmp}/stand-in-base-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  rootfs="$work/rootfs"
  debootstrap --variant=minbase "$release" "$rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  # The pinned Node binary and npm (the official image has both), from the npm registry.
  npm_version="${NPM_VERSION:-11}"
  (cd "$work" && echo '{"private":true}' >package.json \
    && npm install --no-audit --no-fund --loglevel=error "node@$node_version" "npm@$npm_version" >&2)
  install -m 0755 "$work/node_modules/node/node_modules/node-linux-"*/bin/node "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$work/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
  tar -C "$rootfs" --numeric-owner -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
fi
"${podman[@]}" import -q \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' \
  "$tarball" "$full" >/dev/null
echo "stand-in-base: $full ready (stand-in)" >&2
