// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the families by who a drop hurt, and their retirement.
 * --per-cgroup counts by the socket's cgroup, --per-netns and
 * --per-interface by namespace. A cgroup is named while it exists (its
 * mkdir, told by the kernel, or a walk), and its label is kept once it is
 * gone; the series of a cgroup or namespace gone for --series-grace and
 * silent for as long leave the page (serve_series.c, the cap in prom.c),
 * and the counts of a retired cgroup are forgotten.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "privileges.h"
#include "serve.h"

#define NS_BY_INODE	(1ULL << 63)

/*
 * A namespace's identity in serve's tables: its cookie, or on a kernel
 * without cookies its inode, marked apart. Only here and in ns_gone() does
 * serve know what it is.
 */
uint64_t wd_serve_ns_id_of(const struct wd_netns_id *ns)
{
	if (wd_netns_is_gone(ns))	/* the folded counts of retired ones: never retire */
		return 0;
	return ns->cookie ? ns->cookie : ns->inode ? NS_BY_INODE | ns->inode : 0;
}

static struct wd_netns_id ns_of_id(uint64_t id)
{
	if (id & NS_BY_INODE)
		return (struct wd_netns_id){ .inode = (uint32_t)id };
	return (struct wd_netns_id){ .cookie = id };
}

uint64_t wd_serve_ns_id(const struct wd_key *k)
{
	struct wd_netns_id ns = { .cookie = k->netns_cookie, .inode = k->netns };

	return k->location ? wd_serve_ns_id_of(&ns) : 0;	/* overflow: no namespace */
}

/*
 * Gone: the last scan of /run/netns and /proc/PID/ns/net did not find it
 * under the name it had when it dropped. Where the kernel has no cookies,
 * it gives a freed namespace's inode to the next namespace at once, which
 * has another name; so a name is taken only from two scans in a row, never
 * from a namespace just made, which may be that next one. Wrongly gone costs
 * little: a silent series retires early, and its next drop brings it back.
 */
static double ns_gone(void *ctx, struct wd_obj *ob, double now)
{
	struct serve *sv = ctx;
	struct wd_owners *ow = &sv->s.who.owners;
	struct wd_netns_id ns = ns_of_id(ob->id);
	const char *found = wd_netns_found(ow, &ns);
	const char *before = wd_netns_found_before(ow, &ns);
	char *copy;

	if (ob->id == sv->own_netns)	/* ours lives as long as we do */
		return 0;

	if (found && before && !strcmp(found, before) && ob->sum > ob->total &&
	    (!ob->name || strcmp(ob->name, found))) {
		copy = strdup(found);
		if (copy) {
			free(ob->name);
			ob->name = copy;
		}
	}
	if (found && ob->name && !strcmp(ob->name, found))
		return 0;
	return ob->gone ? ob->gone : now;
}

/* A cgroup never named is taken as gone since first seen: its series may retire. */
static double cg_gone(void *ctx, struct wd_obj *ob, double now)
{
	struct serve *sv = ctx;
	bool known;
	double gone = wd_cgroup_gone(&sv->s.who.cgroups, ob->id, &known);

	if (known)
		return gone;
	return ob->gone ? ob->gone : now;
}

int wd_serve_judge_netns(struct serve *sv, const struct wd_key_total *keys, size_t n)
{
	double now = wd_now();

	wd_owners_refresh(&sv->s.who.owners, 1.0);
	wd_objs_begin(&sv->netns);
	for (size_t i = 0; i < n; i++)
		if (wd_objs_count(&sv->netns, wd_serve_ns_id(&keys[i].key), keys[i].count, now))
			return -1;
	wd_objs_settle(&sv->netns, now, ns_gone, sv);
	return 0;
}

static bool ns_retired(void *ctx, const struct wd_netns_id *ns)
{
	struct serve *sv = ctx;

	return wd_objs_retired(&sv->netns, wd_serve_ns_id_of(ns));
}

/*
 * After the page: the counts of namespaces whose series retired move to
 * netns="gone", a series that only grows (never retires), so no counter of
 * the page goes down.
 */
int wd_serve_age(struct serve *sv)
{
	struct wd_age a = { .netns_gone = ns_retired, .ctx = sv };

	if (!sv->so.per_if && !sv->so.per_netns)
		return wd_aging_run(&sv->aging);
	return wd_session_age(&sv->s, &a);
}

/* The label of a cgroup: learned while it exists, kept once it is gone. */
static const char *cg_label(struct serve *sv, struct wd_obj *ob)
{
	char buf[256];
	const char *path;
	char *name;

	if (!ob->id)
		return "none";
	if (ob->name && ob->gone)
		return ob->name;
	path = wd_cgroup_path(&sv->s.who.cgroups, ob->id);
	if (path)
		wd_cgroup_label(path, buf, sizeof(buf));
	else if (!ob->name)
		snprintf(buf, sizeof(buf), "cgroup %" PRIu64, ob->id);
	else
		return ob->name;
	if (ob->name && !strcmp(ob->name, buf))
		return ob->name;
	name = strdup(buf);
	if (name) {
		free(ob->name);
		ob->name = name;
	}
	return ob->name ? ob->name : "unknown";
}

/* The counts of cgroups retired at this scrape leave the session. */
static void forget_retired(struct serve *sv)
{
	uint64_t *ids = calloc(sv->cgroups.n ? sv->cgroups.n : 1, sizeof(*ids));
	size_t n = 0;

	if (!ids)
		return;
	for (size_t i = 0; i < sv->cgroups.n; i++)	/* sorted by id */
		if (sv->cgroups.v[i].retiring)
			ids[n++] = sv->cgroups.v[i].id;
	if (n && wd_session_sock_forget(&sv->s, ids, n) && sv->verbose)
		fprintf(stderr, "whydrop serve: the counts of %zu retired cgroups could not all "
				"be forgotten\n", n);
	free(ids);
}

/*
 * --per-container: the names of a cgroup's container or pod, looked up while
 * it exists (the runtimes' files are root's: CAP_DAC_READ_SEARCH raised just
 * for that), kept with its series once found.
 */
static const struct wd_ctr_name *cg_ctr(struct serve *sv, struct wd_obj *ob)
{
	const struct wd_ctr_name *c;
	const char *path;
	bool raised;

	if (ob->ctr || !ob->id || ob->gone)
		return ob->ctr;
	path = wd_cgroup_path(&sv->s.who.cgroups, ob->id);
	if (!path)
		return NULL;
	raised = !wd_privileges_raise(WD_CAP(WD_CAP_DAC_READ_SEARCH));
	if (wd_who_container(&sv->s.who, path, &c) == WD_CTR_NAMED) {
		ob->ctr = malloc(sizeof(*ob->ctr));
		if (ob->ctr)
			*ob->ctr = *c;
	}
	if (raised)
		wd_privileges_lower();
	return ob->ctr;
}

static int cg_samples(struct serve *sv, struct wd_prom_family *f,
		      const struct wd_sock_total *t, size_t n)
{
	char reason[128];
	int err = 0;

	for (size_t i = 0; !err && i < n; i++) {
		struct wd_obj *ob = wd_objs_find(&sv->cgroups, t[i].key.cgroup_id);
		const char *v[] = { NULL, reason, "", "", "" };
		const struct wd_ctr_name *c;

		if (!ob)
			continue;
		if (!wd_reason_name(&sv->s.reasons, t[i].key.reason, reason, sizeof(reason)))
			snprintf(reason, sizeof(reason), "unknown");
		v[0] = cg_label(sv, ob);
		c = sv->so.per_container ? cg_ctr(sv, ob) : NULL;
		if (c) {
			v[2] = c->name;
			v[3] = c->pod;
			v[4] = c->k8s_namespace;
		}
		err = wd_prom_add_retired(f, v, t[i].count, ob->retired);
	}
	return err;
}

int wd_serve_fill_cgroups(struct serve *sv, const struct wd_snapshot *snap,
			  struct wd_prom_family *f)
{
	struct wd_cgroups *cg = &sv->s.who.cgroups;
	const struct wd_sock_total *t = wd_sock_rows(&snap->socks);
	size_t n = snap->socks.n;
	double now = wd_now();
	int err = snap->has_socks ? 0 : -EINVAL;

	if (err)
		return err;
	/* after the counts: every cgroup they name was made before it was told */
	wd_session_cgroups_read(&sv->s);
	if (!cg->events)
		wd_cgroups_walk(cg, 1.0);	/* to see which are gone */
	wd_objs_begin(&sv->cgroups);
	for (size_t i = 0; !err && i < n; i++)
		err = wd_objs_count(&sv->cgroups, t[i].key.cgroup_id, t[i].count, now) ? -ENOMEM : 0;
	if (!err) {
		wd_objs_settle(&sv->cgroups, now, cg_gone, sv);
		err = cg_samples(sv, f, t, n);
	}
	if (err)
		return err;
	wd_prom_merge(f);
	err = wd_prom_cap_apply(&sv->cap_cg, f);
	forget_retired(sv);
	wd_cgroups_prune(cg, now);
	return err;
}
