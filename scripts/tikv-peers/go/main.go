// Command tikv-peer-go runs one fixed sequence of raw-KV operations through the official Go
// client, github.com/tikv/client-go/v2 (rawkv), against the PD endpoints it is given, and reports
// each operation to the runner (npm run test:tikv-peers). It exists to prove that the project's
// TiKV test double speaks TiKV's protocol the way a real cluster does for this client.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pingcap/log"
	"github.com/tikv/client-go/v2/config"
	"github.com/tikv/client-go/v2/rawkv"
	"go.uber.org/zap/zapcore"
)

func main() {
	pdEndpoints := flag.String("pd", "", "comma-separated PD endpoints (host:port)")
	flag.Parse()
	if *pdEndpoints == "" {
		fmt.Fprintln(os.Stderr, "usage: tikv-peer-go -pd host:port[,host:port]")
		os.Exit(2)
	}
	// Info level: the health-check and reconnect lines that explain a failure are info lines.
	// They go to stderr, which the runner keeps in the peer's log file.
	log.SetLevel(zapcore.InfoLevel)

	h := newHarness()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	client, err := rawkv.NewClient(ctx, strings.Split(*pdEndpoints, ","), config.DefaultConfig().Security)
	cancel()
	if err != nil {
		h.report("connect", err)
		os.Exit(1)
	}
	// Atomic mode: writes carry for_cas, as CompareAndSwap requires (and as the project's client does).
	client.SetAtomicForCAS(true)

	ops := operations{client: client, harness: h}
	h.run("put", ops.put)
	h.run("get", ops.get)
	h.run("batch_put", ops.batchPut)
	h.run("batch_get", ops.batchGet)
	h.run("batch_delete", ops.batchDelete)
	h.run("scan", ops.scan)
	h.run("cas", ops.compareAndSwap)
	h.run("ttl", ops.ttl)
	h.run("delete_range", ops.deleteRange)
	h.run("tso", ops.timestamps)
	h.run("store_recovery", ops.storeRecovery)

	if err := client.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close:", err)
	}
	if h.failed {
		os.Exit(1)
	}
}
