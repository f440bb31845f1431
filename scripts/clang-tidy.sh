#!/usr/bin/env bash
# Runs clang-tidy (the repository's .clang-tidy) over the sources the build compiles, read
# from BUILD_DIR/compile_commands.json, and fails on any finding. With DIRs, only the files
# under those top-level directories (ctest runs one entry per layer so they run in parallel);
# with --except DIRs, the files under no such directory (the build tree's own left out), so
# that a new top-level directory is not left out of the layers unseen.
# usage: scripts/clang-tidy.sh BUILD_DIR [[--except] DIR...]   (CLANG_TIDY names the binary)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/clang-tidy.sh BUILD_DIR [[--except] DIR...]}
shift
tidy=${CLANG_TIDY:-$(command -v clang-tidy-14 || command -v clang-tidy)}
mapfile -t files < <(python3 - "$build/compile_commands.json" "$src" "$@" <<'PY'
import json, os, sys
db, src, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
build = os.path.relpath(os.path.dirname(os.path.abspath(db)), src)
others = dirs[:1] == ["--except"]
if others:
    dirs = dirs[1:]
seen = set()
for e in json.load(open(db)):
    f = os.path.relpath(os.path.join(e["directory"], e["file"]), src)
    if f.startswith("..") or f in seen:
        continue
    if not build.startswith("..") and (f + os.sep).startswith(build + os.sep):
        continue
    if dirs and (f.split(os.sep)[0] in dirs) == others:
        continue
    seen.add(f)
    print(os.path.join(src, f))
PY
)
if [ "${#files[@]}" -eq 0 ]; then
  if [ "${1:-}" = --except ]; then
    echo "clang-tidy: every compiled file is in a layer"
    exit 0
  fi
  echo "clang-tidy.sh: no compiled files under: $*" >&2
  exit 1
fi
echo "clang-tidy: ${#files[@]} files"
"$tidy" -p "$build" --quiet --warnings-as-errors='*' "${files[@]}"
