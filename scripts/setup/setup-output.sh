# Shared by the setup scripts: one look for every step, quiet tools, the log shown only on failure,
# and Debian packages installed one way.
# shellcheck shell=bash

step() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
done_step() { printf '\033[1m[setup]\033[0m \033[32m%s\033[0m\n' "$*"; }
fail() { printf '\033[31m[setup] %s\033[0m\n' "$*" >&2; exit 1; }

# quietly <description> <command…>: runs the command with its output in a temporary log; on failure
# prints the log's tail and stops. Tools such as apt and mvn print pages of noise on success
# ("debconf: delaying package configuration…") that would hide the lines that matter.
quietly() {
  local description=$1; shift
  local log; log=$(mktemp)
  if "$@" >"$log" 2>&1; then
    rm -f "$log"
  else
    local status=$?
    printf '\033[31m[setup] %s failed (exit %s); its last lines:\033[0m\n' "$description" "$status" >&2
    tail -n 30 "$log" | sed 's/^/    /' >&2
    rm -f "$log"
    exit "$status"
  fi
}

# can_apt: whether this process may install Debian packages (root, with apt-get).
can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

# apt_install <package…>: installs them quietly; when the first try fails (stale package lists on
# a fresh machine), refreshes the lists once and tries again.
apt_get_install() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"; }
}
apt_install() {
  step "installing Debian packages: $*"
  quietly "apt-get install $*" apt_get_install "$@"
  done_step "installed $*"
}
