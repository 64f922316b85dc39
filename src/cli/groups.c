// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --group-by: the labels of who a drop hurt, the rows by (group, reason),
 * the --max-groups largest groups and "(other)"; see groups.h. Live
 * snapshots (groups_live.c) and recordings (cmd_read.c) come here alike.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "container_formats.h"
#include "groups.h"
#include "options.h"

static void netns_label(const struct wd_group_who *w, char *buf, size_t len)
{
	if (w->netns_name)
		snprintf(buf, len, "%s", w->netns_name);
	else
		wd_netns_label(&w->ns, buf, len);
}

static void interface_label(const struct wd_group_who *w, char *buf, size_t len)
{
	char ns[160];

	netns_label(w, ns, sizeof(ns));
	if (wd_netns_is_gone(&w->ns) || w->ifindex == WD_IFINDEX_GONE)
		snprintf(buf, len, "(interface gone)@%s", ns);
	else if (w->ifname)
		snprintf(buf, len, "%s@%s", w->ifname, ns);
	else if (w->ifindex)
		snprintf(buf, len, "ifindex %u@%s", w->ifindex, ns);
	else
		snprintf(buf, len, "(no device)@%s", ns);
}

/*
 * By socket (cgroup, process, container, pod): the label of a drop that had
 * no socket to tell, or (but by process) whose cgroup is gone, its counts
 * folded (src/core/aging.c); NULL otherwise.
 */
static const char *unnamed(enum wd_group_by by, const struct wd_group_who *w)
{
	if (by != WD_GROUP_CGROUP && by != WD_GROUP_PROCESS && by != WD_GROUP_CONTAINER &&
	    by != WD_GROUP_POD)
		return NULL;
	if (w->sock == WD_SOCK_UNKNOWN)
		return "(socket unknown)";
	if (w->sock == WD_SOCK_NONE)
		return "(no socket)";
	return by != WD_GROUP_PROCESS && w->cgroup_id == WD_CGROUP_GONE ? "(cgroup gone)" : NULL;
}

static void cgroup_label(const struct wd_group_who *w, char *buf, size_t len)
{
	if (w->cgroup)
		snprintf(buf, len, "%s", w->cgroup);
	else if (w->cgroup_id)
		snprintf(buf, len, "cgroup %" PRIu64, w->cgroup_id);
	else
		snprintf(buf, len, "(socket: cgroup not recorded)");
}

static void process_label(const struct wd_group_who *w, char *buf, size_t len)
{
	if (w->pid)
		snprintf(buf, len, "%s[%d]", w->comm ? w->comm : "?", w->pid);
	else if (w->sock_ino && w->sock_ino != WD_SOCK_INO_RETIRED)
		snprintf(buf, len, "(socket %" PRIu64 ": process not seen)", w->sock_ino);
	else
		snprintf(buf, len, "(socket: process not seen)");
}

/* "podman:web", "pod shop/web-0/nginx"; the bare id while its name is unknown. */
static void container_label(const struct wd_group_who *w, char *buf, size_t len)
{
	if (w->ctr)
		wd_ctr_label(w->ctr, buf, len);
	else
		snprintf(buf, len, "(no container)");
}

/* "ns/pod"; "pod UID" while its name is unknown. */
static void pod_label(const struct wd_group_who *w, char *buf, size_t len)
{
	const struct wd_ctr_name *c = w->ctr;

	if (c && c->pod[0])
		snprintf(buf, len, "%s/%s", c->k8s_namespace, c->pod);
	else if (c && c->pod_uid[0])
		snprintf(buf, len, "pod %s", c->pod_uid);
	else
		snprintf(buf, len, "(no pod)");
}

static void endpoint(const struct wd_flow *f, const char *addr, uint16_t port, char *buf,
		     size_t len)
{
	if (!f->has_ports)
		snprintf(buf, len, "%s", addr);
	else if (f->family == 6)
		snprintf(buf, len, "[%s]:%u", addr, port);
	else
		snprintf(buf, len, "%s:%u", addr, port);
}

/* "udp 192.0.2.1:40000 > 192.0.2.2:9", "src 192.0.2.1", "dst 192.0.2.2". */
static void flow_label(enum wd_group_by by, const struct wd_flow *f, char *buf, size_t len)
{
	char l4[16], src[INET6_ADDRSTRLEN + 8], dst[INET6_ADDRSTRLEN + 8];
	const char *proto = l4;

	if (!f || !f->family) {
		snprintf(buf, len, "(not IP)");
		return;
	}
	if (by == WD_GROUP_SRC || by == WD_GROUP_DST) {
		snprintf(buf, len, "%s", by == WD_GROUP_SRC ? f->src : f->dst);
		return;
	}
	endpoint(f, f->src, f->sport, src, sizeof(src));
	endpoint(f, f->dst, f->dport, dst, sizeof(dst));
	/* wd_l4_name gives its own string for a known protocol, buf for the others */
	if (f->has_l4)
		proto = wd_l4_name(f->l4, l4, sizeof(l4));
	else
		snprintf(l4, sizeof(l4), "ipv%d", f->family);
	snprintf(buf, len, "%s %s > %s", proto, src, dst);
}

static void host_label(const struct wd_group_who *w, char *buf, size_t len)
{
	snprintf(buf, len, "%s", w->host ? w->host : "(host unknown)");
}

const char *wd_group_label(enum wd_group_by by, const struct wd_group_who *w, char *buf,
			   size_t len)
{
	static void (*const label[])(const struct wd_group_who *w, char *buf, size_t len) = {
		[WD_GROUP_NETNS] = netns_label, [WD_GROUP_INTERFACE] = interface_label,
		[WD_GROUP_CGROUP] = cgroup_label, [WD_GROUP_PROCESS] = process_label,
		[WD_GROUP_CONTAINER] = container_label, [WD_GROUP_POD] = pod_label,
		[WD_GROUP_HOST] = host_label,
	};
	const char *none = unnamed(by, w);

	if (none) {
		snprintf(buf, len, "%s", none);
		return buf;
	}
	if (by == WD_GROUP_FLOW || by == WD_GROUP_SRC || by == WD_GROUP_DST)
		flow_label(by, w->flow, buf, len);
	else if ((size_t)by < sizeof(label) / sizeof(label[0]) && label[by])
		label[by](w, buf, len);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* ---- who a recorded drop hurt, from its packet comment ---- */

/* "ifindex=N": the word record writes when the device had no name; 0 if none. */
static uint32_t comment_ifindex(const char *c)
{
	for (const char *p = c; p && (p = strstr(p, "ifindex=")); p += 8)
		if (p == c || p[-1] == ' ')
			return (uint32_t)strtoul(p + 8, NULL, 10);
	return 0;
}

/*
 * The container of a recorded socket: what its cgroup path says (runtime,
 * id, pod UID) as a live lookup has it, and the names the record gives.
 */
static void recorded_container(const struct wd_pcapng_meta *m, struct wd_ctr_name *c,
			       struct wd_group_who *w)
{
	if (!m->has_cgroup || !wd_ctr_key(m->cgroup, c))
		return;
	if (m->has_container)
		snprintf(c->name, sizeof(c->name), "%s", m->container);
	if (m->has_pod)
		snprintf(c->pod, sizeof(c->pod), "%s", m->pod);
	if (m->has_k8s_namespace)
		snprintf(c->k8s_namespace, sizeof(c->k8s_namespace), "%s", m->k8s_namespace);
	w->ctr = c;
}

/* The addresses of a raw IP packet; NULL when it is none. */
static const struct wd_flow *recorded_flow(const uint8_t *pkt, size_t len, struct wd_flow *f)
{
	uint16_t l3;

	memset(f, 0, sizeof(*f));
	if (!pkt || !len)
		return NULL;
	l3 = pkt[0] >> 4 == 4 ? WD_ETH_P_IP : pkt[0] >> 4 == 6 ? WD_ETH_P_IPV6 : 0;
	return l3 && !wd_decode(pkt, len, l3, f) ? f : NULL;
}

/* The host= word of a section comment record wrote; NULL if none. */
static const char *recorded_host(const char *section, char *buf, size_t len)
{
	static const char tag[] = "whydrop: ";
	const char *p;
	size_t n;

	if (!section || strncmp(section, tag, sizeof(tag) - 1))
		return NULL;
	for (p = section + sizeof(tag) - 1; (p = strstr(p, "host=")); p += 5) {
		if (p[-1] != ' ')
			continue;
		n = strcspn(p + 5, " \n");
		if (!n || n >= len)
			return NULL;
		memcpy(buf, p + 5, n);
		buf[n] = '\0';
		return buf;
	}
	return NULL;
}

void wd_group_who_recorded(const struct wd_pcapng_meta *m, const char *comment,
			   const uint8_t *pkt, size_t len, const char *section,
			   struct wd_group_scratch *sc, struct wd_group_who *w)
{
	memset(w, 0, sizeof(*w));
	w->ns = (struct wd_netns_id){ m->has_netns_cookie ? m->netns_cookie : 0,
				      m->has_netns ? m->netns : 0 };
	w->netns_name = m->has_netns_name ? m->netns_name : NULL;
	w->ifname = m->has_ifname ? m->ifname : NULL;
	w->ifindex = comment_ifindex(comment);
	if (m->sock_unknown)
		w->sock = WD_SOCK_UNKNOWN;
	else
		w->sock = m->has_sock || m->has_lport ? WD_SOCK_SEEN : WD_SOCK_NONE;
	w->sock_ino = m->has_sock ? m->sock : 0;
	if (m->has_workload || m->has_cgroup)
		w->cgroup = m->has_workload ? m->workload : m->cgroup;
	w->pid = m->has_pid ? (int)m->pid : 0;
	w->comm = m->has_comm ? m->comm : NULL;
	recorded_container(m, &sc->ctr, w);
	w->flow = recorded_flow(pkt, len, &sc->flow);
	w->host = recorded_host(section, sc->host, sizeof(sc->host));
}

void wd_group_rows_init(struct wd_keyset *rows)
{
	wd_keyset_init(rows, sizeof(struct wd_group_key));
}

int wd_group_add(struct wd_keyset *rows, enum wd_group_by by, const struct wd_group_who *w,
		 const char *reason, uint32_t code, uint64_t count)
{
	struct wd_group_key k;

	memset(&k, 0, sizeof(k));
	wd_group_label(by, w, k.group, sizeof(k.group));
	/* by netns or interface a group is its namespace: names may repeat */
	if (by == WD_GROUP_NETNS || by == WD_GROUP_INTERFACE) {
		k.netns_cookie = w->ns.cookie;
		k.netns = w->ns.inode;
	}
	if (reason)
		snprintf(k.reason, sizeof(k.reason), "%s", reason);
	k.code = code;
	return wd_keyset_add(rows, &k, count);
}

/* ---- the largest groups first, the rest as (other) ---- */

struct group_row {
	const struct wd_group_key *k;
	uint64_t count;
	uint64_t group_total;	/* of every reason in the group */
};

static int cmp_group(const struct wd_group_key *a, const struct wd_group_key *b)
{
	int c = strcmp(a->group, b->group);

	if (c)
		return c;
	if (a->netns_cookie != b->netns_cookie)
		return a->netns_cookie < b->netns_cookie ? -1 : 1;
	return a->netns < b->netns ? -1 : a->netns > b->netns;
}

static int cmp_size(const void *x, const void *y)
{
	const struct group_row *a = x, *b = y;
	int c;

	if (a->group_total != b->group_total)
		return a->group_total > b->group_total ? -1 : 1;
	c = cmp_group(a->k, b->k);
	if (c)
		return c;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	c = strcmp(a->k->reason, b->k->reason);
	return c ? c : (a->k->code > b->k->code) - (a->k->code < b->k->code);
}

/* rows merged: each row with its group's total, largest group first. */
static struct group_row *order(const struct wd_keyset *rows)
{
	struct group_row *v = calloc(rows->n ? rows->n : 1, sizeof(*v));
	size_t first = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < rows->n; i++)
		v[i] = (struct group_row){ wd_keyset_key(rows, i), *wd_keyset_count(rows, i), 0 };
	/* merged rows are sorted by key: a group's rows are together */
	for (size_t i = 1; i <= rows->n; i++) {
		uint64_t total = 0;

		if (i < rows->n && !cmp_group(v[i].k, v[first].k))
			continue;
		for (size_t j = first; j < i; j++)
			total += v[j].count;
		for (size_t j = first; j < i; j++)
			v[j].group_total = total;
		first = i;
	}
	if (rows->n)
		qsort(v, rows->n, sizeof(*v), cmp_size);
	return v;
}

/* Past the max largest groups, every row goes to "(other)", by reason. */
static int fold_other(struct wd_keyset *rows, uint32_t max)
{
	struct group_row *v = order(rows);
	struct wd_keyset out;
	size_t groups = 0;
	int err = 0;

	if (!v)
		return -ENOMEM;
	wd_group_rows_init(&out);
	for (size_t i = 0; !err && i < rows->n; i++) {
		struct wd_group_key k = *v[i].k;

		if (!i || cmp_group(v[i].k, v[i - 1].k))
			groups++;
		if (groups > max) {
			memset(k.group, 0, sizeof(k.group));
			snprintf(k.group, sizeof(k.group), "(other)");
			k.netns_cookie = 0;
			k.netns = 0;
		}
		err = wd_keyset_push(&out, &k, v[i].count);
	}
	free(v);
	if (err) {
		wd_keyset_free(&out);
		return err;
	}
	wd_keyset_merge(&out);
	wd_keyset_free(rows);
	*rows = out;
	return 0;
}

int wd_groups_doc_make(struct wd_keyset *rows, enum wd_group_by by, uint32_t max,
		       struct wd_count_doc *doc, struct wd_groups_doc *gd)
{
	struct group_row *v;
	int err;

	memset(gd, 0, sizeof(*gd));
	gd->rows = *rows;
	wd_group_rows_init(rows);
	wd_keyset_merge(&gd->rows);
	err = fold_other(&gd->rows, max);
	v = err ? NULL : order(&gd->rows);
	gd->out = calloc(gd->rows.n ? gd->rows.n : 1, sizeof(*gd->out));
	if (!v || !gd->out) {
		free(v);
		wd_groups_doc_free(gd);
		return err ? err : -ENOMEM;
	}
	for (size_t i = 0; i < gd->rows.n; i++)
		gd->out[i] = (struct wd_group_out){
			.group = v[i].k->group, .reason = v[i].k->reason[0] ? v[i].k->reason : NULL,
			.code = v[i].k->code, .count = v[i].count, .netns = v[i].k->netns,
			.netns_cookie = v[i].k->netns_cookie,
		};
	free(v);
	doc->group_by = wd_group_by_name(by);
	doc->groups = gd->out;
	doc->n_groups = gd->rows.n;
	return 0;
}

void wd_groups_doc_free(struct wd_groups_doc *gd)
{
	wd_keyset_free(&gd->rows);
	free(gd->out);
	memset(gd, 0, sizeof(*gd));
}
