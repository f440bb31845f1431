#!/usr/bin/env bash
# Rewrites the golden files after a deliberate change of an output (not run by CI; the golden
# tests only ever compare). Runs the ctest entries labelled `golden` in BUILD_DIR, each of which
# keeps what it produced under BUILD_DIR/golden-actual/<path of its golden file>, then copies
# those over the golden files in the source tree and shows what changed: review it with
# `git diff` and say in the commit message why the output changed.
# usage: scripts/update-goldens.sh [BUILD_DIR]   (default: build; it must be configured)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
cmake --build "$build" -j"$(nproc)" >/dev/null
rm -rf "$build/golden-actual"
echo "== running the golden tests (failures are expected when an output changed)"
(cd "$build" && ctest -L golden -j"$(nproc)" >/dev/null) || true
if [ ! -d "$build/golden-actual" ]; then
  echo "update-goldens: no output was kept under '$build/golden-actual'" >&2
  exit 1
fi
n=0
while IFS= read -r -d '' f; do
  rel=${f#"$build/golden-actual/"}
  if [ ! -e "$src/$rel" ] || ! cmp -s "$f" "$src/$rel"; then
    mkdir -p "$(dirname "$src/$rel")"
    cp "$f" "$src/$rel"
    echo "updated $rel"
    n=$((n + 1))
  fi
done < <(find "$build/golden-actual" -type f -print0 | sort -z)
echo "update-goldens: $n file(s) rewritten"
echo "== rerunning the golden tests"
(cd "$build" && ctest -L golden -j"$(nproc)" --output-on-failure)
