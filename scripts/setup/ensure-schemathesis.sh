#!/usr/bin/env bash
# Installs the fuzzer of `npm run fuzz` (schemathesis, pinned with everything it needs in
# schemathesis-requirements.txt) into a virtual environment the project owns: .tools/schemathesis.
# Silent when it is already there at the pinned versions.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/setup/setup-output.sh
source scripts/setup/setup-output.sh

requirements=scripts/setup/schemathesis-requirements.txt
venv=.tools/schemathesis
stamp="$venv/.requirements"

if [ -x "$venv/bin/schemathesis" ] && cmp -s "$requirements" "$stamp"; then
  exit 0
fi
command -v python3 >/dev/null || fail "python3 is missing (apt-get install python3 python3-venv)"
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  can_apt || fail "python3 cannot create virtual environments (apt-get install python3-venv)"
  apt_install python3-venv
fi
step "installing schemathesis into $venv (pinned: $requirements)"
rm -rf "$venv"
quietly "python3 -m venv $venv" python3 -m venv "$venv"
quietly "pip install schemathesis" "$venv/bin/pip" install --disable-pip-version-check --no-deps -r "$requirements"
cp "$requirements" "$stamp"
done_step "schemathesis $("$venv/bin/schemathesis" --version | awk '{print $NF}') installed"
