#!/usr/bin/env bash
# `npm run test:go-client`: builds, vets and tests the generated Go client module (generated/go),
# whose tests decode every example of the served contract documents into the generated types and
# encode them again without losing a field. The module needs nothing beyond Go's standard library,
# so nothing is downloaded; Go's build cache makes a second run take seconds.
set -euo pipefail
cd "$(dirname "$0")/../../generated/go"
export GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false"
command -v go >/dev/null 2>&1 || { echo "test:go-client: Go is not installed" >&2; exit 1; }
started=$SECONDS
echo "test:go-client: go build ./... ($(go env GOVERSION))"
go build ./...
echo "test:go-client: go vet ./..."
go vet ./...
echo "test:go-client: go test ./..."
go test -count=1 ./...
echo "test:go-client: done in $((SECONDS - started)) s"
