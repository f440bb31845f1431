# Sourced by the lava tests: finds the KCIDB v5.3 schema (test data outside the repository)
# and sets KCIDB_SCHEMA, or leaves it empty. VMS_KCIDB_SCHEMA names the file; else it is
# ../shared/kcidb/ beside the source tree, or beside the main checkout of a git worktree.
kcidb_schema() {
  local f common
  KCIDB_SCHEMA=""
  for f in "${VMS_KCIDB_SCHEMA:-}" "$VMS_SOURCE_DIR/../shared/kcidb/kcidb-v5.3.schema.json"; do
    if [ -n "$f" ] && [ -r "$f" ]; then
      KCIDB_SCHEMA=$f
      return
    fi
  done
  common=$(git -C "$VMS_SOURCE_DIR" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) ||
    return 0
  f=$(dirname "$common")/../shared/kcidb/kcidb-v5.3.schema.json
  [ ! -r "$f" ] || KCIDB_SCHEMA=$f
}

# validate FILE...: each must be valid (Draft 7, format checking; tests/lava/kcidb-validate.py)
validate() {
  if python3 "$VMS_SOURCE_DIR/tests/lava/kcidb-validate.py" "$KCIDB_SCHEMA" "$@" \
    >"$VMS_TEST_TMP/validate.out" 2>&1; then ok; else
    fail "KCIDB validation of $*: $(cat "$VMS_TEST_TMP/validate.out")"
  fi
}
