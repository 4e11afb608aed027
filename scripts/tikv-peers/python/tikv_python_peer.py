"""The PyPI package tikv-python (a pure-Python client over grpcio) against the test double.

The client runs in atomic mode, as compare-and-swap requires (and as the project's own client
does). It refuses delete_range in that mode — TiKV has no atomic delete range — so delete_range
runs through a second, plain client on keys no compare-and-swap touches.
"""

from __future__ import annotations

import sys

import tikv
from peer_harness import BATCH_KEYS, RANGE_KEYS, SCAN_KEYS, Harness, expect_equal, pd_endpoints

TIMEOUT_SECONDS = 15.0


def run(atomic: tikv.RawClient, plain: tikv.RawClient, harness: Harness) -> None:
    def put() -> None:
        for value in (b"first", b"second"):
            atomic.put(b"a/put", value)
            expect_equal("get after put", atomic.get(b"a/put"), value)

    def get() -> None:
        expect_equal("a key never written", atomic.get(b"a/never-written"), None)
        expect_equal("a/put", atomic.get(b"a/put"), b"second")

    def batch_put() -> None:
        atomic.put_many({key: key for key in BATCH_KEYS})
        for key in BATCH_KEYS:
            expect_equal(repr(key), atomic.get(key), key)

    def batch_get() -> None:
        found = atomic.get_many([BATCH_KEYS[0], b"e/batch-missing", *BATCH_KEYS[1:]])
        expect_equal("get_many", found, {key: key for key in BATCH_KEYS})

    def batch_delete() -> None:
        atomic.delete_many([BATCH_KEYS[0], BATCH_KEYS[2]])
        expect_equal("after delete_many", atomic.get_many(BATCH_KEYS), {b"m/batch": b"m/batch"})

    def scan() -> None:
        atomic.put_many({key: key for key in SCAN_KEYS})
        limited = list(atomic.scan(b"f/scan/", b"h/scan/~", limit=7))
        expect_equal("scan with limit 7", limited, [(key, key) for key in SCAN_KEYS[:7]])
        bounded = list(atomic.scan_keys(b"f/scan/3", b"h/scan/2"))
        expect_equal("scan to an exclusive end", bounded, SCAN_KEYS[3:7])

    def cas() -> None:
        steps = [
            (None, b"v1", True, None),  # insert if absent
            (None, b"v2", False, b"v1"),  # present: refused, current value returned
            (b"v1", b"v2", True, b"v1"),
            (b"v1", b"v3", False, b"v2"),
        ]
        for number, (expected, new, swapped, previous) in enumerate(steps, start=1):
            outcome = atomic.compare_and_swap(b"n/cas", expected, new)
            expect_equal(f"step {number}", (outcome.swapped, outcome.previous), (swapped, previous))
        expect_equal("n/cas", atomic.get(b"n/cas"), b"v2")

    def ttl() -> None:
        atomic.put(b"q/ttl", b"soon gone", ttl=60)
        atomic.put(b"q/forever", b"stays")
        left = atomic.ttl(b"q/ttl")
        if left is None or not 1 <= left <= 60:
            raise AssertionError(f"ttl() = {left!r}, want 1..60 seconds")
        expect_equal("q/forever ttl", atomic.ttl(b"q/forever"), None)
        harness.control("advance-clock", "61")
        expect_equal("q/ttl after 61 s", atomic.get(b"q/ttl"), None)
        expect_equal("q/forever after 61 s", atomic.get(b"q/forever"), b"stays")

    def delete_range() -> None:
        try:
            atomic.delete_range(b"n/range/1", b"q/range/2")
        except tikv.TiKVError:
            pass  # expected: the atomic client refuses, the plain one below does the work
        else:
            raise AssertionError("the atomic client ran delete_range; it should refuse")
        plain.put_many({key: key for key in RANGE_KEYS})
        plain.delete_range(b"n/range/1", b"q/range/2")
        left = list(plain.scan_keys(b"n/range/", b"q/range/~"))
        expect_equal("after delete_range", left, [RANGE_KEYS[0], RANGE_KEYS[5]])

    harness.run_all(
        [
            ("put", put),
            ("get", get),
            ("batch_put", batch_put),
            ("batch_get", batch_get),
            ("batch_delete", batch_delete),
            ("scan", scan),
            ("cas", cas),
            ("ttl", ttl),
            ("delete_range", delete_range),
        ]
    )


def main() -> int:
    harness = Harness()
    endpoints = pd_endpoints(sys.argv[1:])
    try:
        atomic = tikv.RawClient(endpoints, atomic=True, timeout=TIMEOUT_SECONDS)
        plain = tikv.RawClient(endpoints, timeout=TIMEOUT_SECONDS)
    except Exception as error:
        harness.report("connect", error)
        return 1
    with atomic, plain:
        run(atomic, plain, harness)
    return 1 if harness.failed else 0


if __name__ == "__main__":
    sys.exit(main())
