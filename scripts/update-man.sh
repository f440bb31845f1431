#!/usr/bin/env bash
# Rewrites the generated part of docs/vmsuite.1, its OPTIONS section, from the option tables of
# the built binary (`vmsuite help --roff`), between the two marker lines it keeps. Not run by CI
# (ctest cli_man_page only compares); run it after adding or changing an option, and review the
# diff.
# usage: scripts/update-man.sh [BUILD_DIR]   (default: build; it must be built)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
man=$src/docs/vmsuite.1
begin='.\" BEGIN generated options: scripts/update-man.sh writes them from the option tables'
end='.\" END generated options'
grep -qxF "$begin" "$man" && grep -qxF "$end" "$man" || {
  echo "update-man: '$man' lacks the marker lines" >&2
  exit 1
}
new=$(mktemp)
trap 'rm -f "$new"' EXIT
"$build/cli/vmsuite" help --roff >"$new.opts"
# (the markers through the environment: awk -v would read their backslashes as escapes)
BEGIN_MARK=$begin END_MARK=$end OPTS=$new.opts awk '
  $0 == ENVIRON["BEGIN_MARK"] { print; while ((getline l < ENVIRON["OPTS"]) > 0) print l; skip = 1; next }
  $0 == ENVIRON["END_MARK"] { skip = 0 }
  !skip { print }' "$man" >"$new"
rm -f "$new.opts"
if cmp -s "$new" "$man"; then
  echo "update-man: docs/vmsuite.1 is up to date"
else
  cat "$new" >"$man"
  echo "update-man: docs/vmsuite.1 rewritten"
fi
