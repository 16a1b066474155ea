"""report_outputs.sh: report.html reads like a study.

    report_html_study.py DOM.html            the page as Chromium parsed it
    report_html_study.py --pdf OPEN.txt SHUT.txt
                                             pdftotext of the page printed
                                             as it is, and with every
                                             <details> shut

DOM: after the title and the contents come the summary section with its
table and its figure (an inline SVG), then the claims, then the per-job
sections, each a <details> with an id; every link of the contents (and
every other "#" link) reaches an element id, ids are unique; the style has
a print part (no navigation, a page per section, details printed open).
PDF: the text reads summary, claims, per job in that order, over more than
one page, without the contents and back links, and shut <details> print
all the same.
Prints "ok" or what is wrong; exit 0 on ok.
"""
import html.parser
import re
import sys


class Page(html.parser.HTMLParser):
    """Element ids in order, links, the nav's links, the style text."""

    def __init__(self):
        super().__init__()
        self.order = []         # (tag, id, class) of the page's blocks, in order
        self.ids = []
        self.svg_ids = []
        self.in_svg = 0
        self.links = []
        self.toc = []
        self.in_nav = 0
        self.style = ''
        self.in_style = False
        self.details = []       # ids of <details>
        self.fig_svg = {}       # figure id -> it holds an <svg> or a PNG data: <img>
        self.fig = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'svg':
            self.in_svg += 1
        if 'id' in a:   # gnuplot repeats ids inside one SVG: only the page's count
            (self.svg_ids if self.in_svg else self.ids).append(a['id'])
        if tag in ('header', 'nav', 'section', 'details', 'figure', 'table'):
            self.order.append((tag, a.get('id'), a.get('class')))
        if tag == 'nav':
            self.in_nav += 1
        if tag == 'a' and (a.get('href') or '').startswith('#'):
            self.links.append(a['href'][1:])
            if self.in_nav:
                self.toc.append(a['href'][1:])
        if tag == 'style':
            self.in_style = True
        if tag == 'details':
            self.details.append(a.get('id'))
        if tag == 'figure':
            self.fig = a.get('id')
            self.fig_svg[self.fig] = False
        if tag == 'svg' and self.fig is not None:
            self.fig_svg[self.fig] = True
        if (tag == 'img' and self.fig is not None
                and (a.get('src') or '').startswith('data:image/png;base64,')):
            self.fig_svg[self.fig] = True

    def handle_endtag(self, tag):
        if tag == 'svg':
            self.in_svg -= 1
        if tag == 'nav':
            self.in_nav -= 1
        if tag == 'style':
            self.in_style = False
        if tag == 'figure':
            self.fig = None

    def handle_data(self, data):
        if self.in_style:
            self.style += data


def where(order, tag, ident=None):
    for i, (t, d, _) in enumerate(order):
        if t == tag and (ident is None or d == ident):
            return i
    return -1


def check_dom(path):
    p = Page()
    p.feed(open(path, encoding='utf-8').read())
    bad = []
    o = p.order
    summ, claims, jobs = (where(o, 'section', s) for s in ('summary', 'claims', 'per-job'))
    fig = where(o, 'figure', 'fig-summary')
    if min(summ, claims, jobs, fig) < 0:
        bad.append('missing: summary %d claims %d per-job %d fig-summary %d'
                   % (summ, claims, jobs, fig))
    else:
        first = [t for t, _, _ in o[:summ] if t in ('section', 'details', 'figure', 'table')]
        table = next((i for i in range(summ, len(o)) if o[i][0] == 'table'), -1)
        if first:
            bad.append('before the summary: %s' % first)
        if not (summ < table < claims and summ < fig < claims < jobs):
            bad.append('order: summary %d table %d figure %d claims %d per-job %d'
                       % (summ, table, fig, claims, jobs))
        if not p.fig_svg.get('fig-summary'):
            bad.append('the summary figure is not shown (no inline SVG or PNG)')
        jobdet = [d for t, d, _ in o[jobs:] if t == 'details']
        if not jobdet:
            bad.append('no job <details> after per-job')
    if not p.toc:
        bad.append('no contents links')
    ids = set(p.ids)
    if len(ids) != len(p.ids):
        bad.append('ids not unique: %s' % sorted(i for i in ids if p.ids.count(i) > 1)[:5])
    lost = [l for l in p.links if l not in ids and l not in p.svg_ids]
    if lost:
        bad.append('links to no id: %s' % lost[:5])
    for want in ('summary', 'claims', 'per-job'):
        if want not in p.toc:
            bad.append('contents lack #%s' % want)
    if any(d is None for d in p.details):
        bad.append('a <details> without id')
    m = re.search(r'@media print\{(.*)\}\s*$', p.style, re.S)
    need = (r'nav\.toc[^{]*\{display:none', r'section\{break-before:page',
            r'details::details-content\{content-visibility:visible')
    if not m:
        bad.append('no @media print in the style')
    else:
        bad += ['print style lacks %s' % n for n in need if not re.search(n, m.group(1))]
    return bad


def check_pdf(open_txt, shut_txt):
    bad = []
    t = open(open_txt, encoding='utf-8', errors='replace').read()
    s = open(shut_txt, encoding='utf-8', errors='replace').read()
    pos = [m.start() if m else -1 for m in
           (re.search(w, t) for w in (r'[\n\f]Summary\n', 'job · direction', r'[\n\f]Claims\n',
                                      'verdict', r'[\n\f]Per job\n'))]
    if min(pos) < 0 or pos != sorted(pos):
        bad.append('PDF text order summary/table/claims/verdict/per-job: %s' % pos)
    if re.search(r'[\n\f]Contents\n', t) or '\u2191' in t:
        bad.append('the PDF has the navigation (the contents or the back links)')
    if t.count('\f') < 2:
        bad.append('PDF of %d page(s): no page break before the sections' % t.count('\f'))
    rows = t.count('clat p99.9')
    if rows == 0 or s.count('clat p99.9') != rows:
        bad.append('shut <details> print %d of %d job table rows' % (s.count('clat p99.9'), rows))
    return bad


if __name__ == '__main__':
    if sys.argv[1] == '--pdf':
        problems = check_pdf(sys.argv[2], sys.argv[3])
    else:
        problems = check_dom(sys.argv[1])
    print('; '.join(problems) if problems else 'ok')
    sys.exit(1 if problems else 0)
