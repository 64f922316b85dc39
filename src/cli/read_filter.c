// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read: which recorded packets count; see read_filter.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pcap/pcap.h>

#include "catalogue.h"
#include "options.h"
#include "pcapfilter.h"
#include "read_filter.h"
#include "reasons.h"

#define LINKTYPE_RAW	101	/* pcapng's number; libpcap's DLT_RAW differs by OS */
#define COMPILE_SNAPLEN	262144

struct wd_read_prog {
	uint16_t linktype;
	bool ok;
	struct bpf_program prog;
};

/* A number as `whydrop reasons` prints it: decimal or 0x hex. */
static bool reason_number(const char *w, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)w[0]))
		return false;
	errno = 0;
	v = strtoull(w, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Known by name to the catalogue (every kernel's names) or to this kernel. */
static bool known_reason(struct wd_reasons *kr, bool have_kr, const char *w)
{
	uint32_t code;

	return wd_catalogue_find(w) || (have_kr && !wd_reason_code(kr, w, &code));
}

static int refuse_reason(const char *w)
{
	const char *hint = wd_catalogue_suggest(w);

	fprintf(stderr, "whydrop read: -r: no drop reason is named '%s'", w);
	if (hint)
		fprintf(stderr, "; did you mean %s?", hint);
	fprintf(stderr, " (`whydrop reasons` lists this kernel's; a recording's own names "
		"and numbers are taken as they were written)\n");
	return WD_EXIT_USAGE;
}

/* -r LIST: each word checked, kept in upper case without the prefix. */
static int take_reasons(struct wd_read_filter *f, const char *list)
{
	char *copy = strdup(list), *save = NULL, *w;
	struct wd_reasons kr = { 0 };
	bool have_kr = false;
	char err[256];
	uint32_t code;
	int status = 1;

	if (!copy)
		goto oom;
	have_kr = !wd_reasons_load(&kr, err, sizeof(err));
	for (w = strtok_r(copy, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		char **tmp;

		if (!reason_number(w, &code) && !known_reason(&kr, have_kr, w)) {
			status = refuse_reason(w);
			goto out;
		}
		tmp = realloc(f->reasons, (f->n_reasons + 1) * sizeof(*tmp));
		if (!tmp)
			goto oom;
		f->reasons = tmp;
		if (!strncasecmp(w, WD_REASON_PREFIX, strlen(WD_REASON_PREFIX)))
			w += strlen(WD_REASON_PREFIX);
		f->reasons[f->n_reasons] = strdup(w);
		if (!f->reasons[f->n_reasons])
			goto oom;
		for (char *c = f->reasons[f->n_reasons]; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		f->n_reasons++;
	}
	status = 0;
	goto out;
oom:
	fprintf(stderr, "whydrop read: out of memory\n");
out:
	if (have_kr)
		wd_reasons_free(&kr);
	free(copy);
	return status;
}

/* The expression checked as the live commands check it (DLT_RAW): a usage error. */
static int check_expr(const char *expr)
{
	struct wd_cbpf_insn *prog = NULL;
	char err[1024];
	size_t n;

	if (!wd_filter_compile(expr, &prog, &n, err, sizeof(err))) {
		free(prog);
		return 0;
	}
	fprintf(stderr, "whydrop read: %s\n(the words after the files are the filter "
		"expression; `whydrop read -h` for help)\n", err);
	return WD_EXIT_USAGE;
}

int wd_read_filter_init(struct wd_read_filter *f, const struct wd_cli *c)
{
	int status;

	memset(f, 0, sizeof(*f));
	f->netns = c->o.netns;
	f->ifname = c->o.ifname;
	f->expr = c->o.filter;
	f->has_since = c->has_since;
	f->since_ns = c->since_ns;
	f->has_until = c->has_until;
	f->until_ns = c->until_ns;
	if (c->o.reasons) {
		status = take_reasons(f, c->o.reasons);
		if (status)
			return status;
	}
	if (f->expr)
		return check_expr(f->expr);
	return 0;
}

void wd_read_filter_free(struct wd_read_filter *f)
{
	for (size_t i = 0; i < f->n_reasons; i++)
		free(f->reasons[i]);
	free(f->reasons);
	for (size_t i = 0; i < f->n_progs; i++)
		if (f->progs[i].ok)
			pcap_freecode(&f->progs[i].prog);
	free(f->progs);
	memset(f, 0, sizeof(*f));
}

bool wd_read_filter_by_comment(const struct wd_read_filter *f)
{
	return f->n_reasons || f->netns || f->ifname;
}

/* The expression compiled for a link type, once. NULL after a message. */
static const struct wd_read_prog *prog_for(struct wd_read_filter *f, uint16_t linktype,
					   const char *file)
{
	struct wd_read_prog *tmp, *p;
	pcap_t *pc;

	for (size_t i = 0; i < f->n_progs; i++)
		if (f->progs[i].linktype == linktype)
			return f->progs[i].ok ? &f->progs[i] : NULL;
	if (f->n_progs == WD_READ_MAX_LINKTYPES) {
		fprintf(stderr, "whydrop read: %s: more than %d link types\n", file,
			WD_READ_MAX_LINKTYPES);
		return NULL;
	}
	tmp = realloc(f->progs, (f->n_progs + 1) * sizeof(*tmp));
	if (!tmp) {
		fprintf(stderr, "whydrop read: out of memory\n");
		return NULL;
	}
	f->progs = tmp;
	p = &f->progs[f->n_progs++];
	*p = (struct wd_read_prog){ .linktype = linktype };
	pc = pcap_open_dead(linktype == LINKTYPE_RAW ? DLT_RAW : linktype, COMPILE_SNAPLEN);
	if (!pc) {
		fprintf(stderr, "whydrop read: cannot initialise libpcap\n");
		return NULL;
	}
	p->ok = !pcap_compile(pc, &p->prog, f->expr, 1, PCAP_NETMASK_UNKNOWN);
	if (!p->ok)
		fprintf(stderr, "whydrop read: %s: the filter expression does not apply to its "
			"link type %u: %s\n", file, linktype, pcap_geterr(pc));
	pcap_close(pc);
	return p->ok ? p : NULL;
}

bool wd_read_filter_in_range(const struct wd_read_filter *f, const struct wd_pcapng_rec *rec)
{
	if (!f->has_since && !f->has_until)
		return true;
	if (!rec->has_ts)
		return false;
	return (!f->has_since || rec->ts_ns >= f->since_ns) &&
	       (!f->has_until || rec->ts_ns < f->until_ns);
}

int wd_read_filter_packet(struct wd_read_filter *f, const struct wd_pcapng_rec *rec,
			  uint16_t linktype, const char *file)
{
	const struct wd_read_prog *p;
	struct pcap_pkthdr h = { 0 };

	f->seen++;
	if (!wd_read_filter_in_range(f, rec))
		return 0;
	if (!f->expr)
		return 1;
	p = prog_for(f, linktype, file);
	if (!p)
		return -1;
	h.caplen = rec->caplen;
	h.len = rec->origlen;
	return pcap_offline_filter(&p->prog, &h, rec->data) ? 1 : 0;
}

/* A user's word for a recorded reason: its name, SUBSYS:NAME or NAME, an old name. */
static bool same_reason(const char *word, const struct wd_pcapng_meta *m)
{
	const char *colon = strrchr(m->reason, ':');
	const struct wd_cat_entry *e;
	uint32_t code;

	if (reason_number(word, &code))
		return m->has_code && m->code == code;
	if (!strcasecmp(word, m->reason) || (colon && !strcasecmp(word, colon + 1)))
		return true;
	e = wd_catalogue_find(word);
	return e && e == wd_catalogue_find(m->reason);
}

static bool reason_kept(const struct wd_read_filter *f, const struct wd_pcapng_meta *m)
{
	if (!f->n_reasons)
		return true;
	if (!m->has_reason)
		return false;
	for (size_t i = 0; i < f->n_reasons; i++)
		if (same_reason(f->reasons[i], m))
			return true;
	return false;
}

/* --netns as recorded: the name, else the cookie or the inode in decimal. */
static bool netns_kept(const struct wd_read_filter *f, const struct wd_pcapng_meta *m)
{
	char num[24];

	if (!f->netns)
		return true;
	if (m->has_netns_name && !strcmp(f->netns, m->netns_name))
		return true;
	snprintf(num, sizeof(num), "%" PRIu64, m->netns_cookie);
	if (m->has_netns_cookie && !strcmp(f->netns, num))
		return true;
	snprintf(num, sizeof(num), "%" PRIu32, m->netns);
	return m->has_netns && !strcmp(f->netns, num);
}

bool wd_read_filter_meta(const struct wd_read_filter *f, const struct wd_pcapng_meta *m)
{
	if (!wd_read_filter_by_comment(f))
		return true;
	if (!m)
		return false;
	return reason_kept(f, m) && netns_kept(f, m) &&
	       (!f->ifname || (m->has_ifname && !strcmp(f->ifname, m->ifname)));
}

bool wd_read_filter_tcp(const struct wd_read_filter *f, const struct wd_pcapng_meta *m)
{
	return netns_kept(f, m);
}
