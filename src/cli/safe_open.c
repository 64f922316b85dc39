// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Opening a file to write as root without being turned into a write
 * elsewhere (record -w, count --svg); tests/integration/record_safety.sh.
 */
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

static int refuse(const char *cmd, const char *path, const char *why)
{
	fprintf(stderr, "whydrop %s: not writing to %s: %s\n", cmd, path, why);
	return -1;
}

/*
 * As root, a path must not make whydrop write elsewhere: no symbolic link
 * is followed, and what was opened is checked (refusal()) before anything
 * is written. Every file of a recording comes here, the rotated ones too,
 * and count's flame graph.
 */
int wd_open_checked(const char *cmd, const char *path, struct stat *st, bool *created)
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
			return refuse(cmd, path, why);
		fprintf(stderr, "whydrop %s: cannot create %s: %s\n", cmd, path,
			strerror(errno));
		return -1;
	}
	if (fstat(fd, st)) {
		fprintf(stderr, "whydrop %s: cannot stat %s: %s\n", cmd, path, strerror(errno));
		close(fd);
		return -1;
	}
	why = *created ? NULL : refusal(st, buf, sizeof(buf));
	if (why) {
		close(fd);
		return refuse(cmd, path, why);
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
