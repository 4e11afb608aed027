"""The runner's line protocol (scripts/tikv-peers/peer-protocol.ts), for the Python peers.

Lines starting with "@" on stdout are for the runner: "@begin <op>" and "@control <command> ..."
wait for "ok" (or "error <reason>") on stdin; "@pass <op> [note]" and "@fail <op> <detail>" report.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence


class RunnerRefused(Exception):
    """The runner answered a request with an error, or went away."""


class Harness:
    def __init__(self) -> None:
        self.failed = False

    def run(self, operation: str, body: Callable[[], None]) -> None:
        """Announces an operation, runs it and reports PASS, or FAIL with the exception."""
        try:
            self._request(f"@begin {operation}")
            body()
        except Exception as error:  # every failure of an operation is reported, none escapes
            self.report(operation, error)
            return
        self.report(operation, None)

    def run_all(self, operations: list[tuple[str, Callable[[], None]]]) -> None:
        """Runs the operations in order; a failed one does not stop the next."""
        for name, body in operations:
            self.run(name, body)

    def control(self, command: str, *args: str) -> None:
        """Asks the runner to act on the double (advance its clock, hang a store)."""
        self._request(" ".join(("@control", command, *args)))

    def _request(self, line: str) -> None:
        print(line, flush=True)
        answer = sys.stdin.readline()
        if answer == "":
            raise RunnerRefused(f"the runner closed stdin while waiting for an answer to {line!r}")
        answer = answer.strip()
        if answer != "ok":
            raise RunnerRefused(f"runner refused {line!r}: {answer.removeprefix('error ')}")

    def report(self, operation: str, error: Exception | None) -> None:
        if error is None:
            print(f"@pass {operation}", flush=True)
            return
        self.failed = True
        detail = f"{type(error).__name__}: {error}".replace("\n", " | ")
        print(f"@fail {operation} {detail}", flush=True)


def expect_equal(what: str, got: object, want: object) -> None:
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")


def pd_endpoints(argv: Sequence[str]) -> list[str]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pd", required=True, help="comma-separated PD endpoints (host:port)")
    return parser.parse_args(argv).pd.split(",")


# Keys start with letters on both sides of the double's region boundaries ("g" and "p"), so the
# batches, scans and range deletes cross regions and stores; they are the Go peer's keys.
BATCH_KEYS = [b"e/batch", b"m/batch", b"w/batch"]
SCAN_KEYS = [b"f/scan/%d" % i for i in range(5)] + [b"h/scan/%d" % i for i in range(5)]
RANGE_KEYS = [b"n/range/%d" % i for i in range(3)] + [b"q/range/%d" % i for i in range(3)]
