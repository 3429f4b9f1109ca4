#!/usr/bin/env bash
# Debian packages `./dev images` needs (idempotent; needs root, as on our machines):
#   podman       builds images (buildah inside) and mounts them; no Docker engine is needed
#   debootstrap  makes a stand-in base image where no container registry is reachable
#   bubblewrap   runs a mounted image under Selu's container constraints
set -euo pipefail
packages=(podman buildah debootstrap bubblewrap)
exec bash "$(dirname "${BASH_SOURCE[0]}")/../apt-ensure.sh" images "${packages[@]}"
