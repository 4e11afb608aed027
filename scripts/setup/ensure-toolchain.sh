#!/usr/bin/env bash
# Installs what the project needs and is missing on this machine, and nothing else:
# npm dependencies (from the lock file), lmdb-js's native addon built from source with
# optimization, a Java runtime and the pinned openapi-generator jar (for
# `npm run generate`), oasdiff (for `npm run contract:diff`, built with Go), the system Chromium
# (the headless shell that renders, and the full browser), and schemathesis in .tools/schemathesis (for `npm run fuzz`). Safe to run
# repeatedly: each step checks first and is silent when there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/setup/setup-output.sh
source scripts/setup/setup-output.sh


# 1. Node.js 20.19+ (require(esm) and the pinned tool versions need it).
command -v node >/dev/null || fail "Node.js is not installed (need 20.19 or newer)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "Node.js $(node -v) is too old (need 20.19 or newer)"

# 2. npm dependencies, exactly as locked. Puppeteer must never try to download a browser.
export PUPPETEER_SKIP_DOWNLOAD=true
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci (dependencies from package-lock.json)"
  quietly "npm ci" npm ci --no-audit --no-fund --loglevel=error
  done_step "npm dependencies installed"
fi
# lmdb-js's addon, built with optimization (its published binaries are debug builds).
bash scripts/setup/ensure-lmdb-release-build.sh

# 3. Java for openapi-generator (one JVM per `npm run generate`).
if ! command -v java >/dev/null 2>&1; then
  can_apt || fail "Java is missing; install a JRE 11+ (e.g. apt-get install default-jre-headless)"
  apt_install default-jre-headless
fi
bash scripts/setup/ensure-generator-jar.sh

# 4. oasdiff for the add-only gate (`npm run contract:diff`), built with the machine's Go.
bash scripts/setup/ensure-oasdiff.sh

# 5. The system Chromium, used by puppeteer-core: the headless shell (Debian package
#    `chromium-headless-shell`) renders by default (services/common/chromium/chromium-executable.ts);
#    the full browser (`chromium`) is what an operator may choose instead, and the tests of the
#    flags only it needs run against it.
if [ -n "${CHROMIUM_PATH:-}" ] && [ ! -x "$CHROMIUM_PATH" ]; then
  fail "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable"
fi
chromium_path="${CHROMIUM_PATH:-/usr/lib/chromium/chromium-headless-shell}"
missing_packages=()
[ -x "$chromium_path" ] || missing_packages+=(chromium-headless-shell)
[ -x /usr/bin/chromium ] || missing_packages+=(chromium)
if [ "${#missing_packages[@]}" -gt 0 ]; then
  can_apt || fail "Chromium is missing (${missing_packages[*]}); install it (apt-get install ${missing_packages[*]}) or set CHROMIUM_PATH"
  apt_install "${missing_packages[@]}"
fi
# 6. The fuzzer of `npm run fuzz` (schemathesis, pinned) in a virtual environment of our own.
bash scripts/setup/ensure-schemathesis.sh

done_step "toolchain ready (node $(node -v), $(java -version 2>&1 | head -n1), $("$chromium_path" --version 2>/dev/null | head -n1))"
