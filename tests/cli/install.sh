# `cmake --install` into a fresh prefix gives a working vmsuite: the installed binary finds the
# installed plugin and sample MP3 (not the build tree's), the man page, the guides and the shell
# completion are there, and `vmsuite lab` finds the installed lab script.
. "$(dirname "$0")/lib.sh"

prefix=$VMS_TEST_TMP/prefix
cmake --install "$VMS_BINARY_DIR" --prefix "$prefix" >/dev/null 2>install.err && ok || fail "install: $(cat install.err)"
for f in bin/vmsuite share/man/man1/vmsuite.1 share/vmsuite/sample.mp3; do
  [ -e "$prefix/$f" ] && ok || fail "$f not installed"
done
# the guides the man page's SEE ALSO names
for f in "$VMS_SOURCE_DIR"/docs/*.md; do
  [ -e "$prefix/share/doc/vmsuite/${f##*/}" ] && ok || fail "docs/${f##*/} not installed"
done
# the completion, as the installed binary makes it (bash-completion's directory under the
# prefix unless its pkg-config file names another; zsh's site-functions)
bash_dir=$(pkg-config --define-variable=prefix="$prefix" --variable=completionsdir \
  bash-completion 2>/dev/null) || bash_dir=$prefix/share/bash-completion/completions
cmp -s "$bash_dir/vmsuite" <("$prefix/bin/vmsuite" completion bash) && ok ||
  fail "$bash_dir/vmsuite is not the installed vmsuite's bash completion"
cmp -s "$prefix/share/zsh/site-functions/_vmsuite" <("$prefix/bin/vmsuite" completion zsh) &&
  ok || fail "share/zsh/site-functions/_vmsuite is not the installed vmsuite's zsh completion"
ls "$prefix"/lib*/vmsuite/libasound_module_pcm_vmsclock.so >/dev/null 2>&1 && ok || fail "plugin not installed"
expect_exit 0 "installed --version" -- "$prefix/bin/vmsuite" --version
expect_exit 0 "installed probe" -- "$prefix/bin/vmsuite" probe --seconds 1
expect_in "$out" "$prefix/share/vmsuite/sample.mp3" "the installed sample is used"
expect_in "$out" "Sound (idle baseline): 10.0/10" "the installed plugin plays"
# `vmsuite lab` runs the installed script, and hands it the installed plugin and MP3
[ -x "$prefix/libexec/vmsuite/vmsuite-lab" ] && ok || fail "libexec/vmsuite/vmsuite-lab not installed"
expect_exit 0 "installed lab --help" -- "$prefix/bin/vmsuite" lab --help
expect_in "$out" "usage: vmsuite lab" "installed lab --help"
expect_exit 129 "installed lab usage error" -- "$prefix/bin/vmsuite" lab -o x -- run
expect_in "$err" "no kernel" "the installed lab script parses its options"
finish
