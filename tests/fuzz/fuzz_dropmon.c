// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz drop_monitor's message parser: the bytes are a netlink message as the
 * kernel (or anything that can send to our socket) delivers it. A packet
 * alert's payload is then located and decoded as the source does, and every
 * alert goes through what the source makes of it (src/lib/dropmon/dropmon_events.c):
 * counts, a record and its view, the names of its codes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "dropmon.h"
#include "dropmon_events.h"
#include "format.h"

static void on_record(void *ctx, const struct wd_event *ev)
{
	struct wd_dm_events *e = ctx;
	struct wd_drop_view v = { .code = ev->reason };

	wd_decode(ev->hdr, ev->caplen, ev->l3proto, &v.flow);
	wd_dm_events_view(e, v.code, &v);
}

static void through_events(const struct wd_dm_msg *m, bool packet_mode)
{
	char reason[64], function[64], loc[64];
	struct wd_dm_events e;
	struct wd_keyset ks;

	wd_dm_events_init(&e);
	e.packet_mode = packet_mode;
	e.details = true;
	e.max_keys = 4;
	e.on_record = on_record;
	e.ctx = &e;
	wd_dm_events_msg(&e, m);
	wd_keyset_init(&ks, sizeof(struct wd_key));
	if (!wd_dm_events_keys(&e, &ks)) {
		const struct wd_key_total *k = wd_key_rows(&ks);

		for (size_t i = 0; i < ks.n; i++) {
			wd_dm_events_names(&e, k[i].key.reason, k[i].key.location, reason,
					   function, loc, sizeof(reason));
			wd_dm_events_subsys(&e, k[i].key.reason);
		}
	}
	wd_keyset_free(&ks);
	wd_dm_events_free(&e);
}

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
	if (wd_dm_parse(buf, size, m))
		goto out;
	through_events(m, m->kind == WD_DM_PACKET);
	if (m->kind != WD_DM_PACKET)
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
