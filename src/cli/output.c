// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "output.h"
#include "snapshot.h"

int wd_output_errno(FILE *f)
{
	int err;

	errno = 0;
	if (!fflush(f) && !ferror(f))
		return 0;
	/*
	 * fflush sets errno when what was left failed; a stream whose earlier
	 * write failed with nothing left to flush keeps only its error flag.
	 */
	err = errno ? errno : EIO;
	return err;
}

void wd_output_report(const char *cmd, const FILE *f, int err)
{
	fprintf(stderr, "whydrop%s%s: cannot write %s: %s\n", cmd ? " " : "", cmd ? cmd : "",
		f == stderr ? "standard error" : "standard output", strerror(err));
}

int wd_output_check(FILE *f, const char *cmd)
{
	int err = wd_output_errno(f);

	if (!err)
		return 0;
	wd_output_report(cmd, f, err);
	return 1;
}

void wd_output_summary_end(const struct wd_stats *st)
{
	if (st->recursion_misses)
		fprintf(stderr, ", %" PRIu64 " %s not traced (nested)", st->recursion_misses,
			wd_plural(st->recursion_misses, "drop", "drops"));
	if (st->filter_nonlinear)
		fprintf(stderr, ", %" PRIu64 " left out unmatched: the filter needed bytes in "
			"paged data", st->filter_nonlinear);
	fputc('\n', stderr);
}
