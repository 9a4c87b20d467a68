#!/usr/bin/env bash
# aot-run on the example models: call a compiled function from the shell on
# inline values, check it against a numpy reference, and time it.
set -euo pipefail
build=${1:-build/default}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
aot_compile=$build/codegen/aot-compile
aot_run=$build/run/aot-run
python=$(command -v /usr/bin/python3 || command -v python3)

"$aot_compile" examples/models/scale.mlir -O3 -o "$out/scale.so"
# Inline inputs (SHAPExDTYPE=VALUES, a scalar as DTYPE=VALUE); results printed.
"$aot_run" "$out/scale.so" 2x4xf32=1,2,3,4,5,6,7,8 f32=0.5

# Inputs and expected results from numpy, in the reference key scheme.
"$python" - "$out" <<'PY'
import sys, numpy as np
x = np.arange(12, dtype=np.float32).reshape(3, 4)
np.savez(sys.argv[1] + "/ref.npz", **{
    "scale/arg0": x, "scale/arg1": np.float32(2),
    "scale/result0": x * 2, "scale/result1": np.float32((x * 2).sum())})
PY
"$aot_run" "$out/scale.so" @"$out/ref.npz" --expected=@"$out/ref.npz"

# An MLIR module compiled in the process, on random inputs, timed.
"$aot_run" examples/models/scale.mlir -O3 --random-inputs --dim=0:0=4096 --benchmark=200
