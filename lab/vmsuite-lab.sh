#!/usr/bin/env bash
# vmsuite lab: boots each kernel under test in QEMU with vmsuite inside, runs `vmsuite RUN-ARGS`
# there, brings one result file per kernel and suite back and compares them. The C command
# `vmsuite lab` execs this script (installed in libexec/vmsuite) with VMSUITE_LAB_VMSUITE,
# VMSUITE_LAB_PLUGIN and VMSUITE_LAB_MP3 naming the vmsuite build to put in the guest.
# Host changes: files in one private temporary directory (removed on every exit path, and by
# the next lab run if this one was killed) and the download cache; no mounts, no loop devices.
# docs/kernel-lab.md is the user's guide.
# The whole script is one { ... } block, read by bash before it runs: replacing the file (an
# upgrade, an edit) while a lab runs cannot change what the running lab does.
{
set -euo pipefail

prog="vmsuite lab"
EXIT_FATAL=128
EXIT_USAGE=129

usage() {
  cat <<'EOF'
usage: vmsuite lab [--kernel IMAGE [--modules DIR]]... [--kernel-package NAME]...
                   [--mem MB] [--cpus N] [--swap SIZE] [--disk SIZE] [--accel auto|kvm|tcg]
                   [--kvm-trial S] [--alternate K] [--sound dummy|aloop|usb-audio] [--module NAME]...
                   [--timeout S] [--script FILE] [--verbose] -o DIR -- RUN-ARGS...

Boots each kernel in a QEMU virtual machine whose userland is this vmsuite build (busybox,
vmsuite, its libraries, ALSA plugin and sample MP3 in an initramfs), runs
`vmsuite RUN-ARGS` inside on a real kernel with real cgroup v2 and a kernel sound card
(snd-dummy), brings each result back and ends with `vmsuite compare` across the kernels
(the first one is the baseline). No reboot of the host, nothing mounted on it.

Kernels (in the order given; at least one):
  --kernel IMAGE         a bzImage: /boot/vmlinuz-RELEASE (modules from /lib/modules/RELEASE)
                         or a build tree's arch/x86/boot/bzImage (give --modules)
  --modules DIR          modules of the --kernel before it: a `make modules_install
                         INSTALL_MOD_PATH=DIR` tree, or the lib/modules/RELEASE directory
  --kernel-package NAME  a Debian linux-image-* package by its exact name (no globs), fetched
                         with `apt-get download` and cached under
                         ${XDG_CACHE_HOME:-~/.cache}/vmsuite/lab (not -cloud: it has no sound
                         modules)

Machine:
  --mem MB               guest memory (default 1024: the hron2001 machine's 512 MiB cgroup,
                         vmsuite and the initramfs)
  --cpus N               guest CPUs (default: 2, or fewer when the host has fewer)
  --swap SIZE            guest swap disk (default 1025M: the hron2001 machine's 1 GiB swap
                         and the swap header)
  --disk SIZE            work disk, ext4, sparse on the host (default 8G: the 2001 plan's
                         mmap001 file is 2 GB)
  --accel auto|kvm|tcg   auto (default): KVM when a trial boot shows it works within
                         --kvm-trial seconds (default 25), else TCG emulation, whose times are
                         emulated: compare kernels with each other, confirm on hardware
  --kvm-trial S          how long the KVM trial boot may take (default 25)
  --sound dummy|aloop|usb-audio
                         the guest's ALSA default card: snd-dummy (default), snd-aloop, or
                         QEMU's USB audio device with snd-usb-audio (a batch card; it plays
                         48 kHz only: give a 48 kHz MP3)
  --module NAME          load this module too (with its dependencies); repeatable
  --timeout S            stop a guest after S seconds (default 0: no limit)

Runs:
  --alternate K          K suites per kernel, booted in the order A B A B ...: drift during
                         the session then hits every kernel alike; compare takes each
                         kernel's suites as one side (A1 A2 -- B1 B2) and measures the drift
  --script FILE          run the sh script FILE in the guest instead of `vmsuite RUN-ARGS`
                         (VMSUITE names vmsuite, LAB_OUT a directory brought back; a
                         LAB_OUT/result.json is treated like a run's result)
  -o, --output DIR       where the results go (created; must not hold a previous lab's files)
  --verbose              show the guest console while it runs (it is always kept in DIR)

Output in DIR, per kernel and suite (RELEASE-SHA8-sK, SHA8 from the kernel image, so two
builds of one release never collide): .json (the result), .console.log (the guest's console),
.files/ (with --script: everything else the script left in LAB_OUT).

Exit status: with two or more kernels, `vmsuite compare`'s (0 no regression, 1 a primary
metric regressed, 2 cannot tell); with one, the guest's vmsuite's; 125 no KVM/QEMU or a
package cannot be had; 128 a guest gave no result (see its console log) or a tool error;
129 usage error; 130 interrupted.

Examples:
  vmsuite lab --kernel-package linux-image-6.1.0-57-amd64 \
              --kernel-package linux-image-6.12.117+deb12-amd64 -o lab1 -- run -w mtest01 -n 3
  vmsuite lab --kernel /boot/vmlinuz-$(uname -r) --kernel ~/linux/arch/x86/boot/bzImage \
              --modules ~/linux-mods --alternate 2 -o lab2 -- run --with-audio -n 3
See docs/kernel-lab.md.
EOF
}

say() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() {
  say "$*"
  exit "$EXIT_FATAL"
}
usage_error() {
  say "$*"
  echo "Try 'vmsuite lab --help'." >&2
  exit "$EXIT_USAGE"
}
# A command that fails unhandled (set -e) outside a function is a tool or environment error
# (a full disk, a missing directory): 128 with the command, not 1, which reads as a regression.
trap 'rc=$?; say "failed (exit $rc, line $LINENO): $BASH_COMMAND"; exit "$EXIT_FATAL"' ERR
# A size with an optional K/M/G suffix in MiB-based units, printed in bytes.
bytes_of() {
  local s=$1 n unit
  n=${s%[KkMmGg]}
  unit=${s#"$n"}
  [[ $n =~ ^[0-9]+$ ]] || return 1
  case $unit in
    "") echo "$n" ;;
    [Kk]) echo $((n * 1024)) ;;
    [Mm]) echo $((n * 1024 * 1024)) ;;
    [Gg]) echo $((n * 1024 * 1024 * 1024)) ;;
  esac
}

# ---- options ----
kernels=()  # "kind|what|modules": kind image or package
mem=1024
host_cpus=$(nproc)
cpus=$((host_cpus < 2 ? host_cpus : 2))
swap=1025M
disk=8G
accel=auto
kvm_trial=25
alternate=1
sound=dummy
extra_modules=()
timeout_s=0
script=""
outdir=""
verbose=0
need() { [ $# -ge 2 ] || usage_error "option '$1' needs a value"; }
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help)
      usage
      exit 0
      ;;
    --kernel)
      need "$@"
      kernels+=("image|$2|")
      shift 2
      ;;
    --modules)
      need "$@"
      [ ${#kernels[@]} -gt 0 ] && [[ ${kernels[-1]} == image\|*\| ]] ||
        usage_error "--modules goes after the --kernel it belongs to"
      kernels[-1]="${kernels[-1]}$2"
      shift 2
      ;;
    --kernel-package)
      need "$@"
      # one package by its exact name: apt-get download expands globs and regular
      # expressions to every package they match (linux-image-6.1.0-*-amd64: 33 of them)
      [[ $2 =~ ^[a-z0-9][a-z0-9+.-]*$ ]] ||
        usage_error "--kernel-package takes one package's exact name, without glob or regex characters (got '$2')"
      kernels+=("package|$2|")
      shift 2
      ;;
    --mem)
      need "$@"
      [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge 256 ] || usage_error "--mem takes MiB, at least 256 (got '$2')"
      mem=$2
      shift 2
      ;;
    --cpus)
      need "$@"
      [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "--cpus takes a positive number (got '$2')"
      cpus=$2
      shift 2
      ;;
    --swap)
      need "$@"
      bytes_of "$2" >/dev/null || usage_error "--swap takes a size such as 1G or 0 (got '$2')"
      swap=$2
      shift 2
      ;;
    --disk)
      need "$@"
      bytes_of "$2" >/dev/null && [ "$(bytes_of "$2")" -ge $((256 << 20)) ] ||
        usage_error "--disk takes a size of at least 256M (got '$2')"
      disk=$2
      shift 2
      ;;
    --accel)
      need "$@"
      case $2 in auto | kvm | tcg) accel=$2 ;; *) usage_error "--accel takes auto, kvm or tcg (got '$2')" ;; esac
      shift 2
      ;;
    --kvm-trial)
      need "$@"
      [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "--kvm-trial takes seconds (got '$2')"
      kvm_trial=$2
      shift 2
      ;;
    --alternate)
      need "$@"
      [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "--alternate takes a positive number (got '$2')"
      alternate=$2
      shift 2
      ;;
    --sound)
      need "$@"
      case $2 in dummy | aloop | usb-audio) sound=$2 ;; *) usage_error "--sound takes dummy, aloop or usb-audio (got '$2')" ;; esac
      shift 2
      ;;
    --module)
      need "$@"
      [[ $2 =~ ^[A-Za-z0-9_-]+$ ]] || usage_error "--module takes a module name (got '$2')"
      extra_modules+=("$2")
      shift 2
      ;;
    --timeout)
      need "$@"
      [[ $2 =~ ^[0-9]+$ ]] || usage_error "--timeout takes seconds (got '$2')"
      timeout_s=$2
      shift 2
      ;;
    --script)
      need "$@"
      [ -f "$2" ] && [ -r "$2" ] || usage_error "--script: '$2' is not a readable file"
      script=$(realpath "$2")
      shift 2
      ;;
    -o | --output)
      need "$@"
      outdir=$2
      shift 2
      ;;
    --verbose)
      verbose=1
      shift
      ;;
    --)
      shift
      break
      ;;
    *) usage_error "unknown option '$1' (RUN-ARGS go after --)" ;;
  esac
done
run_args=("$@")
[ ${#kernels[@]} -gt 0 ] || usage_error "no kernel: give --kernel IMAGE or --kernel-package NAME"
[ -n "$outdir" ] || usage_error "no output directory: give -o DIR"
if [ -z "$script" ]; then
  [ ${#run_args[@]} -gt 0 ] || usage_error "nothing to run: give the vmsuite arguments after --, e.g. -- run -n 3"
  case ${run_args[0]} in
    run | probe) ;;
    *) usage_error "RUN-ARGS must start with run or probe (got '${run_args[0]}')" ;;
  esac
  for a in "${run_args[@]}"; do
    case $a in
      -o | --output | --output=* | --workdir | --workdir=* | --label | --label=*)
        usage_error "RUN-ARGS: the lab sets ${a%%=*} itself (results go to -o DIR, the work directory is the guest's disk)"
        ;;
    esac
    [[ $a != *$'\n'* ]] || usage_error "RUN-ARGS: an argument holds a newline"
  done
elif [ ${#run_args[@]} -gt 0 ]; then
  usage_error "--script and RUN-ARGS exclude each other"
fi
# An MP3 named in RUN-ARGS (--with-audio FILE, or probe's FILE operand) is a host file: it is
# copied into the guest (/lab/audio/N.mp3) and the argument rewritten.
guest_args=()
audio_files=()
take_audio() {
  [ -f "$1" ] && [ -r "$1" ] || usage_error "RUN-ARGS: cannot read the MP3 '$1'"
  audio_files+=("$(realpath "$1")")
  guest_args+=("/lab/audio/${#audio_files[@]}.mp3")
}
if [ -z "$script" ]; then
  guest_args=("${run_args[0]}")
  j=1
  while [ $j -lt ${#run_args[@]} ]; do
    a=${run_args[j]}
    case $a in
      --with-audio=*)
        guest_args+=(--with-audio)
        take_audio "${a#--with-audio=}"
        guest_args[-1]="--with-audio=${guest_args[-1]}"
        ;;
      --with-audio)
        guest_args+=("$a")
        if [ $((j + 1)) -lt ${#run_args[@]} ] && [[ ${run_args[j + 1]} != -* ]]; then
          j=$((j + 1))
          take_audio "${run_args[j]}"
        fi
        ;;
      -*) guest_args+=("$a") ;;
      *)
        if [ "${run_args[0]}" = probe ] && [[ $a == *.[mM][pP]3 ]]; then
          take_audio "$a"
        else
          guest_args+=("$a")
        fi
        ;;
    esac
    j=$((j + 1))
  done
fi
[ "$(bytes_of "$swap")" -eq 0 ] || [ "$(bytes_of "$swap")" -ge $((40 << 10)) ] ||
  usage_error "--swap: too small for a swap area (give 0 for none)"

# ---- the environment: HOME (for the download cache) and TMPDIR ----
if [ -z "${HOME:-}" ]; then
  HOME=$(getent passwd "$(id -u)" | cut -d: -f6 || true)
  [ -n "$HOME" ] || die "HOME is not set and user $(id -u) has no home directory in the password database: set HOME or XDG_CACHE_HOME"
  export HOME
fi
if [ -n "${TMPDIR:-}" ]; then
  [ -d "$TMPDIR" ] || die "TMPDIR names '$TMPDIR', which is not a directory: create it or unset TMPDIR"
  [ -w "$TMPDIR" ] && [ -x "$TMPDIR" ] || die "TMPDIR names '$TMPDIR', where this user cannot create files"
fi

# ---- what the guest runs ----
vmsuite_bin=${VMSUITE_LAB_VMSUITE:-$(command -v vmsuite || true)}
[ -n "$vmsuite_bin" ] && [ -x "$vmsuite_bin" ] || die "cannot find the vmsuite binary (run me as 'vmsuite lab')"
plugin=${VMSUITE_LAB_PLUGIN:-}
mp3=${VMSUITE_LAB_MP3:-}
[ -n "$plugin" ] && [ -r "$plugin" ] || die "cannot find vmsuite's ALSA plugin (libasound_module_pcm_vmsclock.so; run me as 'vmsuite lab')"
[ -n "$mp3" ] && [ -r "$mp3" ] || die "cannot find vmsuite's sample MP3 (run me as 'vmsuite lab')"

skip() {
  say "$*"
  exit 125
}
for t in qemu-system-x86_64 busybox cpio mkfs.ext4 debugfs modprobe depmod mkswap; do
  command -v "$t" >/dev/null 2>&1 ||
    skip "needs $t (Debian: scripts/install-deps.sh installs qemu-system-x86, busybox-static, cpio, kmod, e2fsprogs)"
done
busybox_bin=$(command -v busybox)
if ldd "$busybox_bin" >/dev/null 2>&1; then
  skip "$busybox_bin is not a static busybox (Debian: busybox-static)"
fi

# ---- private temporary directory: removed on every exit path; a killed lab's by the next ----
tmp_base=${TMPDIR:-/tmp}
for stale in "$tmp_base"/vmsuite-lab.*; do
  [ -d "$stale" ] || continue
  owner=${stale#"$tmp_base"/vmsuite-lab.}
  owner=${owner%%.*}
  [[ $owner =~ ^[0-9]+$ ]] || continue
  [ -O "$stale" ] || continue
  if ! kill -0 "$owner" 2>/dev/null || ! grep -qs vmsuite-lab "/proc/$owner/cmdline"; then
    say "removing $stale, left by a lab run (pid $owner) that was killed"
    # its QEMU, if still running (identified by its pid file and its command line)
    qpid=$(cat "$stale/qemu.pid" 2>/dev/null || true)
    if [[ $qpid =~ ^[0-9]+$ ]] && grep -qsF "$stale/" "/proc/$qpid/cmdline"; then
      kill -TERM "$qpid" 2>/dev/null || true
    fi
    rm -rf -- "$stale"
  fi
done
tmp=$(mktemp -d "$tmp_base/vmsuite-lab.$$.XXXXXX") || die "cannot create a temporary directory in '$tmp_base'"
qemu_pid=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
    kill -TERM "$qemu_pid" 2>/dev/null || true
    wait "$qemu_pid" 2>/dev/null || true
  fi
  rm -rf -- "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM

cache=${XDG_CACHE_HOME:-$HOME/.cache}/vmsuite/lab
if compgen -G "$outdir/*.console.log" >/dev/null; then
  die "'$outdir' holds a previous lab's files: give a new directory"
fi

# ---- kernels ----
# The release string of a bzImage, from its setup header (offset 0x20e: the version string's
# offset minus 0x200; the string starts with the release).
image_release() {
  local img=$1 magic off
  magic=$(dd if="$img" bs=1 skip=$((0x202)) count=4 2>/dev/null)
  [ "$magic" = HdrS ] || return 1
  off=$(od -An -tu2 -j $((0x20e)) -N2 "$img" | tr -d ' ')
  dd if="$img" bs=1 skip=$((off + 0x200)) count=256 2>/dev/null | tr '\0' '\n' | head -n1 | cut -d' ' -f1
}

# fetch_package NAME: sets pkg_root (the unpacked package, depmod run) and pkg_image.
fetch_package() {
  local name=$1 deb unpack ver
  case $name in
    linux-image-*) ;;
    *) usage_error "--kernel-package: '$name' is not a linux-image-* package" ;;
  esac
  case $name in
    *-cloud-*) usage_error "--kernel-package: '$name' is the cloud flavour, built without sound modules; take the plain one" ;;
  esac
  mkdir -p "$cache/debs" || die "cannot create the download cache '$cache/debs'"
  deb=$(compgen -G "$cache/debs/${name}_*.deb" | sort -V | tail -n1 || true)
  if [ -z "$deb" ]; then
    say "downloading $name (cached in $cache/debs)"
    (cd "$cache/debs" && apt-get download -q "$name" >&2) || skip "cannot download $name with apt-get"
    deb=$(compgen -G "$cache/debs/${name}_*.deb" | sort -V | tail -n1 || true)
    [ -n "$deb" ] || skip "apt-get download $name gave no package file"
  fi
  ver=$(basename "$deb" .deb)
  pkg_root=$cache/root/$ver
  if [ ! -e "$pkg_root/.complete" ]; then
    say "unpacking $(basename "$deb")"
    rm -rf -- "$pkg_root"
    unpack=$(mktemp -d "$cache/root.$$.XXXXXX")
    dpkg-deb -x "$deb" "$unpack" || die "cannot unpack $deb"
    mkdir -p "$cache/root"
    mv "$unpack" "$pkg_root"
    local rel
    for rel in "$pkg_root"/lib/modules/*/; do
      depmod -b "$pkg_root" "$(basename "$rel")" || die "depmod failed for $pkg_root"
    done
    touch "$pkg_root/.complete"
  fi
  pkg_image=$(compgen -G "$pkg_root/boot/vmlinuz-*" | head -n1 || true)
  [ -n "$pkg_image" ] || die "$name holds no /boot/vmlinuz-*"
}

# Resolved kernels: parallel arrays.
k_image=() k_release=() k_modroot=() k_tag=()
for spec in "${kernels[@]}"; do
  IFS='|' read -r kind what mods <<<"$spec"
  modroot=""
  if [ "$kind" = package ]; then
    fetch_package "$what"
    image=$pkg_image
    modroot=$pkg_root
  else
    [ -r "$what" ] || usage_error "--kernel: cannot read '$what'"
    image=$(realpath "$what")
  fi
  release=$(image_release "$image") || usage_error "'$image' is not an x86 bzImage"
  if [ -n "$mods" ]; then
    [ -d "$mods" ] || usage_error "--modules: '$mods' is not a directory"
    mods=$(realpath "$mods")
    if [ -d "$mods/lib/modules/$release" ]; then
      modroot=$mods
    elif [ -e "$mods/modules.dep" ] || [ -e "$mods/modules.order" ]; then
      # the release directory itself: give modprobe a root around it
      modroot=$tmp/modroot-${#k_image[@]}
      mkdir -p "$modroot/lib/modules"
      ln -s "$mods" "$modroot/lib/modules/$release"
    else
      usage_error "--modules: '$mods' holds neither lib/modules/$release nor modules.dep"
    fi
  elif [ "$kind" = image ] && [ -d "/lib/modules/$release" ]; then
    modroot=/
  fi
  if [ -n "$modroot" ] && [ ! -e "$modroot/lib/modules/$release/modules.dep" ]; then
    usage_error "no modules.dep in $modroot/lib/modules/$release: run depmod -b $modroot $release"
  fi
  k_image+=("$image")
  k_release+=("$release")
  k_modroot+=("$modroot")
  k_tag+=("$release-$(sha256sum "$image" | cut -c1-8)")
done
# result labels: the release, or release-SHA8 when two kernels share a release
k_label=()
for i in "${!k_tag[@]}"; do
  n=0
  for r in "${k_release[@]}"; do [ "$r" != "${k_release[$i]}" ] || n=$((n + 1)); done
  if [ "$n" -gt 1 ]; then k_label+=("${k_tag[$i]}"); else k_label+=("${k_release[$i]}"); fi
done

# ---- initramfs: the part every kernel shares ----
common=$tmp/common
mkdir -p "$common"/{bin,dev,proc,sys,run,tmp,work,etc,root,lab,opt/vmsuite/bin,opt/vmsuite/lib/vmsuite,opt/vmsuite/share/vmsuite,lib/modules/lab,usr/share}
cp "$busybox_bin" "$common/bin/busybox"
cp "$vmsuite_bin" "$common/opt/vmsuite/bin/vmsuite"
cp "$plugin" "$common/opt/vmsuite/lib/vmsuite/libasound_module_pcm_vmsclock.so"
cp "$mp3" "$common/opt/vmsuite/share/vmsuite/sample.mp3"
[ -d /usr/share/alsa ] && cp -a /usr/share/alsa "$common/usr/share/alsa"
# the shared libraries of vmsuite and the plugin, at the paths the loader looks for them
for elf in "$vmsuite_bin" "$plugin"; do
  ldd "$elf" | awk '/=> \//{print $3} /^[[:space:]]*\//{print $1}'
done | sort -u | while read -r lib; do
  mkdir -p "$common$(dirname "$lib")"
  cp -L "$lib" "$common$lib"
done
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$common/etc/passwd"
if [ "$sound" = aloop ]; then
  # alsa-lib's default for the Loopback card (dmix) refuses to open (EINVAL): play to its
  # first device through plug instead
  printf 'pcm.!default { type plug slave.pcm "hw:Loopback,0" }\n' >"$common/etc/asound.conf"
elif [ "$sound" = usb-audio ]; then
  # the same for the USB card (dmix refuses too)
  printf 'pcm.!default { type plug slave.pcm "hw:Audio,0" }\n' >"$common/etc/asound.conf"
fi
printf 'root:x:0:\n' >"$common/etc/group"
[ -z "$script" ] || cp "$script" "$common/lab/script"
if [ ${#audio_files[@]} -gt 0 ]; then
  mkdir -p "$common/lab/audio"
  for j in "${!audio_files[@]}"; do cp "${audio_files[j]}" "$common/lab/audio/$((j + 1)).mp3"; done
fi
cat >"$common/init" <<'EOF'
#!/bin/busybox sh
# vmsuite lab guest init: mounts, modules, the work disk and swap, then vmsuite; powers off.
/bin/busybox --install -s /bin
export PATH=/bin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/shm /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
arg() { sed -n "s/.*vmsuite\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
while read -r m; do
  insmod "/lib/modules/lab/$m" || echo "lab: insmod $m failed"
done </lib/modules/lab/order
if [ "$(arg mode)" = trial ]; then
  echo "LAB-TRIAL-OK"
  poweroff -f
fi
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 /dev/vda /work || { echo "LAB-ERROR cannot mount the work disk"; poweroff -f; }
# the host's time at boot, for a kernel that did not read the RTC (-rtc base=utc)
t=$(cat /work/lab-time 2>/dev/null)
[ -n "$t" ] && [ "$(date +%s)" -lt "$t" ] && date -s "@$t" >/dev/null
[ -b /dev/vdb ] && swapon /dev/vdb
# a USB card appears once the bus is enumerated, after its modules load
i=0
while ! grep -q '^ *[0-9]' /proc/asound/cards 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mkdir -p /work/out /work/wd
cd /work/wd
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
export VMSUITE=/opt/vmsuite/bin/vmsuite LAB_OUT=/work/out
echo "LAB-START kernel $(uname -r), $(grep -q " /sys/fs/cgroup cgroup2 " /proc/mounts && echo "cgroup v2"), sound: $(cat /proc/asound/cards 2>/dev/null | head -n1)"
if [ -f /lab/script ]; then
  sh /lab/script
  rc=$?
else
  set --
  while IFS= read -r a; do set -- "$@" "$a"; done </lab/args
  "$VMSUITE" "$@"
  rc=$?
fi
echo "$rc" >/work/out/rc
[ -b /dev/vdb ] && swapoff /dev/vdb
cd /
sync
umount /work
echo "LAB-DONE rc=$rc"
poweroff -f
EOF
chmod 755 "$common/init"
(cd "$common" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$tmp/common.cpio"

# ---- initramfs: each kernel's modules ----
# zram: for `run --swap-kind zram` in the guest; loaded where the kernel has it
want_modules=(virtio_pci virtio_blk ext4 crc32c_generic zram "snd-$sound" "${extra_modules[@]}")
[ "$sound" = usb-audio ] && want_modules+=(xhci_pci)
build_modules() { # INDEX: writes $tmp/modules-INDEX.cpio
  local i=$1 root=${k_modroot[$1]} rel=${k_release[$1]} stage=$tmp/mods-$1 m line path base
  mkdir -p "$stage/lib/modules/lab" "$stage/lab"
  : >"$stage/lib/modules/lab/order"
  if [ -z "$script" ]; then
    # the guest's command line: RUN-ARGS plus where the result goes and the kernel's label
    {
      echo "${run_args[0]}"
      echo -o
      echo /work/out/result.json
      if [ "${run_args[0]}" = run ]; then
        printf '%s\n' --label "${k_label[$i]}" --workdir /work/wd
      fi
      printf '%s\n' "${guest_args[@]:1}"
    } >"$stage/lab/args"
  fi
  if [ -n "$root" ]; then
    for m in "${want_modules[@]}"; do
      if ! out=$(modprobe -d "$root" -S "$rel" --show-depends "$m" 2>&1); then
        case $m in
          crc32c_generic | zram) continue ;;
        esac
        die "kernel $rel: module $m is neither built in nor in $root/lib/modules/$rel ($out)"
      fi
      while read -r line; do
        case $line in
          insmod\ *)
            path=${line#insmod }
            path=${path%% *}
            base=$(basename "$path")
            base=${base%.xz}
            base=${base%.zst}
            base=${base%.gz}
            grep -qxF "$base" "$stage/lib/modules/lab/order" && continue
            case $path in
              *.xz) xz -dc "$path" >"$stage/lib/modules/lab/$base" ;;
              *.zst) zstd -qdc "$path" >"$stage/lib/modules/lab/$base" ;;
              *.gz) gzip -dc "$path" >"$stage/lib/modules/lab/$base" ;;
              *) cp "$path" "$stage/lib/modules/lab/$base" ;;
            esac || die "cannot unpack module $path"
            echo "$base" >>"$stage/lib/modules/lab/order"
            ;;
        esac
      done <<<"$out"
    done
  else
    say "kernel $rel: no modules directory; virtio_blk, ext4 and snd-$sound must be built in"
  fi
  (cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$tmp/modules-$i.cpio"
  cat "$tmp/common.cpio" "$tmp/modules-$i.cpio" >"$tmp/initrd-$i.cpio"
}
for i in "${!k_image[@]}"; do
  build_modules "$i"
done

# ---- booting ----
# boot INDEX MODE LOG TIMEOUT [DISK SWAP]: runs QEMU; returns its status.
boot() {
  local i=$1 mode=$2 log=$3 limit=$4 disk_img=${5:-} swap_img=${6:-} cpu=max
  local args=()
  # no_timer_check: under TCG on a loaded host the IO-APIC timer test can miss its ticks and
  # panic the boot ("IO-APIC + timer doesn't work!", seen with Debian's 6.12.117)
  [ "$accel_used" = kvm ] && cpu=host
  args=(-machine "pc,accel=$accel_used" -cpu "$cpu" -m "$mem" -smp "$cpus" -nodefaults
    -display none -no-reboot -serial stdio -monitor none -rtc base=utc -pidfile "$tmp/qemu.pid"
    -kernel "${k_image[$i]}" -initrd "$tmp/initrd-$i.cpio"
    -append "console=ttyS0 panic=-1 quiet loglevel=4 no_timer_check vmsuite.mode=$mode")
  [ -n "$disk_img" ] && args+=(-drive "file=$disk_img,format=raw,if=virtio")
  [ -n "$swap_img" ] && args+=(-drive "file=$swap_img,format=raw,if=virtio")
  [ "$sound" = usb-audio ] && args+=(-audiodev none,id=snd0 -device qemu-xhci -device usb-audio,audiodev=snd0)
  local tcmd=()
  [ "$limit" -gt 0 ] && tcmd=(timeout -k 5 "$limit")
  if [ "$verbose" = 1 ]; then
    "${tcmd[@]}" qemu-system-x86_64 "${args[@]}" </dev/null > >(tee "$log") 2>&1 &
  else
    "${tcmd[@]}" qemu-system-x86_64 "${args[@]}" </dev/null >"$log" 2>&1 &
  fi
  qemu_pid=$!
  local rc=0
  wait "$qemu_pid" 2>/dev/null || rc=$?
  qemu_pid=""
  return "$rc"
}

accel_used=tcg
if [ "$accel" != tcg ]; then
  if [ -w /dev/kvm ]; then
    accel_used=kvm
    say "trial boot with KVM (at most ${kvm_trial} s)"
    if boot 0 trial "$tmp/trial.log" "$kvm_trial" && grep -q LAB-TRIAL-OK "$tmp/trial.log"; then
      say "KVM works: hardware-speed guests"
    else
      why=$(grep -m1 '^qemu-system' "$tmp/trial.log" || echo "no boot within ${kvm_trial} s")
      [ "$accel" != kvm ] || die "--accel kvm: the KVM trial guest failed: $why"
      say "KVM trial failed: $why"
      accel_used=tcg
    fi
  elif [ "$accel" = kvm ]; then
    skip "--accel kvm: /dev/kvm is missing or not writable"
  fi
fi
if [ "$accel_used" = tcg ]; then
  say "NOTE: no working KVM here: guests run under TCG emulation. Their times are emulated, not"
  say "      hardware times: use them to compare these kernels with each other and for function;"
  say "      confirm a difference on hardware."
fi

mkdir -p "$outdir" || die "cannot create '$outdir'"
outdir=$(realpath "$outdir")
swap_bytes=$(bytes_of "$swap")
status=0
missing=0
no_result=0
for s in $(seq 1 "$alternate"); do
  for i in "${!k_image[@]}"; do
    name=${k_tag[$i]}-s$s
    log=$outdir/$name.console.log
    disk_img=$tmp/disk.img
    swap_img=""
    rm -f -- "$disk_img" "$tmp/swap.img"
    truncate -s "$disk" "$disk_img"
    rm -rf -- "$tmp/seed"
    mkdir -p "$tmp/seed"
    date +%s >"$tmp/seed/lab-time"
    mkfs.ext4 -q -F -N 8192 -E lazy_itable_init=0,lazy_journal_init=0 -L vmsuite-lab \
      -d "$tmp/seed" "$disk_img" ||
      die "mkfs.ext4 failed on $disk_img"
    if [ "$swap_bytes" -gt 0 ]; then
      swap_img=$tmp/swap.img
      truncate -s "$swap_bytes" "$swap_img"
      mkswap -q "$swap_img" >/dev/null || die "mkswap failed on $swap_img"
    fi
    say "booting ${k_release[$i]} (${k_tag[$i]}), suite $s of $alternate, $accel_used, ${mem} MiB, $cpus CPUs"
    t0=$(date +%s)
    qrc=0
    boot "$i" run "$log" "$timeout_s" "$disk_img" "$swap_img" || qrc=$?
    t1=$(date +%s)
    # results back from the ext4 image without mounting it
    rm -rf -- "$tmp/back"
    mkdir -p "$tmp/back"
    debugfs -R "rdump /out $tmp/back" "$disk_img" >/dev/null 2>&1 || true
    rm -f -- "$disk_img" "$tmp/swap.img"
    grc=$(cat "$tmp/back/out/rc" 2>/dev/null || echo "")
    if [ -f "$tmp/back/out/result.json" ]; then
      mv "$tmp/back/out/result.json" "$outdir/$name.json"
    elif [ -z "$script" ] || [ -z "$grc" ]; then
      missing=$((missing + 1))
    else
      no_result=1 # a script that wrote no result.json: nothing to compare
    fi
    if [ -n "$script" ]; then
      rm -f -- "$tmp/back/out/rc"
      mkdir -p "$outdir/$name.files"
      cp -a "$tmp/back/out/." "$outdir/$name.files/"
    fi
    if [ -z "$grc" ]; then
      if [ "$qrc" -eq 124 ]; then
        say "  ${k_release[$i]}: stopped after --timeout $timeout_s s; console: $log"
      else
        say "  ${k_release[$i]}: the guest ended without a result (qemu status $qrc); console: $log"
      fi
      tail -n 15 "$log" | sed 's/^/    | /' >&2 || true
      status=$EXIT_FATAL
    else
      say "  ${k_release[$i]}: vmsuite exited $grc after $((t1 - t0)) s (boot included); $name.json, $name.console.log"
      [ "$status" -ne 0 ] || [ "$grc" -eq 0 ] || status=$grc
    fi
  done
done

[ "$missing" -eq 0 ] || die "$missing of $((alternate * ${#k_image[@]})) suites gave no result file (see the console logs in $outdir)"

# ---- compare across kernels, first = baseline ----
if [ ${#k_image[@]} -lt 2 ] || [ "$no_result" = 1 ]; then
  exit "$status"
fi
# With --alternate, each kernel is one side made of its suites: compare pools a side's runs and
# measures the drift between suites (`compare A1 A2 -- B1 B2`, docs/compare.md).
files=()
for i in "${!k_image[@]}"; do
  [ "$i" -eq 0 ] || [ "$alternate" -eq 1 ] || files+=(--)
  for s in $(seq 1 "$alternate"); do files+=("$outdir/${k_tag[$i]}-s$s.json"); done
done
echo
if [ "$alternate" -gt 1 ]; then
  echo "== vmsuite compare: ${k_release[*]} (first = baseline), $alternate suites per kernel as one side =="
else
  echo "== vmsuite compare: ${k_release[*]} (first = baseline) =="
fi
crc=0
"$vmsuite_bin" compare "${files[@]}" || crc=$?
exit "$crc"
}
