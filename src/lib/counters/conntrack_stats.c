// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Conntrack's counters, per network namespace; see conntrack_stats.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conntrack_stats.h"
#include "netns.h"

#define CT_MAX_COLS	32	/* more columns than any kernel prints */
#define CT_READ_BUF	(1u << 16)	/* 17 columns x 9 chars x CPUs */

static const char *const col_names[WD_CT_NCOLS] = {
	[WD_CT_ENTRIES] = "entries",
	[WD_CT_FOUND] = "found",
	[WD_CT_INVALID] = "invalid",
	[WD_CT_INSERT] = "insert",
	[WD_CT_INSERT_FAILED] = "insert_failed",
	[WD_CT_DROP] = "drop",
	[WD_CT_EARLY_DROP] = "early_drop",
	[WD_CT_ICMP_ERROR] = "icmp_error",
	[WD_CT_CLASHRES] = "clashres",
	[WD_CT_CHAINLENGTH] = "chainlength",
	[WD_CT_SEARCH_RESTART] = "search_restart",
	[WD_CT_EXPECT_NEW] = "expect_new",
	[WD_CT_EXPECT_CREATE] = "expect_create",
	[WD_CT_EXPECT_DELETE] = "expect_delete",
};

const char *wd_ct_col_name(enum wd_ct_col c)
{
	return c < WD_CT_NCOLS ? col_names[c] : "?";
}

static int col_by_name(const char *name, size_t len)
{
	for (int c = 0; c < WD_CT_NCOLS; c++)
		if (strlen(col_names[c]) == len && !strncmp(col_names[c], name, len))
			return c;
	return -1;
}

/* The header's words to columns (-1: a column whydrop does not use). */
static int parse_header(const char *line, const char *eol, int *map, size_t *ncols)
{
	const char *p = line, *w;

	*ncols = 0;
	while (p < eol) {
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p == eol)
			break;
		w = p;
		while (p < eol && *p != ' ' && *p != '\t')
			p++;
		if (*ncols == CT_MAX_COLS)
			return -1;
		map[(*ncols)++] = col_by_name(w, (size_t)(p - w));
	}
	return *ncols && map[0] == WD_CT_ENTRIES ? 0 : -1;
}

static int parse_row(const char *line, const char *eol, const int *map, size_t ncols,
		     bool first, struct wd_ct_stats *s)
{
	const char *p = line;
	char *end;
	unsigned long long v;
	size_t i;

	for (i = 0; i < ncols; i++) {
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p == eol)
			return -1;
		errno = 0;
		v = strtoull(p, &end, 16);
		if (errno || end == p || end > eol)
			return -1;
		p = end;
		if (map[i] < 0)
			continue;
		if (map[i] == WD_CT_ENTRIES) {
			if (first)
				s->v[WD_CT_ENTRIES] = v;
		} else {
			s->v[map[i]] += v;
		}
	}
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	return p == eol ? 0 : -1;
}

int wd_ct_stats_parse(const char *text, struct wd_ct_stats *s)
{
	const char *p = text, *eol;
	int map[CT_MAX_COLS];
	size_t ncols, i;

	memset(s->v, 0, sizeof(s->v));
	s->cpus = 0;
	s->have = 0;
	eol = strchr(p, '\n');
	if (!eol || parse_header(p, eol, map, &ncols))
		return -1;
	for (p = eol + 1; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if (eol == p)
			continue;
		if (parse_row(p, eol, map, ncols, s->cpus == 0, s))
			return -1;
		s->cpus++;
	}
	for (i = 0; i < ncols; i++)
		if (map[i] >= 0)
			s->have |= 1u << map[i];
	return s->cpus ? 0 : -1;
}

/* ------------------------------------------------------------ files */

int wd_ct_open(struct wd_ct_reader *r, int netns_fd, char *err, size_t errlen)
{
	int saved = -1;

	r->stat_fd = r->count_fd = r->max_fd = -1;
	if (netns_fd >= 0 && wd_netns_enter_fd(netns_fd, &saved)) {
		snprintf(err, errlen, "cannot enter the network namespace: %s", strerror(errno));
		return -1;
	}
	/* /proc/net and /proc/sys/net are the opener's namespace's */
	r->stat_fd = open("/proc/net/stat/nf_conntrack", O_RDONLY | O_CLOEXEC);
	r->count_fd = open("/proc/sys/net/netfilter/nf_conntrack_count", O_RDONLY | O_CLOEXEC);
	r->max_fd = open("/proc/sys/net/netfilter/nf_conntrack_max", O_RDONLY | O_CLOEXEC);
	if (saved >= 0 && wd_netns_leave(saved)) {
		snprintf(err, errlen, "cannot return to the original network namespace: %s",
			 strerror(errno));
		wd_ct_close(r);
		return -1;
	}
	return 0;
}

static ssize_t read_all(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET))
		return -1;
	while (used < len - 1) {
		n = read(fd, buf + used, len - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	return (ssize_t)used;
}

static bool read_number(int fd, uint64_t *v)
{
	char buf[32], *end;

	if (fd < 0 || read_all(fd, buf, sizeof(buf)) <= 0)
		return false;
	*v = strtoull(buf, &end, 10);
	return end != buf;
}

int wd_ct_read(const struct wd_ct_reader *r, struct wd_ct_stats *s)
{
	char *buf;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	if (r->stat_fd < 0)
		return -1;
	buf = malloc(CT_READ_BUF);
	if (!buf)
		return -1;
	if (read_all(r->stat_fd, buf, CT_READ_BUF) > 0 && !wd_ct_stats_parse(buf, s))
		ret = 0;
	free(buf);
	s->has_count = read_number(r->count_fd, &s->count);
	s->has_max = read_number(r->max_fd, &s->max);
	return ret;
}

void wd_ct_close(struct wd_ct_reader *r)
{
	if (r->stat_fd >= 0)
		close(r->stat_fd);
	if (r->count_fd >= 0)
		close(r->count_fd);
	if (r->max_fd >= 0)
		close(r->max_fd);
	r->stat_fd = r->count_fd = r->max_fd = -1;
}

/* ------------------------------------------------------------ explain */

static uint64_t delta(const struct wd_ct_stats *a, const struct wd_ct_stats *b, enum wd_ct_col c)
{
	if (!(a->have & b->have & (1u << c)) || b->v[c] < a->v[c])
		return 0;
	return b->v[c] - a->v[c];
}

__attribute__((format(printf, 2, 3)))
static void append(struct wd_ct_cause *c, const char *fmt, ...)
{
	size_t used = strlen(c->text);
	va_list ap;

	if (used && used < sizeof(c->text))
		used += (size_t)snprintf(c->text + used, sizeof(c->text) - used, "; ");
	if (used >= sizeof(c->text))
		return;
	va_start(ap, fmt);
	vsnprintf(c->text + used, sizeof(c->text) - used, fmt, ap);
	va_end(ap);
}

void wd_ct_explain(const struct wd_ct_stats *before, const struct wd_ct_stats *after,
		   struct wd_ct_cause *c)
{
	bool at_max;

	memset(c, 0, sizeof(*c));
	c->drop = delta(before, after, WD_CT_DROP);
	c->insert_failed = delta(before, after, WD_CT_INSERT_FAILED);
	c->early_drop = delta(before, after, WD_CT_EARLY_DROP);
	c->invalid = delta(before, after, WD_CT_INVALID);
	c->chainlength = delta(before, after, WD_CT_CHAINLENGTH);
	c->has_count = after->has_count;
	c->has_max = after->has_max;
	c->count = after->count;
	c->max = after->max;
	c->dropped = c->drop || c->insert_failed;
	at_max = c->has_count && c->has_max && c->max && c->count >= c->max;
	c->table_full = (c->drop && at_max) || c->early_drop;
	if (c->table_full && c->has_count && c->has_max)
		append(c, "conntrack table full (%" PRIu64 " of max %" PRIu64 ")", c->count,
		       c->max);
	else if (c->table_full)
		append(c, "conntrack table full");
	if (c->drop)
		append(c, "conntrack dropped %" PRIu64 " packets (its drop counter)", c->drop);
	if (c->chainlength)
		append(c, "%" PRIu64 " insertions refused: hash chain too long", c->chainlength);
	if (c->insert_failed)
		append(c, "conntrack insert failed %" PRIu64 " times", c->insert_failed);
	if (c->invalid)
		append(c, "%" PRIu64 " packets invalid for conntrack (dropped only by a rule "
		       "matching ct state invalid)", c->invalid);
}
