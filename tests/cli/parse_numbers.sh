# Numbers on the command line are decimal digits with an optional fraction and unit: exponents,
# hex, signs, blanks, inf, nan and values beyond 64 bits are usage errors (129) with one message
# line, before anything runs. --mem-limit must fit in the host's RAM.
. "$(dirname "$0")/lib.sh"

# refused NEEDLE args...: `run` exits 129 with one message line holding NEEDLE, writes nothing
refused() {
  local needle=$1
  shift
  local runs=(-n 1)
  case " $* " in *" -n "*) runs=() ;; esac # one -n: a second is refused as given twice
  rm -f r.json
  expect_exit 129 "run $*" -- "$VMSUITE" run --machine host --no-drop-caches -q "${runs[@]}" \
    -o r.json "$@"
  expect_in "$err" "$needle" "run $*"
  [ "$(printf '%s\n' "$err" | grep -c '^vmsuite:')" -eq 1 ] && ok || fail "run $*: not one line: $err"
  [ ! -e r.json ] && ok || fail "run $*: a result file was written"
}

for v in 1.5e3G 1.54E444G 1.0e400K 1e3 0x10 inf nan " 1" "1 " +1M .5K 5. 1.5e-3K \
  18446744073709551616 99999999999T 17179869184G; do
  refused "malformed size '$v' for bytes" -w "mtest01:bytes=$v"
done
refused "malformed number '+5' for percent" -w "mtest01:percent=+5"
refused "malformed number ' 5' for percent" -w "mtest01:percent= 5"
for v in 1e3 inf nan 0x10 " 1" +1 1e400; do
  refused "--idle-seconds needs seconds (0 to 3600), not '$v'" -w mtest01:bytes=1M --with-audio \
    --idle-seconds "$v"
done
for v in +2 " 2" 0x2 2e0; do
  refused "runs must be" -w mtest01:bytes=1M -n "$v"
done
for v in 1e3G 0x10000000 inf " 64M" +64M 99999999999999999999; do
  refused "--mem-limit needs a size from 16M to the host's RAM" -w mtest01:bytes=1M \
    --mem-limit "$v"
done

# --mem-limit: at most the host's RAM (MemTotal), whatever the profile; the emulated machine's
# RAM must be real RAM. Just under it, the limit passes the option check (and the host profile
# then refuses a limit for its own reason).
ram=$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
refused "--mem-limit needs a size from 16M to the host's RAM" -w mtest01:bytes=1M \
  --mem-limit 100T
refused "not '$((ram + 1))'" -w mtest01:bytes=1M --mem-limit "$((ram + 1))"
expect_exit 128 "mem-limit = RAM" -- "$VMSUITE" run --machine host -w mtest01:bytes=1M \
  --mem-limit "$ram" -o r.json
expect_in "$err" "the 'host' profile has no memory cgroup" "mem-limit = RAM reaches the profile"
refused "--mem-limit needs a size from 16M" -w mtest01:bytes=1M --mem-limit 16777215

# compare: percentages and alpha are plain decimals too (compare's exit for bad input is 2)
printf '{}' >a.json
for v in 1e1 " 2" +2 0x2 inf nan; do
  expect_exit 2 "compare --threshold '$v'" -- "$VMSUITE" compare --threshold "$v" a.json a.json
  expect_in "$err" "--threshold wants a percentage in (0, 100], not '$v'" "threshold '$v'"
done
for v in 5e-2 " 0.05" +0.05 0x0.1p0 nan; do
  expect_exit 2 "compare --alpha '$v'" -- "$VMSUITE" compare --alpha "$v" a.json a.json
  expect_in "$err" "--alpha wants a number in (0, 0.5), not '$v'" "alpha '$v'"
done

# the probe's milliseconds (already strict: kept so)
for v in 2.5e1 25e0ms 1e400 0x19 inf; do
  expect_exit 129 "probe --period '$v'" -- "$VMSUITE" probe --device virtual --seconds 1 \
    --period "$v" -o p.json
  expect_in "$err" "--period wants milliseconds" "probe --period '$v'"
done
[ ! -e p.json ] && ok || fail "probe wrote a result"
finish
