// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A drop as a text line and as a JSON line (watch, read --lines); the time,
 * the view of a record. The count document is count_doc.c's. */
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <linux/types.h>

#include "format.h"
#include "json.h"
#include "whydrop.h"

void wd_format_time(uint64_t realtime_ns, char *buf, size_t len)
{
	time_t sec = (time_t)(realtime_ns / 1000000000ULL);
	struct tm tm;
	char base[32];

	gmtime_r(&sec, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06" PRIu64 "Z", base, (uint64_t)(realtime_ns % 1000000000ULL / 1000));
}

void wd_event_view(const struct wd_event *ev, uint64_t mono_to_real_ns, struct wd_drop_view *v)
{
	memset(v, 0, sizeof(*v));
	v->ts_realtime_ns = ev->ts_ns + mono_to_real_ns;
	v->code = ev->reason;
	v->l3proto = ev->l3proto;
	wd_decode(ev->hdr, ev->caplen, ev->l3proto, &v->flow);
	wd_flow_wire_len(&v->flow, ev->hdr, ev->caplen, ev->wire_len);
	v->skb_len = ev->skb_len;
	v->ifindex = ev->ifindex;
	v->netns = ev->netns;
	v->netns_cookie = ev->netns_cookie;
	v->cpu = ev->cpu;
}

uint32_t wd_drop_ip_len(const struct wd_drop_view *v)
{
	if (v->flow.family == 4 && v->flow.ip_len >= 20)
		return v->flow.ip_len;
	if (v->flow.family == 6 && v->flow.ip_len > 40)
		return v->flow.ip_len;
	return 0;
}

static void print_endpoint(FILE *f, int family, const char *addr, bool ports, uint16_t port)
{
	if (!ports)
		fputs(addr, f);
	else if (family == 6)
		fprintf(f, "[%s]:%u", addr, port);
	else
		fprintf(f, "%s:%u", addr, port);
}

static void print_flow_text(FILE *f, const struct wd_drop_view *d)
{
	const struct wd_flow *fl = &d->flow;
	char buf[16];

	if (!fl->family) {
		fprintf(f, " %s", wd_l3_name(d->l3proto, buf, sizeof(buf)));
		return;
	}
	fprintf(f, " %s", fl->family == 4 ? "ipv4" : "ipv6");
	if (fl->has_l4)
		fprintf(f, " %s", wd_l4_name(fl->l4, buf, sizeof(buf)));
	fputc(' ', f);
	print_endpoint(f, fl->family, fl->src, fl->has_ports, fl->sport);
	fputs(" > ", f);
	print_endpoint(f, fl->family, fl->dst, fl->has_ports, fl->dport);
	if (fl->has_tcp_flags)
		fprintf(f, " [%s]", fl->tcp_flags);
	if (fl->has_icmp)
		fprintf(f, " type %u code %u", fl->icmp_type, fl->icmp_code);
	if (fl->fragment)
		fputs(" frag", f);
}

/* An interface name may hold any byte but '/', ':' and blanks: no terminal controls. */
static void print_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

const char *wd_sock_state_name(uint8_t state)
{
	static const char *const names[] = {
		[1] = "ESTABLISHED", [2] = "SYN_SENT", [3] = "SYN_RECV", [4] = "FIN_WAIT1",
		[5] = "FIN_WAIT2", [6] = "TIME_WAIT", [7] = "CLOSE", [8] = "CLOSE_WAIT",
		[9] = "LAST_ACK", [10] = "LISTEN", [11] = "CLOSING", [12] = "NEW_SYN_RECV",
	};

	return state < sizeof(names) / sizeof(names[0]) && names[state] ? names[state] : "?";
}

/* "container web pod web-0 k8s_namespace shop": what the runtime calls them. */
static void print_container_text(FILE *f, const struct wd_sock_view *k)
{
	const char *const words[] = { "container", "pod", "k8s_namespace" };
	const char *const vals[] = { k->container, k->pod, k->k8s_namespace };

	for (size_t i = 0; i < 3; i++) {
		if (!vals[i])
			continue;
		fprintf(f, " %s ", words[i]);
		print_name(f, vals[i]);
	}
}

void wd_print_sock_text(FILE *f, const struct wd_sock_view *k)
{
	if (k->kind == WD_SOCK_UNKNOWN) {
		fputs(" sock unknown", f);
		return;
	}
	if (k->kind != WD_SOCK_SEEN)
		return;
	fputs(" sock", f);
	if (k->full)
		fprintf(f, " %" PRIu64, k->ino);
	fprintf(f, " port %u", k->lport);
	if (k->rport)	/* 0: no peer (a listener, an unconnected datagram socket) */
		fprintf(f, " rport %u", k->rport);
	fprintf(f, " %s", wd_sock_state_name(k->state));
	if (k->pid) {
		fprintf(f, " pid %d ", k->pid);
		print_name(f, k->comm);
	}
	if (k->cgroup) {
		fputs(" cgroup ", f);
		print_name(f, k->cgroup);
	}
	if (k->workload && (!k->cgroup || strcmp(k->workload, k->cgroup))) {
		fputs(" (", f);
		print_name(f, k->workload);
		fputc(')', f);
	}
	print_container_text(f, k);
}

void wd_print_drop_text(FILE *f, const struct wd_drop_view *d)
{
	char ts[40];

	wd_format_time(d->ts_realtime_ns, ts, sizeof(ts));
	fprintf(f, "%s %s %s", ts + 11, d->reason ? d->reason : "-", d->location);
	print_flow_text(f, d);
	/* tcpdump's length; what was left of the skb only when that is unknown */
	if (wd_drop_ip_len(d))
		fprintf(f, " len %u", wd_drop_ip_len(d));
	else if (!d->no_skb_len)
		fprintf(f, " skb_len %u", d->skb_len);
	if (d->ifname) {
		fputs(" dev ", f);
		print_name(f, d->ifname);
	} else if (d->ifindex)
		fprintf(f, " ifindex %u", d->ifindex);
	if (d->netns_name) {
		fputs(" netns ", f);
		print_name(f, d->netns_name);
	} else if (d->netns) {
		fprintf(f, " netns %u", d->netns);
	}
	wd_print_sock_text(f, &d->sock);
	if (!d->no_cpu)
		fprintf(f, " cpu %u", d->cpu);
	if (d->hw_trap) {
		fputs(" hw_trap ", f);
		if (d->hw_group) {
			print_name(f, d->hw_group);
			fputc('/', f);
		}
		print_name(f, d->hw_trap);
	}
	if (d->rule) {
		fputs(" rule ", f);
		print_name(f, d->rule);
	}
	if (d->hint)
		fprintf(f, "  (%s)", d->hint);
	fputc('\n', f);
	for (size_t i = 0; i < d->n_stack; i++)
		fprintf(f, "    %s\n", d->stack[i]);
}

static void print_flow_json(struct wd_json *j, const struct wd_drop_view *d)
{
	const struct wd_flow *fl = &d->flow;
	char buf[16];

	if (!fl->family) {
		if (d->l3proto)
			wd_json_str(j, "family", wd_l3_name(d->l3proto, buf, sizeof(buf)));
		return;
	}
	wd_json_str(j, "family", fl->family == 4 ? "ipv4" : "ipv6");
	if (fl->has_l4)
		wd_json_str(j, "l4", wd_l4_name(fl->l4, buf, sizeof(buf)));
	wd_json_str(j, "src", fl->src);
	if (fl->has_ports)
		wd_json_uint(j, "sport", fl->sport);
	wd_json_str(j, "dst", fl->dst);
	if (fl->has_ports)
		wd_json_uint(j, "dport", fl->dport);
	if (fl->has_tcp_flags)
		wd_json_str(j, "tcp_flags", fl->tcp_flags);
	if (fl->has_icmp) {
		wd_json_uint(j, "icmp_type", fl->icmp_type);
		wd_json_uint(j, "icmp_code", fl->icmp_code);
	}
	wd_json_flag(j, "fragment", fl->fragment);
}

void wd_print_sock_json(struct wd_json *j, const struct wd_sock_view *k)
{
	if (k->kind == WD_SOCK_UNKNOWN) {
		wd_json_str(j, "socket", "unknown");
		return;
	}
	if (k->kind != WD_SOCK_SEEN)
		return;
	wd_json_open(j, "socket", '{');
	if (k->full)
		wd_json_uint(j, "ino", k->ino);
	wd_json_uint(j, "lport", k->lport);
	wd_json_uint(j, "rport", k->rport);
	wd_json_str(j, "state", wd_sock_state_name(k->state));
	if (k->full && !k->no_uid) {
		wd_json_uint(j, "uid", k->uid);
		wd_json_uint_opt(j, "cgroup_id", k->cgroup_id);
	}
	wd_json_str_opt(j, "cgroup", k->cgroup);
	wd_json_str_opt(j, "workload", k->workload);
	wd_json_str_opt(j, "container", k->container);
	wd_json_str_opt(j, "pod", k->pod);
	wd_json_str_opt(j, "k8s_namespace", k->k8s_namespace);
	if (k->pid) {
		wd_json_uint(j, "pid", (uint64_t)k->pid);
		wd_json_str(j, "comm", k->comm);
	}
	wd_json_close(j, '}');
}

void wd_json_reason(struct wd_json *j, const char *reason, uint32_t code, bool no_code)
{
	if (!reason)
		return;
	wd_json_str(j, "reason", reason);
	if (!no_code)
		wd_json_uint(j, "code", code);
}

void wd_print_drop_json(FILE *f, const struct wd_drop_view *d)
{
	struct wd_json j;
	char ts[40];

	wd_format_time(d->ts_realtime_ns, ts, sizeof(ts));
	wd_json_init(&j, f);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "ts", ts);
	wd_json_reason(&j, d->reason, d->code, d->no_code);
	wd_json_str(&j, "function", d->function);
	wd_json_str(&j, "location", d->location);
	print_flow_json(&j, d);
	if (wd_drop_ip_len(d))
		wd_json_uint(&j, "len", wd_drop_ip_len(d));
	if (!d->no_skb_len)
		wd_json_uint(&j, "skb_len", d->skb_len);
	wd_json_uint_opt(&j, "ifindex", d->ifindex);
	wd_json_str_opt(&j, "ifname", d->ifname);
	wd_json_uint_opt(&j, "netns", d->netns);
	wd_json_uint_opt(&j, "netns_cookie", d->netns_cookie);
	wd_json_str_opt(&j, "netns_name", d->netns_name);
	wd_print_sock_json(&j, &d->sock);
	if (!d->no_cpu)
		wd_json_uint(&j, "cpu", d->cpu);
	wd_json_str_opt(&j, "hw_trap_group", d->hw_group);
	wd_json_str_opt(&j, "hw_trap", d->hw_trap);
	wd_json_str_opt(&j, "rule", d->rule);
	if (d->stack)
		wd_json_strn(&j, "stack", d->stack, d->n_stack);
	wd_json_close(&j, '}');
	fputc('\n', f);
}
