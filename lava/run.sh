#!/usr/bin/env bash
# The vmsuite LAVA test (lava/vmsuite.yaml): installs what the build needs and builds vmsuite
# (unless -s true), runs it, and writes into ./output/:
#   result.json   the result file (`vmsuite run -o`)
#   report.txt    the text report (also printed, so it is in the job's log)
#   compare.json  with a baseline: `vmsuite compare BASELINE result.json --format json`
#   result.txt    Linaro result.txt lines, `vmsuite report --format lava` (send-results.sh
#                 turns them into LAVA test cases)
#   kcidb.json    the same results as a KCIDB v5.3 document, `vmsuite report --format kcidb`
# and copies them to the artefacts directory (-d, else /mnt/tuxrun when it exists).
# A plain script too: it needs neither LAVA nor tuxrun.
#
# usage: run.sh [-w "SPEC..."] [-n RUNS] [-a true|false] [-f MP3] [-m PROFILE] [-l LABEL]
#               [-b BASELINE] [-e "RUN OPTIONS"] [-s true|false] [-v VMSUITE] [-k ORIGIN]
#               [-d DIR]
# Empty values mean the default, so LAVA's params can be passed as they are.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
workloads="" runs="" audio=false mp3="" machine=hron2001 label="" baseline="" extra=""
skip_install=false vmsuite=vmsuite origin=vmsuite artifacts=""
usage() {
  sed -n '/^# usage:/,/^# Empty/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while getopts "w:n:a:f:m:l:b:e:s:v:k:d:h" opt; do
  case "$opt" in
    w) workloads=$OPTARG ;;
    n) runs=$OPTARG ;;
    a) audio=${OPTARG:-false} ;;
    f) mp3=$OPTARG ;;
    m) machine=${OPTARG:-hron2001} ;;
    l) label=$OPTARG ;;
    b) baseline=$OPTARG ;;
    e) extra=$OPTARG ;;
    s) skip_install=${OPTARG:-false} ;;
    v) vmsuite=${OPTARG:-vmsuite} ;;
    k) origin=${OPTARG:-vmsuite} ;;
    d) artifacts=$OPTARG ;;
    *) usage ;;
  esac
done

out=$PWD/output
mkdir -p "$out"
rm -f "$out"/result.json "$out"/result.txt "$out"/kcidb.json "$out"/compare.json "$out"/report.txt

# Linaro's convention: the test's own cases are result.txt lines too
case_line() { echo "$*" >>"$out/result.txt.head"; }
rm -f "$out/result.txt.head"

if [ "$skip_install" != true ]; then
  # what building needs, from the project's own list (scripts/deps.txt): the compiler, cmake,
  # pkg-config and the -dev libraries; the test and documentation tools are left out
  mapfile -t pkgs < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$top/scripts/deps.txt" |
    grep -E '^(build-essential|cmake|pkg-config|lib[a-z0-9.+-]*-dev|nettle-dev)$')
  missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
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

args=(run -q -o "$out/result.json" --machine "$machine")
read -ra specs <<<"$workloads"
for spec in "${specs[@]}"; do args+=(-w "$spec"); done
[ -z "$runs" ] || args+=(-n "$runs")
[ -z "$label" ] || args+=(--label "$label")
if [ "$audio" = true ]; then
  args+=(--with-audio)
  [ -z "$mp3" ] || args+=("$mp3")
fi
read -ra words <<<"$extra"
args+=("${words[@]}")

echo "run.sh: $vmsuite ${args[*]}"
rc=0
"$vmsuite" "${args[@]}" || rc=$?
# 0: every run ok; 1: a run failed (the -runs cases say which); else no usable result
if [ ! -s "$out/result.json" ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; }; then
  echo "run.sh: vmsuite run exited with $rc" >&2
  case_line "vmsuite-run fail $rc exit-status"
else
  case_line "vmsuite-run pass $rc exit-status"
fi

verdict=()
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
  [ -r "$base" ] && { "$vmsuite" compare "$base" "$out/result.json" --format json \
    >"$out/compare.json" || crc=$?; }
  # compare: 0 no regression, 1 a regression (the -verdict cases fail); else no verdict
  if [ -r "$base" ] && { [ "$crc" -eq 0 ] || [ "$crc" -eq 1 ]; } && [ -s "$out/compare.json" ]; then
    case_line "vmsuite-baseline pass"
    verdict=(--verdict "$out/compare.json")
  else
    echo "run.sh: could not compare with the baseline '$baseline' (exit $crc)" >&2
    case_line "vmsuite-baseline fail"
    rm -f "$out/compare.json"
  fi
fi

if [ -s "$out/result.json" ]; then
  "$vmsuite" report "$out/result.json" -o "$out/report.txt"
  cat "$out/report.txt"
  "$vmsuite" report "$out/result.json" --format lava "${verdict[@]}" -o "$out/result.txt.body"
  "$vmsuite" report "$out/result.json" --format kcidb --origin "$origin" "${verdict[@]}" \
    -o "$out/kcidb.json"
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
