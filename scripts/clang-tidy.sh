#!/usr/bin/env bash
# Runs clang-tidy (the repository's .clang-tidy) over the sources the build compiles, read
# from BUILD_DIR/compile_commands.json, and fails on any finding. With DIRs, only the files
# under those top-level directories (ctest runs one entry per layer so they run in parallel).
# usage: scripts/clang-tidy.sh BUILD_DIR [DIR...]   (CLANG_TIDY names the binary)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/clang-tidy.sh BUILD_DIR [DIR...]}
shift
tidy=${CLANG_TIDY:-$(command -v clang-tidy-14 || command -v clang-tidy)}
mapfile -t files < <(python3 - "$build/compile_commands.json" "$src" "$@" <<'PY'
import json, os, sys
db, src, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
seen = set()
for e in json.load(open(db)):
    f = os.path.relpath(os.path.join(e["directory"], e["file"]), src)
    if f.startswith("..") or f in seen:
        continue
    if dirs and f.split(os.sep)[0] not in dirs:
        continue
    seen.add(f)
    print(os.path.join(src, f))
PY
)
if [ "${#files[@]}" -eq 0 ]; then
  echo "clang-tidy.sh: no compiled files under: $*" >&2
  exit 1
fi
echo "clang-tidy: ${#files[@]} files"
"$tidy" -p "$build" --quiet --warnings-as-errors='*' "${files[@]}"
