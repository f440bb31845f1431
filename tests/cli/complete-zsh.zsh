# Completes lines in a real interactive zsh (on a pty, zsh/zpty) with compinit and the
# _vmsuite in DIR, and appends each line's buffer after TAB, as "[BUFFER]", to OUT.
# usage: zsh -f complete-zsh.zsh DIR OUT LINE...
zmodload zsh/zpty || exit 1
dir=$1 out=$2
shift 2
: >$out
zpty z zsh -f -i
# the pty's output is read away so that the shell never blocks writing it
drain() { local junk; while zpty -rt z junk 2>/dev/null; do :; done }
zpty -w z "PS1='> '; fpath=($dir \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "dump() { print -r -- \"[\$BUFFER]\" >>$out; BUFFER=; }; zle -N dump; bindkey '^T' dump"
n=0
for l in "$@"; do
  zpty -w -n z "$l"$'\t'
  zpty -w -n z $'\C-t'
  n=$((n + 1))
  # no time limit of its own: ctest's timeout is the only one
  while drain; [[ $(wc -l <$out) -lt $n ]]; do sleep 0.1; done
done
zpty -w z "exit"
drain
zpty -d z
