// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the tracefs format parser: the file is outside data on old kernels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reasons.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), buf[64];
	struct wd_reasons r;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!wd_reasons_from_format(&r, text)) {
		for (uint32_t code = 0; code < 140; code++)
			wd_reason_name(&r, code, buf, sizeof(buf));
		wd_reason_name(&r, 0x20001, buf, sizeof(buf));
		wd_reason_by_name(&r, "NO_SOCKET");
		wd_reason_suggest(&r, "NO_SOKET");
		wd_reasons_free(&r);
	}
	free(text);
	return 0;
}
