// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "http.h"

struct http {
	wd_http_render_fn render;
	void *ctx;
	bool verbose;
};

static const char index_page[] =
"whydrop Prometheus exporter: the metrics are at /metrics\n";

static enum MHD_Result reply_static(struct MHD_Connection *c, unsigned int code,
				    const char *body, const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(body), (void *)body,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_metrics(struct http *h, struct MHD_Connection *c)
{
	struct wd_prom_buf b = { 0 };
	struct MHD_Response *r;
	enum MHD_Result ret;
	int err = h->render(h->ctx, &b);

	if (err) {
		wd_prom_buf_free(&b);
		fprintf(stderr, "whydrop serve: reading the counts failed: %s\n", strerror(-err));
		return reply_static(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
				    "whydrop: reading the counts failed\n", NULL);
	}
	r = MHD_create_response_from_buffer(b.len, b.data, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		wd_prom_buf_free(&b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, WD_PROM_CONTENT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static ssize_t no_body(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)cls;
	(void)pos;
	(void)buf;
	(void)max;
	return MHD_CONTENT_READER_END_OF_STREAM;
}

/*
 * HEAD /metrics: the status and content type of a GET, without reading the
 * kernel's counts or rendering the page, so no Content-Length (the page's
 * size is only known once rendered, and a HEAD must not claim another).
 */
static enum MHD_Result reply_metrics_head(struct MHD_Connection *c)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, no_body, NULL, NULL);
	if (!r)
		return MHD_NO;
	/* Not chunked either: a GET gets a Content-Length. The connection then closes. */
	MHD_set_response_options(r, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, WD_PROM_CONTENT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **req_ctx)
{
	struct http *h = cls;

	(void)version;
	(void)upload_data;
	(void)upload_size;
	(void)req_ctx;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_static(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				    "whydrop: only GET and HEAD\n", "GET, HEAD");
	if (!strcmp(url, "/metrics") && !strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_metrics_head(c);
	if (!strcmp(url, "/metrics"))
		return reply_metrics(h, c);
	if (!strcmp(url, "/"))
		return reply_static(c, MHD_HTTP_OK, index_page, NULL);
	return reply_static(c, MHD_HTTP_NOT_FOUND, "whydrop: not found; try /metrics\n", NULL);
}

static void on_http_log(void *cls, const char *fmt, va_list ap)
{
	struct http *h = cls;

	if (!h->verbose)
		return;
	fprintf(stderr, "whydrop serve: http: ");
	vfprintf(stderr, fmt, ap);
}

/* The HTTP thread starts with SIGINT/SIGTERM/SIGHUP blocked: the main thread takes them. */
struct MHD_Daemon *wd_http_start(int fd, bool v6, wd_http_render_fn render, void *ctx,
				 bool verbose)
{
	/* Lives as long as the process: the daemon calls back into it. */
	static struct http h;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG;
	struct MHD_Daemon *d;
	sigset_t block, old;

	h = (struct http){ render, ctx, verbose };
	if (v6)
		flags |= MHD_USE_IPv6;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, &h,
			     MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)16,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
			     MHD_OPTION_EXTERNAL_LOGGER, on_http_log, &h,
			     MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!d)
		fprintf(stderr, "whydrop serve: cannot start the HTTP server (libmicrohttpd)\n");
	return d;
}

