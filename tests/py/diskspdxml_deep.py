"""A diskspd XML report with elements nested deeper than nvanalyze's reader
tracks and a name longer than it keeps (none of diskspd's), for
tests/integration/diskspd.sh:

    python3 tests/py/diskspdxml_deep.py REPORT.xml >DEEP.xml

Writes REPORT.xml with, after its first <Thread>, 40 nested <A> around a
<ReadCount>x</ReadCount> and an element named by 2000 'B's: read as
without them, the report's values are unchanged.
"""
import sys


def main():
    s = open(sys.argv[1]).read()
    junk = ('<A>' * 40 + '<ReadCount>x</ReadCount>' + '</A>' * 40 +
            '<%s>1</%s>' % ('B' * 2000, 'B' * 2000))
    sys.stdout.write(s.replace('<Thread>', '<Thread>' + junk, 1))


if __name__ == '__main__':
    main()
