// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the reset-reason reader of tcp:tcp_send_reset's format (outside data without BTF). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tcp_names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), buf[64];
	struct wd_tcp_names t;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!wd_tcp_names_from_format(&t, text)) {
		for (uint32_t code = 0; code < 40; code++)
			wd_tcp_rst_name(&t, code, buf, sizeof(buf));
		wd_tcp_rst_name(&t, 0xffff, buf, sizeof(buf));
		wd_tcp_rst_by_name(&t, "rst:NO_SOCKET");
		for (uint32_t s = 0; s < 16; s++)
			wd_tcp_state_name(&t, s);
		wd_tcp_names_free(&t);
	}
	free(text);
	return 0;
}
