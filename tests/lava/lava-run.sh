#!/usr/bin/env bash
# The real LAVA dispatcher (Debian's lava-dispatcher, `lava-run`) runs lava/sample-job.yaml on
# the QEMU device of lava/qemu-device.yaml (TCG, no KVM): a Debian kernel and a cpio.newc
# ramdisk with this build's vmsuite baked in, to which LAVA appends its own overlay (the test
# definition from a git repository made of this source tree's lava/, and LAVA's helpers).
# Asserts on what LAVA itself records (its `lvl: results` log lines): the test cases and their
# measurements. `lava-run --validate` of the sample job runs whenever lava-run is installed;
# the run itself needs qemu-system-x86_64, a static busybox, cpio and a kernel image
# (VMS_LAVA_KERNEL, else /boot/vmlinuz-*). Skips, saying why, when something is missing.
# The job plays the sample MP3 on the virtual clock device (AUDIO: true, arriving as True).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

command -v lava-run >/dev/null 2>&1 ||
  skip_rest "no lava-run (Debian: apt-get install lava-dispatcher); LAVA's run not tried"

# fill_job KERNEL RAMDISK REPOSITORY: the sample job with its @...@ words filled in
fill_job() {
  sed -e "s|@KERNEL@|$1|" -e "s|@RAMDISK@|$2|" -e "s|@REPOSITORY@|$3|" \
    "$VMS_SOURCE_DIR/lava/sample-job.yaml"
}
device=$VMS_SOURCE_DIR/lava/qemu-device.yaml
# lava-run works in /var/lib/lava/dispatcher/tmp/JOB-ID: a job id of our own, and its
# directory removed on every exit (a finished job removes it; --validate leaves it)
jobid=$$
lava_tmp=/var/lib/lava/dispatcher/tmp/$jobid
[ ! -e "$lava_tmp" ] || skip_rest "$lava_tmp exists already (another lava-run with job id $jobid?)"
trap 'rm -rf "$lava_tmp"' EXIT

# --- the test definition as a git repository (LAVA clones it) ---------------------------------
mkdir -p repo/scripts
cp -r "$VMS_SOURCE_DIR/lava" repo/
rm -rf repo/lava/output
cp "$VMS_SOURCE_DIR/scripts/deps.txt" repo/scripts/
if git -C repo init -q && git -C repo add -A &&
  git -C repo -c user.name=vmsuite -c user.email=test@vmsuite.invalid commit -qm definition; then ok; else
  fail "cannot make the definition's git repository"
fi

# --- validate ---------------------------------------------------------------------------------
kernel=${VMS_LAVA_KERNEL:-}
if [ -z "$kernel" ]; then
  for k in /boot/vmlinuz-*; do [ -r "$k" ] && kernel=$k; done
fi
touch placeholder
fill_job "${kernel:-$VMS_TEST_TMP/placeholder}" "$VMS_TEST_TMP/ramdisk.cpio" "$VMS_TEST_TMP/repo" >job.yaml
touch ramdisk.cpio
if lava-run --validate --job-id "$jobid" --output-dir "$VMS_TEST_TMP/validate" --device "$device" \
  job.yaml >validate.out 2>&1; then ok; else
  fail "lava-run --validate of lava/sample-job.yaml: $(grep -E '"lvl": "(error|exception)"|"result": "fail"' validate.out | tail -5)"
fi
rm -f ramdisk.cpio

# --- what the run needs -----------------------------------------------------------------------
[ -n "$kernel" ] || skip_rest "no kernel image (VMS_LAVA_KERNEL or /boot/vmlinuz-*): LAVA's run not tried"
for t in qemu-system-x86_64 busybox cpio; do
  command -v "$t" >/dev/null 2>&1 ||
    skip_rest "needs $t (Debian: qemu-system-x86, busybox-static, cpio): LAVA's run not tried"
done
busybox_bin=$(command -v busybox)
! ldd "$busybox_bin" >/dev/null 2>&1 ||
  skip_rest "$busybox_bin is not a static busybox (Debian: busybox-static): LAVA's run not tried"

# --- the ramdisk: busybox, vmsuite installed under /opt/vmsuite (its ALSA plugin, the sample
# MP3, alsa-lib's configuration) with their libraries, an init that gives a shell -----------
plugin=$VMS_BINARY_DIR/audio-probe/libasound_module_pcm_vmsclock.so
mp3=$VMS_SOURCE_DIR/data/sample.mp3
[ -r "$plugin" ] || fail "no $plugin in the build tree"
[ -r "$mp3" ] || fail "no $mp3"
[ -d /usr/share/alsa ] || skip_rest "no /usr/share/alsa (alsa-lib's configuration): LAVA's run not tried"
# where an installed vmsuite looks for them: <prefix>/<libdir>/vmsuite, <prefix>/<datadir>/vmsuite
rel() { sed -n "s/^#define VMS_INSTALL_$1_REL \"\(.*\)\"$/\1/p" "$VMS_BINARY_DIR/core/version.h"; }
libdir=$(rel LIBDIR) datadir=$(rel DATADIR)
if [ -z "$libdir" ] || [ -z "$datadir" ]; then
  fail "no VMS_INSTALL_LIBDIR_REL or _DATADIR_REL in $VMS_BINARY_DIR/core/version.h"
fi
root=$VMS_TEST_TMP/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,usr/share,dev,proc,sys,tmp,run,root,etc} \
  "$root/opt/vmsuite/bin" "$root/opt/vmsuite/$libdir/vmsuite" "$root/opt/vmsuite/$datadir/vmsuite"
cp "$busybox_bin" "$root/bin/busybox"
cp "$VMSUITE" "$root/opt/vmsuite/bin/vmsuite"
cp "$plugin" "$root/opt/vmsuite/$libdir/vmsuite/"
cp "$mp3" "$root/opt/vmsuite/$datadir/vmsuite/sample.mp3"
cp -a /usr/share/alsa "$root/usr/share/alsa"
for elf in "$VMSUITE" "$plugin"; do ldd "$elf"; done | awk '/=> \//{print $3} /^[[:space:]]*\//{print $1}' | sort -u |
  while read -r lib; do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"
cat >"$root/init" <<'EOF'
#!/bin/busybox sh
# the guest of tests/lava/lava-run.sh: mounts, then a root shell on the console for LAVA
/bin/busybox --install -s
export PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
cd /root
export PS1='vmsuite-guest# '
exec setsid cttyhack /bin/sh -i
EOF
chmod 755 "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >ramdisk.cpio ||
  fail "cannot pack the ramdisk"

# --- the runs: signals on stdout (LAVA's default), then through /dev/kmsg -------------------
# (`lava-signal: kmsg` on the definition: LAVA exports KMSG, and its helpers write the signal
# lines to /dev/kmsg, so they reach the console as kernel messages)
for mode in stdout kmsg; do
  fill_job "$kernel" "$VMS_TEST_TMP/ramdisk.cpio" "$VMS_TEST_TMP/repo" >job-$mode.yaml
  if [ $mode = kmsg ]; then
    sed -i 's/^      name: vmsuite$/&\n      lava-signal: kmsg/' job-$mode.yaml
    expect_in "$(cat job-$mode.yaml)" "lava-signal: kmsg" "the kmsg job"
  fi
  log=lava-$mode.log results=results-$mode.txt
  timeout 600 lava-run --job-id "$jobid" --output-dir "$VMS_TEST_TMP/out-$mode" --device "$device" \
    job-$mode.yaml >$log 2>&1
  rc=$?
  echo "lava-run ($mode) exited with $rc; its log: $VMS_TEST_TMP/$log"
  # LAVA's own records: one YAML flow mapping per log line (JSON, but a result's figures carry
  # YAML's `!` tag); the results are the lvl: results ones, written "definition case result
  # measurement units set"
  python3 - $log >$results 2>results.err <<'PY'
import sys, yaml
for line in open(sys.argv[1], errors="replace"):
    if not line.startswith("{"):
        continue
    try:
        rec = yaml.safe_load(line)
    except yaml.YAMLError:
        continue
    if not isinstance(rec, dict) or rec.get("lvl") != "results":
        continue
    m = rec["msg"]
    print(m.get("definition"), m.get("case"), m.get("result"), m.get("measurement", ""),
          m.get("units", ""), m.get("set", ""))
PY
  res=$(cat $results)
  if ! grep -q '^0_vmsuite ' $results; then
    # no case from the test definition: the guest did not get as far; say which action failed
    failed=$(grep -E "^lava [a-z0-9-]+ fail" $results | head -3)
    if grep -qE "^lava (auto-login-action|boot-qemu-image|qemu-boot|boot-image-retry|login-action|expect-shell-connection) fail" $results; then
      skip_rest "the guest did not boot under LAVA here: $failed; $(grep -E '"lvl": "error"' $log | tail -2)"
    fi
    fail "LAVA ($mode) recorded no vmsuite case (lava-run exit $rc): $failed; $(grep -E '"lvl": "(error|exception)"' $log | tail -3)"
    continue
  fi
  # the cases, each with the measurement LAVA recorded; the sound ones: AUDIO: true (True) ran
  # the probe
  for re in '^0_vmsuite vmsuite-run pass 0(\.0+)? exit-status $' \
    '^0_vmsuite mtest01-runs pass 0(\.0+)? failed-runs mtest01$' \
    '^0_vmsuite mtest01-elapsed-s pass [0-9.]+ s mtest01$' \
    '^0_vmsuite mtest01-major-faults pass [0-9.]+ faults mtest01$' \
    '^0_vmsuite mtest01-sound-rating pass [0-9.]+ score mtest01$' \
    '^0_vmsuite mtest01-underruns pass [0-9.]+ count mtest01$' \
    '^lava 0_vmsuite pass ' '^lava job pass '; do
    if grep -Eq -- "$re" $results; then ok; else fail "LAVA ($mode) did not record /$re/ in: $res"; fi
  done
  # a measurement is a real figure: mtest01 took some time
  el=$(awk '$2 == "mtest01-elapsed-s" {print $4}' $results)
  if awk -v e="$el" 'BEGIN { exit !(e > 0) }'; then ok; else fail "($mode) mtest01-elapsed-s is '$el'"; fi
  # the params as LAVA passed them: booleans as True, the label with a ' whole
  expect_in "$(cat $log)" "-a True" "($mode) AUDIO as LAVA passes it"
  expect_in "$(cat $log)" "-s True -v /opt/vmsuite/bin/vmsuite" "($mode) SKIP_INSTALL as LAVA passes it"
  expect_in "$(cat $log)" "--label lava-run's guest" "($mode) the label with a ' reached vmsuite"
  # where the signal lines came from: the shell's output, or kernel messages ("[  7.96] <LAVA...")
  if [ $mode = kmsg ]; then sig='"msg": "\[ *[0-9.]+\] <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=mtest01-runs '; else
    sig='"msg": "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=mtest01-runs '
  fi
  if grep -Eq "$sig" $log; then ok; else fail "($mode) no signal line /$sig/ in $log"; fi
done
finish
