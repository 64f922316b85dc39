// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Rule text by handle through libnftables, cached per generation; see nftrules.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <json-c/json.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <nftables/libnftables.h>

#include "netns.h"
#include "nftrace.h"
#include "nftrules.h"

#define MAX_TABLES	64	/* listings kept; more and the cache starts over */
#define GEN_BUF		(1u << 16)

static const char *const legacy_files[] = { "ip", "ip6", "arp" };
#define N_LEGACY	(sizeof(legacy_files) / sizeof(legacy_files[0]))

struct cached_table {
	uint32_t family;
	char *name;
	uint64_t epoch;		/* generation epoch it was listed in */
	struct wd_nft_rule_entry *rules;	/* sorted by handle */
	size_t n;
};

struct wd_nft_rules {
	struct nft_ctx *nft;
	int gen_fd;		/* NFNLGRP_NFTABLES: ruleset changes */
	int legacy_fd[N_LEGACY];
	uint64_t epoch;		/* bumped at each change seen */
	struct cached_table tables[MAX_TABLES];
	size_t n_tables;
	struct wd_nft_rules_stats st;
	char *gen_buf;
};

/* ------------------------------------------------------------ parsing */

bool wd_nft_name_listable(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("/-_.", *s))
			return false;
	return true;
}

/* "... # handle 12" at the end of @line: the handle, and where it starts. */
static bool handle_suffix(const char *line, size_t len, uint64_t *handle, size_t *at)
{
	static const char tag[] = " # handle ";
	size_t i = len;

	while (i > 0 && isdigit((unsigned char)line[i - 1]))
		i--;
	if (i == len || i < sizeof(tag) - 1 || memcmp(line + i - (sizeof(tag) - 1), tag,
						       sizeof(tag) - 1))
		return false;
	*handle = strtoull(line + i, NULL, 10);
	*at = i - (sizeof(tag) - 1);
	return true;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* "chain NAME {" opening a chain: its name. */
static char *chain_name(const char *line, size_t at)
{
	const char *end;

	if (strncmp(line, "chain ", 6) || at < 8 || line[at - 1] != '{')
		return NULL;
	end = line + at - 1;
	while (end > line + 6 && end[-1] == ' ')
		end--;
	return end > line + 6 ? dup_n(line + 6, (size_t)(end - line - 6)) : NULL;
}

static int push(struct wd_nft_rule_entry **v, size_t *n, size_t *cap, uint64_t handle,
		const char *chain, const char *text, size_t len)
{
	struct wd_nft_rule_entry *e;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		e = realloc(*v, *cap * sizeof(**v));
		if (!e)
			return -1;
		*v = e;
	}
	e = &(*v)[*n];
	memset(e, 0, sizeof(*e));
	e->handle = handle;
	e->chain = strdup(chain ? chain : "");
	e->text = dup_n(text, len);
	if (!e->chain || !e->text) {
		free(e->chain);
		free(e->text);
		return -1;
	}
	(*n)++;
	return 0;
}

/* One line of the text listing, leading tabs removed. */
static int parse_line(const char *line, size_t len, char **chain,
		      struct wd_nft_rule_entry **v, size_t *n, size_t *cap)
{
	uint64_t handle;
	size_t at;
	char *name;

	if (!handle_suffix(line, len, &handle, &at))
		return 0;
	if (at > 0 && line[at - 1] == '{') {	/* table, chain, set, ... */
		name = chain_name(line, at);
		if (name) {
			free(*chain);
			*chain = name;
		}
		return 0;
	}
	return push(v, n, cap, handle, *chain, line, at);
}

static int parse_text(const char *text, struct wd_nft_rule_entry **v, size_t *n)
{
	const char *p = text, *eol;
	char *chain = NULL;
	size_t cap = 0;
	int ret = 0;

	while (*p && !ret) {
		while (*p == '\t' || *p == ' ')
			p++;
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		ret = parse_line(p, (size_t)(eol - p), &chain, v, n, &cap);
		p = *eol ? eol + 1 : eol;
	}
	free(chain);
	return ret;
}

static struct wd_nft_rule_entry *find(struct wd_nft_rule_entry *v, size_t n, uint64_t handle)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].handle == handle)
			return &v[mid];
		if (v[mid].handle < handle)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int by_handle(const void *a, const void *b)
{
	const struct wd_nft_rule_entry *x = a, *y = b;

	return x->handle < y->handle ? -1 : x->handle > y->handle;
}

/* {"nftables": [..., {"rule": {"handle": 2, "comment": "..."}}]} */
static int parse_comments(const char *json, struct wd_nft_rule_entry *v, size_t n)
{
	struct json_object *root = json_tokener_parse(json), *arr, *o, *rule, *h, *c;
	struct wd_nft_rule_entry *e;
	size_t i, len;
	int ret = -1;

	if (!root || !json_object_object_get_ex(root, "nftables", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		goto out;
	len = json_object_array_length(arr);
	for (i = 0; i < len; i++) {
		o = json_object_array_get_idx(arr, i);
		if (!json_object_object_get_ex(o, "rule", &rule) ||
		    !json_object_object_get_ex(rule, "handle", &h) ||
		    !json_object_object_get_ex(rule, "comment", &c) ||
		    !json_object_is_type(c, json_type_string))
			continue;
		e = find(v, n, (uint64_t)json_object_get_int64(h));
		if (e && !e->comment && !(e->comment = strdup(json_object_get_string(c))))
			goto out;
	}
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

void wd_nft_rules_entries_free(struct wd_nft_rule_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].chain);
		free(v[i].text);
		free(v[i].comment);
	}
	free(v);
}

int wd_nft_rules_parse(const char *text, const char *json, struct wd_nft_rule_entry **out,
		       size_t *n)
{
	*out = NULL;
	*n = 0;
	if (parse_text(text, out, n))
		goto fail;
	if (*n)
		qsort(*out, *n, sizeof(**out), by_handle);
	if (json && parse_comments(json, *out, *n))
		goto fail;
	return 0;
fail:
	wd_nft_rules_entries_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

const char *wd_nft_policy_text(int32_t verdict, const char *chain, char *buf, size_t len)
{
	char v[32];

	snprintf(buf, len, "policy %s of chain %s", wd_nftrace_verdict_name(verdict, v, sizeof(v)),
		 chain);
	return buf;
}

/* ------------------------------------------------------------ generations */

/* Read what the generation socket holds: any change (or loss) bumps the epoch. */
static void drain_generations(struct wd_nft_rules *r)
{
	const struct nlmsghdr *nlh;
	ssize_t n;
	int len;

	for (;;) {
		n = recv(r->gen_fd, r->gen_buf, GEN_BUF, MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS) {
			r->st.overruns++;
			r->epoch++;
			continue;
		}
		if (n <= 0)
			return;
		len = (int)n;
		for (nlh = (void *)r->gen_buf; mnl_nlmsg_ok(nlh, len);
		     nlh = mnl_nlmsg_next(nlh, &len)) {
			if (NFNL_SUBSYS_ID(nlh->nlmsg_type) == NFNL_SUBSYS_NFTABLES &&
			    NFNL_MSG_TYPE(nlh->nlmsg_type) == NFT_MSG_NEWGEN) {
				r->st.generations++;
				r->epoch++;
			}
		}
	}
}

/* ------------------------------------------------------------ listings */

static void drop_table(struct cached_table *t)
{
	wd_nft_rules_entries_free(t->rules, t->n);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

/* `list table FAMILY NAME` with @flags; the output (static in ctx) or NULL. */
static const char *list(struct wd_nft_rules *r, const char *family, const char *name,
			unsigned int flags, char *err, size_t errlen)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "list table %s %s", family, name);
	nft_ctx_output_set_flags(r->nft, flags);
	if (nft_run_cmd_from_buffer(r->nft, cmd)) {
		const char *e = nft_ctx_get_error_buffer(r->nft);

		snprintf(err, errlen, "nft %s: %.*s", cmd, (int)strcspn(e, "\n"), e);
		return NULL;
	}
	return nft_ctx_get_output_buffer(r->nft);
}

static int fill_table(struct wd_nft_rules *r, struct cached_table *t, char *err, size_t errlen)
{
	unsigned int base = NFT_CTX_OUTPUT_HANDLE | NFT_CTX_OUTPUT_STATELESS;
	char fam[32], *text;
	const char *out;
	int ret = -1;

	wd_nft_family_name(t->family, fam, sizeof(fam));
	out = list(r, fam, t->name, base, err, errlen);
	if (!out || !(text = strdup(out)))
		return -1;
	out = list(r, fam, t->name, base | NFT_CTX_OUTPUT_JSON, err, errlen);
	if (out && !wd_nft_rules_parse(text, out, &t->rules, &t->n))
		ret = 0;
	else if (out)
		snprintf(err, errlen, "cannot parse nft's listing of table %s %s", fam, t->name);
	free(text);
	r->st.listings++;
	return ret;
}

static struct cached_table *table_for(struct wd_nft_rules *r, uint32_t family, const char *name,
				      char *err, size_t errlen)
{
	struct cached_table *t = NULL;

	for (size_t i = 0; i < r->n_tables; i++)
		if (r->tables[i].family == family && !strcmp(r->tables[i].name, name))
			t = &r->tables[i];
	if (t && t->epoch == r->epoch)
		return t;
	if (t) {
		wd_nft_rules_entries_free(t->rules, t->n);
		t->rules = NULL;
		t->n = 0;
	} else {
		if (r->n_tables == MAX_TABLES) {
			for (size_t i = 0; i < r->n_tables; i++)
				drop_table(&r->tables[i]);
			r->n_tables = 0;
		}
		t = &r->tables[r->n_tables];
		t->family = family;
		t->name = strdup(name);
		if (!t->name) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		r->n_tables++;
	}
	t->epoch = r->epoch;
	if (fill_table(r, t, err, errlen)) {
		t->epoch = r->epoch - 1;	/* try again next time */
		return NULL;
	}
	return t;
}

int wd_nft_rules_lookup(struct wd_nft_rules *r, uint32_t family, const char *table,
			uint64_t handle, struct wd_nft_rule_info *out, char *err, size_t errlen)
{
	struct wd_nft_rule_entry *e;
	struct cached_table *t;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!wd_nft_name_listable(table)) {
		snprintf(err, errlen, "table name '%s' cannot be given to nft unquoted", table);
		return 0;
	}
	drain_generations(r);
	t = table_for(r, family, table, err, errlen);
	if (!t)
		return 0;
	e = find(t->rules, t->n, handle);
	if (!e) {
		snprintf(err, errlen, "no rule with handle %" PRIu64 " in table %s now", handle,
			 table);
		return 0;
	}
	snprintf(out->chain, sizeof(out->chain), "%s", e->chain);
	n = strlen(e->text);
	out->truncated = n >= sizeof(out->text);
	snprintf(out->text, sizeof(out->text), "%s", e->text);
	out->has_comment = e->comment != NULL;
	if (e->comment)
		snprintf(out->comment, sizeof(out->comment), "%s", e->comment);
	return 1;
}

/* ------------------------------------------------------------ legacy */

int wd_nft_rules_legacy(struct wd_nft_rules *r, char *buf, size_t len)
{
	char names[4096], *p, *save;
	int count = -1;
	size_t used = 0;
	ssize_t n;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < N_LEGACY; i++) {
		if (r->legacy_fd[i] < 0 || lseek(r->legacy_fd[i], 0, SEEK_SET))
			continue;
		n = read(r->legacy_fd[i], names, sizeof(names) - 1);
		if (n < 0)
			continue;
		count = count < 0 ? 0 : count;
		names[n] = '\0';
		for (p = strtok_r(names, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
			count++;
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s%s:%s",
							 used ? " " : "", legacy_files[i], p);
		}
	}
	return count;
}

/* ------------------------------------------------------------ open/close */

static int open_gen_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	unsigned int group = NFNLGRP_NFTABLES;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_NETFILTER);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group))) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int open_here(struct wd_nft_rules *r, char *err, size_t errlen)
{
	char path[64];

	for (size_t i = 0; i < N_LEGACY; i++) {
		snprintf(path, sizeof(path), "/proc/net/%s_tables_names", legacy_files[i]);
		r->legacy_fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
	r->gen_fd = open_gen_socket();
	if (r->gen_fd < 0) {
		snprintf(err, errlen, "cannot follow nftables ruleset changes: %s%s",
			 strerror(errno), errno == EPERM ? " (it needs CAP_NET_ADMIN)" : "");
		return -1;
	}
	/* libnftables opens its netlink socket here, in this namespace */
	r->nft = nft_ctx_new(NFT_CTX_DEFAULT);
	if (!r->nft || nft_ctx_buffer_output(r->nft) || nft_ctx_buffer_error(r->nft)) {
		snprintf(err, errlen, "cannot start libnftables");
		return -1;
	}
	return 0;
}

struct wd_nft_rules *wd_nft_rules_open(int netns_fd, char *err, size_t errlen)
{
	struct wd_nft_rules *r = calloc(1, sizeof(*r));
	int saved = -1, ret;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->gen_fd = -1;
	for (size_t i = 0; i < N_LEGACY; i++)
		r->legacy_fd[i] = -1;
	r->gen_buf = malloc(GEN_BUF);
	if (!r->gen_buf) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (wd_netns_enter_said(netns_fd, &saved, err, errlen))
		goto fail;
	ret = open_here(r, err, errlen);
	if (wd_netns_leave_said(saved, err, errlen) || ret)
		goto fail;
	return r;
fail:
	wd_nft_rules_close(r);
	return NULL;
}

void wd_nft_rules_stats(const struct wd_nft_rules *r, struct wd_nft_rules_stats *s)
{
	*s = r->st;
}

void wd_nft_rules_close(struct wd_nft_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_tables; i++)
		drop_table(&r->tables[i]);
	if (r->nft)
		nft_ctx_free(r->nft);
	if (r->gen_fd >= 0)
		close(r->gen_fd);
	for (size_t i = 0; i < N_LEGACY; i++)
		if (r->legacy_fd[i] >= 0)
			close(r->legacy_fd[i]);
	free(r->gen_buf);
	free(r);
}
