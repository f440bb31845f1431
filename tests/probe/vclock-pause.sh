#!/usr/bin/env bash
# Pause on the virtual clock device through alsa-lib (tests/probe/vclock-pause.c): the device
# advertises pause, the position stands still while paused for longer than the buffer holds,
# and after the release the stream runs on from there without an underrun, in the program's
# view and in the plugin's own log.
set -euo pipefail
plugin=$VMS_BINARY_DIR/audio-probe/libasound_module_pcm_vmsclock.so
helper=$VMS_BINARY_DIR/tests/probe/probe-vclock-pause
rm -rf "$VMS_TEST_TMP" && mkdir -p "$VMS_TEST_TMP" && cd "$VMS_TEST_TMP"
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$plugin" ] || fail "no plugin at $plugin"
[ -x "$helper" ] || fail "no helper at $helper"
cat > asound.conf <<CONF
pcm_type.vmsclock { lib "$plugin" }
pcm.vclock { type vmsclock log "$VMS_TEST_TMP/underruns.log" }
CONF
export ALSA_CONFIG_PATH=$VMS_TEST_TMP/asound.conf
# where possible the helper runs SCHED_FIFO, so that a loaded machine adds no underrun of its own
fifo=()
if [ "$(id -u)" = 0 ] && chrt -f 10 true 2>/dev/null; then fifo=(chrt -f 10); fi
"${fifo[@]}" "$helper" vclock || fail "pause and release through alsa-lib"
[ ! -s underruns.log ] || fail "the plugin logged underruns: $(cat underruns.log)"
echo "ok"
