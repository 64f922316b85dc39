/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop read --lines: a recorded packet printed as watch prints a drop,
 * text or JSON, with the fields the recording holds (the packet comment,
 * the bytes, the timestamp); the others are left out, never made up.
 */
#ifndef WD_READ_LINES_H
#define WD_READ_LINES_H

#include <stdbool.h>
#include <stdio.h>

#include "drop_comment.h"
#include "pcapng_read.h"

/* 0, or -ENOMEM. */
int wd_read_print_line(FILE *f, const struct wd_pcapng_rec *rec, const struct wd_pcapng_meta *m,
		       bool json);

/* Who a recorded comment says the socket is (sock=, lport=, pid=, ...). */
void wd_read_sock_of(const struct wd_pcapng_meta *m, struct wd_sock_view *k);

#endif /* WD_READ_LINES_H */
