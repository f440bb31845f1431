# `vmsuite completion zsh`: loaded by compinit in a real interactive zsh (on a pty), TAB
# completes commands, options, option values from the tables, and paths (complete-zsh.zsh).
. "$(dirname "$0")/lib.sh"

command -v zsh >/dev/null || skip_rest "zsh is not installed"
mkdir fn
expect_exit 0 "completion zsh" -- "$VMSUITE" completion zsh
printf '%s\n' "$out" >fn/_vmsuite
expect_in "$(head -1 fn/_vmsuite)" "#compdef vmsuite" "zsh script header"
zsh -n fn/_vmsuite && ok || fail "the zsh script does not parse"
touch base.json base.txt
# vmsuite itself need not be on PATH: compinit completes the command name's arguments
lines=("vmsuite rep" "vmsuite run --wi" "vmsuite run -w mt" "vmsuite run --thp=of"
  "vmsuite run --machine hr" "vmsuite report r.json --format kc" "vmsuite lab --accel tc"
  "vmsuite compare ba" "vmsuite probe --latency de" "vmsuite completion z")
want=("vmsuite report " "vmsuite run --with-audio=" "vmsuite run -w mtest01 "
  "vmsuite run --thp=off" "vmsuite run --machine hron2001 "
  "vmsuite report r.json --format kcidb " "vmsuite lab --accel tcg "
  "vmsuite compare base.json " "vmsuite probe --latency desktop " "vmsuite completion zsh ")
zsh -f "$VMS_SOURCE_DIR/tests/cli/complete-zsh.zsh" "$PWD/fn" "$PWD/buffers" "${lines[@]}" \
  && ok || fail "complete-zsh.zsh failed"
for i in "${!lines[@]}"; do
  got=$(sed -n "$((i + 1))p" buffers)
  [ "$got" = "[${want[$i]}]" ] && ok || fail "${lines[$i]}<TAB>: got $got, want [${want[$i]}]"
done
finish
