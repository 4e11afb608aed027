"""The PyPI package tikv-client (a binding over tikv/client-rust) against the test double.

Its Python API has no compare-and-swap and no TTL, so this peer runs put, get, batches, scan and
delete_range. It must leave with os._exit: the binding's Tokio runtime crashes on the GIL when
the interpreter shuts down normally.
"""

from __future__ import annotations

import os
import sys

from peer_harness import BATCH_KEYS, RANGE_KEYS, SCAN_KEYS, Harness, expect_equal, pd_endpoints
from tikv_client import RawClient


def run(client: RawClient, harness: Harness) -> None:
    def put() -> None:
        for value in (b"first", b"second"):
            client.put(b"a/put", value)
            expect_equal("get after put", client.get(b"a/put"), value)

    def get() -> None:
        expect_equal("a key never written", client.get(b"a/never-written"), None)
        expect_equal("a/put", client.get(b"a/put"), b"second")

    def batch_put() -> None:
        client.batch_put({key: key for key in BATCH_KEYS})
        for key in BATCH_KEYS:
            expect_equal(repr(key), client.get(key), key)

    def batch_get() -> None:
        # Pairs of the keys that exist; client-rust returns them grouped by region, not in order.
        found = dict(client.batch_get([BATCH_KEYS[0], b"e/batch-missing", *BATCH_KEYS[1:]]))
        expect_equal("batch_get", found, {key: key for key in BATCH_KEYS})

    def batch_delete() -> None:
        client.batch_delete([BATCH_KEYS[0], BATCH_KEYS[2]])
        left = dict(client.batch_get(BATCH_KEYS))
        expect_equal("after batch_delete", left, {b"m/batch": b"m/batch"})

    def scan() -> None:
        client.batch_put({key: key for key in SCAN_KEYS})
        limited = client.scan(b"f/scan/", b"h/scan/~", 7)
        expect_equal("scan with limit 7", limited, [(key, key) for key in SCAN_KEYS[:7]])
        bounded = client.scan_keys(b"f/scan/3", b"h/scan/2", 100)
        expect_equal("scan to an exclusive end", bounded, SCAN_KEYS[3:7])

    def delete_range() -> None:
        client.batch_put({key: key for key in RANGE_KEYS})
        client.delete_range(b"n/range/1", b"q/range/2")
        left = client.scan_keys(b"n/range/", b"q/range/~", 100)
        expect_equal("after delete_range", left, [RANGE_KEYS[0], RANGE_KEYS[5]])

    harness.run_all(
        [
            ("put", put),
            ("get", get),
            ("batch_put", batch_put),
            ("batch_get", batch_get),
            ("batch_delete", batch_delete),
            ("scan", scan),
            ("delete_range", delete_range),
        ]
    )


def main() -> int:
    harness = Harness()
    try:
        client = RawClient.connect(pd_endpoints(sys.argv[1:]))
    except Exception as error:
        harness.report("connect", error)
        return 1
    run(client, harness)
    return 1 if harness.failed else 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
