/*
 * live_http.h - the HTTP output of `nvanalyze watch --listen [ADDR:]PORT`
 * (analyze/live/http*.c, prom*.c, livepage*.c): Prometheus metrics and a
 * live page, fed through a struct nv_live_sink (live.h).
 */
#ifndef NV_ANALYZE_LIVE_HTTP_H
#define NV_ANALYZE_LIVE_HTTP_H

#include <stddef.h>

#include "analyze/live/live.h"

/*
 * Start serving on listen ("[ADDR:]PORT") and fill *out with the output's
 * hooks.  Return: 0, or -errno with the reason in err.
 */
int nv_live_http_sink(const char *listen, struct nv_live_sink *out, char *err, size_t errlen);

#endif
