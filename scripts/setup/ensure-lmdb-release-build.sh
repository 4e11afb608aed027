#!/usr/bin/env bash
# Builds lmdb-js's native addon from the source npm installed, with its own Release flags (-O3),
# into node_modules/lmdb/build/Release — which lmdb-js loads before any prebuilt binary
# (node-gyp-build-optional-packages looks there first).
#
# Why: the binaries lmdb-js publishes (@lmdb/lmdb-<platform>, built with `prebuildify --debug`) are
# debug builds. The linux-x64 one of lmdb 3.5.6 was compiled with `-O3 -O0` (readelf
# --debug-dump=info shows the flags): LMDB's page allocation, free-list bookkeeping and B-tree
# searches run unoptimized. At 1M URLs that was ~17 % of the scheduler's CPU (perf), and a loop of
# random row writes took 25–60 µs of CPU per row against 13–25 with this build
# (docs/frontier-performance.md). Same source, same version, same data format: only the compiler
# flags differ.
#
# Needs make, a C/C++ compiler and Python 3 (node-gyp), installed from Debian when missing (as
# root), and Node's headers: those installed next to the node binary, or else node-gyp downloads
# them. Cached: nothing runs when this lmdb version was built for this Node ABI. When the build
# fails, the prebuilt binary stays in use and setup says so — everything works, at the CPU cost above.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/setup/setup-output.sh
source scripts/setup/setup-output.sh

package=node_modules/lmdb
[ -f "$package/package.json" ] || fail "node_modules/lmdb is missing; run npm ci first"
release_directory=$package/build/Release
stamp=$package/build/release-build.stamp
wanted="lmdb $(node -p 'require("./node_modules/lmdb/package.json").version') for node ABI $(node -p 'process.versions.modules')"

if ls "$release_directory"/*.node >/dev/null 2>&1 && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
  exit 0
fi

missing=()
command -v make >/dev/null 2>&1 || missing+=(make)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ "${#missing[@]}" -gt 0 ]; then
  if can_apt; then
    apt_install "${missing[@]}"
  else
    step "WARNING: cannot build lmdb-js's addon (missing: ${missing[*]}); its prebuilt debug build stays in use (slower LMDB)"
    exit 0
  fi
fi

# Node's own headers when they are installed with it (Debian's nodejs, the nodejs.org tarballs):
# node-gyp would otherwise download them, which an offline machine cannot.
node_prefix=$(node -p 'require("path").resolve(process.execPath, "..", "..")')
nodedir_option=()
[ -f "$node_prefix/include/node/node_api.h" ] && nodedir_option=(--nodedir="$node_prefix")

step "building lmdb-js's native addon from source with its Release flags (~15–30 s; the published one is a debug build)"
rm -rf "$package/build"
log=$(mktemp)
started=$SECONDS
# npm rebuild runs lmdb's own install script, which builds with npm's bundled node-gyp (JOBS: make
# on every core, ~15 s instead of ~26 on two).
if JOBS=max npm rebuild lmdb --build-from-source "${nodedir_option[@]}" --foreground-scripts >"$log" 2>&1 \
  && ls "$release_directory"/*.node >/dev/null 2>&1; then
  printf '%s\n' "$wanted" >"$stamp"
  rm -f "$log"
  done_step "lmdb-js addon built in $((SECONDS - started)) s ($wanted)"
else
  step "WARNING: building lmdb-js's addon failed; its prebuilt debug build stays in use (slower LMDB). Last lines:"
  tail -n 15 "$log" | sed 's/^/    /'
  rm -f "$log"
  rm -rf "$package/build"
fi
