// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "tracefs.h"

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

char *wd_read_file(const char *path, size_t max)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *tmp;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			if (cap >= max)
				break;
			cap = cap ? cap * 2 : 16384;
			tmp = realloc(buf, cap + 1);
			if (!tmp)
				goto fail;
			buf = tmp;
		}
		r = fread(buf + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	if (!buf)
		buf = calloc(1, 1);
	else
		buf[n] = '\0';
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

char *wd_tracefs_read(const char *path, char *err, size_t errlen)
{
	char *text = wd_read_file(path, 1 << 20);

	if (!text)
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	return text;
}

static int find_format(char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		snprintf(buf, len, "%s/%s", tracefs_dirs[i], WD_KFREE_SKB_FORMAT);
		if (!access(buf, R_OK))
			return 0;
	}
	return -1;
}

int wd_tracefs_format_path(char *buf, size_t len, char *err, size_t errlen)
{
	if (!find_format(buf, len))
		return 0;
	if (geteuid() == 0 &&
	    !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	    !find_format(buf, len))
		return 0;
	if (!access("/sys/kernel/tracing/events", F_OK) ||
	    !access("/sys/kernel/debug/tracing/events", F_OK))
		snprintf(err, errlen,
			 "the kernel has no skb:kfree_skb tracepoint (CONFIG_TRACEPOINTS/CONFIG_NET); whydrop cannot trace drops here, try `whydrop explain`");
	else if (geteuid() != 0)
		snprintf(err, errlen,
			 "cannot read the kfree_skb tracepoint format: tracefs is not mounted or not readable; run as root or `mount -t tracefs nodev /sys/kernel/tracing`");
	else
		snprintf(err, errlen,
			 "tracefs is not mounted and mounting it failed (%s); run `mount -t tracefs nodev /sys/kernel/tracing`",
			 strerror(errno));
	return -1;
}

/*
 * Path of another tracepoint's file (rel: "events/tcp/tcp_send_reset/format"),
 * tracefs mounted as above when absent. 0, or -1 with what to do in err.
 */
int wd_tracefs_event_path(const char *rel, char *buf, size_t len, char *err, size_t errlen)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
			snprintf(buf, len, "%s/%s", tracefs_dirs[i], rel);
			if (!access(buf, R_OK))
				return 0;
		}
		if (pass || geteuid() != 0 ||
		    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
			break;
	}
	if (!access("/sys/kernel/tracing/events", F_OK) ||
	    !access("/sys/kernel/debug/tracing/events", F_OK))
		snprintf(err, errlen, "this kernel has no %s in tracefs", rel);
	else
		snprintf(err, errlen, "cannot read %s: tracefs is not mounted or not readable; "
			 "run as root or `mount -t tracefs nodev /sys/kernel/tracing`", rel);
	return -1;
}
