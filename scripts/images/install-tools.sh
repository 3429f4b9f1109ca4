#!/usr/bin/env bash
# Debian packages `./dev images` needs (idempotent; needs root, as on our machines):
#   podman       builds images (buildah inside) and mounts them; no Docker engine is needed
#   debootstrap  makes a stand-in base image where no container registry is reachable
#   bubblewrap   runs a mounted image under Selu's container constraints
set -euo pipefail
packages=(podman buildah debootstrap bubblewrap)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "images: missing ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "images: installing ${missing[*]}" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
