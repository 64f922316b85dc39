/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* filter_equal.c's random packets (filter_equal_packets.c). */
#ifndef FILTER_EQUAL_PACKETS_H
#define FILTER_EQUAL_PACKETS_H

#include <linux/types.h>

#include "filter_equal.h"

struct packet {
	__u32 len;
	__u8 data[FE_PKT_MAX];
};

/* Start the sequence from seed (0 is taken as 1). */
void fe_seed(__u64 seed);
__u64 fe_rnd(void);
/* Uniform in [0, n), 0 when n is 0. */
__u32 fe_below(__u32 n);
/* Big-endian 16 bits. */
void fe_put16(__u8 *p, __u32 v);
/* The next random packet. */
void fe_make_packet(struct packet *pk);
/* The bytes in hex, 32 a line, indented. */
void fe_hexdump(const __u8 *p, __u32 len);

#endif /* FILTER_EQUAL_PACKETS_H */
