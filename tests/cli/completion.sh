# `vmsuite completion bash|zsh`: the bash script, loaded in bash, offers what the option tables
# hold (driven through COMP_WORDS/COMP_CWORD as bash's programmable completion calls it), and
# every option of every command's --help is among its candidates, and nothing else is: the
# script cannot drift from the parser. completion_zsh.sh checks the zsh script.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "completion bash" -- "$VMSUITE" completion bash
printf '%s\n' "$out" >vmsuite.bash
bash -n vmsuite.bash && ok || fail "the bash script does not parse"
expect_exit 129 "completion without a shell" -- "$VMSUITE" completion
expect_in "$err" "which shell?" "no shell"
expect_exit 129 "completion fish" -- "$VMSUITE" completion fish
expect_in "$err" "no completion for 'fish' (bash or zsh)" "unknown shell"

# offered WORD...: the candidates for the last word of `vmsuite WORD...` (the words as bash
# splits them: "--format=js" is "--format" "=" "js"), one per line
offered() {
  bash -c '
    script=$1
    shift
    . "$script" || exit 1
    [ "$(complete -p vmsuite)" = "complete -F _vmsuite vmsuite" ] || exit 2
    COMP_WORDS=(vmsuite "$@")
    COMP_CWORD=$#
    COMP_LINE="vmsuite $*"
    COMP_POINT=${#COMP_LINE}
    _vmsuite vmsuite "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$VMS_TEST_TMP/vmsuite.bash" "$@" | sort
}

# expect_offered "WORDS" "CANDIDATES": exactly these candidates, sorted, space-separated; a
# space at the end of WORDS is an empty word to complete
expect_offered() {
  local words=$1 want=$2 got
  local -a w
  read -ra w <<<"$words"
  [ "${words: -1}" = " " ] && w+=("")
  got=$(offered "${w[@]}" | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] && ok || fail "vmsuite $words<TAB>: got '$got', want '$want'"
}

expect_offered "run --wi" "--with-audio"
expect_offered "run -w mt" "mtest01"
expect_offered "run -w mm" "mmap001 mmap002"
expect_offered "run --machine " "host hron2001"
expect_offered "run --swap-file " "auto no yes"
expect_offered "run --thp o" "off off,kernel"
expect_offered "run -n a" "auto"
expect_offered "run --latency " "2001 desktop pro"
expect_offered "run --metric = elapsed" "elapsed_s"
expect_offered "run --label " ""
# old spellings are accepted until the next release, never offered
expect_offered "run --fo" ""
expect_offered "run --ov" "--overwrite"
expect_offered "compare a.json --ig" "--ignore-hard-differences"
expect_offered "probe --cpu" ""
expect_offered "co" "compare completion"
expect_offered "help r" "report run"
expect_offered "completion " "bash zsh"
expect_offered "report r.json --format " "html json kcidb lava markdown text"
expect_offered "compare a.json --format = j" "json"
expect_offered "compare a.json --format =" "html json markdown text"
expect_offered "probe --de" "--device"
expect_offered "sysinfo --format " "json text"
expect_offered "lab --accel " "auto kvm tcg"
# paths: files for -o, result files (and directories) for --against and compare's operands
mkdir sub
touch base.json base.txt song.mp3
expect_offered "run -o ba" "base.json base.txt"
expect_offered "run --against ba" "base.json"
expect_offered "compare " "base.json sub"
expect_offered "run --workdir s" "sub"
expect_offered "run --with-audio so" "song.mp3"
expect_offered "run --with-audio --la" "--label --latency"

# Every option of every command's --help is offered after "-", and nothing that is not in it
# (besides -h and --help, which every command takes).
expect_exit 0 "vmsuite --help" -- "$VMSUITE" --help
cmds=$(printf '%s\n' "$out" | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$cmds" ] && ok || fail "no commands in vmsuite --help"
for c in $cmds; do
  [ -n "$(offered "${c:0:3}" | grep -x "$c")" ] && ok || fail "command $c is not completed"
  help=$("$VMSUITE" help "$c" 2>&1)
  # option lines: "  -o, --output FILE  ...", "      --name ..." (lab's: "  --name ..."),
  # not the continuation lines under them
  want=$(printf '%s\n' "$help" |
    sed -nE 's/^  (-([a-zA-Z0-9]), |    )?--([a-z0-9-]+).*/--\3 -\2/p' |
    tr ' ' '\n' | grep -vx -- '-' | sort -u)
  got=$(offered "$c" - | grep -vxE -- '--help|-h' | sort -u)
  if [ "$c" = lab ] && [ -z "$want" ]; then
    continue # the lab script is not there: no options either way
  fi
  [ -n "$want" ] || [ "$c" = list ] || [ "$c" = cleanup ] || [ "$c" = completion ] ||
    fail "no options found in vmsuite help $c"
  missing=$(comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$got") | tr '\n' ' ')
  extra=$(comm -13 <(printf '%s\n' "$want") <(printf '%s\n' "$got") | tr '\n' ' ')
  [ -z "$missing" ] && ok || fail "$c: in --help but not completed: $missing"
  [ -z "$extra" ] && ok || fail "$c: completed but not in --help: $extra"
done

finish
