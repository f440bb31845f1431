#!/usr/bin/env bash
# Sources that cannot be an MP3 are refused before the probe starts, with a precise message,
# for `vmsuite probe` (128) and `vmsuite run --with-audio` (128, the same message): a FIFO with
# no writer (its open() used to block), a directory, a character device, a 100 GB sparse file
# (used to be read for ~60 s); and Ctrl-C while the probe is starting exits 130 at once. No
# clock is read: `timeout` bounds every wait.
set -uo pipefail
rm -rf "$VMS_TEST_TMP" && mkdir -p "$VMS_TEST_TMP" && cd "$VMS_TEST_TMP"
sample=$VMS_SOURCE_DIR/data/sample.mp3
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# refused NAME PATTERN FILE: both commands refuse FILE with one line matching PATTERN
refused() {
	local name=$1 pattern=$2 file=$3 rc
	timeout 20 "$VMSUITE" probe "$file" --seconds 1 --device virtual >out 2>err
	rc=$?
	echo "[$name probe] rc=$rc: $(cat err)"
	[ $rc = 128 ] || fail "$name: probe exit $rc, want 128 (124: it hung)"
	[ ! -s out ] || fail "$name: probe printed on stdout: $(cat out)"
	[ "$(wc -l <err)" = 1 ] || fail "$name: probe: want one line on stderr"
	grep -qE -- "$pattern" err || fail "$name: probe: message does not match '$pattern'"
	timeout 20 "$VMSUITE" run --machine host --with-audio "$file" --device virtual \
		--idle-seconds 1 -w mtest01:bytes=8M -n 1 -o "run-$name.json" >out 2>err
	rc=$?
	echo "[$name run] rc=$rc: $(cat err)"
	[ $rc = 128 ] || fail "$name: run exit $rc, want 128 (124: it hung)"
	grep -qE -- "$pattern" err || fail "$name: run: message does not match '$pattern'"
}

mkfifo fifo.mp3
refused fifo "'fifo.mp3' is a FIFO, not an MP3 file" fifo.mp3
mkdir adir.mp3
refused directory "'adir.mp3' is a directory, not an MP3 file" adir.mp3
if [ "$(id -u)" = 0 ] && mknod zero.mp3 c 1 5 2>/dev/null; then
	chardev=zero.mp3 # a /dev/zero of our own
else
	chardev=/dev/zero
fi
refused chardev "'$chardev' is a character device, not an MP3 file" $chardev
truncate -s 100G sparse.mp3
refused sparse "'sparse.mp3' is 100.0 GiB: too big; the probe plays MP3 files up to 256 MiB" sparse.mp3
rm -f sparse.mp3

# Ctrl-C while the probe starts: a long MP3 (40 copies of the sample, about 2 s to check) and
# the probe stopped (SIGSTOP) as soon as it appears, so that it cannot finish starting
for i in $(seq 40); do cat "$sample"; done >long.mp3
for cmd in probe run; do
	if [ $cmd = probe ]; then
		args=(probe long.mp3 --seconds 5 --device virtual)
	else
		args=(run --machine host --with-audio long.mp3 --device virtual --idle-seconds 1
			-w mtest01:bytes=8M -n 1 -o run-int.json)
	fi
	"$VMSUITE" "${args[@]}" >out 2>err &
	pid=$!
	probe=
	for _ in $(seq 2000); do
		for k in $(cat /proc/$pid/task/$pid/children 2>/dev/null); do
			[ "$(cat /proc/$k/comm 2>/dev/null)" = vmsuite-probe ] && probe=$k
		done
		[ -n "$probe" ] && break
		sleep 0.005
	done
	[ -n "$probe" ] || fail "$cmd: no vmsuite-probe process appeared"
	[ -n "$probe" ] && kill -STOP "$probe"
	kill -INT $pid
	# exits promptly: bounded by `timeout` (the start would otherwise wait 60 s)
	timeout 15 tail --pid=$pid -f /dev/null || fail "$cmd: still running 15 s after Ctrl-C"
	wait $pid
	rc=$?
	echo "[ctrl-c $cmd] rc=$rc: $(cat err)"
	[ $rc = 130 ] || fail "ctrl-c $cmd: exit $rc, want 130"
	grep -q "interrupted while the audio probe was starting" err ||
		fail "ctrl-c $cmd: no 'interrupted while the audio probe was starting' note"
	[ -z "$probe" ] || [ ! -e /proc/$probe ] || fail "ctrl-c $cmd: the probe $probe is left"
	kill -9 $pid 2>/dev/null
done
[ $failed = 0 ] && echo ok
exit $failed
