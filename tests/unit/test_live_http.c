/*
 * test_live_http.c - the HTTP output of `nvanalyze watch --listen`
 * (analyze/live/live_http.h): the escapes it writes with (escape.h), the
 * listen argument and its errors, the metrics, the JSON and the paths
 * served after synthetic records (live_gen.h), the rings' bounds.  A
 * plain socket client on 127.0.0.1 reads the answers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "analyze/live/live_http.h"
#include "analyze/live/live_state.h"
#include "analyze/report/escape.h"
#include "tests/unit/check.h"
#include "tests/unit/live_gen.h"

/* An escape function's output for s as a string (static buffer). */
static const char *esc_prom(const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	nv_esc_prom_label(f, s);
	fclose(f);
	return buf;
}

static const char *esc_html(const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	nv_esc_html(f, s, strlen(s));
	fclose(f);
	return buf;
}

TEST(prom_label_escape)
{
	CHECK_STR(esc_prom("plain name"), "plain name");
	CHECK_STR(esc_prom("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
	CHECK_STR(esc_prom("tab\there"), "tab\there");	/* only the three escapes */
	CHECK_STR(esc_prom("bad\xff\xc3"), "bad\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(esc_prom("\xc3\xa9t\xc3\xa9"), "\xc3\xa9t\xc3\xa9");
	CHECK_STR(esc_prom("{x=\"y\"}"), "{x=\\\"y\\\"}");
}

TEST(html_escape)
{
	CHECK_STR(esc_html("<img src=x onerror=\"a\">&amp;"),
		  "&lt;img src=x onerror=&quot;a&quot;&gt;&amp;amp;");
	CHECK_STR(esc_html("it's"), "it's");
}

/* A port free on 127.0.0.1 now (bound to 0, then closed). */
static unsigned free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	bind(fd, (struct sockaddr *)&a, sizeof(a));
	getsockname(fd, (struct sockaddr *)&a, &len);
	close(fd);
	return ntohs(a.sin_port);
}

TEST(listen_errors)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	struct nv_live_sink s = { 0 };
	const char *bad[] = { "", "abc", "0", "65536", "9x", ":9464", "::1:9464", "[::1]",
			      "1.2.3.4:", "-5" };
	char err[512], spec[64];
	int fd;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		CHECK_EQ_I64(nv_live_http_sink(bad[i], &s, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "not [ADDR:]PORT") == err);
	}
	/* a port in use: a clear error, before anything is served */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(!bind(fd, (struct sockaddr *)&a, sizeof(a)) && !listen(fd, 1));
	getsockname(fd, (struct sockaddr *)&a, &len);
	snprintf(spec, sizeof(spec), "%u", ntohs(a.sin_port));
	CHECK_EQ_I64(nv_live_http_sink(spec, &s, err, sizeof(err)), -EADDRINUSE);
	CHECK(strstr(err, "in use") && strstr(err, spec) && !strstr(err, "--listen"));
	close(fd);
	/* an address this host does not have (TEST-NET-1) */
	snprintf(spec, sizeof(spec), "192.0.2.1:%u", free_port());
	CHECK_EQ_I64(nv_live_http_sink(spec, &s, err, sizeof(err)), -EADDRNOTAVAIL);
	CHECK(strstr(err, "not an address of this host") != NULL);
	/* a privileged port: not allowed unless root */
	if (geteuid()) {
		CHECK_EQ_I64(nv_live_http_sink("127.0.0.1:1", &s, err, sizeof(err)), -EACCES);
		CHECK(strstr(err, "below 1024") != NULL);
	}
	CHECK(s.arg == NULL);
	nv_live_http_close(&s);		/* zeroed: nothing to do */
	nv_live_http_close(NULL);
}

/*
 * GET (or method) path from 127.0.0.1:port: the whole answer, status line
 * and headers included (HTTP/1.0: the server closes after it).
 */
static char *fetch(unsigned port, const char *method, const char *path)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	char req[512], *out = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&out, &n);
	ssize_t r;

	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		fclose(m);
		return out;
	}
	snprintf(req, sizeof(req), "%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", method, path);
	if (write(fd, req, strlen(req)) < 0)
		return fclose(m), close(fd), out;
	while ((r = read(fd, req, sizeof(req))) > 0)
		fwrite(req, 1, (size_t)r, m);
	close(fd);
	fclose(m);
	return out;
}

/* Whether the answer's status line holds code. */
static int status_is(const char *answer, const char *code)
{
	return answer && !strncmp(answer, "HTTP/1.", 7) && !strncmp(answer + 9, code, 3);
}

#define HOSTILE "a\"b\\c\nd</td><script>x</script>"

TEST(serve_after_records)
{
	struct nv_live_sink s;
	struct nv_live_interval iv;
	struct nv_live_job j = { .job = HOSTILE, .host = "h1", .nthreads = 4,
				 .interval_ns = 1000000000 };
	struct nv_live_finding f = { .job = HOSTILE, .host = "h1", .at_s = 3, .kind = "spike",
				     .text = "p99 <b>x</b> 5 ms" };
	char err[512], spec[32], *m, line[512];
	unsigned port = free_port();
	uint64_t ios = 0, p99 = 0;

	snprintf(spec, sizeof(spec), "127.0.0.1:%u", port);
	CHECK_EQ_I64(nv_live_http_sink(spec, &s, err, sizeof(err)), 0);
	if (!s.arg)
		return;
	CHECK_EQ_I64(s.job(s.arg, &j), 0);
	for (size_t k = 0; k < 3; k++) {
		live_gen_interval(&iv, HOSTILE, "h1", 0, 0, k, 1000, 1700000000000);
		CHECK_EQ_I64(s.interval(s.arg, &iv), 0);
		ios += iv.iv.ios;
		p99 = iv.iv.p99_ns;
	}
	CHECK_EQ_I64(s.finding(s.arg, &f), 0);

	m = fetch(port, "GET", "/metrics");
	CHECK(status_is(m, "200") && strstr(m, "text/plain; version=0.0.4"));
	snprintf(line, sizeof(line), "nvengine_ios_total{fio_job=\"a\\\"b\\\\c\\nd</td><script>x"
		 "</script>\",op=\"read\",host=\"h1\"} %" PRIu64 "\n", ios);
	CHECK(m && strstr(m, line));
	snprintf(line, sizeof(line), "op=\"read\",host=\"h1\",quantile=\"0.99\"} 0.%09" PRIu64
		 " 1700000003000\n", p99);
	CHECK(m && strstr(m, line));
	snprintf(line, sizeof(line), "op=\"read\",host=\"h1\",le=\"+Inf\"} %" PRIu64 "\n", ios);
	CHECK(m && strstr(m, line));
	snprintf(line, sizeof(line), "nvengine_latency_seconds_count{fio_job=\"a\\\"b\\\\c\\nd"
		 "</td><script>x</script>\",op=\"read\",host=\"h1\"} %" PRIu64 "\n", ios);
	CHECK(m && strstr(m, line));
	free(m);

	m = fetch(port, "GET", "/");
	CHECK(status_is(m, "200") && strstr(m, "Content-Security-Policy"));
	CHECK(m && strstr(m, "a\"b\\c\\nd&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;") == NULL);
	CHECK(m && strstr(m, "a&quot;b\\c\\nd&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;"));
	CHECK(m && strstr(m, "p99 &lt;b&gt;x&lt;/b&gt; 5 ms"));
	CHECK(m && !strstr(m, "<script>x"));
	free(m);

	m = fetch(port, "GET", "/api/intervals?since=2");
	CHECK(status_is(m, "200") && strstr(m, "\"seq\":4"));
	CHECK(m && strstr(m, "[0,3,2,") && !strstr(m, "[0,2,1,"));	/* only seq > 2 */
	free(m);
	m = fetch(port, "GET", "/api/intervals?since=-1");
	CHECK(status_is(m, "400"));
	free(m);
	m = fetch(port, "POST", "/metrics");
	CHECK(status_is(m, "405") && strstr(m, "Allow: GET"));
	free(m);
	m = fetch(port, "HEAD", "/");
	CHECK(status_is(m, "405"));
	free(m);
	m = fetch(port, "GET", "/metrics/../etc/passwd");
	CHECK(status_is(m, "404"));
	free(m);
	m = fetch(port, "DELETE", "/nothing");
	CHECK(status_is(m, "404"));
	free(m);
	nv_live_http_close(&s);
	CHECK(s.arg == NULL);
	m = fetch(port, "GET", "/metrics");	/* closed: nobody listens */
	CHECK(!m || !*m);
	free(m);
}

TEST(rings_bounded)
{
	struct nv_live_state st;
	struct nv_live_sink s;
	struct nv_live_interval iv;
	struct nv_live_finding f = { .job = NULL, .kind = "stall", .text = "no trace data" };
	struct nv_live_snap sn;
	char name[32], big[2000];

	CHECK_EQ_I64(nv_live_state_init(&st), 0);
	nv_live_state_hooks(&st, &s);
	for (size_t k = 0; k < NV_LIVE_RING + 50; k++) {
		live_gen_interval(&iv, "j", "h", 0, 0, k, 1000, 0);
		s.interval(s.arg, &iv);
	}
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	f.text = big;
	for (size_t k = 0; k < NV_LIVE_FINDINGS + 10; k++)
		s.finding(s.arg, &f);
	for (size_t k = 0; k < NV_LIVE_MAX_JOBS + 5; k++) {
		snprintf(name, sizeof(name), "job%zu", k);
		live_gen_interval(&iv, name, "h", 0, 0, 0, 1000, 0);
		s.interval(s.arg, &iv);
	}
	CHECK_EQ_I64(nv_live_snap(&st, 0, true, &sn), 0);
	CHECK_EQ_U64(sn.nseries, NV_LIVE_MAX_JOBS);
	CHECK_EQ_U64(sn.dropped, 6);		/* 5 jobs past the limit, said once */
	CHECK_EQ_U64(sn.nnotes, NV_LIVE_FINDINGS);
	CHECK(strlen(sn.notes[0].text) < NV_LIVE_TEXT && strstr(sn.notes[0].text, "..."));
	CHECK_EQ_U64(sn.npoints, NV_LIVE_RING + NV_LIVE_MAX_JOBS - 1);
	CHECK_EQ_U64(sn.points[0].iv.index, 50);	/* the oldest kept */
	CHECK(sn.series[0].t.have_last && sn.series[0].t.last.iv.index == NV_LIVE_RING + 49);
	nv_live_snap_free(&sn);
	nv_live_state_free(&st);
}

int main(void)
{
	RUN(prom_label_escape);
	RUN(html_escape);
	RUN(listen_errors);
	RUN(serve_after_records);
	RUN(rings_bounded);
	return check_summary();
}
