#!/usr/bin/env bash
# Debian packages the benches need beyond the tests' (idempotent; needs root, as on our machines):
#   python3-reportlab python3-grpcio python3-grpc-tools python3-pil python3-requests
#       run Selu's first-party pdf agent (Python + ReportLab) beside ours in the pdf bench
set -euo pipefail
packages=(python3-reportlab python3-grpcio python3-grpc-tools python3-pil python3-requests)
exec bash "$(dirname "${BASH_SOURCE[0]}")/apt-ensure.sh" install-bench-deps "${packages[@]}"
