// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Files opened to write as root; see safe_open.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "safe_open.h"

/*
 * Why whydrop, as root, will not write to what it opened: only a regular
 * file of the caller's own with no other name, a FIFO or a character device
 * (/dev/null). NULL when it may.
 */
static const char *refusal(const struct stat *st, char *buf, size_t len)
{
	if (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode))
		return NULL;
	if (!S_ISREG(st->st_mode))
		return "not a regular file, a FIFO or a character device";
	if (st->st_uid != geteuid()) {
		snprintf(buf, len, "it belongs to another user (uid %u); remove it or choose "
			 "another name", (unsigned int)st->st_uid);
		return buf;
	}
	if (st->st_nlink > 1)
		return "it has other hard links, which would be rewritten too; "
		       "remove it or choose another name";
	return NULL;
}

/* The kernel's reasons for refusing an open that are about what is there. */
static const char *open_refusal(int err)
{
	switch (err) {
	case ELOOP:
		return "it is a symbolic link, which whydrop does not follow; "
		       "give the path of what it points to";
	case EISDIR:
		return "it is a directory; give a file name";
	case ENXIO:
		return "not a regular file, a FIFO or a character device";
	}
	return NULL;
}

/*
 * No symbolic link is followed (O_NOFOLLOW), a new file is made with
 * O_EXCL, and what an existing name opened is checked before anything is
 * written (refusal()).
 */
int wd_open_for_writing(const char *path, struct stat *st, bool *created, char *err,
			size_t errlen)
{
	char buf[160];
	const char *why;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		why = open_refusal(errno);
		if (why)
			snprintf(err, errlen, "not writing to %s: %s", path, why);
		else
			snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, st)) {
		snprintf(err, errlen, "cannot stat %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	why = *created ? NULL : refusal(st, buf, sizeof(buf));
	if (why) {
		snprintf(err, errlen, "not writing to %s: %s", path, why);
		close(fd);
		return -1;
	}
	return fd;
}

void wd_unlink_created(const char *path, const struct stat *st)
{
	struct stat now;

	/* Only the file created here, not whatever took its name since. */
	if (!lstat(path, &now) && now.st_dev == st->st_dev && now.st_ino == st->st_ino)
		unlink(path);
}
