#!/usr/bin/env bash
# `vmsuite run --with-audio` with the probe stopped and continued (see probe_dead.py).
exec python3 "$VMS_SOURCE_DIR/tests/probe/probe_dead.py" stopcont
