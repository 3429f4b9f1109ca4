#!/usr/bin/env bash
# Installs the pinned toolchain into .tools/ (idempotent) and the workspace's dependencies.
# Pinned here and nowhere else; bump both together with package.json's packageManager/engines.
set -euo pipefail
NODE_VERSION=24.21.0
PNPM_VERSION=10.34.9
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
stamp="$tools/.stamp-$NODE_VERSION-$PNPM_VERSION"
if [ ! -f "$stamp" ]; then
  echo "bootstrap: installing node@$NODE_VERSION and pnpm@$PNPM_VERSION into .tools/" >&2
  rm -rf "$tools" && mkdir -p "$tools"
  (cd "$tools" && echo '{"private":true}' > package.json &&
    npm install --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" "pnpm@$PNPM_VERSION" >&2)
  "$tools/node_modules/.bin/node" --version >/dev/null
  touch "$stamp"
fi
export PATH="$tools/node_modules/.bin:$PATH"
cd "$root"
# Skip the install when neither the lockfile nor the set of workspace packages (and their manifests) has
# changed since the last one: a package added by `./dev new` or a merge must be linked before it is built.
install_inputs() {
  { cat pnpm-lock.yaml pnpm-workspace.yaml package.json packages/*/package.json capabilities/*/package.json \
      test/package.json 2>/dev/null || true; } | sha256sum | cut -c1-16
}
if [ ! -f "node_modules/.lock-$(install_inputs)" ]; then
  if [ -n "${CI:-}" ]; then frozen=--frozen-lockfile; else frozen=; fi
  pnpm install $frozen --reporter=append-only >&2
  # Hashed after the install, which may have added the new package to the lockfile.
  rm -f node_modules/.lock-* && touch "node_modules/.lock-$(install_inputs)"
fi
