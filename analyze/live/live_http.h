/*
 * live_http.h - the HTTP output of `nvanalyze watch --listen [ADDR:]PORT`:
 * a struct nv_live_sink (live.h) that keeps the last intervals of each job
 * and op and serves them from libmicrohttpd's own threads: GET /metrics
 * (Prometheus' text exposition format), GET / (the live page) and its
 * JSON, GET /api/intervals?since=SEQ.  docs/prometheus.md names the
 * metrics, the paths and the memory bound.
 */
#ifndef NV_ANALYZE_LIVE_HTTP_H
#define NV_ANALYZE_LIVE_HTTP_H

#include <stddef.h>

#include "analyze/live/live.h"

/*
 * Listen on listen, "[ADDR:]PORT" (PORT 1-65535; ADDR a numeric IPv4 or
 * IPv6 address, the latter in brackets, or a host name; 127.0.0.1 when no
 * ADDR is given), and fill *out with the hooks that feed what it serves.
 * The socket is bound and listening when this returns 0, so that a port in
 * use or not allowed is an error before the run's output starts.  The
 * hooks copy each record under the sink's lock and return at once; they
 * never wait on a client.
 * Return: 0 with *out filled (free it with nv_live_http_close), or -errno
 * with a message in err (errlen bytes) saying what is wrong and what to do,
 * for the caller to print after "--listen LISTEN: ": -EINVAL (not
 * [ADDR:]PORT), -EADDRINUSE, -EACCES (a port below 1024), -EADDRNOTAVAIL
 * (not an address of this host), -ENOMEM.
 */
int nv_live_http_sink(const char *listen, struct nv_live_sink *out, char *err, size_t errlen);

/*
 * Stop serving: the server's threads joined, the socket closed, the state
 * freed; s zeroed.  s may be zeroed or NULL already (nothing done).
 * Return: nothing.
 */
void nv_live_http_close(struct nv_live_sink *s);

#endif
