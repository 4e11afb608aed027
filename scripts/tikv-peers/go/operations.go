package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/tikv/client-go/v2/rawkv"
)

// Keys start with letters on both sides of the double's region boundaries ("g" and "p"), so the
// batches, scans and range deletes below cross regions and stores.

const operationTimeout = 15 * time.Second

type operations struct {
	client  *rawkv.Client
	harness *harness
}

func withTimeout(timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), timeout)
}

func (o operations) put() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	key := []byte("a/put")
	for _, value := range []string{"first", "second"} {
		if err := o.client.Put(ctx, key, []byte(value)); err != nil {
			return err
		}
		if err := o.expectValue(ctx, key, value); err != nil {
			return err
		}
	}
	return nil
}

func (o operations) get() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	missing, err := o.client.Get(ctx, []byte("a/never-written"))
	if err != nil {
		return err
	}
	if missing != nil {
		return fmt.Errorf("a key never written read as %q, want nil", missing)
	}
	return o.expectValue(ctx, []byte("a/put"), "second")
}

var batchKeys = [][]byte{[]byte("e/batch"), []byte("m/batch"), []byte("w/batch")}

func (o operations) batchPut() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	if err := o.client.BatchPut(ctx, batchKeys, batchKeys); err != nil {
		return err
	}
	for _, key := range batchKeys {
		if err := o.expectValue(ctx, key, string(key)); err != nil {
			return err
		}
	}
	return nil
}

func (o operations) batchGet() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	keys := [][]byte{batchKeys[0], []byte("e/batch-missing"), batchKeys[1], batchKeys[2]}
	values, err := o.client.BatchGet(ctx, keys)
	if err != nil {
		return err
	}
	return expectValues(values, "e/batch", "", "m/batch", "w/batch")
}

func (o operations) batchDelete() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	if err := o.client.BatchDelete(ctx, [][]byte{batchKeys[0], batchKeys[2]}); err != nil {
		return err
	}
	values, err := o.client.BatchGet(ctx, batchKeys)
	if err != nil {
		return err
	}
	return expectValues(values, "", "m/batch", "")
}

func (o operations) scan() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	keys := numberedKeys(5, "f/scan/", "h/scan/")
	if err := o.client.BatchPut(ctx, keys, keys); err != nil {
		return err
	}
	// Limited, across the "g" boundary.
	found, values, err := o.client.Scan(ctx, []byte("f/scan/"), []byte("h/scan/~"), 7)
	if err != nil {
		return err
	}
	if err := expectKeys(found, keys[:7]); err != nil {
		return fmt.Errorf("scan with limit 7: %w", err)
	}
	if !bytes.Equal(values[6], keys[6]) {
		return fmt.Errorf("scan value of %q is %q", keys[6], values[6])
	}
	// Bounded by the end key (exclusive).
	found, _, err = o.client.Scan(ctx, []byte("f/scan/3"), []byte("h/scan/2"), 100)
	if err != nil {
		return err
	}
	return expectKeys(found, [][]byte{keys[3], keys[4], keys[5], keys[6]})
}

func (o operations) compareAndSwap() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	key := []byte("n/cas")
	steps := []struct {
		expected, next, previous string
		swapped                  bool
	}{
		{"", "v1", "", true},    // insert if absent
		{"", "v2", "v1", false}, // present: refused, current value returned
		{"v1", "v2", "v1", true},
		{"v1", "v3", "v2", false},
	}
	for index, step := range steps {
		var expected []byte
		if step.expected != "" {
			expected = []byte(step.expected)
		}
		previous, swapped, err := o.client.CompareAndSwap(ctx, key, expected, []byte(step.next))
		if err != nil {
			return err
		}
		if swapped != step.swapped || string(previous) != step.previous {
			return fmt.Errorf("step %d: swapped=%v previous=%q, want swapped=%v previous=%q",
				index+1, swapped, previous, step.swapped, step.previous)
		}
	}
	return o.expectValue(ctx, key, "v2")
}

func (o operations) ttl() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	expiring, forever := []byte("q/ttl"), []byte("q/forever")
	if err := o.client.PutWithTTL(ctx, expiring, []byte("soon gone"), 60); err != nil {
		return err
	}
	if err := o.client.Put(ctx, forever, []byte("stays")); err != nil {
		return err
	}
	left, err := o.client.GetKeyTTL(ctx, expiring)
	if err != nil {
		return err
	}
	if left == nil || *left < 1 || *left > 60 {
		return fmt.Errorf("GetKeyTTL = %v, want 1..60 seconds", left)
	}
	if err := o.expectValue(ctx, expiring, "soon gone"); err != nil {
		return err
	}
	if err := o.harness.control("advance-clock", "61"); err != nil {
		return err
	}
	if err := o.expectValue(ctx, expiring, ""); err != nil {
		return fmt.Errorf("after 61 s: %w", err)
	}
	return o.expectValue(ctx, forever, "stays")
}

func (o operations) deleteRange() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	keys := numberedKeys(3, "n/range/", "q/range/")
	if err := o.client.BatchPut(ctx, keys, keys); err != nil {
		return err
	}
	// Across the "p" boundary: two regions, two RawDeleteRange requests.
	if err := o.client.DeleteRange(ctx, []byte("n/range/1"), []byte("q/range/2")); err != nil {
		return err
	}
	found, _, err := o.client.Scan(ctx, []byte("n/range/"), []byte("q/range/~"), 100)
	if err != nil {
		return err
	}
	return expectKeys(found, [][]byte{keys[0], keys[5]})
}

// storeRecovery leaves one request to the store leading a key unanswered (a hung store, not a
// dead one). client-go gives up on it, asks the store's gRPC health service whether the store is
// still reachable, and sends it requests again only once the answer is SERVING.
func (o operations) storeRecovery() error {
	key := []byte("x/recovery")
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	if err := o.client.Put(ctx, key, []byte("kept")); err != nil {
		return err
	}
	if err := o.harness.control("hang-next-request-of", hex.EncodeToString(key)); err != nil {
		return err
	}
	hung, cancelHung := withTimeout(2 * time.Second)
	value, err := o.client.Get(hung, key)
	cancelHung()
	if err == nil {
		return fmt.Errorf("read %q although the store left the request unanswered", value)
	}
	started := time.Now()
	recovery, cancelRecovery := withTimeout(10 * time.Second)
	defer cancelRecovery()
	if err := o.expectValue(recovery, key, "kept"); err != nil {
		return fmt.Errorf("store not used again within 10 s: %w", err)
	}
	o.harness.noteResult("store used again after %s", time.Since(started).Round(10*time.Millisecond))
	return nil
}

// timestamps asks PD for timestamps through client-go's PD client (rawkv itself needs none, but
// the PD client opens the Tso stream at start): each must be greater than the one before.
func (o operations) timestamps() error {
	ctx, cancel := withTimeout(operationTimeout)
	defer cancel()
	var previous int64
	for i := 0; i < 3; i++ {
		physical, logical, err := o.client.GetPDClient().GetTS(ctx)
		if err != nil {
			return err
		}
		composed := physical<<18 + logical
		if composed <= previous {
			return fmt.Errorf("timestamp %d is not after %d", composed, previous)
		}
		previous = composed
	}
	return nil
}

// numberedKeys returns prefix+"0" … prefix+(count-1) for each prefix, in order.
func numberedKeys(count int, prefixes ...string) [][]byte {
	var keys [][]byte
	for _, prefix := range prefixes {
		for i := 0; i < count; i++ {
			keys = append(keys, []byte(fmt.Sprintf("%s%d", prefix, i)))
		}
	}
	return keys
}

// expectValue reads key and compares; want "" means "absent".
func (o operations) expectValue(ctx context.Context, key []byte, want string) error {
	got, err := o.client.Get(ctx, key)
	if err != nil {
		return fmt.Errorf("get %q: %w", key, err)
	}
	if want == "" && got != nil {
		return fmt.Errorf("get %q = %q, want absent", key, got)
	}
	if want != "" && string(got) != want {
		return fmt.Errorf("get %q = %q, want %q", key, got, want)
	}
	return nil
}

// expectValues compares batch results; "" means "absent" (nil).
func expectValues(got [][]byte, want ...string) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d values, want %d", len(got), len(want))
	}
	for i := range want {
		if (want[i] == "" && got[i] != nil) || (want[i] != "" && string(got[i]) != want[i]) {
			return fmt.Errorf("values %s, want %q", quoteAll(got), want)
		}
	}
	return nil
}

func expectKeys(got, want [][]byte) error {
	if len(got) != len(want) {
		return fmt.Errorf("keys %s, want %s", quoteAll(got), quoteAll(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			return fmt.Errorf("keys %s, want %s", quoteAll(got), quoteAll(want))
		}
	}
	return nil
}

func quoteAll(values [][]byte) string {
	quoted := make([]string, len(values))
	for i, value := range values {
		if value == nil {
			quoted[i] = "nil"
		} else {
			quoted[i] = fmt.Sprintf("%q", value)
		}
	}
	return "[" + strings.Join(quoted, " ") + "]"
}
