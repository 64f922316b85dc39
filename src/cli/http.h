/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The HTTP side of `whydrop serve`, on libmicrohttpd: GET/HEAD only,
 * /metrics rendered by a callback at each GET (a HEAD gets the headers
 * without a render), / and 404 otherwise.
 * Separate from the exporter so that it can be fuzzed without BPF.
 */
#ifndef WD_HTTP_H
#define WD_HTTP_H

#include <stdbool.h>
#include <microhttpd.h>

#include "prom.h"

/* Fill b with the exposition; 0, or -errno (the client gets a 500). Not called for HEAD. */
typedef int (*wd_http_render_fn)(void *ctx, struct wd_prom_buf *b);

/*
 * Serve on the listening socket fd (libmicrohttpd closes it) from an
 * internal thread. NULL after printing why.
 */
struct MHD_Daemon *wd_http_start(int fd, bool v6, wd_http_render_fn render, void *ctx,
				 bool verbose);

#endif /* WD_HTTP_H */
