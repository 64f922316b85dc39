// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the exposition. Each scrape reads the counts once, names
 * them (reason, layer, function; netns, interface, cgroup when asked),
 * caps every family at --max-series and renders the page.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "serve.h"
#include "source_dropmon.h"

#define NAME_LEN		128

/* "veth0"; "if7" where the namespace is out of reach; "none" without a device. */
static void interface_name(struct serve *sv, const struct wd_netns_id *ns, uint32_t ifindex,
			   char *buf, size_t len)
{
	const char *name = wd_ifname(&sv->s.ifnames, ns, ifindex);

	if (!ifindex)
		snprintf(buf, len, "none");
	else if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "if%u", ifindex);
}

struct scrape {
	struct wd_prom_family drops, by_if, by_ns, by_cg;
	struct wd_key_total *keys;	/* this scrape's read of the counts */
	size_t n_keys;
	uint64_t cg_lost;	/* --per-cgroup: drops the by-socket map had no room for */
};

struct row_names {
	char reason[NAME_LEN], subsys[NAME_LEN], function[NAME_LEN], location[NAME_LEN];
	char netns[16], netns_cookie[24], ifname[IFNAMSIZ + 8], netns_name[64];
	const char *layer;
};

static void resolve(struct serve *sv, const struct wd_key_total *kt, struct row_names *n,
		    bool want_if)
{
	struct wd_total t = { kt->key.reason, kt->key.location, kt->count };
	const struct wd_netns_id ns = { kt->key.netns_cookie, kt->key.netns };
	const struct wd_cat_entry *e;
	struct wd_count_row row;

	wd_session_row(&sv->s, &t, &row, n->reason, n->subsys, n->function, n->location,
		       NAME_LEN);
	if (!row.reason)
		snprintf(n->reason, NAME_LEN, "unknown");
	e = row.reason ? wd_catalogue_find(row.reason) : NULL;
	n->layer = e && e->layer ? e->layer : "unknown";
	if (!kt->key.location) {	/* overflow bucket: only the reason is known */
		snprintf(n->netns, sizeof(n->netns), "unknown");
		snprintf(n->netns_cookie, sizeof(n->netns_cookie), "unknown");
		snprintf(n->ifname, sizeof(n->ifname), "unknown");
		snprintf(n->netns_name, sizeof(n->netns_name), "unknown");
		return;
	}
	snprintf(n->netns, sizeof(n->netns), "%u", kt->key.netns);
	/* the namespace's identity: the kernel gives its inode to later ones */
	snprintf(n->netns_cookie, sizeof(n->netns_cookie), "%" PRIu64,
		 (uint64_t)kt->key.netns_cookie);
	if (sv->so.netns_names) {
		const char *name = wd_netns_name(&sv->s.who.owners, &ns);

		snprintf(n->netns_name, sizeof(n->netns_name), "%s", name ? name : "unknown");
	}
	if (want_if)
		interface_name(sv, &ns, kt->key.ifindex, n->ifname, sizeof(n->ifname));
}

static int add_key(struct serve *sv, struct scrape *sc, const struct wd_key_total *kt)
{
	struct row_names n;
	const char *d[] = { n.reason, NULL, n.function };
	const char *i[] = { n.netns, n.netns_cookie, n.ifname, n.reason, n.netns_name };
	const char *ns[] = { n.netns, n.netns_cookie, n.reason, n.netns_name };
	int err;

	resolve(sv, kt, &n, sv->so.per_if);
	d[1] = n.layer;
	err = wd_prom_add(&sc->drops, d, kt->count);
	if (!err && sv->so.per_if)
		err = wd_prom_add(&sc->by_if, i, kt->count);
	if (!err && sv->so.per_netns)
		err = wd_prom_add(&sc->by_ns, ns, kt->count);
	return err;
}

/* --per-cgroup: the by-socket counts, by the cgroup's label. */
static int fill_cgroups(struct serve *sv, struct scrape *sc)
{
	struct wd_group_row *rows;
	char reason[NAME_LEN];
	struct wd_stats st;
	size_t n;
	int err = wd_groups_rows(&sv->groups, &sv->s, &rows, &n);

	if (err)
		return err;
	for (size_t i = 0; !err && i < n; i++) {
		const char *v[] = { !strcmp(rows[i].group, "(no socket)") ? "none" : rows[i].group,
				    reason };

		if (!wd_reason_name(&sv->s.reasons, rows[i].reason, reason, sizeof(reason)))
			snprintf(reason, sizeof(reason), "unknown");
		err = wd_prom_add(&sc->by_cg, v, rows[i].count);
	}
	free(rows);
	/* what these rows miss: drops of sockets the kernel had no room for */
	if (!err && !wd_session_stats_of(&sv->s, &st, sc->keys, sc->n_keys))
		sc->cg_lost = st.v[WD_STAT_SOCK_OVERFLOW];
	wd_prom_merge(&sc->by_cg);
	return err ? err : wd_prom_cap_apply(&sv->cap_cg, &sc->by_cg);
}

/* --per-cgroup: what whydrop_cgroup_drops_total misses, said next to it. */
static void render_cgroup_lost(struct wd_prom_buf *b, const struct scrape *sc)
{
	wd_prom_render_value(b, "whydrop_cgroup_drops_lost_total", "counter",
			     "Drops missing from whydrop_cgroup_drops_total because the kernel's "
			     "by-socket map (4096 sockets, never emptied) was full; still in "
			     "whydrop_drops_total.", sc->cg_lost);
}

static int fill(struct serve *sv, struct scrape *sc)
{
	int err;

	/* One read per scrape: render_info sums the same keys. */
	err = wd_session_keys(&sv->s, &sc->keys, &sc->n_keys);
	for (size_t i = 0; !err && i < sc->n_keys; i++)
		err = add_key(sv, sc, &sc->keys[i]);
	if (err)
		return err;
	wd_prom_merge(&sc->drops);
	wd_prom_merge(&sc->by_if);
	wd_prom_merge(&sc->by_ns);
	err = wd_prom_cap_apply(&sv->cap_drops, &sc->drops);
	if (!err && sv->so.per_if)
		err = wd_prom_cap_apply(&sv->cap_if, &sc->by_if);
	if (!err && sv->so.per_netns)
		err = wd_prom_cap_apply(&sv->cap_ns, &sc->by_ns);
	if (!err && sv->so.per_cgroup)
		err = fill_cgroups(sv, sc);
	return err;
}

static void render_folded(struct serve *sv, struct wd_prom_buf *b, const struct scrape *sc)
{
	wd_prom_render_header(b, "whydrop_series_folded", "gauge",
			      "Label sets summed into the series whose labels are all \"other\", "
			      "because of --max-series.");
	wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
		       sc->drops.name, sv->cap_drops.folded);
	if (sv->so.per_if)
		wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
			       sc->by_if.name, sv->cap_if.folded);
	if (sv->so.per_netns)
		wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
			       sc->by_ns.name, sv->cap_ns.folded);
	if (sv->so.per_cgroup)
		wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
			       sc->by_cg.name, sv->cap_cg.folded);
}

/* --source dropmon: what drop_monitor could not deliver, read at this scrape. */
static void render_dropmon_losses(struct wd_prom_buf *b, const struct wd_dm_losses *l)
{
	wd_prom_render_header(b, "whydrop_dropmon_queue_dropped_total", "counter",
			      "Drops drop_monitor saw but could not deliver, its per-CPU queue "
			      "(--dropmon-queue) being full: in whydrop_lost_events_total, not in "
			      "whydrop_drops_total.");
	wd_prom_printf(b, "whydrop_dropmon_queue_dropped_total{origin=\"software\"} %" PRIu64
		       "\nwhydrop_dropmon_queue_dropped_total{origin=\"hardware\"} %" PRIu64 "\n",
		       l->queue_dropped, l->hw_queue_dropped);
	wd_prom_render_value(b, "whydrop_dropmon_socket_overruns_total", "counter",
			     "Times whydrop's drop_monitor socket overflowed (ENOBUFS): drops "
			     "lost, how many unknown, not in whydrop_drops_total.", l->overruns);
	wd_prom_render_value(b, "whydrop_dropmon_truncated_total", "counter",
			     "Drops whose packet drop_monitor cut to the bytes whydrop keeps: "
			     "counted, their packets incomplete.", l->truncated);
	wd_prom_render_value(b, "whydrop_dropmon_summary_full_total", "counter",
			     "Summary alerts (--dropmon-mode summary) at the kernel's limit of 64 "
			     "locations: drops at further locations not counted.", l->summary_full);
}

static void render_info(struct serve *sv, struct wd_prom_buf *b, const struct scrape *sc)
{
	struct wd_dm_losses l = { 0 };
	struct wd_stats st;

	if (wd_session_stats_of(&sv->s, &st, sc->keys, sc->n_keys))
		memset(&st, 0, sizeof(st));
	if (sv->s.dm)
		wd_dm_source_losses(&sv->s, &l);
	wd_prom_render_value(b, "whydrop_lost_events_total", "counter",
			     "Drops not in whydrop_drops_total: the kernel could not run "
			     "whydrop's program for them (recursion misses), or, with drop_monitor, "
			     "its per-CPU queue could not hold them (whydrop_dropmon_*_total).",
			     st.recursion_misses + l.queue_dropped + l.hw_queue_dropped);
	if (sv->s.dm)
		render_dropmon_losses(b, &l);
	wd_prom_render_value(b, "whydrop_scrapes_total", "counter",
			     "Pages of /metrics rendered (GET), this one included; HEAD "
			     "requests read nothing and are not counted.", sv->scrapes);
	wd_prom_render_value(b, "whydrop_overflow_drops_total", "counter",
			     "Drops counted in the overflow bucket because the counting map was "
			     "full (--map-size): in whydrop_drops_total with function=\"(overflow)\".",
			     st.v[WD_STAT_OVERFLOW]);
	wd_prom_render_header(b, "whydrop_build_info", "gauge",
			      "whydrop's version, the running kernel and the attach mode; always 1.");
	wd_prom_printf(b, "whydrop_build_info{version=\"");
	wd_prom_escape(b, WHYDROP_VERSION);
	wd_prom_printf(b, "\",kernel=\"");
	wd_prom_escape(b, sv->s.kernel);
	wd_prom_printf(b, "\",attach=\"%s\"} 1\n", sv->s.attach_mode);
}

static void scrape_init(struct scrape *sc, bool netns_names)
{
	static const struct wd_prom_family drops = {
		.name = "whydrop_drops_total", .type = "counter",
		.help = "Packets the kernel dropped (skb:kfree_skb), by drop reason, layer and "
			"dropping function; exact. reason=\"other\": folded by --max-series.",
		.labels = { "reason", "layer", "function" }, .nlabels = 3,
	};
	static const struct wd_prom_family by_if = {
		.name = "whydrop_interface_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by network namespace (inode, and cookie: "
			"inodes are reused), interface and drop reason; exact.",
		.labels = { "netns", "netns_cookie", "interface", "reason" }, .nlabels = 4,
	};
	static const struct wd_prom_family by_ns = {
		.name = "whydrop_netns_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by network namespace (inode, and cookie: "
			"inodes are reused) and drop reason; exact.",
		.labels = { "netns", "netns_cookie", "reason" }, .nlabels = 3,
	};

	static const struct wd_prom_family by_cg = {
		.name = "whydrop_cgroup_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by the cgroup of their socket (the systemd "
			"unit, container or pod it names; none: no socket) and drop reason; exact.",
		.labels = { "cgroup", "reason" }, .nlabels = 2,
	};

	sc->drops = drops;
	sc->by_if = by_if;
	sc->by_ns = by_ns;
	sc->by_cg = by_cg;
	/* --netns-names: one more label, last */
	if (netns_names) {
		sc->by_if.labels[sc->by_if.nlabels++] = "netns_name";
		sc->by_ns.labels[sc->by_ns.nlabels++] = "netns_name";
	}
}

/* The whole /metrics page in b; 0 or a negative errno. */
static int render_metrics(struct serve *sv, struct wd_prom_buf *b)
{
	struct scrape sc = {};
	int err;

	scrape_init(&sc, sv->so.netns_names);
	pthread_mutex_lock(&sv->lock);
	err = fill(sv, &sc);
	if (!err) {
		sv->scrapes++;	/* before render_info: the page counts itself */
		wd_prom_render_family(b, &sc.drops);
		if (sv->so.per_if)
			wd_prom_render_family(b, &sc.by_if);
		if (sv->so.per_netns)
			wd_prom_render_family(b, &sc.by_ns);
		if (sv->so.per_cgroup) {
			wd_prom_render_family(b, &sc.by_cg);
			render_cgroup_lost(b, &sc);
		}
		render_folded(sv, b, &sc);
		render_info(sv, b, &sc);
	}
	pthread_mutex_unlock(&sv->lock);
	free(sc.keys);
	wd_prom_family_clear(&sc.drops);
	wd_prom_family_clear(&sc.by_if);
	wd_prom_family_clear(&sc.by_ns);
	wd_prom_family_clear(&sc.by_cg);
	if (!err && b->failed)
		err = -ENOMEM;
	return err;
}

/* The exporter's HTTP layer (src/cli/http.c) asks for the page here. */
int wd_serve_render(void *ctx, struct wd_prom_buf *b)
{
	return render_metrics(ctx, b);
}
