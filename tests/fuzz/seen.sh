# A libFuzzer target must see the code it fuzzes: run over its seed corpus once (-runs=0), it
# reports at least MIN coverage edges ("INITED cov: N"). A build that instruments only the
# harness (and not core/workloads/report) gives a handful, and fails this. Also fails when a
# seed crashes. Usage: seen.sh FUZZ_BINARY CORPUS_DIR MIN
bin=$1 corpus=$2 min=$3
log=$("$bin" -runs=0 "$corpus" 2>&1)
rc=$?
cov=$(printf '%s\n' "$log" | sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' | tail -1)
if [ "$rc" -ne 0 ] || [ -z "$cov" ]; then
  printf '%s\n' "$log" | tail -20
  echo "FAIL: $(basename "$bin") exit $rc over its seeds"
  exit 1
fi
echo "$(basename "$bin"): $cov coverage edges over its seeds (at least $min wanted)"
[ "$cov" -ge "$min" ] || { echo "FAIL: the fuzz build does not see the libraries"; exit 1; }
