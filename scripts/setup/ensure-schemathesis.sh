#!/usr/bin/env bash
# Installs the fuzzer of `npm run fuzz` (schemathesis, pinned with everything it needs in
# schemathesis-requirements.txt) into a virtual environment the project owns: .tools/schemathesis.
# Silent when it is already there at the pinned versions.
set -euo pipefail
cd "$(dirname "$0")/../.."

requirements=scripts/setup/schemathesis-requirements.txt
venv=.tools/schemathesis
stamp="$venv/.requirements"

step() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
fail() { printf '\033[31m[setup] %s\033[0m\n' "$*" >&2; exit 1; }

if [ -x "$venv/bin/schemathesis" ] && cmp -s "$requirements" "$stamp"; then
  exit 0
fi
command -v python3 >/dev/null || fail "python3 is missing (apt-get install python3 python3-venv)"
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Debian packages: python3-venv"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv >/dev/null \
      || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv >/dev/null; }
  else
    fail "python3 cannot create virtual environments (apt-get install python3-venv)"
  fi
fi
step "installing schemathesis into $venv (pinned: $requirements)"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$requirements"
cp "$requirements" "$stamp"
