#!/usr/bin/env python3
"""closed_pipe.py CMD...: run CMD with its stdout a pipe whose reader is
already gone (what `CMD | head` becomes once head has exited), SIGPIPE at
its default as a shell leaves it; exit with CMD's status, or with the
number of the signal that ended it (13: SIGPIPE)."""
import os
import subprocess
import sys


def main():
    r, w = os.pipe()
    os.close(r)
    rc = subprocess.call(sys.argv[1:], stdout=w)
    os.close(w)
    sys.exit(min(abs(rc), 255))


if __name__ == "__main__":
    main()
