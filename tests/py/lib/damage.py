"""The sampling of the damage sweeps (every byte or line cut, flipped,
garbled; random mutants) for a run where each nvanalyze call costs more.

NV_DAMAGE_STRIDE (tests/lib.sh: 4 under make asan, else 1): a sweep over
positions takes every STRIDE-th one, and a count of random cases is
divided by it (at least 1).  make check runs every case.
"""
import os


def stride():
    """The stride, from NV_DAMAGE_STRIDE (a positive integer; else 1)."""
    try:
        s = int(os.environ.get('NV_DAMAGE_STRIDE', '1'))
    except ValueError:
        return 1
    return s if s > 0 else 1


def fewer(n):
    """n random cases as the stride samples them."""
    return max(1, n // stride())
