#!/bin/bash
# End to end: `vmsuite sysinfo` on the real machine — every key with value and source, the JSON
# re-parses, the text listing agrees with /proc, and bad options exit 129.
set -u
: "${VMSUITE:?}" "${VMS_TEST_TMP:?}"
rm -rf "$VMS_TEST_TMP" && mkdir -p "$VMS_TEST_TMP" || exit 1
cd "$VMS_TEST_TMP" || exit 1
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

keys='kernel_release kernel_version kernel_cmdline hostname vm_sysctl thp_enabled thp_defrag
swap_devices swap_total_bytes mem_total_bytes page_size cpu_model cpu_count cpu_governor
workdir_fs psi_available cgroup alsa_cards page_reporting virtio_balloon damon_threads cpufreq
noise_sources vmsuite_version compiler'

# Other tests add swap files and change vm knobs while this one runs (ctest -j): a reading
# counts only when the host state it is checked against was the same before and after it.
host_state() { cat /proc/sys/vm/page-cluster /proc/swaps; }
stable() { # stable OUT ARGS...: run `vmsuite sysinfo ARGS` into OUT until the host held still
	local out=$1 try before; shift
	for try in 1 2 3 4 5 6 7 8 9 10; do
		before=$(host_state)
		"$VMSUITE" sysinfo "$@" >"$out" 2>err.txt; rc=$?
		held=$before # line 1 page-cluster, then /proc/swaps with its header
		[ "$before" = "$(host_state)" ] && return 0
		sleep 0.$try
	done
	echo "NOTE: the host's swaps or page-cluster changed during all 10 readings" >&2
}

# JSON: parses, and every key is {"value": ..., "source": "..."}
stable out.json --format json
[ "$rc" = 0 ] || fail "sysinfo --format json exited $rc: $(cat err.txt)"
[ -s err.txt ] && fail "sysinfo --format json wrote to stderr: $(cat err.txt)"
jq -e . out.json >/dev/null || fail "sysinfo --format json output does not parse"
for k in $keys; do
	jq -e --arg k "$k" 'has($k) and (.[$k] | type == "object" and has("value")
		and (.source | type == "string" and length > 0))' out.json >/dev/null ||
		fail "key '$k' missing or without value+source"
done
jq -e '[.[] | keys == ["source", "value"]] | all' out.json >/dev/null ||
	fail "an entry has fields other than value and source"
[ "$(jq -r .kernel_release.value out.json)" = "$(uname -r)" ] || fail "kernel_release != uname -r"
[ "$(jq -r .page_size.value out.json)" = "$(getconf PAGESIZE)" ] || fail "page_size != getconf"
[ "$(jq -r .cpu_count.value out.json)" = "$(getconf _NPROCESSORS_ONLN)" ] ||
	fail "cpu_count != getconf _NPROCESSORS_ONLN"
want_mem=$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
[ "$(jq -r .mem_total_bytes.value out.json)" = "$want_mem" ] || fail "mem_total_bytes != MemTotal"
[ "$(jq -r '.vm_sysctl.value["page-cluster"]' out.json)" = "$(sed -n 1p <<<"$held")" ] ||
	fail "vm_sysctl page-cluster differs from /proc/sys/vm/page-cluster"
[ "$(jq -r .workdir_fs.value.path out.json)" = "$(pwd -P)" ] || fail "workdir_fs.path != cwd"
nswap=$(($(wc -l <<<"$held") - 2))
[ "$(jq -r '.swap_devices.value | length' out.json)" = "$nswap" ] ||
	fail "swap_devices count != /proc/swaps lines"

# --workdir: the filesystem of that directory; /dev/shm is tmpfs on Debian
"$VMSUITE" sysinfo --format json --workdir "$VMS_TEST_TMP" >wd.json || fail "--workdir exited $?"
[ "$(jq -r .workdir_fs.value.path wd.json)" = "$(cd "$VMS_TEST_TMP" && pwd -P)" ] ||
	fail "--workdir path not recorded"
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	"$VMSUITE" sysinfo --format json --workdir /dev/shm >shm.json || fail "--workdir /dev/shm"
	[ "$(jq -r .workdir_fs.value.is_tmpfs shm.json)" = true ] || fail "/dev/shm not is_tmpfs"
	[ "$(jq -r .workdir_fs.value.type shm.json)" = tmpfs ] || fail "/dev/shm type not tmpfs"
fi

# text: the default; aligned key/value/source lines that agree with /proc
stable out.txt
[ "$rc" = 0 ] || fail "sysinfo (text) exited $rc"
grep -Eq "^kernel_release +$(uname -r | sed 's/[.[\*^$]/\\&/g') +uname\(2\) release$" out.txt ||
	fail "text: no kernel_release line"
grep -Eq "^vm\.page-cluster +$(sed -n 1p <<<"$held") +/proc/sys/vm/page-cluster$" out.txt ||
	fail "text: no vm.page-cluster line"
n_sysctl=$(jq '.vm_sysctl.value | length' out.json)
[ "$(grep -c '^vm\.' out.txt)" -ge "$n_sysctl" ] || fail "text: not every sysctl on its own line"

# usage errors: exit 129 with a one-line message naming the problem
expect_usage() {
	local what=$1; shift
	"$VMSUITE" sysinfo "$@" >u.out 2>u.err; rc=$?
	[ "$rc" = 129 ] || fail "$what: exit $rc, want 129"
	[ -s u.out ] && fail "$what: wrote to stdout"
	grep -q "^vmsuite: sysinfo: " u.err || fail "$what: no 'vmsuite: sysinfo:' message: $(cat u.err)"
}
expect_usage "unknown option" --bogus
grep -q "'--bogus'" u.err || fail "unknown option not named"
expect_usage "unknown short option" -x
expect_usage "bad format" --format xml
grep -q "'xml'" u.err || fail "bad format not named"
expect_usage "missing format value" --format
expect_usage "extra argument" extra
expect_usage "missing workdir" --workdir "$VMS_TEST_TMP/does-not-exist"
expect_usage "workdir is a file" --workdir "$VMS_TEST_TMP/out.json"

# help
"$VMSUITE" sysinfo --help >h.out || fail "sysinfo --help exited $?"
grep -q "usage: vmsuite sysinfo" h.out || fail "sysinfo --help: no usage line"

# a full disk is an error, not silent success
if [ -w /dev/full ]; then
	"$VMSUITE" sysinfo >/dev/full 2>full.err; rc=$?
	[ "$rc" = 128 ] || fail "text to /dev/full: exit $rc, want 128"
	"$VMSUITE" sysinfo --format json >/dev/full 2>full.err; rc=$?
	[ "$rc" = 128 ] || fail "json to /dev/full: exit $rc, want 128"
fi

[ "$fails" = 0 ] && echo "cli-sysinfo: all checks passed"
exit $((fails > 0))
