#!/usr/bin/env bash
# Makes sure the openapi-generator jar pinned in openapitools.json is at
# <storageDir>/<version>.jar (outside node_modules, so `npm ci` never wipes it). First the npm
# wrapper's own download; when that cannot reach its source, the same artifact through Maven.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/setup/setup-output.sh
source scripts/setup/setup-output.sh

version=$(node -p "require('./openapitools.json')['generator-cli'].version")
storage_dir=$(node -p "require('./openapitools.json')['generator-cli'].storageDir || './.tools/openapi-generator'")
jar="$storage_dir/$version.jar"
[ -s "$jar" ] && exit 0

step "fetching openapi-generator-cli $version into $storage_dir"
mkdir -p "$storage_dir"
if npx --no-install openapi-generator-cli version >/dev/null 2>&1 && [ -s "$jar" ]; then
  done_step "openapi-generator $version ready at $jar (npm wrapper)"
  exit 0
fi

step "the npm wrapper could not download it; fetching org.openapitools:openapi-generator-cli:$version with Maven"
command -v mvn >/dev/null 2>&1 || fail "Maven (mvn) is missing: install it or download the jar to $jar"
quietly "mvn dependency:copy" mvn -q dependency:copy \
  -Dartifact="org.openapitools:openapi-generator-cli:$version" \
  -DoutputDirectory="$storage_dir" -Dmdep.stripVersion=false
# Maven names it openapi-generator-cli-<version>.jar; the wrapper and our scripts expect <version>.jar.
mv "$storage_dir/openapi-generator-cli-$version.jar" "$jar"
[ -s "$jar" ] || fail "$jar is still missing"
done_step "openapi-generator $version ready at $jar (Maven)"
