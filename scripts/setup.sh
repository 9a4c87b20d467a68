#!/usr/bin/env bash
# Installs what mlir-aot needs to build and test, from Debian packages only.
# Idempotent: installs nothing when everything is present. Works as root or
# through sudo.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ pkg-config file binutils
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  liblld-22-dev
  libclang-rt-22-dev libomp-22-dev
  libeigen3-dev doctest-dev libzip-dev zlib1g-dev nlohmann-json3-dev libxxhash-dev
  python3-numpy valgrind gdb
  # ONNX in (the importer), and PyTorch to export models and check them.
  libonnx-dev libprotobuf-dev python3-onnx python3-torch python3-torchvision
  # PyTorch's matmuls call libblas.so.3: OpenBLAS rather than the reference
  # BLAS, so that the benchmarks compare with what users run.
  libopenblas0-pthread
  # GNU time: the benchmarks' peak memory of a compile, measured apart from
  # the Python process that starts it.
  time
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "setup: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
