"""report_outputs.sh: what in report.html would load something from
elsewhere: script, link, img, iframe, object or embed elements, src=,
@import, url() other than a fragment, href= other than a fragment.

    report_html_refs.py REPORT.html   prints them (nothing when there are none)
"""
import re, sys

h = open(sys.argv[1]).read()
bad = re.findall(r'<(?:script|link|img|iframe|object|embed)\b|\bsrc\s*=|@import|url\((?!#)'
                 r'|href\s*=\s*["\'](?!#)[^"\']*', h)
print(' '.join(sorted(set(bad))[:5]))
