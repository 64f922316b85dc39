// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the pcapng reader and whydrop's comment parser with any bytes. */
#include <stdint.h>
#include <stdio.h>

#include "drop_comment.h"
#include "pcapng_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	struct wd_pcapng_meta m;
	FILE *f = size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
	int calls = 0;

	if (!f)
		return 0;
	wd_pcapng_reader_init(&r, f);
	while (wd_pcapng_next(&r, &rec) > 0) {
		if (rec.type == WD_PCAPNG_PACKET) {
			volatile uint8_t sink = 0;
			for (uint32_t i = 0; i < rec.caplen; i++)
				sink ^= rec.data[i];
			wd_pcapng_parse_comment(rec.comment, &m);
		}
		if (++calls > (int)(size / 12) + 2)
			__builtin_trap();	/* more records than blocks: a loop */
	}
	wd_pcapng_reader_free(&r);
	fclose(f);
	return 0;
}
