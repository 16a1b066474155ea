/*
 * live_page.c - GET /: the live page.  One self-contained HTML file in
 * report.html's style (its screen style, report_html.h): the jobs and ops
 * with their last interval and the findings so far written here (names in
 * escape.h's text form, then HTML-escaped by nv_esc_html), and a small
 * inline script that polls /api/intervals?since=SEQ each second and draws,
 * per job and op, the last minutes of IOPS, MB/s and p50/p99/p99.9 as
 * inline SVG charts.  Nothing is loaded from anywhere; the script puts
 * strings into the page only as text (textContent), never as markup.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/live/live_state.h"
#include "analyze/publish/report_html.h"
#include "analyze/report/escape.h"

/* The page's own additions to report.html's style. */
static const char page_style[] =
	".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));"
	"gap:.8em}figure svg{background:#fff}figcaption b{font-weight:600}"
	".legend span{margin-right:1em}.k{color:#8c959f}#status{color:#57606a}"
	"ul.findings{font-size:14px;padding-left:1.2em}ul.findings li{margin:.15em 0}";

/*
 * The script: S, the series by id; each poll adds the new intervals (the
 * last NV_LIVE_RING kept), redraws the charts of the series that changed,
 * the table's rows and the findings.
 */
static const char page_script[] =
	"(function(){'use strict';\n"
	"var NS='http://www.w3.org/2000/svg',S={},since=0,KEEP=300,F={};\n"
	"function $(id){return document.getElementById(id);}\n"
	"function el(t,txt,cls){var e=document.createElement(t);"
	"if(txt!==undefined)e.textContent=txt;if(cls)e.className=cls;return e;}\n"
	"function sv(t,a){var e=document.createElementNS(NS,t);"
	"for(var k in a)e.setAttribute(k,a[k]);return e;}\n"
	"function lat(ns){return ns>=1e9?(ns/1e9).toFixed(2)+' s':ns>=1e6?(ns/1e6).toFixed(2)+"
	"' ms':(ns/1e3).toFixed(1)+' us';}\n"
	"function num(v){return v>=100?Math.round(v).toLocaleString('en-US'):v.toFixed(1);}\n"
	"var CH=[{t:'IOPS',k:[[9,'IOPS','#0550ae']],f:num},"
	"{t:'MB/s',k:[[10,'MB/s','#1a7f37']],f:num},"
	"{t:'latency',k:[[11,'p50','#8250df'],[12,'p99','#bc4c00'],[13,'p99.9','#b42318']],"
	"f:lat}];\n"
	"function draw(svg,pts,c){while(svg.firstChild)svg.removeChild(svg.firstChild);\n"
	" var W=420,H=140,L=64,B=20,x0=pts.length?pts[0][4]:0,x1=pts.length?"
	"pts[pts.length-1][4]:1,y1=0;if(x1<=x0)x1=x0+1;\n"
	" pts.forEach(function(p){c.k.forEach(function(k){if(p[k[0]]>y1)y1=p[k[0]];});});"
	"if(!(y1>0))y1=1;\n"
	" svg.appendChild(sv('rect',{x:L,y:4,width:W-L-6,height:H-B-4,fill:'none',"
	"stroke:'#d0d7de'}));\n"
	" var t=sv('text',{x:L-4,y:14,'text-anchor':'end','font-size':11});"
	"t.textContent=c.f(y1);svg.appendChild(t);\n"
	" t=sv('text',{x:L-4,y:H-B,'text-anchor':'end','font-size':11});t.textContent='0';"
	"svg.appendChild(t);\n"
	" t=sv('text',{x:L,y:H-5,'font-size':11});t.textContent=x0.toFixed(0)+' s';"
	"svg.appendChild(t);\n"
	" t=sv('text',{x:W-6,y:H-5,'text-anchor':'end','font-size':11});"
	"t.textContent=x1.toFixed(0)+' s';svg.appendChild(t);\n"
	" c.k.forEach(function(k){var d=pts.map(function(p){return (L+(p[4]-x0)/(x1-x0)*"
	"(W-L-6)).toFixed(1)+','+(H-B-(p[k[0]]/y1)*(H-B-8)).toFixed(1);}).join(' ');\n"
	"  svg.appendChild(sv('polyline',{points:d,fill:'none',stroke:k[2],"
	"'stroke-width':1.5}));});}\n"
	"function figure(s){var f=el('figure'),cap=el('figcaption'),svgs=[];\n"
	" cap.appendChild(el('b',s.label));cap.appendChild(document.createTextNode(' '+s.op+"
	"' on '+s.host));f.appendChild(cap);\n"
	" CH.forEach(function(c){var d=el('div'),lg=el('div','','legend');"
	"lg.appendChild(el('span',c.t,'k'));\n"
	"  c.k.forEach(function(k){var sp=el('span','\\u25a0 '+k[1]);sp.style.color=k[2];"
	"lg.appendChild(sp);});\n"
	"  var g=sv('svg',{viewBox:'0 0 420 140',role:'img'});d.appendChild(lg);"
	"d.appendChild(g);f.appendChild(d);svgs.push(g);});\n"
	" $('charts').appendChild(f);return svgs;}\n"
	"function row(s){var p=s.pts[s.pts.length-1],tr=s.tr;if(!tr){tr=el('tr');"
	"$('rows').appendChild(tr);s.tr=tr;}\n"
	" while(tr.firstChild)tr.removeChild(tr.firstChild);\n"
	" [s.label,s.op,s.host,p?num(p[9]):'',p?num(p[10]):'',p?lat(p[11]):'',p?lat(p[12]):'',"
	"p?lat(p[13]):'',p?lat(p[14]):'',p?String(p[8]):'',s.ended?'ended':'running']"
	".forEach(function(v,i){tr.appendChild(el('td',v,i>2&&i<10?'r':''));});}\n"
	"function update(d){var ch={};\n"
	" d.series.forEach(function(m){var s=S[m.id];if(!s){s=S[m.id]={pts:[]};"
	"var old=document.querySelector('tr[data-id=\"'+m.id+'\"]');"
	"if(old)old.parentNode.removeChild(old);}\n"
	"  s.label=m.label;s.op=m.op;s.host=m.host;s.ended=m.ended;ch[m.id]=1;});\n"
	" d.points.forEach(function(p){var s=S[p[0]];if(!s)return;s.pts.push(p);"
	"if(s.pts.length>KEEP)s.pts.shift();});\n"
	" Object.keys(ch).forEach(function(id){var s=S[id];if(!s.svgs)s.svgs=figure(s);"
	"CH.forEach(function(c,i){draw(s.svgs[i],s.pts,c);});row(s);});\n"
	" d.findings.forEach(function(n){if(F[n.seq])return;F[n.seq]=1;var li=el('li');"
	"li.appendChild(el('span',n.at_s.toFixed(1)+' s ','k'));"
	"li.appendChild(el('b',n.kind+' '));\n"
	"  if(n.label)li.appendChild(el('span',n.label+': '));"
	"li.appendChild(el('span',n.text));$('findings').appendChild(li);});\n"
	" since=d.seq;$('status').textContent='jobs seen '+d.jobs_seen+', ended '+"
	"d.jobs_ended+', records '+d.seq+', updated '+new Date().toLocaleTimeString();}\n"
	"function poll(){fetch('api/intervals?since='+since,{cache:'no-store'})"
	".then(function(r){if(!r.ok)throw new Error('HTTP '+r.status);return r.json();})"
	".then(update).catch(function(e){$('status').textContent='not updating: '+e.message;})"
	".then(function(){setTimeout(poll,1000);});}\n"
	"document.querySelectorAll('li[data-seq]').forEach(function(li){"
	"F[li.getAttribute('data-seq')]=1;});\n"
	"poll();})();\n";

/*
 * s in escape.h's text form, HTML-escaped (how report.html shows a name).
 * Return: nothing.
 */
static void put_name(FILE *f, const char *s)
{
	char *t = nv_esc_dup(s, NV_FMT_TEXT);

	if (t) {
		nv_esc_html(f, t, strlen(t));
		free(t);
	} else {
		fputs("(out of memory)", f);
	}
}

/*
 * A latency cell: ns as us, ms or s.
 * Return: nothing.
 */
static void put_lat(FILE *f, uint64_t ns)
{
	if (ns >= 1000000000u)
		fprintf(f, "<td class=r>%.2f s</td>", (double)ns / 1e9);
	else if (ns >= 1000000u)
		fprintf(f, "<td class=r>%.2f ms</td>", (double)ns / 1e6);
	else
		fprintf(f, "<td class=r>%.1f us</td>", (double)ns / 1e3);
}

/*
 * The table of jobs and ops with their last interval (the script replaces
 * the rows as intervals come).
 * Return: nothing.
 */
static void put_rows(FILE *f, const struct nv_live_snap *sn)
{
	fputs("<table><thead><tr><th>job</th><th>op</th><th>host</th><th class=r>IOPS</th>"
	      "<th class=r>MB/s</th><th class=r>p50</th><th class=r>p99</th>"
	      "<th class=r>p99.9</th><th class=r>max</th><th class=r>errors</th><th></th></tr>"
	      "</thead><tbody id=rows>\n", f);
	for (size_t i = 0; i < sn->nseries; i++) {
		const struct nv_live_series_copy *c = &sn->series[i];
		const struct nv_tan_iv *p = &c->t.last.iv;

		fprintf(f, "<tr data-id=\"%zu\"><td>", i);
		put_name(f, c->s->jr->job);
		fputs("</td><td>", f);
		put_name(f, c->s->op);
		fputs("</td><td>", f);
		put_name(f, c->s->jr->host);
		fputs("</td>", f);
		if (c->t.have_last) {
			fprintf(f, "<td class=r>%.0f</td><td class=r>%.1f</td>", p->iops,
				p->mb_per_s);
			put_lat(f, p->p50_ns);
			put_lat(f, p->p99_ns);
			put_lat(f, p->p999_ns);
			put_lat(f, p->max_ns);
			fprintf(f, "<td class=r>%" PRIu64 "</td>", p->errors);
		} else {
			for (int k = 0; k < 7; k++)
				fputs("<td></td>", f);
		}
		fputs("<td></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/*
 * The findings so far, oldest first.
 * Return: nothing.
 */
static void put_notes(FILE *f, const struct nv_live_snap *sn)
{
	fputs("<ul class=findings id=findings>\n", f);
	for (size_t i = 0; i < sn->nnotes; i++) {
		const struct nv_live_note *n = &sn->notes[i];

		fprintf(f, "<li data-seq=\"%" PRIu64 "\"><span class=k>%.1f s </span><b>", n->seq,
			n->at_s);
		put_name(f, n->kind);
		fputs(" </b>", f);
		if (n->jr) {
			fputs("<span>", f);
			put_name(f, n->jr->job);
			fputs(": </span>", f);
		}
		fputs("<span>", f);
		put_name(f, n->text);
		fputs("</span></li>\n", f);
	}
	fputs("</ul>\n", f);
}

int nv_live_page_put(FILE *f, const struct nv_live_snap *sn)
{
	const char *host = sn->host ? sn->host : "";

	fputs("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
	      "<meta name=viewport content=\"width=device-width,initial-scale=1\">"
	      "<title>nvengine live: ", f);
	put_name(f, host);
	fprintf(f, "</title>\n<style>%s%s</style></head><body>\n<header><h1>nvengine live: ",
		nv_report_html_style, page_style);
	put_name(f, host);
	fputs("</h1><p id=status>waiting for the first interval</p></header>\n"
	      "<section><h2>Last interval</h2>\n", f);
	put_rows(f, sn);
	fputs("</section>\n<section><h2>The last minutes</h2><div class=charts id=charts></div>"
	      "</section>\n<section><h2>Findings</h2>\n", f);
	put_notes(f, sn);
	fprintf(f, "</section>\n<script>%s</script>\n</body></html>\n", page_script);
	return ferror(f) ? -EIO : 0;
}
