// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz header decoding and output of ring-buffer records: the bytes are
 * whatever the dropped packet held. Byte 0 picks the protocol the kernel
 * reported, byte 1 the caplen the record claims (possibly bogus).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint16_t protos[] = { WD_ETH_P_IP, WD_ETH_P_IPV6, WD_ETH_P_ARP, 0 };
	uint8_t hdr[128] = { 0 };
	struct wd_drop_view v = { 0 };
	size_t caplen;
	FILE *null;

	if (size < 2)
		return 0;
	caplen = data[1];
	memcpy(hdr, data + 2, size - 2 < sizeof(hdr) ? size - 2 : sizeof(hdr));
	v.l3proto = protos[data[0] & 3];
	/* As the session does: never trust caplen beyond the buffer. */
	wd_decode(hdr, caplen <= sizeof(hdr) ? caplen : sizeof(hdr), v.l3proto, &v.flow);
	v.reason = "NO_SOCKET";
	v.function = "f";
	v.location = "f+0x1";
	null = fopen("/dev/null", "w");
	if (null) {
		wd_print_drop_text(null, &v);
		wd_print_drop_json(null, &v);
		fclose(null);
	}
	return 0;
}
