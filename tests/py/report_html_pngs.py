"""figures_render.sh: the PNG figures report.html embeds are the files.

    report_html_pngs.py REPORT.html DIR   prints how many <figure id="fig-NAME">
hold an <img> whose data: URI decodes (base64) to DIR/NAME.png byte for byte;
each one that does not is printed too.
"""
import base64, os, re, sys

h = open(sys.argv[1], encoding='utf-8').read()
good, bad = 0, []
for name, b64 in re.findall(r'<figure id="fig-([^"]+)">\n<img alt="[^"]*" '
                            r'src="data:image/png;base64,([A-Za-z0-9+/=]+)">', h):
    try:
        same = base64.b64decode(b64, validate=True) == \
            open(os.path.join(sys.argv[2], name + '.png'), 'rb').read()
    except (OSError, ValueError) as e:
        same = False
        bad.append('%s (%s)' % (name, e))
    if same:
        good += 1
    elif not bad or not bad[-1].startswith(name):
        bad.append(name + ' differs')
print(' '.join([str(good)] + bad))
