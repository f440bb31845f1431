# Progress and output for scripts: piped, the header and a line per finished run arrive while
# the run goes on (read as they come, not after the exit); on a terminal, the live line shows
# the position in the suite and the time left; -q hides progress only, --no-report the report;
# `run -o -` and `probe -o -` put the result JSON on stdout and their text on stderr, with no
# file named '-' and no checkpoint file left. No timing figure is asserted: only the order of
# events (a line read while the process still ran).
. "$(dirname "$0")/lib.sh"
host=(--machine host --no-drop-caches --workdir "$VMS_TEST_TMP")
export TMPDIR=$VMS_TEST_TMP/tmpdir # -o -'s checkpoint file goes here
mkdir -p "$TMPDIR"

# 1. piped: each line is timestamped as it arrives and checked against the process still running
cat >reader.py <<'PY'
import json, os, re, subprocess, sys, time
cmd = sys.argv[1:]
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
lines = []
for raw in p.stdout:
    # alive: the process has not exited yet (WNOWAIT: still waitable afterwards)
    alive = os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    lines.append({"t": time.monotonic(), "alive": alive, "text": raw.decode(errors="replace")})
rc = p.wait()
json.dump({"rc": rc, "t_exit": time.monotonic(), "lines": lines}, sys.stdout)
PY
python3 reader.py "$VMSUITE" run "${host[@]}" -w mtest01:bytes=64M -n 5 -o pipe.json >pipe.rec 2>reader.err
python3 - pipe.rec <<'PY' >pipe.check 2>&1
import json, re, sys
d = json.load(open(sys.argv[1]))
lines = d["lines"]
texts = [l["text"] for l in lines]
problems = []
if d["rc"] != 0:
    problems.append("exit %d" % d["rc"])
head = [l for l in lines if l["text"].startswith("vmsuite: suite of 5 runs: mtest01 x 5")]
if not head:
    problems.append("no header line")
elif not head[0]["alive"]:
    problems.append("the header arrived only after the exit")
elif lines.index(head[0]) != 0:
    problems.append("the header is not the first line")
runs = [l for l in lines if re.match(r"vmsuite: \[\d/5\] mtest01 run \d/5: ok( \(disturbed\))? in \d+\.\d\d s", l["text"])]
if [re.search(r"run (\d)/5", l["text"]).group(1) for l in runs] != list("12345"):
    problems.append("want one line per run, in order: %r" % [l["text"] for l in runs])
# runs 2-5 were still to do when run 1's line came: it must have been read before the exit
elif not runs[0]["alive"]:
    problems.append("run 1's line arrived only after the exit")
if any("\r" in t for t in texts):
    problems.append("a carriage return in piped output")
if runs and not re.search(r"about (\d+\.\d s|\d+:\d\d) left", runs[0]["text"]):
    problems.append("no time left on run 1's line: " + runs[0]["text"])
if runs and "left" in runs[-1]["text"]:
    problems.append("time left on the last run's line: " + runs[-1]["text"])
print("\n".join(problems) if problems else "ok")
PY
[ "$(cat pipe.check)" = ok ] && ok || fail "piped progress: $(cat pipe.check); got: $(python3 -c 'import json,sys; print("".join(l["text"] for l in json.load(open(sys.argv[1]))["lines"]))' pipe.rec 2>&1 | head -20) $(cat reader.err)"

# 2. on a terminal: the live line with the position and the time left, a line per finished run
# (runs of 256M last long enough for the live line, drawn from 0.5 s into a run)
script -qec "$VMSUITE run ${host[*]} -w mtest01:bytes=256M -n 3 -o tty.json" /dev/null >tty.txt 2>&1
tr '\r' '\n' <tty.txt | sed 's/\x1b\[K//g' >tty.lines
for i in 1 2 3; do
  grep -qE "^vmsuite: \[$i/3\] mtest01 run $i/3: ok( \(disturbed\))? in [0-9]+\.[0-9]{2} s" tty.lines && ok \
    || fail "terminal: no line for run $i: $(grep -m5 'mtest01' tty.lines)"
done
grep -qE '\[[23]/3\] mtest01 run [23]/3  [0-9]+\.[0-9] s  about ([0-9]+\.[0-9] s|[0-9]+:[0-9]{2}) left' tty.lines && ok \
  || fail "terminal: no live line with the time left: $(grep -m5 'mtest01' tty.lines)"
grep -q $'\r\033\[K' tty.txt && ok || fail "terminal: the live line is not rewritten in place"

# 3. -q: no progress, the report all the same; --no-report: no report, progress all the same
expect_exit 0 "-q" -- "$VMSUITE" run "${host[@]}" -w mtest01:bytes=8M -n 2 -q -o q.json
expect_in "$out" "Averages for 2 mtest01 runs" "-q prints the report"
expect_in "$out" "Result: q.json" "-q names the result"
if printf '%s\n' "$err" | grep -q 'mtest01 run\|suite of'; then fail "-q printed progress: $err"; else ok; fi
expect_exit 0 "--no-report" -- "$VMSUITE" run "${host[@]}" -w mtest01:bytes=8M -n 2 --no-report -o nr.json
[ -z "$out" ] && ok || fail "--no-report printed on stdout: $out"
expect_in "$err" "[2/2] mtest01 run 2/2: ok" "--no-report keeps progress"
[ -s nr.json ] && ok || fail "--no-report: no result file"
expect_exit 0 "-q --no-report" -- "$VMSUITE" run "${host[@]}" -w mtest01:bytes=8M -n 1 -q --no-report -o qnr.json
[ -z "$out" ] && ok || fail "-q --no-report printed on stdout: $out"
if printf '%s\n' "$err" | grep -q 'mtest01 run'; then fail "-q --no-report printed progress: $err"; else ok; fi

# 4. run -o -: the JSON on stdout once, the report on stderr; no file '-', no checkpoint left
expect_exit 0 "run -o -" -- "$VMSUITE" run "${host[@]}" -w mtest01:bytes=64M -n 2 -o -
printf '%s' "$out" | python3 -m json.tool >/dev/null && ok || fail "-o -: stdout is not one JSON document: $(printf '%s' "$out" | head -c 300)"
[ "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["format"], d["complete"], len(d["workloads"][0]["runs"]))')" = "vmsuite.result/2 True 2" ] \
  && ok || fail "-o -: not the finished result"
expect_in "$err" "Averages for 2 mtest01 runs" "-o -: the report on stderr"
if printf '%s\n' "$err" | grep -q '^Result:'; then fail "-o -: a Result line names no file: $err"; else ok; fi
[ ! -e ./- ] && ok || fail "-o - created a file named '-'"
[ -z "$(ls -A "$TMPDIR")" ] && ok || fail "-o -: left in TMPDIR: $(ls -A "$TMPDIR")"
expect_exit 0 "run -o - --no-report -q" -- "$VMSUITE" run "${host[@]}" -w mtest01:bytes=8M -n 1 -o - --no-report -q
printf '%s' "$out" | python3 -m json.tool >/dev/null && ok || fail "-o - -q --no-report: stdout not JSON"
if printf '%s\n' "$err" | grep -q 'Average\|mtest01 run'; then fail "-o - -q --no-report: stderr: $err"; else ok; fi
# the --against verdict goes with the report: on stderr
# (one run a side cannot decide: 125 is the usual answer, 0 or 1 when it can)
"$VMSUITE" run "${host[@]}" -w mtest01:bytes=8M -n 1 -q -o - --against q.json >out 2>err
code=$?
out=$(cat out)
err=$(cat err)
case $code in 0 | 1 | 125) ok ;; *) fail "run -o - --against: exit $code; $err" ;; esac
expect_in "$err" "VERDICT" "-o - --against: the verdict lines on stderr"
[ "$(printf '%s' "$out" | python3 -c 'import json,sys; print("verdict" in json.load(sys.stdin))')" = True ] \
  && ok || fail "-o - --against: no verdict in the JSON on stdout"
[ -z "$(ls -A "$TMPDIR")" ] && ok || fail "-o - --against: left in TMPDIR: $(ls -A "$TMPDIR")"
# interrupted: the result so far, marked incomplete, still reaches stdout; nothing left
"$VMSUITE" run "${host[@]}" -w mtest01:bytes=64M -n 400 -q -o - >int.out 2>int.err &
pid=$!
# the first checkpoint (the runner's document) is in the private file
wait_for 60 sh -c 'for f in "$0"/vmsuite-result-*.json; do [ -s "$f" ] && exit 0; done; exit 1' \
  "$TMPDIR" || fail "-o -: no checkpoint file in TMPDIR"
kill -INT "$pid"
wait "$pid"
code=$?
[ "$code" = 130 ] && ok || fail "-o - interrupted: exit $code, want 130; $(cat int.err)"
[ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["complete"], d["interrupted"])' int.out 2>&1)" = "False True" ] \
  && ok || fail "-o - interrupted: stdout is not the incomplete result: $(head -c 200 int.out)"
expect_in "$(cat int.err)" "the result so far is on standard output" "-o - interrupted: the note"
[ -z "$(ls -A "$TMPDIR")" ] && ok || fail "-o - interrupted: left in TMPDIR: $(ls -A "$TMPDIR")"

# 5. probe -o -: the JSON on stdout, the Audio and Sound lines on stderr
expect_exit 0 "probe -o -" -- "$VMSUITE" probe --device virtual --seconds 1 -o -
[ "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["format"], "baseline" in d["audio"])' 2>&1)" = "vmsuite.result/2 True" ] \
  && ok || fail "probe -o -: stdout is not the result: $(printf '%s' "$out" | head -c 300)"
expect_in "$err" "Audio: '" "probe -o -: the Audio line on stderr"
[ ! -e ./- ] && ok || fail "probe -o - created a file named '-'"
finish
