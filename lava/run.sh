#!/bin/sh
# The vmsuite LAVA test (lava/vmsuite.yaml): installs what the build needs and builds vmsuite
# (unless -s true), runs it, and writes into ./output/:
#   result.json   the result file (`vmsuite run -o`)
#   report.txt    the text report (also printed, so it is in the job's log)
#   compare.json  with a baseline: `vmsuite compare BASELINE result.json --format json`
#   result.txt    Linaro result.txt lines, `vmsuite report --format lava` (send-results.sh,
#                 or test-definitions' send-to-lava.sh, turns them into LAVA test cases)
#   kcidb.json    the same results as a KCIDB v5.3 document, `vmsuite report --format kcidb`
# and copies them to the artefacts directory (-d, else /mnt/tuxrun when it exists).
# POSIX sh (dash, busybox ash): no bash needed on the device. Uses Linaro test-definitions'
# sh-test-lib when it is found beside this script (as in automated/linux/vmsuite/), else a
# small fallback of the same helpers. A plain script too: it needs neither LAVA nor tuxrun.
#
# usage: run.sh [-w "SPEC..."] [-n RUNS] [-a BOOL] [-f MP3] [-m PROFILE] [-l LABEL]
#               [-b BASELINE] [-e "RUN OPTIONS"] [-s BOOL] [-v VMSUITE] [-k ORIGIN]
#               [-c COMMIT] [-u GIT_URL] [-t TREE] [-r BRANCH] [-d DIR]
# -k, -c, -u, -t and -r are kcidb.json's --origin, --git-commit, --git-url, --tree and
# --branch; a value `vmsuite report` refuses leaves kcidb.json out and fails a vmsuite-kcidb
# case.
# Empty values mean the default, so LAVA's params can be passed as they are. BOOL is true,
# True, 1, yes or on, or false, False, 0, no, off (LAVA writes a job's `true` as `True`).
# -e is split into words like a shell does (quotes group, nothing is expanded or run).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

# --- helpers: test-definitions' sh-test-lib when present, else our own -----------------------
lib=""
for f in "$here/sh-test-lib" "$here/../lib/sh-test-lib" "$here/../../lib/sh-test-lib"; do
  if [ -r "$f" ]; then
    lib=$f
    break
  fi
done
if [ -n "$lib" ]; then
  # shellcheck disable=SC1090
  . "$lib"
else
  info_msg() { echo "INFO: $*"; }
  warn_msg() { echo "WARNING: $*" >&2; }
  error_msg() {
    echo "ERROR: $*" >&2
    exit 1
  }
  check_root() { [ "$(id -u)" -eq 0 ]; }
  # dist_name: sets $dist to the distribution's ID from os-release (debian, ubuntu, ...)
  dist_name() {
    dist=unknown
    for f in /etc/os-release /usr/lib/os-release; do
      if [ -r "$f" ]; then
        dist=$(sed -n 's/^ID=//p' "$f" | tr -d '"' | tr '[:upper:]' '[:lower:]')
        break
      fi
    done
  }
  # install_deps "PKG..." [SKIP]: installs the packages that are missing (apt only);
  # refreshes the package lists only when an install from the current ones fails
  install_deps() {
    [ "${2:-false}" = true ] || [ "${2:-false}" = True ] && return 0
    dist_name
    case "$dist" in
      debian | ubuntu | raspbian | linuxmint) ;;
      *) error_msg "cannot install '$1' on '$dist': install them, or set SKIP_INSTALL" ;;
    esac
    sudo=""
    check_root || sudo=sudo
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $1 ||
      {
        $sudo apt-get update -q
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $1
      } || error_msg "cannot install '$1'"
  }
fi

# is_true NAME VALUE: a LAVA boolean; exits 2 on anything else rather than guess
is_true() {
  case "$2" in
    true | True | TRUE | 1 | yes | Yes | YES | on | On | ON) return 0 ;;
    false | False | FALSE | 0 | no | No | NO | off | Off | OFF | "") return 1 ;;
  esac
  echo "run.sh: $1 must be true or false, not '$2'" >&2
  exit 2
}

workloads="" runs="" audio=false mp3="" machine=hron2001 label="" baseline="" extra=""
skip_install=false vmsuite=vmsuite origin=vmsuite artifacts="" commit="" git_url="" tree=""
branch=""
usage() {
  sed -n '/^# usage:/,/^# -e is/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while getopts "w:n:a:f:m:l:b:e:s:v:k:c:u:t:r:d:h" opt; do
  case "$opt" in
    w) workloads=$OPTARG ;;
    n) runs=$OPTARG ;;
    a) audio=$OPTARG ;;
    f) mp3=$OPTARG ;;
    m) machine=${OPTARG:-hron2001} ;;
    l) label=$OPTARG ;;
    b) baseline=$OPTARG ;;
    e) extra=$OPTARG ;;
    s) skip_install=$OPTARG ;;
    v) vmsuite=${OPTARG:-vmsuite} ;;
    k) origin=${OPTARG:-vmsuite} ;;
    c) commit=$OPTARG ;;
    u) git_url=$OPTARG ;;
    t) tree=$OPTARG ;;
    r) branch=$OPTARG ;;
    d) artifacts=$OPTARG ;;
    *) usage ;;
  esac
done
is_true AUDIO "$audio" && audio=true || audio=false
is_true SKIP_INSTALL "$skip_install" && skip_install=true || skip_install=false

# EXTRA_ARGS as words, one a line: xargs splits like a shell (quotes, backslashes) and runs
# nothing inside; an unbalanced quote is refused
extra_words=""
if [ -n "$extra" ]; then
  extra_words=$(printf '%s\n' "$extra" | xargs printf '%s\n') ||
    {
      echo "run.sh: cannot split EXTRA_ARGS '$extra' into words (unbalanced quote?)" >&2
      exit 2
    }
fi

out=$PWD/output
mkdir -p "$out"
rm -f "$out"/result.json "$out"/result.txt "$out"/kcidb.json "$out"/compare.json "$out"/report.txt

# Linaro's convention: the test's own cases are result.txt lines too
case_line() { echo "$*" >>"$out/result.txt.head"; }
rm -f "$out/result.txt.head"

if [ "$skip_install" != true ]; then
  # what building needs, from the project's own list (scripts/deps.txt): the compiler, cmake,
  # pkg-config and the -dev libraries; the test and documentation tools are left out
  pkgs=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$top/scripts/deps.txt" |
    grep -E '^(build-essential|cmake|pkg-config|lib[a-z0-9.+-]*-dev|nettle-dev)$' || true)
  missing=""
  for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing="$missing $p"
  done
  [ -z "$missing" ] || install_deps "${missing# }"
  cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$top/build" -j"$(nproc)"
  vmsuite=$top/build/cli/vmsuite
fi
if ! command -v "$vmsuite" >/dev/null 2>&1; then
  echo "run.sh: no vmsuite command '$vmsuite' (install it, or let run.sh build it: -s false)" >&2
  case_line "vmsuite-run fail"
  mv "$out/result.txt.head" "$out/result.txt"
  exit 0
fi

# the command line, built in "$@": no value is split, globbed or evaluated on the way
set -- run -q -o "$out/result.json" --machine "$machine"
set -f
for spec in $workloads; do set -- "$@" -w "$spec"; done
set +f
[ -z "$runs" ] || set -- "$@" -n "$runs"
[ -z "$label" ] || set -- "$@" --label "$label"
if [ "$audio" = true ]; then
  set -- "$@" --with-audio
  [ -z "$mp3" ] || set -- "$@" "$mp3"
fi
if [ -n "$extra_words" ]; then
  while IFS= read -r w; do set -- "$@" "$w"; done <<EOF
$extra_words
EOF
fi

echo "run.sh: $vmsuite $*"
rc=0
"$vmsuite" "$@" || rc=$?
# 0: every run ok; 1: a run failed (the -runs cases say which); else no usable result
if [ ! -s "$out/result.json" ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; }; then
  echo "run.sh: vmsuite run exited with $rc" >&2
  case_line "vmsuite-run fail $rc exit-status"
else
  case_line "vmsuite-run pass $rc exit-status"
fi

verdict=""
if [ -s "$out/result.json" ] && [ -n "$baseline" ]; then
  base=$baseline
  case "$baseline" in
    http://* | https://*)
      base=$out/baseline.json
      if command -v curl >/dev/null 2>&1; then
        curl -fsSL -o "$base" "$baseline" || rm -f "$base"
      else
        wget -q -O "$base" "$baseline" || rm -f "$base"
      fi
      ;;
  esac
  crc=0
  if [ -r "$base" ]; then
    "$vmsuite" compare "$base" "$out/result.json" --format json >"$out/compare.json" || crc=$?
  fi
  # compare: 0 no regression shown, 1 a regression (the -verdict cases fail); 2 cannot tell or
  # not comparable (a busy machine, too few runs, another setup): the comparison stands as an
  # artefact, the baseline case is skip and no -verdict case claims anything
  if [ -r "$base" ] && { [ "$crc" -eq 0 ] || [ "$crc" -eq 1 ]; } && [ -s "$out/compare.json" ]; then
    case_line "vmsuite-baseline pass"
    verdict=$out/compare.json
  elif [ -r "$base" ] && [ "$crc" -eq 2 ] && [ -s "$out/compare.json" ]; then
    echo "run.sh: compared with the baseline: cannot tell or not comparable (exit 2), see compare.json" >&2
    case_line "vmsuite-baseline skip"
  else
    echo "run.sh: could not compare with the baseline '$baseline' (exit $crc)" >&2
    case_line "vmsuite-baseline fail"
    rm -f "$out/compare.json"
  fi
fi

if [ -s "$out/result.json" ]; then
  set --
  [ -z "$verdict" ] || set -- --verdict "$verdict"
  "$vmsuite" report "$out/result.json" -o "$out/report.txt"
  cat "$out/report.txt"
  "$vmsuite" report "$out/result.json" --format lava "$@" -o "$out/result.txt.body"
  [ -z "$commit" ] || set -- "$@" --git-commit "$commit"
  [ -z "$git_url" ] || set -- "$@" --git-url "$git_url"
  [ -z "$tree" ] || set -- "$@" --tree "$tree"
  [ -z "$branch" ] || set -- "$@" --branch "$branch"
  krc=0
  "$vmsuite" report "$out/result.json" --format kcidb --origin "$origin" "$@" \
    -o "$out/kcidb.json" || krc=$?
  if [ "$krc" -ne 0 ]; then
    echo "run.sh: kcidb.json not written: vmsuite report exited with $krc" >&2
    case_line "vmsuite-kcidb fail $krc exit-status"
  fi
fi
{
  cat "$out/result.txt.head"
  [ ! -e "$out/result.txt.body" ] || cat "$out/result.txt.body"
} >"$out/result.txt"
rm -f "$out/result.txt.head" "$out/result.txt.body"

# keep the artefacts: tuxrun shares /mnt/tuxrun with the host
[ -n "$artifacts" ] || { [ -d /mnt/tuxrun ] && artifacts=/mnt/tuxrun; } || true
if [ -n "$artifacts" ]; then
  mkdir -p "$artifacts"
  for f in result.json result.txt kcidb.json compare.json report.txt; do
    [ ! -e "$out/$f" ] || cp "$out/$f" "$artifacts/"
  done
  echo "run.sh: artefacts in $artifacts"
fi
