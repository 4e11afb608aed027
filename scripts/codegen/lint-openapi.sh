#!/usr/bin/env bash
# `npm run lint:openapi`: the served contract documents (generated/<service>/openapi.json) through
# a peer linter, Spectral's recommended OpenAPI ruleset (.spectral.yaml). Fails on an error or a
# warning (the documents are clean; keep them so). A finding names the JSON path; the source is
# that path in openapi/<service>.yaml (or openapi/components.yaml for a shared component).
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "lint:openapi: spectral $(npx --no-install spectral --version) on generated/*/openapi.json (.spectral.yaml)"
npx --no-install spectral lint --ruleset .spectral.yaml --fail-severity warn --format text \
  generated/downloader/openapi.json generated/scheduler/openapi.json \
  generated/sampler/openapi.json
echo "lint:openapi: no errors, no warnings"
