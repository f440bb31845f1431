#!/usr/bin/env bash
# `vmsuite lab`: help from both spellings, and usage errors (exit 129) before anything is
# downloaded, booted or created.
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

expect_exit 0 "help lab" -- "$VMSUITE" help lab
expect_in "$out" "usage: vmsuite lab" "help lab"
expect_in "$out" "--kernel-package NAME" "help lab lists the options"
expect_exit 0 "lab --help" -- "$VMSUITE" lab --help
expect_in "$out" "usage: vmsuite lab" "lab --help"
expect_exit 0 "--help lists lab" -- "$VMSUITE" --help
expect_in "$out" "  lab " "--help lists lab"

# Without the script the help fails as the command does (exit 128), saying where it looked and
# how to get it. A copy of the binary outside the build tree has no libexec/ beside it.
mkdir -p alone/bin
cp "$VMSUITE" alone/bin/vmsuite
missing="$VMS_TEST_TMP/alone/$VMS_LIBEXECDIR/vmsuite/vmsuite-lab"
for how in "help lab" "lab --help" "lab -o d -- run"; do
  # shellcheck disable=SC2086 # the words of $how are the arguments
  expect_exit 128 "no script: $how" -- env -u VMSUITE_LAB_SCRIPT alone/bin/vmsuite $how
  expect_in "$err" "cannot find the lab script: looked for '$missing'" "no script: $how names the path"
  expect_in "$err" "cmake --install" "no script: $how says how to get it"
  [ -z "$out" ] && ok || fail "no script: $how printed help: $out"
done
expect_exit 128 "VMSUITE_LAB_SCRIPT missing" -- env VMSUITE_LAB_SCRIPT="$VMS_TEST_TMP/nothing" "$VMSUITE" help lab
expect_in "$err" "VMSUITE_LAB_SCRIPT names '$VMS_TEST_TMP/nothing', which is not an executable file" \
  "VMSUITE_LAB_SCRIPT missing: names it"

labdirs() { find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'vmsuite-lab.*' 2>/dev/null | sort; }
before=$(labdirs)
k=(--kernel-package linux-image-none-amd64)
expect_exit 129 "no kernel" -- "$VMSUITE" lab -o d -- run
expect_in "$err" "no kernel" "no kernel: says so"
expect_exit 129 "no -o" -- "$VMSUITE" lab "${k[@]}" -- run
expect_in "$err" "no output directory" "no -o: says so"
expect_exit 129 "no RUN-ARGS" -- "$VMSUITE" lab "${k[@]}" -o d
expect_exit 129 "not run" -- "$VMSUITE" lab "${k[@]}" -o d -- compare a b
expect_exit 129 "-o in RUN-ARGS" -- "$VMSUITE" lab "${k[@]}" -o d -- run -o x.json
expect_in "$err" "the lab sets -o itself" "-o in RUN-ARGS: says why"
expect_exit 129 "a missing MP3 in RUN-ARGS" -- "$VMSUITE" lab "${k[@]}" -o d -- run --with-audio /nonexistent.mp3
expect_in "$err" "cannot read the MP3" "a missing MP3: says so"
expect_exit 129 "--workdir in RUN-ARGS" -- "$VMSUITE" lab "${k[@]}" -o d -- run --workdir /tmp
expect_exit 129 "cloud flavour" -- "$VMSUITE" lab --kernel-package linux-image-6.1.0-1-cloud-amd64 -o d -- run
expect_in "$err" "without sound modules" "cloud: says why"
expect_exit 129 "not a kernel package" -- "$VMSUITE" lab --kernel-package bash -o d -- run
expect_exit 129 "--modules first" -- "$VMSUITE" lab --modules /tmp "${k[@]}" -o d -- run
expect_exit 129 "bad --accel" -- "$VMSUITE" lab "${k[@]}" --accel xen -o d -- run
expect_exit 129 "bad --mem" -- "$VMSUITE" lab "${k[@]}" --mem 12 -o d -- run
expect_exit 129 "bad --alternate" -- "$VMSUITE" lab "${k[@]}" --alternate 0 -o d -- run
expect_exit 129 "bad --swap" -- "$VMSUITE" lab "${k[@]}" --swap lots -o d -- run
expect_exit 129 "unknown option" -- "$VMSUITE" lab "${k[@]}" --frobnicate -o d -- run
expect_exit 129 "not a bzImage" -- "$VMSUITE" lab --kernel "$VMS_SOURCE_DIR/README.md" -o d -- run
expect_in "$err" "is not an x86 bzImage" "not a bzImage: says so"

# Package names are exact: apt-get download would expand a glob or a regular expression to
# every package it matches (gigabytes). A stand-in apt-get records a call and fails, so that
# nothing is downloaded whatever the lab does; the cache goes to the test's directory.
mkdir -p fakebin
printf '#!/bin/sh\necho "$@" >>"%s/apt-get.called"\nexit 100\n' "$VMS_TEST_TMP" >fakebin/apt-get
chmod +x fakebin/apt-get
lab_env=(env PATH="$VMS_TEST_TMP/fakebin:$PATH" XDG_CACHE_HOME="$VMS_TEST_TMP/cache")
for name in 'linux-image-6.1.0-*-amd64' 'linux-image-6.1.0-?-amd64' 'linux-image-[56]*' \
  'linux-image-6.1.0-(1|2)-amd64' '^linux-image-6.1.0-1-amd64$' 'Linux-Image-Amd64'; do
  expect_exit 129 "--kernel-package '$name'" -- "${lab_env[@]}" "$VMSUITE" lab --kernel-package "$name" -o d -- run
  expect_in "$err" "without glob or regex characters (got '$name')" "--kernel-package '$name': says why"
done
[ ! -e apt-get.called ] && ok || fail "apt-get was called: $(cat apt-get.called)"
[ ! -e cache ] && ok || fail "a refused package name made the cache directory"

# The environment: a TMPDIR that does not exist or cannot be written is a clear tool error
# (128), before anything is created
expect_exit 128 "TMPDIR missing" -- env TMPDIR="$VMS_TEST_TMP/nowhere" "${lab_env[@]}" "$VMSUITE" lab "${k[@]}" -o d -- run
expect_in "$err" "TMPDIR names '$VMS_TEST_TMP/nowhere', which is not a directory" "TMPDIR missing: says so"
touch afile
expect_exit 128 "TMPDIR a file" -- env TMPDIR="$VMS_TEST_TMP/afile" "${lab_env[@]}" "$VMSUITE" lab "${k[@]}" -o d -- run
expect_in "$err" "which is not a directory" "TMPDIR a file: says so"
# HOME unset takes the user's home from the password database: the lab goes on to its
# usual checks (here: a file that is not a bzImage, 129; 125 where QEMU or busybox is missing)
env -u HOME -u XDG_CACHE_HOME PATH="$VMS_TEST_TMP/fakebin:$PATH" "$VMSUITE" lab --kernel "$VMS_SOURCE_DIR/README.md" -o d -- run >out 2>err
got=$?
case $got in 129 | 125) ok ;; *) fail "HOME unset: exit $got, want 129 (or 125 without QEMU); stderr: $(cat err)" ;; esac
if grep -q "unbound variable" err; then fail "HOME unset: $(cat err)"; else ok; fi
[ ! -e apt-get.called ] && ok || fail "apt-get was called: $(cat apt-get.called)"

[ ! -e d ] && ok || fail "a usage error created the output directory"
[ "$(labdirs)" = "$before" ] && ok || fail "a lab temporary directory was left: $(labdirs)"
finish
