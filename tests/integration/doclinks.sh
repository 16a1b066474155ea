#!/usr/bin/env bash
# Every relative link of README.md and docs/*.md resolves: the file (or
# directory) exists, and an anchor (#name) names a heading of the page it
# points to, spelled as GitHub spells heading anchors.  Links inside code
# blocks and code spans are text, not links.  The self-test: a copy of a
# page with a missing file and a missing anchor must fail on both.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

# doclinks_check PAGE...: one "PAGE:LINE: LINK: why" line per broken link;
# exit 1 if there is one.
doclinks_check() {
	"$PYTHON" - "$@" <<-'EOF'
	import os, re, sys
	def strip_code(text):
	    out, fence = [], False
	    for line in text.split('\n'):
	        if line.lstrip().startswith('```'):
	            fence = not fence
	            out.append('')
	            continue
	        out.append('' if fence else re.sub(r'`[^`]*`', '', line))
	    return out
	def anchors(path):
	    seen, names = {}, set()
	    for line in strip_code(open(path, encoding='utf-8').read()):
	        m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
	        if not m:
	            continue
	        slug = re.sub(r'[^\w\- ]', '', m.group(1).lower()).replace(' ', '-')
	        n = seen.get(slug, 0)
	        seen[slug] = n + 1
	        names.add(slug if n == 0 else '%s-%d' % (slug, n))
	    return names
	bad = 0
	for page in sys.argv[1:]:
	    base = os.path.dirname(page)
	    raw = open(page, encoding='utf-8').read().split('\n')
	    for no, line in enumerate(strip_code('\n'.join(raw)), 1):
	        for target in re.findall(r'\]\(([^)\s]+)(?:\s+"[^"]*")?\)', line):
	            if re.match(r'^[a-z]+:', target):
	                continue
	            path, _, anchor = target.partition('#')
	            full = os.path.normpath(os.path.join(base, path)) if path else page
	            why = None
	            if not os.path.exists(full):
	                why = 'no such file %s' % full
	            elif anchor and full.endswith('.md') and anchor not in anchors(full):
	                why = 'no heading with anchor #%s in %s' % (anchor, full)
	            if why:
	                print('%s:%d: %s: %s' % (page, no, target, why))
	                bad = 1
	sys.exit(bad)
	EOF
}

pages=$(ls README.md docs/*.md)
if out=$(doclinks_check $pages 2>&1); then
	pass "links ($(grep -o '](' $pages | wc -l) links in $(wc -w <<<"$pages") pages)"
else
	fail links "$(tr '\n' ';' <<<"$out")"
fi

mkdir -p "$T/docs"
cp docs/*.md "$T/docs/"
{ cat README.md; printf '%s\n' '[gone](docs/no-such-page.md)' \
	'[no anchor](docs/trace.md#no-such-heading)'; } >"$T/README.md"
out=$(doclinks_check "$T/README.md" 2>&1)
if grep -q 'no-such-page.md: no such file' <<<"$out" &&
	grep -q '#no-such-heading: no heading' <<<"$out"; then
	pass selftest
else
	fail selftest "broken links in a copy of README.md not found: $(tr '\n' ';' <<<"$out")"
fi
