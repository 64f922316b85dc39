// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * count and read --stacks --svg FILE: opened as root before tracing (so that
 * a bad path fails before anything is attached; read: before reading), rewritten only once the counts
 * are read, made 0600 as record -w's files are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "flame_output.h"
#include "flamegraph.h"
#include "cli_open.h"
#include "safe_open.h"

int wd_flame_out_open(struct wd_flame_out *o, const char *cmd, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->path = path;
	o->fd = wd_open_checked(cmd, path, &o->st, &o->created);
	return o->fd < 0 ? 1 : 0;
}

void wd_flame_out_close(struct wd_flame_out *o)
{
	if (o->fd < 0 || !o->path)
		return;
	close(o->fd);
	o->fd = -1;
	if (o->created && !o->written)
		wd_unlink_created(o->path, &o->st);
}

/*
 * "57 drops counted for 10.0 s on kernel 6.18.44; 3 hidden as expected (...)";
 * read: "57 drops ..., recorded over 10.0 s on kernel 6.18.44".
 */
static void subtitle(char *buf, size_t len, uint64_t total, const struct wd_count_doc *doc,
		     const char *cmd)
{
	uint64_t lost = doc->stack_collisions + doc->stack_errors + doc->stack_overflow;
	int n;

	n = snprintf(buf, len, "%" PRIu64 " %s with their kernel stacks, %s %.1f s on "
		     "kernel %s", total, wd_plural(total, "drop", "drops"),
		     strcmp(cmd, "read") ? "counted for" : "recorded over", doc->duration_s,
		     doc->kernel && *doc->kernel ? doc->kernel : "?");
	if (n > 0 && (size_t)n < len && doc->noise && doc->hidden_total)
		n += snprintf(buf + n, len - (size_t)n, "; %" PRIu64 " hidden as expected "
			      "(--show-all shows them)", doc->hidden_total);
	if (n > 0 && (size_t)n < len && lost)
		snprintf(buf + n, len - (size_t)n, "; %" PRIu64 " under [stack lost] frames",
			 lost);
}

static int build(struct wd_flame *fg, const struct wd_folded *fo)
{
	int err = wd_flame_init(fg);

	for (size_t i = 0; !err && i < fo->n; i++)
		if (fo->v[i].text[0])
			err = wd_flame_add(fg, fo->v[i].text, fo->v[i].count);
	return err;
}

/* Rewritten from its start: a regular file is emptied and made 0600 first. */
static int write_file(struct wd_flame_out *o, const struct wd_flame *fg,
		      const struct wd_flame_opts *opts)
{
	bool regular = S_ISREG(o->st.st_mode);
	FILE *f;
	int fd, err;

	if (regular && ((o->st.st_mode & 07777) != 0600 && fchmod(o->fd, 0600)))
		return errno;
	if (regular && ftruncate(o->fd, 0))
		return errno;
	fd = dup(o->fd);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		err = errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	err = wd_flame_write_svg(f, fg, opts) ? (errno ? errno : EIO) : 0;
	if (fclose(f) && !err)
		err = errno;
	return err;
}

int wd_flame_out_write(struct wd_flame_out *o, const struct wd_folded *fo,
		       const struct wd_count_doc *doc)
{
	struct wd_flame_opts opts = {
		.title = "Kernel stacks of dropped packets", .unit = "drops", .unit_one = "drop",
	};
	char sub[320];
	struct wd_flame fg;
	int err = build(&fg, fo);

	if (err) {
		fprintf(stderr, "whydrop %s: cannot make the flame graph: %s\n", o->cmd,
			strerror(-err));
		wd_flame_free(&fg);
		return 1;
	}
	subtitle(sub, sizeof(sub), wd_flame_total(&fg), doc, o->cmd);
	opts.subtitle = sub;
	errno = 0;
	err = write_file(o, &fg, &opts);
	wd_flame_free(&fg);
	if (err) {
		fprintf(stderr, "whydrop %s: cannot write the flame graph to %s: %s\n", o->cmd,
			o->path, strerror(err));
		return 1;
	}
	o->written = true;
	return 0;
}
