// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz HTTP requests to the exporter: any bytes, sent over loopback to the
 * same libmicrohttpd daemon and request handler that `whydrop serve` runs
 * (src/cli/http.c), with a fixed page standing in for the kernel's counts.
 * Each input is one connection: written, half-closed, answer read to EOF.
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http.h"

static struct sockaddr_in addr;

static int render(void *ctx, struct wd_prom_buf *b)
{
	(void)ctx;
	wd_prom_printf(b, "# TYPE whydrop_drops_total counter\n"
			  "whydrop_drops_total{reason=\"NO_SOCKET\"} 7\n");
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	socklen_t len = sizeof(addr);
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	(void)argc;
	(void)argv;
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&addr, &len) || !wd_http_start(fd, false, render, NULL, false)) {
		perror("fuzz_http: cannot start the daemon");
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[4096];

	if (fd < 0)
		return 0;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
		goto out;
	if (size && write(fd, data, size) < 0)
		goto out;
	shutdown(fd, SHUT_WR);
	/*
	 * A complete request is answered at once; an incomplete one would wait
	 * for the daemon's 10 s timeout: give up on it after 50 ms.
	 */
	while (poll(&p, 1, 50) > 0 && read(fd, buf, sizeof(buf)) > 0)
		;
out:
	close(fd);
	return 0;
}
