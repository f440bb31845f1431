"""The C sources a style check reads: every .c/.h under ROOT outside tests/, hidden directories
and build trees (a directory holding a CMakeCache.txt), as paths relative to ROOT, sorted."""
import os


def sources(root):
    for d, subdirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        subdirs[:] = sorted(
            s for s in subdirs
            if not s.startswith(".")
            and not (rel == "." and s == "tests")
            and not os.path.exists(os.path.join(d, s, "CMakeCache.txt")))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.normpath(os.path.join(rel, f))
