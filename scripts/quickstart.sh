#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the main job on the
# embedded defaults (a shortened 2001 plan that finishes in a few minutes on 2 cores).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$top/build" -j"$(nproc)"
cd "$top"
exec "$top/build/cli/vmsuite" run \
  -w mmap001:bytes=512M -w mtest01:bytes=256M:write=1 -w mmap002:bytes=128M -n 3 "$@"
