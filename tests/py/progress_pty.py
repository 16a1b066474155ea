"""analyze_progress.sh: run a command with its stderr on a pseudo-terminal
(Python's pty module) and its stdout into a file, as a user at a terminal
who redirects the report; write what the terminal received to a file.

    progress_pty.py TTY_OUT STDOUT_FILE CMD ARG...
exits with the command's status.
"""
import os
import pty
import subprocess
import sys

tty_out, stdout_file, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
with open(stdout_file, "wb") as out:
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=slave)
os.close(slave)
got = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:	# EIO: every writer closed the terminal
        break
    if not chunk:
        break
    got += chunk
os.close(master)
rc = p.wait()
with open(tty_out, "wb") as f:
    f.write(got)
sys.exit(rc)
