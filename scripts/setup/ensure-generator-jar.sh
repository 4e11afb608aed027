#!/usr/bin/env bash
# Makes sure the openapi-generator jar pinned in openapitools.json is at
# <storageDir>/<version>.jar (outside node_modules, so `npm ci` never wipes it). First the npm
# wrapper's own download; when that cannot reach its source, the same artifact through Maven.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=$(node -p "require('./openapitools.json')['generator-cli'].version")
storage_dir=$(node -p "require('./openapitools.json')['generator-cli'].storageDir || './.tools/openapi-generator'")
jar="$storage_dir/$version.jar"
[ -s "$jar" ] && exit 0

echo "[setup] fetching openapi-generator-cli $version into $storage_dir"
mkdir -p "$storage_dir"
if npx --no-install openapi-generator-cli version >/dev/null 2>&1 && [ -s "$jar" ]; then
  exit 0
fi

echo "[setup] the npm wrapper could not download it; trying Maven (org.openapitools:openapi-generator-cli:$version)"
command -v mvn >/dev/null 2>&1 || { echo "[setup] Maven (mvn) is missing: install it or download the jar to $jar" >&2; exit 1; }
mvn -q dependency:copy \
  -Dartifact="org.openapitools:openapi-generator-cli:$version" \
  -DoutputDirectory="$storage_dir" -Dmdep.stripVersion=false
# Maven names it openapi-generator-cli-<version>.jar; the wrapper and our scripts expect <version>.jar.
mv "$storage_dir/openapi-generator-cli-$version.jar" "$jar"
[ -s "$jar" ] || { echo "[setup] $jar is still missing" >&2; exit 1; }
echo "[setup] openapi-generator $version ready at $jar"
