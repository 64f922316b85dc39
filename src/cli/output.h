/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Output that went nowhere is an error: every command ends with its stdout
 * flushed and checked (a full disk, a closed pipe), one message, exit 1.
 */
#ifndef WD_OUTPUT_H
#define WD_OUTPUT_H

#include <stdio.h>

/* Flush f: 0 when everything written so far reached it, else the errno. */
int wd_output_errno(FILE *f);
/*
 * 0 if f is intact; else says "whydrop CMD: cannot write standard output:
 * CAUSE" once (EPIPE too: the reader went away) and returns 1.
 */
int wd_output_check(FILE *f, const char *cmd);
/* The message of wd_output_check for an error already taken from f. */
void wd_output_report(const char *cmd, const FILE *f, int err);

struct wd_stats;
/*
 * The end of watch's and record's summary line on stderr: the drops not
 * traced (nested) and those a filter left out for bytes in paged data, if
 * any; then the newline.
 */
void wd_output_summary_end(const struct wd_stats *st);

#endif /* WD_OUTPUT_H */
