# Shared by the root-only host-state tests: skip (exit 77) unless a run here gets the emulated
# machine's memory cgroup; find the cgroup parent; a trap that restores the host whatever
# happens (kills the runs we started, removes their cgroups and journal records).
. "$VMS_SOURCE_DIR/tests/cli/lib.sh"

# a journal and lock of this test's own: every vmsuite run repairs the journal it uses, so runs
# of tests going on at the same time would repair this test's records before it looks
export VMSUITE_STATE_DIR=$VMS_TEST_TMP/state
state=$VMSUITE_STATE_DIR
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: needs root (memory cgroups, $state)"
  exit 77
fi
cgroup_parent() {
  local line
  line=$(grep -E '^[0-9]+:memory:' /proc/self/cgroup | cut -d: -f3)
  if [ -n "$line" ] && [ -d "/sys/fs/cgroup/memory$line" ]; then
    echo "/sys/fs/cgroup/memory${line%/}"
  else
    echo "/sys/fs/cgroup$(grep -E '^0::' /proc/self/cgroup | cut -d: -f3)"
  fi
}
parent=$(cgroup_parent)
if ! "$VMSUITE" run --machine hron2001 --mem-limit 64M -w mtest01:bytes=1M -n 1 -q -o probe.json \
  2>probe.err; then
  echo "SKIP: no memory cgroup for the emulated machine here: $(cat probe.err)"
  exit 77
fi

started=() # pids of the runs this test started
restore_host() {
  local p
  for p in "${started[@]}"; do
    kill -KILL "$p" 2>/dev/null
  done
  wait 2>/dev/null
  for p in "${started[@]}"; do
    # children die with the run (PR_SET_PDEATHSIG); then the cgroup can go
    for _ in $(seq 1 50); do
      [ -d "$parent/vmsuite-$p" ] || break
      rmdir "$parent/vmsuite-$p" 2>/dev/null || sleep 0.1
    done
    rm -f "$state/journal/$p-"*.json
  done
  rm -f "$VMS_TEST_TMP"/.vmsuite-*
}
trap restore_host EXIT


has_record() { compgen -G "$state/journal/$1-*.json" >/dev/null; }

# cgroup_empty DIR: no task is left in the cgroup DIR (v1 tasks, v2 cgroup.procs)
cgroup_empty() {
  local f=$1/tasks
  [ -e "$f" ] || f=$1/cgroup.procs
  [ -z "$(cat "$f" 2>/dev/null)" ]
}
