# The two commands of the README: `make run` and `make test`. Everything else is a building block.
.PHONY: setup run test check generate typecheck format build clean

setup:
	@bash scripts/setup/ensure-toolchain.sh

## make run — install what is missing, build, start the system (see README).
run: setup build
	@node dist/scripts/run-system.js

## make test — everything CI runs: contract freshness, the naming gate, the add-only gate against
## the frozen contract, the peer linter (Spectral) on the served documents, types, format, the
## generated Go client, all tests, the scheduler's service suites again with url_task in the keyspace
## (SCHEDULER_RESIDENT_URL_TASKS=off; by default the embedded store holds it in memory), the
## official TiKV clients against the TiKV test double, and the short forms of the fuzzer and the
## kill/outage drill (each about a minute, run after jest so their timing-judged targets are not
## measured on a machine busy with the suite).
test: setup
	npm run -s generate:check
	npm run -s check
	npm run -s contract:diff
	npm run -s lint:openapi
	npm run -s typecheck
	npm run -s format:check
	npm run -s test:go-client
	npm run -s test:jest
	npm run -s test:keyspace-frontier
	npm run -s test:tikv-peers
	npm run -s fuzz -- --quick
	npm run -s drill -- --quick

check:
	npm run -s check

generate: setup
	npm run -s generate

typecheck:
	npm run -s typecheck

format:
	npx prettier --write .

build: setup
	npm run -s build

clean:
	rm -rf dist
