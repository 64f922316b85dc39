// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --rules: tracing set up per network namespace for the nftables-trace
 * source (source_nftrace.c): stale tables of dead whydrops removed, the
 * trace socket subscribed, whydrop's marking table installed, the rules'
 * names opened; every namespace that exists (`ip netns` ones, then those
 * of processes), each taken once. See nftrace_src.h, docs/firewall.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nftrace_src.h"

static bool seen(const struct ns_file *v, size_t n, const struct stat *st)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].dev == st->st_dev && v[i].ino == st->st_ino)
			return true;
	return false;
}

/* Open @path as a namespace not taken yet: its fd, or -1. */
static int open_new_ns(const char *path, struct ns_file *v, size_t *n)
{
	struct stat st;
	int fd;

	if (*n >= NFT_NS_MAX)
		return -1;
	/* stat first: a scan while running opens no namespace taken already */
	if (stat(path, &st) || seen(v, *n, &st))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || seen(v, *n, &st)) {
		close(fd);
		return -1;
	}
	v[(*n)++] = (struct ns_file){ st.st_dev, st.st_ino };
	return fd;
}

/* Every namespace that exists now and is not taken: `ip netns` ones, then those of processes. */
int wd_nft_src_install_all(struct nft_src *t)
{
	struct ns_file *v = t->seen;
	size_t *nv = &t->n_seen;
	static const char *const dirs[] = { WD_NETNS_RUN_DIR, "/proc" };
	char path[300];
	struct dirent *de;

	for (size_t d = 0; d < 2; d++) {
		DIR *dir = opendir(dirs[d]);

		while (dir && (de = readdir(dir))) {
			int fd, err;

			if (de->d_name[0] == '.' || (d == 1 && (de->d_name[0] < '1' ||
							      de->d_name[0] > '9')))
				continue;
			if (d)
				snprintf(path, sizeof(path), "/proc/%s/ns/net", de->d_name);
			else
				snprintf(path, sizeof(path), "%s/%s", dirs[0], de->d_name);
			fd = open_new_ns(path, v, nv);
			if (fd < 0)
				continue;
			err = wd_nft_src_install_ns(t, fd, NULL, false);
			close(fd);
			if (err > 0) {
				closedir(dir);
				return err;
			}
		}
		if (dir)
			closedir(dir);
	}
	return 0;
}

/* Say what a stale-table cleanup did. */
static void say_cleanup(const struct wd_nft_cleanup *c, const char *label)
{
	if (c->removed)
		fprintf(stderr, "whydrop: --rules: removed %u stale tracing %s of whydrops no "
				"longer running in %s (last: %s)\n", c->removed,
			c->removed == 1 ? "table" : "tables", label, c->last_removed);
}

void wd_nft_src_ns_close(struct nft_ns *n)
{
	char err[256];

	if (n->table.fd >= 0 && wd_nft_trace_remove(&n->table, err, sizeof(err)))
		fprintf(stderr, "whydrop: --rules: %s: %s\n", n->label, err);
	n->table.fd = -1;
	wd_nftrace_close(n->tr);
	n->tr = NULL;
	wd_nft_rules_close(n->rules);
	n->rules = NULL;
	wd_nft_claims_free(&n->claims);
	free(n->nh);
	n->nh = NULL;
}

/*
 * Trace the namespace of @fd (-1: ours): clean up tables of dead
 * whydrops, subscribe (before marking: no trace missed), mark, name.
 * 0; -1 left out (said); an exit status when @fatal.
 */
int wd_nft_src_install_ns(struct nft_src *t, int fd, const char *label, bool fatal)
{
	struct wd_nft_trace_opts opts = { .ifindex = t->ifindex };
	struct nft_ns *n = &t->ns[t->n];
	struct wd_nft_cleanup c = { 0 };
	struct epoll_event ev = { .events = EPOLLIN };
	char err[512] = "";

	memset(n, 0, sizeof(*n));
	n->table.fd = -1;
	if (fd < 0)
		n->id = wd_netns_self();
	else if (wd_netns_id_of_fd(fd, &n->id))
		return fatal ? 1 : -1;
	if (label)
		snprintf(n->label, sizeof(n->label), "%s", label);
	else
		wd_netns_label(&n->id, n->label, sizeof(n->label));
	if (wd_nft_trace_cleanup(fd, &c, err, sizeof(err)))
		goto fail;
	say_cleanup(&c, n->label);
	n->tr = wd_nftrace_open(fd, 0, err, sizeof(err));
	if (!n->tr || wd_nft_trace_install(&n->table, fd, &opts, err, sizeof(err)))
		goto fail;
	wd_nft_claims_init(&n->claims, n->table.name);
	n->claims.ifindex = t->ifindex;
	n->rules = wd_nft_rules_open(fd, err, sizeof(err));
	if (!n->rules)
		goto fail;
	n->n_legacy = wd_nft_rules_legacy(n->rules, n->legacy, sizeof(n->legacy));
	n->nh = t->recent || t->filter ? calloc(NH_SLOTS, sizeof(*n->nh)) : NULL;
	if ((t->recent || t->filter) && !n->nh) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	ev.data.u64 = t->n;
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, wd_nftrace_fd(n->tr), &ev)) {
		snprintf(err, sizeof(err), "epoll: %s", strerror(errno));
		goto fail;
	}
	t->n++;
	return 0;
fail:
	fprintf(stderr, "whydrop: --rules: %s: %s%s\n", n->label, err,
		fatal ? "" : " (left out: its drops are not traced)");
	wd_nft_src_ns_close(n);
	return fatal ? WD_EXIT_USAGE : -1;
}

/* Legacy iptables logs every rule a traced packet matches (nf_log_trace). */
void wd_nft_src_say_legacy(const struct nft_src *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->ns[i].n_legacy > 0)
			fprintf(stderr, "whydrop: --rules: %s has legacy iptables tables (%s): "
					"their rules cannot be named, and in the initial namespace "
					"the kernel logs TRACE lines for the packets whydrop marks\n",
				t->ns[i].label, t->ns[i].legacy);
}
