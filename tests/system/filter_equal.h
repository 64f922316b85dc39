/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Shared by filter_equal.bpf.c and filter_equal.c: the packet under test. */
#ifndef FILTER_EQUAL_H
#define FILTER_EQUAL_H

#define FE_PKT_MAX	2048

/* Setup program results other than the filter's verdict (0 or 1). */
#define FE_NO_FILTER	2	/* filter_progs[WD_FILTER_PROG] empty */
#define FE_NO_MAP	3

struct fe_pkt {
	__u32 linear;		/* -> wd_filter_ctx.linear */
	__u32 wirelen;		/* -> wd_filter_ctx.wirelen */
	__u8 data[FE_PKT_MAX];	/* its address -> wd_filter_ctx.nh */
};

#endif /* FILTER_EQUAL_H */
