/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* pcapng's option codes and padding: private to pcapng_write.c and pcapng_read.c. */
#ifndef WD_PCAPNG_BLOCKS_H
#define WD_PCAPNG_BLOCKS_H

#include <stddef.h>

/* Option codes. */
#define OPT_ENDOFOPT	0
#define OPT_COMMENT	1
#define SHB_HARDWARE	2
#define SHB_OS		3
#define SHB_USERAPPL	4
#define IF_NAME		2
#define IF_DESCRIPTION	3
#define IF_TSRESOL	9
#define ISB_STARTTIME	2
#define ISB_ENDTIME	3
#define ISB_IFRECV	4
#define ISB_OSDROP	7
#define ISB_USRDELIV	8

#define TSRESOL_NS	9
#define TSRESOL_DEFAULT	6	/* microseconds, when if_tsresol is absent */

static inline size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

#endif /* WD_PCAPNG_BLOCKS_H */
