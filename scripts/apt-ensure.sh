#!/usr/bin/env bash
# apt-ensure.sh <who> <package...>: installs the Debian packages that are missing (idempotent; needs
# root, as on our machines), naming <who> in what it prints. The one place scripts install packages.
set -euo pipefail
who="$1"; shift
missing=()
for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "$who: missing ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "$who: installing ${missing[*]}" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
