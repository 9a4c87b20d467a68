#!/usr/bin/env bash
# Bundles the GPU tests (ctest label `gpu`: the generated tests of every
# add_aot_target with a cuda TARGET, and tests/gpu) and the GPU benchmark
# into one folder that runs on a machine with an NVIDIA GPU and its driver
# but without LLVM, MLIR or this build:
#
#   scripts/gpu-bundle.sh [--no-build] [DIR]     (DIR: build/gpu-bundle)
#   DIR/run.sh [--sanitize] [TEST_REGEX]         (on the GPU machine)
#   DIR/bench.sh [RUNS]                          (on the GPU machine)
#
# It also writes DIR.tar.xz, the same folder in one archive about half its
# size, for copying to a machine that limits what it takes (scripts/gpu-check.sh
# unpacks it there and runs everything).
#
# The bundle holds each test executable (debug info stripped), its numpy
# reference .npz if it takes one, the shared libraries they need beyond the C and C++
# runtimes (libzip), and run.sh, which runs them, prints one line per test
# and a summary, and exits non-zero if any failed. --sanitize runs each
# under compute-sanitizer's memcheck. bench.sh runs the GPU benchmark
# (bench/gpu: aot-bench-gpu next to PyTorch's cuBLAS in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
out=build/gpu-bundle
for arg in "$@"; do
  case "$arg" in
  --no-build) build=0 ;;
  -h | --help)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "gpu-bundle.sh: unknown option '$arg'" >&2
    exit 1
    ;;
  *) out=$arg ;;
  esac
done

if [ "$build" = 1 ]; then
  bash scripts/build.sh
fi
if [ ! -f build/default/CTestTestfile.cmake ]; then
  echo "gpu-bundle.sh: build/default is not built; run scripts/build.sh" >&2
  exit 1
fi

python=
for candidate in /usr/bin/python3 python3; do
  if command -v "$candidate" >/dev/null 2>&1; then
    python=$(command -v "$candidate")
    break
  fi
done
if [ -z "$python" ]; then
  echo "gpu-bundle.sh: needs python3 to read ctest's test list" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/bin" "$out/ref" "$out/lib"
(cd build/default && ctest -L gpu --show-only=json-v1) >"$out/tests.json"

# Each test's executable and reference, copied under the test's name.
"$python" - "$out" <<'EOF'
import json, os, shutil, subprocess, sys
out = sys.argv[1]
tests = json.load(open(os.path.join(out, "tests.json")))["tests"]
listed = []
# Tests of one executable (a generated test and its run on other sizes)
# share one copy: a hard link, which the archive holds once.
copied = {}
for test in tests:
    command = test.get("command") or []
    name = test["name"]
    # A generated test takes its reference; another gpu test no argument.
    reference = None
    if len(command) == 2 and command[1].startswith("--reference="):
        reference = command[1][len("--reference="):]
    elif len(command) != 1:
        sys.exit("gpu-bundle.sh: test %s takes arguments the bundle cannot "
                 "carry (%s)" % (name, " ".join(command)))
    exe = os.path.realpath(command[0])
    bundled = os.path.join(out, "bin", name)
    if exe in copied:
        os.link(copied[exe], bundled)
    else:
        shutil.copy2(exe, bundled)
        subprocess.run(["strip", "--strip-debug", bundled], check=True)
        copied[exe] = bundled
    if reference:
        shutil.copy2(reference, os.path.join(out, "ref", name + ".npz"))
    listed.append(name)
with open(os.path.join(out, "tests.txt"), "w") as f:
    f.write("\n".join(listed) + "\n")
print("gpu-bundle.sh: %d tests" % len(listed))
EOF
rm "$out/tests.json"

# The GPU benchmark and the script that sets PyTorch's figures beside it.
mkdir -p "$out/bench"
cp build/default/bench/gpu/aot-bench-gpu "$out/bench/"
strip --strip-debug "$out/bench/aot-bench-gpu"
cp bench/gpu/compare.py "$out/bench/"
cat >"$out/bench.sh" <<'EOF'
#!/usr/bin/env bash
# The GPU benchmark: bench.sh [RUNS]. Times the compiled kernels and the same
# operations in PyTorch in one run and prints one table (bench/compare.py).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec python3 "$here/bench/compare.py" "$here/bench/aot-bench-gpu" "$@"
EOF
chmod +x "$out/bench.sh"

# Shared libraries beyond glibc and the C++ runtime, which every Linux with
# a CUDA driver has: libzip and what it needs that a minimal system lacks.
for exe in "$out"/bin/* "$out/bench/aot-bench-gpu"; do
  ldd "$exe" | awk '/=> \// {print $3}'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
  libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | ld-linux* | \
    libstdc++.so* | libgcc_s.so*) ;;
  *) cp -L "$lib" "$out/lib/" ;;
  esac
done

cat >"$out/run.sh" <<'EOF'
#!/usr/bin/env bash
# Runs the bundled GPU tests: run.sh [--sanitize] [TEST_REGEX]. One line per
# test (passed, FAILED, skipped with its reason), then a summary; exits 1 if
# any test failed or, with --sanitize, compute-sanitizer reported an error.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
sanitize=0
filter=.
for arg in "$@"; do
  case "$arg" in
  --sanitize) sanitize=1 ;;
  *) filter=$arg ;;
  esac
done
sanitizer=()
if [ "$sanitize" = 1 ]; then
  tool=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [ ! -x "$tool" ]; then
    echo "run.sh: --sanitize needs compute-sanitizer (not on PATH, not in /usr/local/cuda/bin)" >&2
    exit 1
  fi
  sanitizer=("$tool" --tool memcheck --leak-check full --error-exitcode 99)
fi
passed=0 failed=0 skipped=0 failures=()
while read -r name; do
  [[ "$name" =~ $filter ]] || continue
  log="$here/logs/$name.log"
  mkdir -p "$here/logs"
  args=()
  [ -f "$here/ref/$name.npz" ] && args=(--reference="$here/ref/$name.npz")
  # A hung kernel must not take the whole run with it.
  timeout "${AOT_GPU_TEST_TIMEOUT:-120}" "${sanitizer[@]}" "$here/bin/$name" \
    "${args[@]}" >"$log" 2>&1
  rc=$?
  if [ $rc = 0 ]; then
    passed=$((passed + 1))
    echo "passed  $name"
  elif [ $rc = 77 ]; then
    skipped=$((skipped + 1))
    echo "skipped $name: $(grep -m1 '^skipped:' "$log" | sed 's/.*cannot run here: //')"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "FAILED  $name (exit $rc$([ $rc = 124 ] && echo ', timed out'); log: logs/$name.log)"
    grep -m5 -E 'ERROR|error|Invalid|FAILURE' "$log" | sed 's/^/        /'
  fi
done <"$here/tests.txt"
echo "summary: $passed passed, $failed failed, $skipped skipped" \
  "$([ "$sanitize" = 1 ] && echo '(under compute-sanitizer memcheck)')"
[ $failed = 0 ]
EOF
chmod +x "$out/run.sh"
rm -f "$out.tar.xz"
tar -C "$(dirname "$out")" -cf - "$(basename "$out")" | xz -T0 -6 >"$out.tar.xz"
echo "gpu-bundle.sh: $(du -sh "$out" | cut -f1) in $out ($(du -sh "$out.tar.xz" | cut -f1) as $out.tar.xz);" \
  "run $out/run.sh and $out/bench.sh on a GPU machine"
# The GPU machine this project is lent takes 64 MiB of build outputs a call.
if [ "$(stat -c %s "$out.tar.xz")" -gt $((64 << 20)) ]; then
  echo "gpu-bundle.sh: warning: $out.tar.xz is over 64 MiB, more than the" \
    "GPU machine takes in one call" >&2
fi
