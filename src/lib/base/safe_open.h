/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Opening a file to write as root without letting its path make whydrop
 * write elsewhere: record -w's files, count --svg's flame graph and the
 * WHYDROP_DROPMON_DUMP test hook.
 */
#ifndef WD_SAFE_OPEN_H
#define WD_SAFE_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/*
 * Open path for writing: created with mode 0600 if absent (*created),
 * never through a symbolic link, and an existing one only if it is a
 * regular file of this user with no other name, a FIFO or a character
 * device (/dev/null). Nothing is written nor truncated here. The fd (its
 * stat in *st), or -1 with the sentence that says why in err ("not writing
 * to PATH: it is a symbolic link, ...", "cannot create PATH: ...").
 */
int wd_open_for_writing(const char *path, struct stat *st, bool *created, char *err,
			size_t errlen);
/* Remove path if it is still the file st describes (one this run created). */
void wd_unlink_created(const char *path, const struct stat *st);

#endif /* WD_SAFE_OPEN_H */
