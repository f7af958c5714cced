#!/usr/bin/env bash
# Installs the Debian packages ge needs. Idempotent: installs only what is missing.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config libprotobuf-dev protobuf-compiler libonnx-dev libcli11-dev
      nlohmann-json3-dev libspdlog-dev libgtest-dev libdnnl-dev python3-onnx python3-numpy)
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
