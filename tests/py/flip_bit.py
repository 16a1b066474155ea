"""Damage a file for the tests: flip_bit.py IN OUT [OFFSET [MASK]] writes IN
to OUT with the byte at OFFSET (default: the middle one) xor MASK (default
0x04)."""
import sys


def main(argv):
    b = bytearray(open(argv[0], "rb").read())
    at = int(argv[2]) if len(argv) > 2 else len(b) // 2
    b[at] ^= int(argv[3], 0) if len(argv) > 3 else 0x04
    open(argv[1], "wb").write(b)


if __name__ == "__main__":
    main(sys.argv[1:])
