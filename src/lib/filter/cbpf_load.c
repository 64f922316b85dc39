// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Loading a translated filter, with the verifier's reason when it refuses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "cbpf_ebpf.h"

#define LOAD_LOG_BYTES	(1 << 20)

/*
 * The last lines of the verifier's log, where it says why, into log;
 * without its closing statistics ("processed N insns ...").
 */
static void log_tail(const char *vlog, char *log, size_t loglen)
{
	size_t len = strlen(vlog);
	const char *from = vlog, *stats;

	while (len && vlog[len - 1] == '\n')
		len--;
	stats = memrchr(vlog, '\n', len);
	if (stats && !strncmp(stats + 1, "processed ", 10))
		len = (size_t)(stats - vlog);
	if (len >= loglen) {
		from = vlog + len - (loglen - 1);
		if (memchr(from, '\n', len - (size_t)(from - vlog)))
			from = (const char *)memchr(from, '\n', len - (size_t)(from - vlog)) + 1;
	}
	snprintf(log, loglen, "%.*s", (int)(len - (size_t)(from - vlog)), from);
}

int wd_filter_prog_load(enum bpf_prog_type type, __u32 attach_btf_id,
			const struct bpf_insn *insns, size_t n, char *log, size_t loglen)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	char *vlog;
	int fd, ret;

	if (log && loglen)
		log[0] = '\0';
	if (type == BPF_PROG_TYPE_TRACING) {
		opts.expected_attach_type = BPF_TRACE_RAW_TP;
		opts.attach_btf_id = attach_btf_id;
	}
	fd = bpf_prog_load(type, "wd_filter", "Dual BSD/GPL", insns, n, &opts);
	if (fd >= 0)
		return fd;
	ret = fd;	/* libbpf 1.x: -errno */
	if (!log || !loglen)
		return ret;
	/* again for the verifier's log (level 1: the failing path only) */
	vlog = calloc(1, LOAD_LOG_BYTES);
	if (vlog) {
		opts.log_buf = vlog;
		opts.log_size = LOAD_LOG_BYTES;
		opts.log_level = 1;
		fd = bpf_prog_load(type, "wd_filter", "Dual BSD/GPL", insns, n, &opts);
		if (fd >= 0)
			close(fd);	/* loads now: report the first error */
		log_tail(vlog, log, loglen);
		free(vlog);
	}
	if (!log[0])
		snprintf(log, loglen, "%s", strerror(-ret));
	return ret;
}
