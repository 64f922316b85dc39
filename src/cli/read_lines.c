// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read --lines; see read_lines.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drop_comment.h"
#include "format.h"
#include "hints.h"
#include "read_lines.h"

#define MAX_FRAMES	128

/* The raw value of " key=" in a comment (words written without %XX). */
static bool comment_value(const char *comment, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key), n;
	const char *p = comment;

	for (; (p = strstr(p, key)); p += klen) {
		if ((p != comment && p[-1] != ' ') || p[klen] != '=')
			continue;
		p += klen + 1;
		n = strcspn(p, " \n");
		if (n >= len)
			return false;
		memcpy(buf, p, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}

/* IP by the version nibble of the bytes; else the comment's l3= (arp, 0x88cc). */
static uint16_t l3_of(const struct wd_pcapng_rec *rec, const char *comment)
{
	char v[16];

	if (rec->caplen && rec->data[0] >> 4 == 4)
		return WD_ETH_P_IP;
	if (rec->caplen && rec->data[0] >> 4 == 6)
		return WD_ETH_P_IPV6;
	if (!comment_value(comment, "l3", v, sizeof(v)))
		return 0;
	if (!strcmp(v, "arp"))
		return WD_ETH_P_ARP;
	return (uint16_t)strtoul(v, NULL, 16);
}

static uint8_t state_of(const char *name)
{
	for (uint8_t s = 1; s <= 12; s++)
		if (!strcmp(name, wd_sock_state_name(s)))
			return s;
	return 0;
}

void wd_read_sock_of(const struct wd_pcapng_meta *m, struct wd_sock_view *k)
{
	if (m->sock_unknown) {
		k->kind = WD_SOCK_UNKNOWN;
		return;
	}
	if (!m->has_lport)
		return;
	k->kind = WD_SOCK_SEEN;
	k->full = m->has_sock;
	k->no_uid = true;
	k->ino = m->sock;
	k->lport = m->lport;
	k->rport = m->rport;
	k->state = m->has_state ? state_of(m->state) : 0;
	k->pid = m->has_pid ? (int)m->pid : 0;
	k->comm = m->has_comm ? m->comm : "?";
	k->cgroup = m->has_cgroup ? m->cgroup : NULL;
	k->workload = m->has_workload ? m->workload : NULL;
	k->container = m->has_container ? m->container : NULL;
	k->pod = m->has_pod ? m->pod : NULL;
	k->k8s_namespace = m->has_k8s_namespace ? m->k8s_namespace : NULL;
}

/* stack=f1;f2[mod]: frames as watch prints them ("f2 [mod]"), in buf. */
static size_t frames_of(const char *comment, char *buf, size_t len, const char **frames)
{
	size_t n = 0;
	char *p, *save = NULL, *w;

	if (!comment_value(comment, "stack", buf, len / 2))
		return 0;
	for (w = strtok_r(buf, ";", &save); w && n < MAX_FRAMES; w = strtok_r(NULL, ";", &save)) {
		wd_pcapng_stack_frame(w);
		frames[n++] = w;
	}
	/* room past the copy: each "func+0x1[mod]" rewritten as "func+0x1 [mod]" */
	p = buf + len / 2;
	for (size_t i = 0; i < n; i++) {
		const char *br = strchr(frames[i], '[');
		size_t need = strlen(frames[i]) + 2;

		if (!br || br == frames[i] || (size_t)(buf + len - p) < need)
			continue;
		snprintf(p, need, "%.*s %s", (int)(br - frames[i]), frames[i], br);
		frames[i] = p;
		p += need;
	}
	return n;
}

int wd_read_print_line(FILE *f, const struct wd_pcapng_rec *rec, const struct wd_pcapng_meta *m,
		       bool json)
{
	const char *comment = rec->comment ? rec->comment : "";
	const char *frames[MAX_FRAMES];
	struct wd_drop_view v = { 0 };
	char ifindex[16], hw[128], *stackbuf = NULL, *slash;

	v.ts_realtime_ns = rec->has_ts ? rec->ts_ns : 0;
	v.reason = m->has_reason ? m->reason : NULL;
	v.code = m->code;
	v.no_code = m->has_reason && !m->has_code;
	v.function = m->function;
	v.location = m->location;
	v.l3proto = l3_of(rec, comment);
	wd_decode(rec->data, rec->caplen, v.l3proto, &v.flow);
	wd_flow_wire_len(&v.flow, rec->data, rec->caplen, rec->origlen);
	/* a drop that is not IP is written with caplen 0 and skb->len as its length */
	v.no_skb_len = v.flow.family != 0;
	v.skb_len = v.flow.family ? 0 : rec->origlen;
	v.ifname = m->has_ifname ? m->ifname : NULL;
	if (comment_value(comment, "ifindex", ifindex, sizeof(ifindex)))
		v.ifindex = (uint32_t)strtoul(ifindex, NULL, 10);
	v.netns = m->has_netns ? m->netns : 0;
	v.netns_cookie = m->has_netns_cookie ? m->netns_cookie : 0;
	v.netns_name = m->has_netns_name ? m->netns_name : NULL;
	v.no_cpu = true;
	if (comment_value(comment, "hw_trap", hw, sizeof(hw))) {
		slash = strchr(hw, '/');
		v.hw_trap = slash ? slash + 1 : hw;
		if (slash) {
			*slash = '\0';
			v.hw_group = hw;
		}
	}
	wd_read_sock_of(m, &v.sock);
	if (strstr(comment, "stack=")) {
		stackbuf = malloc(2 * (strlen(comment) + MAX_FRAMES * 2));
		if (!stackbuf)
			return -ENOMEM;
		v.n_stack = frames_of(comment, stackbuf, 2 * (strlen(comment) + MAX_FRAMES * 2),
				      frames);
		v.stack = v.n_stack ? frames : NULL;
	}
	if (json) {
		wd_print_drop_json(f, &v);
	} else {
		v.hint = v.reason ? wd_hint_at(v.reason, v.function) : NULL;
		wd_print_drop_text(f, &v);
	}
	free(stackbuf);
	return 0;
}
