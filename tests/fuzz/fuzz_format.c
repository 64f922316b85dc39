// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the tracefs format parser: the file is outside data on old kernels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"

#include "reasons.h"

static void fuzz_one(char *text, size_t size)
{
	struct wd_reasons r;
	char buf[64];

	(void)size;
	if (wd_reasons_from_format(&r, text))
		return;
	for (uint32_t code = 0; code < 140; code++)
		wd_reason_name(&r, code, buf, sizeof(buf));
	wd_reason_name(&r, 0x20001, buf, sizeof(buf));
	wd_reason_by_name(&r, "NO_SOCKET");
	wd_reason_suggest(&r, "NO_SOKET");
	wd_reasons_free(&r);
}

FUZZ_TEXT(fuzz_one)
