#!/usr/bin/env bash
# Regenerates Sources/Protocol/Generated from proto/. Needs protoc (Debian: protobuf-compiler) and
# protoc-gen-swift built from the swift-protobuf version Package.swift pins. CI does not run this:
# the generated Swift is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.39.0
plugin=${PROTOC_GEN_SWIFT:-}
if [ -z "$plugin" ]; then
  work=.build/protoc-gen-swift
  if [ ! -x "$work/.build/release/protoc-gen-swift" ]; then
    command -v protoc >/dev/null || { echo "protoc missing: apt-get install protobuf-compiler" >&2; exit 1; }
    rm -rf "$work"
    git clone -q --depth 1 --branch "$version" https://github.com/apple/swift-protobuf.git "$work"
    (cd "$work" && swift build -c release --product protoc-gen-swift)
  fi
  plugin="$work/.build/release/protoc-gen-swift"
fi
protoc --plugin=protoc-gen-swift="$plugin" \
  --swift_opt=Visibility=Public --swift_opt=FileNaming=PathToUnderscores \
  --swift_out=Sources/Protocol/Generated -I proto proto/roster/v1/roster.proto
echo "generated: $(ls Sources/Protocol/Generated)"
