#!/usr/bin/env bash
# Configures and builds the `default` preset (after scripts/setup.sh): the
# targets given as arguments, or everything (the test suite's models too).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build --preset default -j "$(nproc)" "${targets[@]}"
