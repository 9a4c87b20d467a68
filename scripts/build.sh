#!/usr/bin/env bash
# Configures and builds the `default` preset (after scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)"
