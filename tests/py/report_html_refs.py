"""report_outputs.sh: what in report.html would load something from
elsewhere: script, link, img, iframe, object or embed elements, src=,
@import, url() other than a fragment, href= other than a fragment.  An
<img> whose only source is a PNG data: URI (the figures when PNGs were
rendered) is the page's own and not counted; a malformed one is.

    report_html_refs.py REPORT.html   prints them (nothing when there are none)
"""
import re, sys

h = open(sys.argv[1]).read()
h = re.sub(r'<img alt="[^"<>]*" src="data:image/png;base64,[A-Za-z0-9+/]+=*">', '', h)
bad = re.findall(r'<(?:script|link|img|iframe|object|embed)\b|\bsrc\s*=|@import|url\((?!#)'
                 r'|href\s*=\s*["\'](?!#)[^"\']*', h)
print(' '.join(sorted(set(bad))[:5]))
