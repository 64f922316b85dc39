/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Files whydrop writes as root (record -w, count --svg): opened without
 * following a symbolic link, and refused unless what was opened is a
 * regular file of the caller's own with no other name, a FIFO or a
 * character device (safe_open.c).
 */
#ifndef WD_SAFE_OPEN_H
#define WD_SAFE_OPEN_H

#include <stdbool.h>
#include <sys/stat.h>

/*
 * Open path for writing: created mode 0600 (*created true), or an existing
 * one checked before anything is written; nothing is truncated here. The
 * fd, or -1 after one message "whydrop CMD: ..." saying why.
 */
int wd_open_checked(const char *cmd, const char *path, struct stat *st, bool *created);
/* Remove path if it is still the file st describes (one wd_open_checked created). */
void wd_unlink_created(const char *path, const struct stat *st);

#endif /* WD_SAFE_OPEN_H */
