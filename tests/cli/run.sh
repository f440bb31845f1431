# The foundation's "done when": a small plan runs end to end, prints both 2001 blocks, and
# `vmsuite report` re-renders the same blocks from the file; the file holds every raw sample.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "small plan" -- "$VMSUITE" run -w mtest01:bytes=64M -w mmap001:bytes=128M -n 2 -o r.json
run_out=$out
for label in "Averages for 2 mtest01 runs" "Average for 2 mmap001 runs" "bytes allocated: 134217728" \
  "User time (seconds):" "System time (seconds):" "Elapsed (wall clock seconds) time:" \
  "Percent of CPU this job got:" "Major (requiring I/O) page faults:" \
  "Minor (reclaiming a frame) faults:" "Elapsed low/high:" "Result: r.json"; do
  expect_in "$run_out" "$label" "run output"
done
# the 2001 labels in the 2001 order
order=$(printf '%s\n' "$run_out" | sed -n '/^Average for 2 mmap001/,/^Minor/p' | cut -d: -f1)
want=$'Average for 2 mmap001 runs\nbytes allocated\nUser time (seconds)\nSystem time (seconds)\nElapsed (wall clock seconds) time\nPercent of CPU this job got\nMajor (requiring I/O) page faults\nMinor (reclaiming a frame) faults'
[ "$order" = "$want" ] && ok || fail "label order: $order"

expect_exit 0 "report" -- "$VMSUITE" report r.json
[ "$out" = "$(printf '%s\n' "$run_out" | head -n -2)" ] && ok \
  || fail "report differs from run output: $(diff <(echo "$out") <(printf '%s\n' "$run_out" | head -n -2))"

# the file: format, raw samples, units, directions, per-run detail, no leftovers
[ "$(json_get r.json 'd["format"]')" = "vmsuite.result/2" ] && ok || fail "format"
[ "$(json_get r.json '[v["label"] for v in d["variants"]] == ["default"] and d["variants"][0]["settings"] == {"thp": "kernel"}')" = True ] \
  && ok || fail "one variant, default, the kernel's THP policy"
[ "$(json_get r.json 'all(w["variant"] == "default" for w in d["workloads"])')" = True ] && ok || fail "workloads of variant default"
[ "$(json_get r.json 'd["complete"]')" = "True" ] && ok || fail "complete"
[ "$(json_get r.json 'len(d["workloads"][0]["metrics"]["elapsed_s"]["samples"])')" = 2 ] && ok || fail "2 samples"
[ "$(json_get r.json 'd["workloads"][1]["metrics"]["sys_s"]["better"]')" = lower ] && ok || fail "direction"
[ "$(json_get r.json 'd["workloads"][1]["metrics"]["elapsed_s"]["unit"]')" = s ] && ok || fail "unit"
[ "$(json_get r.json 'all(r["status"]=="ok" and not r["thp_disabled"] for w in d["workloads"] for r in w["runs"]) and d["protocol"]["thp_disabled"] is False')" = True ] \
  && ok || fail "runs ok, THP as the kernel has it (the default --thp kernel)"
[ "$(json_get r.json 'd["workloads"][0]["runs"][0]["bytes_allocated"]')" = 67108864 ] && ok || fail "mtest01 bytes"
[ "$(json_get r.json 'd["workloads"][0]["metrics"]["minor_faults"]["samples"][0] >= 16000')" = True ] \
  && ok || fail "mtest01 touched every 4 KiB page of 64 MiB"
[ "$(json_get r.json 'len(d["workloads"][1]["runs"][0]["series"]["t_s"]) >= 2')" = True ] && ok || fail "series"
[ "$(json_get r.json '"pgfault" in d["workloads"][1]["runs"][0]["vmstat_delta"]')" = True ] && ok || fail "vmstat delta"
[ "$(json_get r.json '"mem_free_bytes" in d["workloads"][1]["runs"][0]["start_state"]')" = True ] && ok || fail "start state"
[ -z "$(ls -A | grep '^\.vmsuite-')" ] && ok || fail "workload files left behind: $(ls -A)"

# default output name: vmsuite-<label>-<YYYYmmdd-HHMMSS>.json; label defaults to uname -r
expect_exit 0 "default output" -- "$VMSUITE" run -w mtest01:bytes=8M -n 1 --quiet --no-report
[ -z "$out" ] && ok || fail "--quiet --no-report printed: $out"
ls vmsuite-"$(uname -r)"-[0-9]*-[0-9]*.json >/dev/null 2>&1 && ok || fail "default name: $(ls)"
expect_exit 0 "label" -- "$VMSUITE" run -w mtest01:bytes=8M -n 1 --label before -q
ls vmsuite-before-*.json >/dev/null 2>&1 && ok || fail "label in name: $(ls)"

# mmap002 and mmap001's pages= spelling
expect_exit 0 "mmap002 + pages" -- "$VMSUITE" run -w mmap002:bytes=32M -w mmap001:pages=4096 -n 1 -o m.json
expect_in "$out" "bytes allocated: 100663296" "mmap002 footprint is 3R"
expect_in "$out" "bytes allocated: 16777216" "pages=4096 is 16 MiB"
[ -z "$(ls -A | grep '^\.vmsuite-')" ] && ok || fail "files left behind"
finish
