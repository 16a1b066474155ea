#!/usr/bin/env python3
"""json_close.py A B: the JSON documents A and B hold the same keys, lists,
strings and integers, and floats equal to 1e-12 of their size (sums added
in another order round their last digits); exit 1 naming the first
difference."""
import json
import math
import sys


def diff(a, b, path):
    """Return: the path and values of the first difference, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if sorted(a) != sorted(b):
            return "%s: keys %s against %s" % (path, sorted(a), sorted(b))
        for k in a:
            d = diff(a[k], b[k], path + "." + k)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return "%s: %d items against %d" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, "%s.%d" % (path, i))
            if d:
                return d
        return None
    if isinstance(a, float) or isinstance(b, float):
        ok = (isinstance(a, (int, float)) and isinstance(b, (int, float)) and
              math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12))
    else:
        ok = type(a) is type(b) and a == b
    return None if ok else "%s: %r against %r" % (path, a, b)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: json_close.py A B")
    docs = []
    for p in sys.argv[1:]:
        try:
            with open(p) as f:
                docs.append(json.load(f))
        except (OSError, ValueError) as e:
            sys.exit("json_close.py: %s: %s" % (p, e))
    d = diff(docs[0], docs[1], "")
    if d:
        sys.exit("json_close.py: %s" % d)


if __name__ == "__main__":
    main()
