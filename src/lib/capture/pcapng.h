/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pcapng (IETF draft-ietf-opsawg-pcapng): what the writer of `whydrop
 * record` (pcapng_write.h) and the defensive reader of `whydrop read`
 * (pcapng_read.h) share. No libpcap: libpcap 1.10 cannot write pcapng.
 * The packet comment of a drop is drop_comment.h's.
 */
#ifndef WD_PCAPNG_H
#define WD_PCAPNG_H

#include <stdbool.h>
#include <stdint.h>

#define WD_PCAPNG_LINKTYPE_RAW	101		/* packet starts at the IP header */
#define WD_PCAPNG_MAX_BLOCK	(16u << 20)	/* larger blocks are refused */
#define WD_PCAPNG_MAX_IFS	65536		/* interfaces per section */

/* Block types. */
#define WD_PCAPNG_SHB	0x0A0D0D0Au
#define WD_PCAPNG_IDB	0x00000001u
#define WD_PCAPNG_PB	0x00000002u	/* obsolete Packet Block */
#define WD_PCAPNG_SPB	0x00000003u
#define WD_PCAPNG_ISB	0x00000005u
#define WD_PCAPNG_EPB	0x00000006u
#define WD_PCAPNG_BOM	0x1A2B3C4Du

/* Interface Statistics Block; the reader fills has_* for what it found. */
struct wd_pcapng_stats {
	bool has_start, has_end, has_ifrecv, has_osdrop, has_usrdeliv;
	uint64_t start_ns, end_ns;
	uint64_t ifrecv;	/* whydrop: drops counted */
	uint64_t osdrop;	/* whydrop: drops not delivered (rate, ring full) */
	uint64_t usrdeliv;	/* whydrop: packets written */
	const char *comment;
};

#endif /* WD_PCAPNG_H */
