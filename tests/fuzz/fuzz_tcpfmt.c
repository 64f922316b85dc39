// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the reset-reason reader of tcp:tcp_send_reset's format (outside data without BTF). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"

#include "tcp_names.h"

static void fuzz_one(char *text, size_t size)
{
	struct wd_tcp_names t;
	char buf[64];

	(void)size;
	if (wd_tcp_names_from_format(&t, text))
		return;
	for (uint32_t code = 0; code < 40; code++)
		wd_tcp_rst_name(&t, code, buf, sizeof(buf));
	wd_tcp_rst_name(&t, 0xffff, buf, sizeof(buf));
	wd_tcp_rst_by_name(&t, "rst:NO_SOCKET");
	for (uint32_t s = 0; s < 16; s++)
		wd_tcp_state_name(&t, s);
	wd_tcp_names_free(&t);
}

FUZZ_TEXT(fuzz_one)
