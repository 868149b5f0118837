#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what agentctx needs on Debian bookworm, idempotently:
#  1. checks every Debian package with dpkg-query; as root installs the missing ones
#     (apt-get update once, --no-install-recommends); otherwise prints the command and fails;
#  2. runs `npm ci` when node_modules is missing or older than package-lock.json;
#  3. drops the CMake cache of build trees made with Makefiles (the presets use Ninja, and CMake
#     refuses to switch the generator of an existing tree): the next configure regenerates them.
# Fast when everything is present (no apt, no npm call).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  cmake ninja-build g++ clang-14 lld-14 llvm-14 libclang-rt-14-dev clang-format-14 clang-tidy-14
  libgtest-dev googletest libbenchmark-dev rapidjson-dev emscripten chromium
  clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]})); then
  cmd="apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
    echo "bootstrap: run as root:  apt-get update && $cmd" >&2
    exit 1
  fi
  echo "bootstrap: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bootstrap: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

for cache in build/*/CMakeCache.txt; do
  if [[ -f "$cache" ]] && grep -q '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$' "$cache"; then
    echo "bootstrap: ${cache%/CMakeCache.txt} was configured for Makefiles: reconfiguring it for Ninja"
    rm -rf "$cache" "${cache%/CMakeCache.txt}/CMakeFiles"
  fi
done
