#!/usr/bin/env bash
# Regenerates Sources/Protocol/Generated from proto/, or with --check says whether the committed
# code is what proto/ gives (CI runs the check: a .proto edited without regenerating fails).
# Needs protoc (Debian: protobuf-compiler); protoc-gen-swift is built from the swift-protobuf
# that Package.resolved pins, so the generated code always matches the library it runs against.
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
[ "${1:-}" = "--check" ] && check=true
command -v protoc >/dev/null || { echo "protoc missing: apt-get install protobuf-compiler" >&2; exit 1; }
plugin=${PROTOC_GEN_SWIFT:-}
if [ -z "$plugin" ]; then
  # Its own build directory: building this one product in .build made SwiftPM compile
  # SwiftProtobuf again there, and the next `swift build` once more (half a minute each in CI).
  scratch=.build/protoc-gen-swift
  # shellcheck disable=SC2086  # the flags are words
  swift build --scratch-path "$scratch" --product protoc-gen-swift ${ROSTER_BUILD_FLAGS:-} >/dev/null
  plugin="$(swift build --scratch-path "$scratch" --show-bin-path ${ROSTER_BUILD_FLAGS:-})/protoc-gen-swift"
fi
out=Sources/Protocol/Generated
if $check; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
protoc --plugin=protoc-gen-swift="$plugin" \
  --swift_opt=Visibility=Public --swift_opt=FileNaming=PathToUnderscores \
  --swift_out="$out" -I proto proto/roster/v1/roster.proto
if $check; then
  if ! diff -ru Sources/Protocol/Generated "$out" >&2; then
    echo "Sources/Protocol/Generated is stale: run scripts/generate-protobuf.sh and commit the result" >&2
    exit 1
  fi
  echo "generated protobuf code is current"
else
  echo "generated: $(ls "$out")"
fi
