#!/usr/bin/env bash
# Installs what is missing, builds the tools and the examples (not the test
# suite's models: scripts/test.sh builds those), then compiles the example
# models through every stage with aot-compile and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh aot-compile aot-compile-driver aot-run \
  aot_example_embed aot_example_typed_call
build=build/default
out=$build/demo
rm -rf "$out"
mkdir -p "$out"

for model in examples/models/*.mlir; do
  name=$(basename "$model" .mlir)
  echo "== $model"
  "$build/codegen/aot-compile" "$model" -o "$out/$name.o" --dump-stages="$out/$name.stages"
  "$build/codegen/aot-compile" "$model" -o "$out/$name.h"
  "$build/codegen/aot-compile" "$model" -o "$out/$name.json"
  ls "$out/$name.stages" | sed 's/^/   stage: /'
  nm "$out/$name.o" | grep ' T _mlir_ciface_' | sed 's/^/   export: /'
done

echo "== examples/embed.cpp: compile scale.mlir in-process, load, call"
"$build/examples/aot_example_embed" examples/models/scale.mlir
echo "== examples/typed_call.cpp: aot_compiled_mlp (add_aot_target: mlp.o + typed mlp.h) linked into a program"
"$build/examples/aot_example_typed_call"
echo "== examples/run.sh: aot-run calls scale.so from the shell, checks it, times it"
bash examples/run.sh "$build"
echo "== outputs are in $out"
