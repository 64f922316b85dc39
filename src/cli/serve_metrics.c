// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the exposition. Each scrape reads the counts once, names
 * them (reason, layer, function; netns, interface, cgroup when asked),
 * sets apart the expected drops the noise rules hide (as top and count
 * do), caps every family at --max-series and renders the page.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "rules_report.h"
#include "serve.h"
#include "tcp_report.h"

#define NAME_LEN		128
#define RULE_LEN		200	/* REASON@FUNCTION of a noise rule */

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

/* The families of a page, in its order; each capped by its own wd_prom_cap. */
enum fam { FAM_DROPS, FAM_HIDDEN, FAM_IF, FAM_NS, FAM_CG, FAM_RULES, FAM_N };

struct scrape {
	struct wd_prom_family f[FAM_N];
	struct wd_snapshot snap;	/* this scrape's one read of the kernel */
};

static struct wd_prom_cap *cap_of(struct serve *sv, enum fam i)
{
	struct wd_prom_cap *cap[FAM_N] = {
		&sv->cap_drops, &sv->cap_hidden, &sv->cap_if, &sv->cap_ns, &sv->cap_cg,
		&sv->cap_rules,
	};

	return cap[i];
}

/* The family is on this page: asked for (--per-*, --rules). */
static bool fam_on(const struct serve *sv, const struct scrape *sc, enum fam i)
{
	const bool on[FAM_N] = {
		true, true, sv->so.per_if, sv->so.per_netns, sv->so.per_cgroup,
		sc->snap.rules != NULL,
	};

	return on[i];
}

struct row_names {
	char reason[NAME_LEN], subsys[NAME_LEN], function[NAME_LEN], location[NAME_LEN];
	char netns[16], netns_cookie[24], ifname[IFNAMSIZ + 8], netns_name[64];
	char rule[RULE_LEN];	/* the noise rule that hides it, "" if none */
	const char *layer;
};

/* The rule of the noise list that hides drops of reason at function; "" if none. */
static void hidden_by(struct serve *sv, const char *reason, const char *function, char *rule,
		      size_t len)
{
	const struct wd_noise_rule *r = sv->noise ?
		wd_noise_hide(sv->noise, reason, function, 0) : NULL;

	if (!r) {
		rule[0] = '\0';
		return;
	}
	snprintf(rule, len, "%s%s%s", r->reason, r->function[0] ? "@" : "", r->function);
}

static void resolve(struct serve *sv, const struct wd_key_total *kt, struct row_names *n,
		    bool want_if)
{
	struct wd_total t = { kt->key.reason, kt->key.location, kt->count };
	const struct wd_netns_id ns = { kt->key.netns_cookie, kt->key.netns };
	const struct wd_cat_entry *e;
	struct wd_count_row row;

	wd_session_row(&sv->s, &t, &row, n->reason, n->subsys, n->function, n->location,
		       NAME_LEN);
	hidden_by(sv, row.reason, n->function, n->rule, sizeof(n->rule));
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
	if (wd_netns_is_gone(&ns)) {	/* retired namespaces, folded: serve_who.c */
		snprintf(n->netns, sizeof(n->netns), "gone");
		snprintf(n->netns_cookie, sizeof(n->netns_cookie), "gone");
		snprintf(n->ifname, sizeof(n->ifname), "gone");
		snprintf(n->netns_name, sizeof(n->netns_name), "gone");
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
	const char *d[] = { n.reason, NULL, n.function, n.rule };
	const char *i[] = { n.netns, n.netns_cookie, n.ifname, n.reason, n.netns_name };
	const char *ns[] = { n.netns, n.netns_cookie, n.reason, n.netns_name };
	bool retired = (sv->so.per_if || sv->so.per_netns) &&
		       wd_objs_retired(&sv->netns, wd_serve_ns_id(&kt->key));
	int err;

	resolve(sv, kt, &n, sv->so.per_if);
	d[1] = n.layer;
	err = wd_prom_add(&sc->f[n.rule[0] ? FAM_HIDDEN : FAM_DROPS], d, kt->count);
	if (!err && sv->so.per_if)
		err = wd_prom_add_retired(&sc->f[FAM_IF], i, kt->count, retired);
	if (!err && sv->so.per_netns)
		err = wd_prom_add_retired(&sc->f[FAM_NS], ns, kt->count, retired);
	return err;
}

/* --per-cgroup: what whydrop_cgroup_drops_total misses, said next to it. */
static void render_cgroup_lost(struct wd_prom_buf *b, const struct scrape *sc)
{
	uint64_t lost = sc->snap.stats.v[WD_STAT_SOCK_OVERFLOW];

	wd_prom_render_value(b, "whydrop_cgroup_drops_lost_total", "counter",
			     "Drops missing from whydrop_cgroup_drops_total because the kernel's "
			     "by-socket map had no room: more than 4096 new sockets dropped "
			     "between two scrapes (a scrape that finds it half full swaps in an "
			     "empty one); still in whydrop_drops_total.", lost);
}

/*
 * --rules: NETFILTER_DROP by rule (rules_report.h), labels from the traces
 * only (no listing per scrape): bounded by the cap like the others.
 */
static int add_rules(struct serve *sv, struct scrape *sc)
{
	struct wd_rules_parts *p = NULL;
	struct wd_rules_doc d;
	char label[3 * 256 + 32], netns[16];
	const char *v[] = { netns, label };
	int err = wd_rules_report_build(&sv->s, &sc->snap, false, &d, &p);

	for (size_t i = 0; !err && i < d.n_ns; i++) {
		const struct wd_rules_ns_out *n = &d.ns[i];
		const struct { const char *rule; uint64_t count; } part[] = {
			{ "unclaimed", n->unclaimed }, { "foreign", n->foreign },
			{ "other_rules", n->other_rules },
		};

		snprintf(netns, sizeof(netns), "%u", n->inode);
		for (size_t k = 0; !err && k < n->n_rules; k++) {
			wd_rules_label(&n->rules[k], label, sizeof(label));
			err = wd_prom_add(&sc->f[FAM_RULES], v, n->rules[k].count);
		}
		for (size_t k = 0; !err && k < sizeof(part) / sizeof(part[0]); k++) {
			snprintf(label, sizeof(label), "%s", part[k].rule);
			err = wd_prom_add(&sc->f[FAM_RULES], v, part[k].count);
		}
	}
	snprintf(netns, sizeof(netns), "any");
	snprintf(label, sizeof(label), "not_traced");
	if (!err)
		err = wd_prom_add(&sc->f[FAM_RULES], v, d.not_traced + d.traced_elsewhere);
	wd_rules_report_free(p);
	if (!err) {
		wd_prom_merge(&sc->f[FAM_RULES]);
		err = wd_prom_cap_apply(&sv->cap_rules, &sc->f[FAM_RULES]);
	}
	return err;
}

static int fill(struct serve *sv, struct scrape *sc)
{
	const struct wd_key_total *keys;
	size_t n;
	int err;

	/* One read per scrape: every family and render_info derive from it. */
	err = wd_session_snapshot(&sv->s, &sc->snap);
	if (err)
		return err;
	keys = wd_key_rows(&sc->snap.keys);
	n = sc->snap.keys.n;
	if (sv->so.per_if || sv->so.per_netns)
		err = wd_serve_judge_netns(sv, keys, n) ? -ENOMEM : 0;
	for (size_t i = 0; !err && i < n; i++)
		err = add_key(sv, sc, &keys[i]);
	if (err)
		return err;
	/* those of the counting keys, then by cgroup and by rule from their own counts */
	for (enum fam i = FAM_DROPS; !err && i <= FAM_NS; i++) {
		wd_prom_merge(&sc->f[i]);
		if (fam_on(sv, sc, i))
			err = wd_prom_cap_apply(cap_of(sv, i), &sc->f[i]);
	}
	if (!err && sv->so.per_cgroup)
		err = wd_serve_fill_cgroups(sv, &sc->snap, &sc->f[FAM_CG]);
	if (!err && sc->snap.rules)
		err = add_rules(sv, sc);
	return err;
}

/* A line per capped family: what its fold holds, or how many retired. */
static void render_per_family(struct serve *sv, struct wd_prom_buf *b, const struct scrape *sc,
			      bool retired)
{
	for (enum fam i = 0; i < FAM_N; i++) {
		const struct wd_prom_cap *c = cap_of(sv, i);

		/* only the families whose series retire have the second */
		if (!fam_on(sv, sc, i) || (retired && (i < FAM_IF || i == FAM_RULES)))
			continue;
		wd_prom_printf(b, "%s{metric=\"%s\"} %" PRIu64 "\n",
			       retired ? "whydrop_series_retired_total" : "whydrop_series_folded",
			       sc->f[i].name, retired ? c->retired : c->folded);
	}
}

static void render_folded(struct serve *sv, struct wd_prom_buf *b, const struct scrape *sc)
{
	wd_prom_render_header(b, "whydrop_series_folded", "gauge",
			      "Label sets summed into the series whose labels are all \"other\", "
			      "because of --max-series.");
	render_per_family(sv, b, sc, false);
	if (!sv->so.per_if && !sv->so.per_netns && !sv->so.per_cgroup)
		return;
	wd_prom_render_header(b, "whydrop_series_retired_total", "counter",
			      "Series taken off the page because their cgroup or network "
			      "namespace was gone for --series-grace and silent for as long.");
	render_per_family(sv, b, sc, true);
}

/* --source dropmon: what drop_monitor could not deliver, read at this scrape. */
static void render_dropmon_losses(struct wd_prom_buf *b, const struct wd_count_source *l)
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
	const struct wd_stats *st = &sc->snap.stats;

	wd_prom_render_value(b, "whydrop_lost_events_total", "counter",
			     "Drops not in whydrop_drops_total: the kernel could not run "
			     "whydrop's program for them (recursion misses), or, with drop_monitor, "
			     "its per-CPU queue could not hold them (whydrop_dropmon_*_total).",
			     sc->snap.lost_events);
	if (sc->snap.source.name)
		render_dropmon_losses(b, &sc->snap.source);
	wd_prom_render_value(b, "whydrop_scrapes_total", "counter",
			     "Pages of /metrics rendered (GET), this one included; HEAD "
			     "requests read nothing and are not counted.", sv->scrapes);
	wd_prom_render_value(b, "whydrop_overflow_drops_total", "counter",
			     "Drops counted in the overflow bucket because the counting map was "
			     "full (--map-size): in whydrop_drops_total with function=\"(overflow)\".",
			     st->v[WD_STAT_OVERFLOW]);
	wd_prom_render_header(b, "whydrop_build_info", "gauge",
			      "whydrop's version, the running kernel and the attach mode; always 1.");
	wd_prom_printf(b, "whydrop_build_info{version=\"");
	wd_prom_escape(b, WHYDROP_VERSION);
	wd_prom_printf(b, "\",kernel=\"");
	wd_prom_escape(b, sv->s.kernel);
	wd_prom_printf(b, "\",attach=\"%s\"} 1\n", wd_session_source(&sv->s)->attach_mode);
}

/* Their names, help and labels; --netns-names and --per-container add labels (scrape_init). */
static const struct wd_prom_family families[FAM_N] = {
	[FAM_DROPS] = {
		.name = "whydrop_drops_total", .type = "counter",
		.help = "Packets the kernel dropped (skb:kfree_skb), by drop reason, layer and "
			"dropping function; exact. The expected drops the noise rules hide "
			"(as top and count do) are in whydrop_hidden_drops_total instead; "
			"with --show-all, none are. reason=\"other\": folded by --max-series. "
			"What a reason means at that function: whydrop explain FUNCTION.",
		.labels = { "reason", "layer", "function" }, .nlabels = 3,
	},
	[FAM_HIDDEN] = {
		.name = "whydrop_hidden_drops_total", .type = "counter",
		.help = "Expected drops, hidden by the noise rules (built-in list, "
			"/etc/whydrop/noise.conf or --noise-file, --hide), by drop reason, "
			"layer, dropping function and the rule that hid them; exact. Not in "
			"whydrop_drops_total: the two add up to every drop.",
		.labels = { "reason", "layer", "function", "rule" }, .nlabels = 4,
	},
	[FAM_IF] = {
		.name = "whydrop_interface_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by network namespace (inode, and cookie: "
			"inodes are reused), interface and drop reason; exact, expected drops "
			"included. A deleted namespace's series retire (--series-grace).",
		.labels = { "netns", "netns_cookie", "interface", "reason" }, .nlabels = 4,
	},
	[FAM_NS] = {
		.name = "whydrop_netns_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by network namespace (inode, and cookie: "
			"inodes are reused) and drop reason; exact, expected drops included. A "
			"deleted namespace's series retire (--series-grace).",
		.labels = { "netns", "netns_cookie", "reason" }, .nlabels = 3,
	},
	[FAM_CG] = {
		.name = "whydrop_cgroup_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by the cgroup of their socket (the systemd "
			"unit, container or pod it names, else its path; none: no socket) and "
			"drop reason; exact, expected drops included. A removed cgroup's series "
			"retire (--series-grace).",
		.labels = { "cgroup", "reason" }, .nlabels = 2,
	},
	[FAM_RULES] = {
		.name = "whydrop_netfilter_drops_total", .type = "counter",
		.help = "serve --rules: NETFILTER_DROPs by network namespace (inode; \"any\" for "
			"not_traced) and the nftables rule that dropped them: "
			"rule=\"FAMILY/TABLE/CHAIN/HANDLE\" or \"FAMILY/TABLE/CHAIN/policy\"; "
			"unclaimed (marked, no rule named: trace lost, or dropped outside "
			"nftables' rules: legacy iptables, conntrack), foreign (a user's own "
			"nftrace marks), other_rules, not_traced (not marked: hooks or "
			"namespaces whydrop does not trace). They add up to the NETFILTER_DROP "
			"series of whydrop_drops_total and whydrop_hidden_drops_total; live, the "
			"rules can be a moment ahead. The rule's text: `nft -a list table "
			"FAMILY TABLE`.",
		.labels = { "netns", "rule" }, .nlabels = 2,
	},
};

static void scrape_init(struct scrape *sc, bool netns_names, bool per_container)
{
	struct wd_prom_family *cg = &sc->f[FAM_CG];

	memcpy(sc->f, families, sizeof(families));
	/* --netns-names: one more label, last */
	if (netns_names) {
		sc->f[FAM_IF].labels[sc->f[FAM_IF].nlabels++] = "netns_name";
		sc->f[FAM_NS].labels[sc->f[FAM_NS].nlabels++] = "netns_name";
	}
	/* --per-container: three more, after reason */
	if (per_container) {
		cg->labels[cg->nlabels++] = "container";
		cg->labels[cg->nlabels++] = "pod";
		cg->labels[cg->nlabels++] = "k8s_namespace";
	}
}

/* The whole /metrics page in b; 0 or a negative errno. */
static int render_metrics(struct serve *sv, struct wd_prom_buf *b)
{
	struct scrape sc = {};
	int err;

	scrape_init(&sc, sv->so.netns_names, sv->so.per_container);
	pthread_mutex_lock(&sv->lock);
	err = fill(sv, &sc);
	if (!err) {
		sv->scrapes++;	/* before render_info: the page counts itself */
		for (enum fam i = 0; i < FAM_N; i++) {
			if (!fam_on(sv, &sc, i))
				continue;
			wd_prom_render_family(b, &sc.f[i]);
			if (i == FAM_CG)
				render_cgroup_lost(b, &sc);
		}
		if (sc.snap.tcp)
			err = wd_tcp_render_prom(b, &sv->s, &sc.snap,
						 sv->so.per_cgroup ? &sv->cap_tcp : NULL);
		render_folded(sv, b, &sc);
		render_info(sv, b, &sc);
		/* after the page: what a swap moves is in the next scrape, once */
		wd_session_maintain(&sv->s, NULL, NULL);
		wd_serve_age(sv);
	}
	pthread_mutex_unlock(&sv->lock);
	wd_snapshot_free(&sc.snap);
	for (enum fam i = 0; i < FAM_N; i++)
		wd_prom_family_clear(&sc.f[i]);
	if (!err && b->failed)
		err = -ENOMEM;
	return err;
}

/* The exporter's HTTP layer (src/cli/http.c) asks for the page here. */
int wd_serve_render(void *ctx, struct wd_prom_buf *b)
{
	return render_metrics(ctx, b);
}
