#!/usr/bin/env bash
# `vmsuite probe` on the virtual clock device: the watcher thread (see probe_check.py).
exec python3 "$VMS_SOURCE_DIR/tests/probe/probe_check.py" watcher
