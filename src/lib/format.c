// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "json.h"

void wd_format_time(uint64_t realtime_ns, char *buf, size_t len)
{
	time_t sec = (time_t)(realtime_ns / 1000000000ULL);
	struct tm tm;
	char base[32];

	gmtime_r(&sec, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06" PRIu64 "Z", base, (uint64_t)(realtime_ns % 1000000000ULL / 1000));
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

void wd_print_drop_text(FILE *f, const struct wd_drop_view *d)
{
	char ts[40];

	wd_format_time(d->ts_realtime_ns, ts, sizeof(ts));
	fprintf(f, "%s %s %s", ts + 11, d->reason ? d->reason : "-", d->location);
	print_flow_text(f, d);
	fprintf(f, " len %u", d->len);
	if (d->ifname) {
		fputs(" dev ", f);
		print_name(f, d->ifname);
	} else if (d->ifindex)
		fprintf(f, " ifindex %u", d->ifindex);
	if (d->netns)
		fprintf(f, " netns %u", d->netns);
	fprintf(f, " cpu %u", d->cpu);
	if (d->hint)
		fprintf(f, "  (%s)", d->hint);
	fputc('\n', f);
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
	if (fl->fragment)
		wd_json_bool(j, "fragment", true);
}

void wd_print_drop_json(FILE *f, const struct wd_drop_view *d)
{
	struct wd_json j;
	char ts[40];

	wd_format_time(d->ts_realtime_ns, ts, sizeof(ts));
	wd_json_init(&j, f);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "ts", ts);
	if (d->reason) {
		wd_json_str(&j, "reason", d->reason);
		wd_json_uint(&j, "code", d->code);
	}
	wd_json_str(&j, "function", d->function);
	wd_json_str(&j, "location", d->location);
	print_flow_json(&j, d);
	wd_json_uint(&j, "len", d->len);
	if (d->ifindex)
		wd_json_uint(&j, "ifindex", d->ifindex);
	if (d->ifname)
		wd_json_str(&j, "ifname", d->ifname);
	if (d->netns)
		wd_json_uint(&j, "netns", d->netns);
	wd_json_uint(&j, "cpu", d->cpu);
	wd_json_close(&j, '}');
	fputc('\n', f);
}

/* "A,B" as a JSON array of strings. */
static void json_list(struct wd_json *j, const char *key, const char *csv)
{
	char item[128];

	wd_json_open(j, key, '[');
	while (*csv) {
		size_t n = strcspn(csv, ",");

		snprintf(item, sizeof(item), "%.*s", (int)n, csv);
		wd_json_str(j, NULL, item);
		csv += n;
		if (*csv)
			csv++;
	}
	wd_json_close(j, ']');
}

static void print_counters_json(struct wd_json *j, const struct wd_count_doc *doc)
{
	wd_json_open(j, "counters", '[');
	for (size_t i = 0; i < doc->n_counters; i++) {
		const struct wd_counter_row *c = &doc->counters[i];

		wd_json_open(j, NULL, '{');
		wd_json_str(j, "name", c->name);
		wd_json_uint(j, "delta", c->delta);
		wd_json_bool(j, "reconciled", c->compared);
		if (c->reasons)
			json_list(j, "reasons", c->reasons);
		if (c->compared) {
			wd_json_uint(j, "traced", c->traced);
			wd_json_uint(j, "unexplained", c->unexplained);
		}
		if (c->compared && c->unexplained && c->explanation)
			wd_json_str(j, "explanation", c->explanation);
		if (c->note)
			wd_json_str(j, "note", c->note);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

static void print_drops_json(struct wd_json *j, const struct wd_count_doc *doc)
{
	wd_json_open(j, "drops", '[');
	for (size_t i = 0; i < doc->n_rows; i++) {
		const struct wd_count_row *r = &doc->rows[i];

		wd_json_open(j, NULL, '{');
		if (r->reason) {
			wd_json_str(j, "reason", r->reason);
			wd_json_uint(j, "code", r->code);
			wd_json_str(j, "subsystem", r->subsystem);
		}
		wd_json_str(j, "function", r->function);
		wd_json_str(j, "location", r->location);
		wd_json_uint(j, "count", r->count);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

void wd_print_count_json(FILE *f, const struct wd_count_doc *doc)
{
	struct wd_json j;

	wd_json_init(&j, f);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "kernel", doc->kernel);
	wd_json_double(&j, "duration_s", doc->duration_s, 1);
	if (doc->counters_only) {
		wd_json_bool(&j, "counters_only", true);
	} else {
		wd_json_uint(&j, "total", doc->total);
		wd_json_uint(&j, "lost_events", doc->lost_events);
		if (doc->location_only)
			wd_json_bool(&j, "location_only", true);
		print_drops_json(&j, doc);
	}
	if (doc->has_counters)
		print_counters_json(&j, doc);
	wd_json_close(&j, '}');
	fputc('\n', f);
}

static void print_counter_line(FILE *f, const struct wd_counter_row *c)
{
	char traced[24] = "-", unexp[24] = "-";

	if (c->compared) {
		snprintf(traced, sizeof(traced), "%" PRIu64, c->traced);
		snprintf(unexp, sizeof(unexp), "%" PRIu64, c->unexplained);
	}
	fprintf(f, "%10" PRIu64 "  %-26s %8s %12s  %s", c->delta, c->name, traced, unexp,
		c->reasons ? c->reasons : "(context)");
	if (c->note)
		fprintf(f, "  [%s]", c->note);
	fputc('\n', f);
}

void wd_print_counters_table(FILE *f, const struct wd_count_doc *doc)
{
	bool any = false;

	fprintf(f, "\nKernel counters, same interval%s%s:\n",
		doc->counters_scope ? ", " : "", doc->counters_scope ? doc->counters_scope : "");
	if (!doc->n_counters) {
		fprintf(f, "  no drop counter moved\n");
		return;
	}
	fprintf(f, "%10s  %-26s %8s %12s  %s\n", "DELTA", "COUNTER", "TRACED", "UNEXPLAINED",
		"MATCHING REASONS");
	for (size_t i = 0; i < doc->n_counters; i++)
		print_counter_line(f, &doc->counters[i]);
	for (size_t i = 0; i < doc->n_counters; i++) {
		const struct wd_counter_row *c = &doc->counters[i];

		if (!c->compared || !c->unexplained)
			continue;
		if (!any)
			fprintf(f, "Drops with no traced reason:\n");
		any = true;
		fprintf(f, "  %s\n", c->message ? c->message : c->name);
	}
}

void wd_print_count_table(FILE *f, const struct wd_count_doc *doc)
{
	if (doc->counters_only) {
		fprintf(f, "Counters only (nothing traced) over %.1f s\n", doc->duration_s);
		wd_print_counters_table(f, doc);
		return;
	}
	fprintf(f, "%10s  %-26s %-34s %s\n", "COUNT", "REASON", "LOCATION", "WHAT IT MEANS");
	for (size_t i = 0; i < doc->n_rows; i++) {
		const struct wd_count_row *r = &doc->rows[i];

		fprintf(f, "%10" PRIu64 "  %-26s %-34s %s\n", r->count,
			r->reason ? r->reason : "-", r->location, r->hint ? r->hint : "");
	}
	fprintf(f, "%" PRIu64 " drops in %.1f s", doc->total, doc->duration_s);
	if (doc->lost_events)
		fprintf(f, ", %" PRIu64 " not counted (see lost_events)", doc->lost_events);
	fputc('\n', f);
	if (doc->has_counters)
		wd_print_counters_table(f, doc);
}
