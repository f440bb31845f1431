"""What the probe's Python end-to-end tests share: the check log and finding the probe
process. Imported by probe_check.py, probe_dead.py and probe_delayacct.py (run from this
directory, so it is on sys.path)."""
import time

failures = []  # the failed checks, in order: a script exits 1 when any is here


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def probe_child(pid, timeout=20.0):
    """The probe process: the only child of the vmsuite process."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                kids = f.read().split()
            if kids:
                return int(kids[0])
        except OSError:
            pass
        time.sleep(0.01)
    raise SystemExit("no probe process appeared")
