#!/usr/bin/env bash
# Installs what is missing, builds the `default` preset and runs the whole
# test suite with ctest. Extra arguments go to ctest (e.g. -L numerics).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --preset default -j "$(nproc)" "$@"
