#!/usr/bin/env bash
# ./dev new <id>: scaffolds capabilities/<id>/ (see CONTRIBUTING.md), links it into the workspace, builds
# it, writes its manifest's tools from the built code and regenerates registry/. Run through ./dev,
# which has put the pinned toolchain on PATH and installed the workspace.
set -euo pipefail
id="${1:-}"
if [ -z "$id" ] || [ $# -ne 1 ]; then
  echo "usage: ./dev new <id>   (catalogue-<name>: lowercase letters, digits and hyphens, e.g. catalogue-dictionary)" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
pnpm exec turbo run build --filter=@selu-catalogue/registry --output-logs=errors-only >&2
node packages/registry/bin/selu-registry.js new "$id"
# Where the Dockerfile generator exists (issue 13), it writes the new capability's Dockerfile too.
if [ -f scripts/dockerfile.mjs ]; then node scripts/dockerfile.mjs; fi
bash scripts/bootstrap.sh >&2   # the new package.json changes the install stamp: pnpm links the package
# Every capability, not only the new one: the registry reads a dynamic capability's tools from its built code.
pnpm exec turbo run build --filter="./capabilities/*" --output-logs=errors-only >&2
node packages/manifest/bin/selu-manifest.js write "capabilities/$id"
node packages/registry/bin/selu-registry.js build
cat <<NEXT

capabilities/$id is ready and passes its checks. Next:
  ./dev --filter @selu-catalogue/$id test     its end-to-end and conformance tests
  edit src/capability.ts, then ./dev --filter @selu-catalogue/$id build && ./dev --filter @selu-catalogue/$id manifest:write
  keep README.md, prompt.md, prompt.de.md and agent/de.yaml in step, then ./dev registry:build
  ./dev test, commit (with pnpm-lock.yaml, registry/ and .changeset/$id-capability.md), open the PR
NEXT
