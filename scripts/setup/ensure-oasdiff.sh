#!/usr/bin/env bash
# Installs oasdiff, the OpenAPI half of `npm run contract:diff` (the add-only gate), into
# .tools/oasdiff/bin with `go install` from the Go module proxy — no prebuilt binary is fetched.
# Cached: when the binary of this version is there, nothing runs. The first build on a machine
# downloads about 100 MB of modules and takes 1–3 minutes on 2 cores (a progress line every 10 s);
# the modules and compiled packages stay in Go's own caches (go env GOMODCACHE GOCACHE), so another
# clone on the same machine — CI's fresh clone — builds it in seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/setup/setup-output.sh
source scripts/setup/setup-output.sh

version=v1.37.0
root=.tools/oasdiff
binary=$root/bin/oasdiff
stamp=$binary.version

if [ -x "$binary" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  exit 0
fi
command -v go >/dev/null 2>&1 \
  || fail "Go is missing; oasdiff $version is built with it (install Go 1.22+ and run make setup again)"

step "building oasdiff $version with go install (the first time on a machine: ~100 MB of modules from the Go module proxy)"
rm -f "$binary" "$stamp"
mkdir -p "$root/bin"
log=$(mktemp)
started=$SECONDS
# -v names each package as it is compiled, which the progress line shows. GOTOOLCHAIN=local: build
# with the Go on this machine, never download another toolchain.
GOBIN="$PWD/$root/bin" GOFLAGS="-modcacherw -buildvcs=false" GOTOOLCHAIN=local \
  go install -v "github.com/oasdiff/oasdiff@$version" >"$log" 2>&1 &
pid=$!
next=$((started + 10))
while kill -0 "$pid" 2>/dev/null; do
  sleep 1
  if [ "$SECONDS" -ge "$next" ]; then
    step "  … $((SECONDS - started)) s ($(tail -n 1 "$log" | cut -c1-90))"
    next=$((next + 10))
  fi
done
if ! wait "$pid"; then
  printf '\033[31m[setup] go install oasdiff failed; its last lines:\033[0m\n' >&2
  tail -n 30 "$log" | sed 's/^/    /' >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
echo "$version" >"$stamp"
done_step "oasdiff $version built in $((SECONDS - started)) s ($binary)"
