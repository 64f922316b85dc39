/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Files the commands write as root (record -w, count --svg): src/lib/base/safe_open.h's rules. */
#ifndef WD_CLI_OPEN_H
#define WD_CLI_OPEN_H

#include <stdbool.h>
#include <sys/stat.h>

/*
 * Open path for writing: created mode 0600 (*created true), or an existing
 * one checked before anything is written; nothing is truncated here. The
 * fd, or -1 after one message "whydrop CMD: ..." saying why.
 */
int wd_open_checked(const char *cmd, const char *path, struct stat *st, bool *created);

#endif /* WD_CLI_OPEN_H */
