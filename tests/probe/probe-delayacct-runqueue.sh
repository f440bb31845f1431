#!/usr/bin/env bash
# `vmsuite probe` with the player's delay accounting: runqueue (see probe_delayacct.py).
exec python3 "$VMS_SOURCE_DIR/tests/probe/probe_delayacct.py" runqueue
