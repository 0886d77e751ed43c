#!/usr/bin/env bash
# Builds FerretDB v1.24.2 (a MongoDB-wire server over SQLite/PostgreSQL) into $HOME/go/bin/ferretdb,
# unless a working binary of that version is already there. Idempotent; prints the version.
#
# Why not `go install …/cmd/ferretdb@v1.24.2`: that binary panics at start ("Invalid
# build/version/version.txt") because the module zip has no version file. So: copy the module
# source out of the Go module cache, write the version file, and build from the copy.
set -euo pipefail

VERSION="v1.24.2"
BIN_DIR="${FERRETDB_BIN_DIR:-$HOME/go/bin}"
BIN="$BIN_DIR/ferretdb"

# Output is captured, never piped into `grep -q`/`head`: under pipefail the early exit of the
# reader kills the writer with SIGPIPE and the script dies with 141.
version_line() {
  local out
  out="$("$BIN" --version --state-dir="${TMPDIR:-/tmp}" 2>/dev/null || true)"
  printf '%s\n' "${out%%$'\n'*}"
}

works() {
  [ -x "$BIN" ] && [ "$(version_line)" = "version: $VERSION" ]
}

if ! works; then
  command -v go >/dev/null 2>&1 || { echo "install-ferretdb: Go is required" >&2; exit 1; }
  echo "== building FerretDB $VERSION into $BIN"
  dir="$(go mod download -json "github.com/FerretDB/FerretDB@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [ -n "$dir" ] && [ -d "$dir" ] || { echo "install-ferretdb: module download failed" >&2; exit 1; }
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  cp -r "$dir" "$work/src"
  chmod -R u+w "$work/src"
  echo "$VERSION" > "$work/src/build/version/version.txt"
  mkdir -p "$BIN_DIR"
  (cd "$work/src" && go build -o "$work/ferretdb" ./cmd/ferretdb)
  mv -f "$work/ferretdb" "$BIN"
  works || { echo "install-ferretdb: the built binary does not report $VERSION" >&2; exit 1; }
fi
version_line
