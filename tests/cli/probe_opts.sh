# The audio probe's options are one table and one parser shared by `vmsuite probe` and `vmsuite
# run --with-audio`. Every spelling, accepted or refused, is checked in process against that
# parser by tests/probe/test-probe-opts.c (probe_opts_test); here the real commands: both route
# a refusal of each kind to the same message, two accepted spellings reach the probe in each
# (a real run; one is --period alone, with the buffer it derives), run refuses the options
# without --with-audio. Also: every option a command's help shows is one its parser knows (and,
# for run and probe, one the man page lists), and the help fits 100 columns.
. "$(dirname "$0")/lib.sh"

run_audio() { # run_audio ARGS...: a tiny suite with the probe on the virtual device
  "$VMSUITE" run --machine host --no-drop-caches -q -w mtest01:bytes=1M -n 1 \
    --with-audio --device virtual --baseline 0 "$@"
}

# refused ARGS...: exit 129 from both, one error line each, the same message after the
# "vmsuite: CMD: " prefix, and nothing written
refused() {
  local what="$*" m_probe m_run
  rm -f p.json r.json
  expect_exit 129 "probe $what" -- "$VMSUITE" probe --device virtual --seconds 1 -o p.json "$@"
  m_probe=$(printf '%s\n' "$err" | grep '^vmsuite: ' | sed 's/^vmsuite: probe: //')
  [ "$(printf '%s\n' "$err" | grep -c '^vmsuite:')" -eq 1 ] && ok ||
    fail "probe $what: not one error line: $err"
  expect_exit 129 "run $what" -- run_audio -o r.json "$@"
  m_run=$(printf '%s\n' "$err" | grep '^vmsuite: ' | sed 's/^vmsuite: run: //')
  [ "$(printf '%s\n' "$err" | grep -c '^vmsuite:')" -eq 1 ] && ok ||
    fail "run $what: not one error line: $err"
  [ -n "$m_probe" ] && [ "$m_probe" = "$m_run" ] && ok ||
    fail "$what: messages differ: probe '$m_probe', run '$m_run'"
  [ ! -e p.json ] && [ ! -e r.json ] && ok || fail "$what: a result file was written"
  last_msg=$m_probe
}

# one refusal of each kind: a value, two values together, a preset, the parser's own
refused --period 25x
expect_in "$last_msg" "--period wants milliseconds from 1 to 1000 (25, 25ms or 0.025s), not '25x'" "--period 25x"
refused --latency pro --period 10
expect_in "$last_msg" "the buffer must hold at least two periods: --period 10 ms needs --buffer 20 ms or more (the pro preset's buffer is 10.67 ms)" "period alone, pro preset"
refused --latency fast
expect_in "$last_msg" "--latency wants 2001, desktop or pro, not 'fast'" "--latency fast"
refused --cpu x
expect_in "$last_msg" "--cpu wants a CPU list (0, 0-1, 0,2), not 'x'" "--cpu x"
refused --rt=1
expect_in "$last_msg" "option '--rt' takes no value" "flag with a value"

# accepted ARGS... PERIOD BUFFER: both play, and the probe was asked for that geometry
accepted() {
  local want_p=$1 want_b=$2
  shift 2
  rm -f p.json r.json
  expect_exit 0 "probe $*" -- "$VMSUITE" probe --device virtual --seconds 0.5 -o p.json "$@"
  expect_exit 0 "run --with-audio $*" -- run_audio -o r.json "$@"
  for f in p.json r.json; do
    [ -e $f ] || { fail "$* ($f): no result"; continue; }
    got=$(json_get $f '"%g %g" % (d["audio"]["facts"]["asked_period_ms"], d["audio"]["facts"]["asked_buffer_ms"])')
    [ "$got" = "$want_p $want_b" ] && ok || fail "$* ($f): asked $got, want $want_p $want_b"
  done
}
# one real run per command: the preset, an override with a unit, the = spelling
accepted 12.5 100 --latency=2001 --period 0.0125s --buffer 100ms
# --period alone: the buffer follows with the default preset's two periods per buffer
accepted 25 50 --period 25ms

# the probe options without --with-audio are a mistake in run
expect_exit 129 "run --period without --with-audio" -- "$VMSUITE" run -o r.json --period 25
expect_in "$err" "vmsuite: run: --device, --latency, --period, --buffer, --rt, --mlock and --cpu go with --with-audio" "run --period without --with-audio"

# help: both commands document the probe options with the same lines; every option shown
# is one the parser knows (--NAME=x then an unknown option stops before anything runs); all
# help fits 100 columns
probe_lines() { awk '/^ +--device /,/^ +--mlock /' | sed 's/^ *//' | tr -s ' '; }
"$VMSUITE" help probe >hp.txt && "$VMSUITE" help run >hr.txt || fail "help exits non-zero"
expect_in "$(cat hp.txt)" '"25", "25ms" and "0.025s" are the same' "probe help: spellings"
[ "$(probe_lines <hp.txt)" = "$(probe_lines <hr.txt)" ] && [ "$(probe_lines <hr.txt | wc -l)" -ge 5 ] && ok ||
  fail "run and probe describe the probe options differently"
for c in run list report sysinfo probe compare; do
  "$VMSUITE" help "$c" >h.txt
  long=$(awk 'length($0) > 100' h.txt)
  [ -z "$long" ] && ok || fail "help $c: lines over 100 columns: $long"
  for o in $(grep -oE '^  (-[a-z], |    )--[a-z-]+' h.txt | grep -oE -- '--[a-z-]+'); do
    "$VMSUITE" "$c" "$o=x" --zz-not-an-option >/dev/null 2>h.err
    if grep -q "unknown option '$o" h.err; then fail "$c: help shows $o, the parser refuses it"; else ok; fi
  done
done
# the man page's synopsis of run and probe lists every option their help shows
man_page=$(sed 's/\\-/-/g; s/\\f[BIR]//g' "$VMS_SOURCE_DIR/docs/vmsuite.1")
for c in run probe; do
  syn=$(printf '%s\n' "$man_page" | awk -v c="$c" '$0 == ".B vmsuite " c { on = 1; next } on && /^\.(br|SH)/ { exit } on')
  # "-q --quiet" or "--period" per option line; either spelling will do
  "$VMSUITE" help "$c" | sed -nE 's/^  (-([a-z]), |    )--([a-z-]+).*/\2 \3/p' >opts.txt
  while read -r short long; do
    if [ -z "$long" ]; then long=$short; short=; fi
    case "$syn" in
    *"--$long"*) ok ;;
    *) if [ -n "$short" ] && printf '%s' "$syn" | grep -qE -- "-$short([^a-z-]|\$)"; then ok
       else fail "docs/vmsuite.1: the synopsis of $c lacks --$long"; fi ;;
    esac
  done <opts.txt
done
finish
