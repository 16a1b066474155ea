/*
 * live_http.c - the HTTP output of the watch (live_http.h): the listening
 * socket bound here (so its errors are clear and early), libmicrohttpd
 * serving it from a pool of its own threads, a table of the paths.  A
 * request copies the state under its lock (nv_live_snap) and renders the
 * copy without it: a slow client, many scrapers or a flood of bad
 * requests never hold the lock the watcher's hooks take.
 *
 * Bounds (docs/prometheus.md, "Load and memory"): NV_HTTP_THREADS threads,
 * at most NV_HTTP_CONNS connections (more wait in the listen backlog), each
 * with NV_HTTP_CONN_MEM bytes for its request and closed after
 * NV_HTTP_TIMEOUT_S seconds idle, plus the body it is being sent.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "analyze/live/live_http.h"
#include "analyze/live/live_state.h"

#define NV_HTTP_THREADS		4
#define NV_HTTP_CONNS		256
#define NV_HTTP_CONN_MEM	(32 * 1024)
#define NV_HTTP_TIMEOUT_S	10

/* The server: the state first (the hooks' arg is the server). */
struct live_http {
	struct nv_live_state st;
	struct MHD_Daemon *d;
};

/* A path served: its body's type and renderer. */
struct route {
	const char *path;
	const char *type;
	int (*put)(FILE *f, const struct nv_live_snap *sn);
	bool points;		/* the body shows intervals (since= applies) */
	bool page;		/* an HTML page (its security policy header) */
};

static const struct route routes[] = {
	{ .path = "/metrics", .type = "text/plain; version=0.0.4; charset=utf-8",
	  .put = nv_live_prom_put },
	{ .path = "/", .type = "text/html; charset=utf-8", .put = nv_live_page_put,
	  .page = true },
	{ .path = "/api/intervals", .type = "application/json", .put = nv_live_json_put,
	  .points = true },
};

/*
 * The route of url.
 * Return: it, or NULL for a path not served.
 */
static const struct route *route_of(const char *url)
{
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (!strcmp(routes[i].path, url))
			return &routes[i];
	return NULL;
}

/*
 * Queue a response of body (len bytes, freed by libmicrohttpd when
 * must_free) with status and the headers every response gets.
 * Return: libmicrohttpd's result.
 */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
			     char *body, size_t len, bool must_free, const struct route *r)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(
		len, body, must_free ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!resp) {
		if (must_free)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET");
	if (r && r->page)
		MHD_add_response_header(resp, "Content-Security-Policy",
					"default-src 'none'; script-src 'unsafe-inline'; "
					"style-src 'unsafe-inline'; connect-src 'self'; "
					"img-src data:; base-uri 'none'; form-action 'none'; "
					"frame-ancestors 'none'");
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/*
 * A plain-text error response with a constant message.
 * Return: libmicrohttpd's result.
 */
static enum MHD_Result reply_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
	return reply(c, status, "text/plain; charset=utf-8", (char *)msg, strlen(msg), false,
		     NULL);
}

/*
 * The since= argument: absent is 0.
 * Return: 0 with *since set, or -EINVAL when it is not a decimal number.
 */
static int since_of(struct MHD_Connection *c, uint64_t *since)
{
	const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since");
	char *end;

	*since = 0;
	if (!v)
		return 0;
	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	*since = strtoull(v, &end, 10);
	return *end || errno ? -EINVAL : 0;
}

/*
 * A request: only GET of a path of routes; the body rendered from a copy.
 * Return: libmicrohttpd's result.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	struct live_http *h = cls;
	const struct route *r = route_of(url);
	struct nv_live_snap sn;
	uint64_t since = 0;
	char *body = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	if (!r)
		return reply_error(c, MHD_HTTP_NOT_FOUND, "not found: GET /, /metrics or "
				   "/api/intervals?since=SEQ\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET))
		return reply_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET\n");
	if (r->points && since_of(c, &since))
		return reply_error(c, MHD_HTTP_BAD_REQUEST, "since: a sequence number (0 or "
				   "the \"seq\" of the last answer)\n");
	if (nv_live_snap(&h->st, since, r->points, &sn))
		return reply_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory\n");
	f = open_memstream(&body, &len);
	ret = f ? r->put(f, &sn) : -ENOMEM;
	if (f && fclose(f) && !ret)
		ret = -ENOMEM;
	nv_live_snap_free(&sn);
	if (ret) {
		free(body);
		return reply_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory\n");
	}
	return reply(c, MHD_HTTP_OK, r->type, body, len, true, r);
}

/*
 * Split listen ("[ADDR:]PORT", ADDR maybe "[V6]") into host (hn bytes)
 * and port.
 * Return: 0, or -EINVAL with a message in err.
 */
static int parse_listen(const char *spec, char *host, size_t hn, unsigned *port,
			char *err, size_t errlen)
{
	const char *colon = strrchr(spec, ':'), *p = colon ? colon + 1 : spec;
	size_t alen = colon ? (size_t)(colon - spec) : 0;
	const char *a = spec;
	char *end;
	unsigned long v;

	if (colon && alen >= 2 && a[0] == '[' && a[alen - 1] == ']') {
		a++;
		alen -= 2;
	} else if (colon && memchr(a, ':', alen)) {
		alen = 0;	/* an IPv6 address without brackets */
		goto bad;
	}
	if (colon && !alen)
		goto bad;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (*p < '0' || *p > '9' || *end || errno || v < 1 || v > 65535 || alen >= hn)
		goto bad;
	*port = (unsigned)v;
	if (colon)
		snprintf(host, hn, "%.*s", (int)alen, a);
	else
		snprintf(host, hn, "127.0.0.1");
	return 0;
bad:
	snprintf(err, errlen, "not [ADDR:]PORT (PORT 1-65535; e.g. 9464, 0.0.0.0:9464, "
		 "[::1]:9464)");
	return -EINVAL;
}

/*
 * What to do about a bind or listen error e on port.
 * Return: nothing; the message in err.
 */
static void bind_error(int e, unsigned port, char *err, size_t errlen)
{
	const char *what =
		e == EADDRINUSE ? "the port is in use (another watcher or exporter?): "
				  "pick another port" :
		e == EACCES ? "not allowed: ports below 1024 need root or "
			      "CAP_NET_BIND_SERVICE; pick a port from 1024" :
		e == EADDRNOTAVAIL ? "not an address of this host: give one of its "
				     "addresses, or leave ADDR out for 127.0.0.1" :
		strerror(e);

	snprintf(err, errlen, "cannot listen on port %u: %s", port, what);
}

/*
 * A socket bound to spec and listening.
 * Return: the descriptor, or -errno with a message in err.
 */
static int listen_socket(const char *spec, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	char host[256], port_s[8];
	unsigned port;
	int fd, ret, one = 1;

	if ((ret = parse_listen(spec, host, sizeof(host), &port, err, errlen)))
		return ret;
	snprintf(port_s, sizeof(port_s), "%u", port);
	if ((ret = getaddrinfo(host, port_s, &hints, &ai))) {
		snprintf(err, errlen, "address %s: %s", host, gai_strerror(ret));
		return -EADDRNOTAVAIL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "socket: %s", strerror(errno));
		goto out;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 128)) {
		ret = -errno;
		bind_error(errno, port, err, errlen);
		close(fd);
		goto out;
	}
	ret = fd;
out:
	freeaddrinfo(ai);
	return ret;
}

/*
 * Stop the server of arg (a struct live_http, or NULL): its threads
 * joined, the listening socket closed, the state freed.
 * Return: nothing.
 */
static void http_close(void *arg)
{
	struct live_http *h = arg;

	if (!h)
		return;
	MHD_stop_daemon(h->d);	/* joins its threads, closes the listening socket */
	nv_live_state_free(&h->st);
	free(h);
}

int nv_live_http_sink(const char *listen, struct nv_live_sink *out, char *err, size_t errlen)
{
	struct live_http *h = calloc(1, sizeof(*h));
	int fd, ret;

	if (!h) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if ((ret = nv_live_state_init(&h->st))) {
		snprintf(err, errlen, "%s", strerror(-ret));
		free(h);
		return ret;
	}
	if ((fd = listen_socket(listen, err, errlen)) < 0) {
		ret = fd;
		goto fail;
	}
	h->d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, on_request, h,
				MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
				MHD_OPTION_THREAD_POOL_SIZE, (unsigned)NV_HTTP_THREADS,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)NV_HTTP_CONNS,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)NV_HTTP_CONN_MEM,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)NV_HTTP_TIMEOUT_S,
				MHD_OPTION_END);
	if (!h->d) {
		close(fd);
		ret = -ENOMEM;
		snprintf(err, errlen, "the HTTP server (libmicrohttpd) did not start");
		goto fail;
	}
	nv_live_state_hooks(&h->st, out);
	out->close = http_close;
	return 0;
fail:
	nv_live_state_free(&h->st);
	free(h);
	return ret;
}

void nv_live_http_close(struct nv_live_sink *s)
{
	if (!s)
		return;
	http_close(s->arg);
	memset(s, 0, sizeof(*s));
}
