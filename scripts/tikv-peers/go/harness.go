package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// harness speaks the runner's line protocol (scripts/tikv-peers/peer-protocol.ts): lines starting
// with "@" on stdout are for the runner, which answers "@begin" and "@control" on stdin with "ok"
// or "error <reason>"; "@pass <op> [note]" and "@fail <op> <detail>" report. Everything else a
// client library prints goes to stderr.
type harness struct {
	answers *bufio.Scanner
	failed  bool
	note    string
}

func newHarness() *harness {
	return &harness{answers: bufio.NewScanner(os.Stdin)}
}

// run announces an operation, runs it and reports PASS or FAIL; a panic counts as FAIL.
func (h *harness) run(operation string, body func() error) {
	if err := h.request("@begin " + operation); err != nil {
		h.report(operation, err)
		return
	}
	h.report(operation, protect(body))
}

// control asks the runner to act on the double (advance its clock, hang a store).
func (h *harness) control(command string, args ...string) error {
	return h.request("@control " + strings.Join(append([]string{command}, args...), " "))
}

func (h *harness) request(line string) error {
	fmt.Println(line)
	if !h.answers.Scan() {
		return fmt.Errorf("the runner closed stdin while waiting for an answer to %q", line)
	}
	answer := h.answers.Text()
	if answer == "ok" {
		return nil
	}
	return fmt.Errorf("runner refused %q: %s", line, strings.TrimPrefix(answer, "error "))
}

// noteResult attaches a short remark (a measured time) to the next PASS line.
func (h *harness) noteResult(format string, args ...any) {
	h.note = fmt.Sprintf(format, args...)
}

func (h *harness) report(operation string, err error) {
	note := h.note
	h.note = ""
	if err == nil {
		fmt.Printf("@pass %s %s\n", operation, note)
		return
	}
	h.failed = true
	// One line per result: the runner reads line by line.
	detail := strings.ReplaceAll(err.Error(), "\n", " | ")
	fmt.Printf("@fail %s %s\n", operation, detail)
}

func protect(body func() error) (err error) {
	defer func() {
		if recovered := recover(); recovered != nil {
			err = fmt.Errorf("panic: %v", recovered)
		}
	}()
	return body()
}
