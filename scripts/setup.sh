#!/usr/bin/env bash
# Installs the Debian packages ge needs. Idempotent: installs only what is missing.
# ocl-icd-opencl-dev and opencl-c-headers are only "Recommends" of libdnnl-dev, but its CMake config
# calls find_package(OpenCL) and fails without them, so they are listed here. lld links about three
# times faster than ld.bfd (most of the sanitizer build's link time); the build uses it when present.
# ccache lets a second build of the same sources (another clone, CI again) skip the compiler.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config libprotobuf-dev protobuf-compiler libonnx-dev libcli11-dev
      nlohmann-json3-dev libspdlog-dev libgtest-dev libdnnl-dev ocl-icd-opencl-dev opencl-c-headers python3-onnx python3-numpy lld ccache)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
