#!/usr/bin/env bash
# Runs every GPU check of a bundle made by scripts/gpu-bundle.sh, on a machine
# with an NVIDIA GPU and its driver, in one go:
#
#   scripts/gpu-check.sh [BUNDLE.tar.xz] [LOG_DIR]
#
# (defaults: build/gpu-bundle.tar.xz, and $OUT or ./gpu-check-logs). It
# unpacks the bundle into a temporary folder, prints the GPU, then runs the
# tests, the benchmark next to PyTorch, and the tests again under
# compute-sanitizer memcheck. Each part has a time limit (seconds, from the
# environment: AOT_GPU_TESTS_S, AOT_GPU_BENCH_S, AOT_GPU_SANITIZE_S) so that a
# hang in one does not cost the others; the logs of each part go to LOG_DIR as
# one text file and one archive of per-test logs. Exits non-zero if any part
# failed or ran out of time.
set -uo pipefail
bundle=${1:-build/gpu-bundle.tar.xz}
logs=${2:-${OUT:-gpu-check-logs}}
mkdir -p "$logs"
work=$(mktemp -d)
if ! tar -C "$work" -xJf "$bundle"; then
  echo "gpu-check.sh: cannot unpack $bundle" >&2
  exit 1
fi
dir=$(find "$work" -mindepth 2 -maxdepth 2 -name run.sh -printf '%h\n' | head -1)
if [ -z "$dir" ]; then
  echo "gpu-check.sh: $bundle holds no run.sh" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader ||
  echo "gpu-check.sh: nvidia-smi failed"

status=0
part() { # part NAME SECONDS COMMAND...
  local name=$1 seconds=$2
  shift 2
  echo "== $name (limit ${seconds} s)"
  local start=$SECONDS
  timeout "$seconds" "$@" 2>&1 | tee "$logs/$name.txt"
  local rc=${PIPESTATUS[0]}
  echo "== $name: exit $rc$([ "$rc" = 124 ] && echo ' (time limit)') in $((SECONDS - start)) s"
  [ -d "$dir/logs" ] && tar -C "$dir" -czf "$logs/$name-logs.tgz" logs && rm -rf "$dir/logs"
  [ "$rc" = 0 ] || status=1
}
part tests "${AOT_GPU_TESTS_S:-150}" "$dir/run.sh"
part bench "${AOT_GPU_BENCH_S:-120}" "$dir/bench.sh"
part sanitize "${AOT_GPU_SANITIZE_S:-240}" "$dir/run.sh" --sanitize
rm -rf "$work"
exit $status
