// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz drop_monitor's message parser: the bytes are a netlink message as the
 * kernel (or anything that can send to our socket) delivers it. A packet
 * alert's payload is then located and decoded as the source does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "dropmon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy: ASan sees any read past the message */
	uint8_t *buf = malloc(size ? size : 1);
	struct wd_dm_msg *m = malloc(sizeof(*m));
	struct wd_flow f;
	int l3;

	if (!buf || !m)
		goto out;
	memcpy(buf, data, size);
	if (wd_dm_parse(buf, size, m) || m->kind != WD_DM_PACKET)
		goto out;
	l3 = wd_dm_l3_offset(m->packet.payload, m->packet.payload_len, m->packet.proto);
	if (l3 >= 0)
		wd_decode(m->packet.payload + l3, m->packet.payload_len - (size_t)l3,
			  m->packet.proto, &f);
out:
	free(buf);
	free(m);
	return 0;
}
