#!/usr/bin/env python3
"""json_get.py FILE PATH: print the value at PATH (keys and list indexes
joined by '.', e.g. jobs.0.read.iops) of the JSON document FILE; exit 1
with a message when the file does not read or the path is not there."""
import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: json_get.py FILE PATH")
    try:
        with open(sys.argv[1]) as f:
            v = json.load(f)
        for k in sys.argv[2].split("."):
            v = v[int(k)] if isinstance(v, list) else v[k]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        sys.exit("json_get.py: %s: %s: %s" % (sys.argv[1], sys.argv[2], e))
    print(v)


if __name__ == "__main__":
    main()
