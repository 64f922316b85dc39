/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Locating (and, as root, mounting) tracefs to read the tracepoint format. */
#ifndef WD_TRACEFS_H
#define WD_TRACEFS_H

#include <stddef.h>

#define WD_KFREE_SKB_FORMAT "events/skb/kfree_skb/format"

/*
 * Path of the kfree_skb format file in buf. Mounts tracefs at
 * /sys/kernel/tracing when it is absent and we may. Returns 0, or -1 with a
 * message saying what to do in err.
 */
int wd_tracefs_format_path(char *buf, size_t len, char *err, size_t errlen);
/* The same for another file under tracefs (rel: "events/tcp/.../format"). */
int wd_tracefs_event_path(const char *rel, char *buf, size_t len, char *err, size_t errlen);
/* Whole file as a NUL-terminated string (caller frees), NULL on error. */
char *wd_read_file(const char *path, size_t max);
/* A format file's text (caller frees), or NULL with "cannot read PATH: why" in err. */
char *wd_tracefs_read(const char *path, char *err, size_t errlen);

#endif /* WD_TRACEFS_H */
