// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the exact drop counts as Prometheus metrics over HTTP
 * (libmicrohttpd). Order matters for least privilege: bind the socket,
 * attach the BPF program, open what later needs privileges, then give up
 * root and every capability before the first byte is read from the network
 * (serve_listen.c). Scrapes read the kernel's counting map through file
 * descriptors already open, which needs no privilege (serve_metrics.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <microhttpd.h>

#include "commands.h"
#include "format.h"
#include "http.h"
#include "noise_opts.h"
#include "options.h"
#include "privileges.h"
#include "serve.h"

static int bad_arg(const char *what, const char *arg, const char *hint)
{
	fprintf(stderr, "whydrop serve: bad %s '%s': %s\n(`whydrop serve -h` for help)\n",
		what, arg, hint);
	return -1;
}

static int listen_and_attach(struct serve *sv, struct wd_opts *o, int *fd, bool *v6)
{
	int status;

	*fd = wd_serve_listen(sv->so.listen, v6);
	if (*fd == -2) {
		bad_arg("--listen", sv->so.listen,
			"give ADDRESS:PORT, e.g. 127.0.0.1:9464, [::1]:9464 or :9464");
		return WD_EXIT_USAGE;
	}
	if (*fd < 0)
		return 1;
	status = wd_session_open(&sv->s, o, false, NULL, NULL);
	if (status) {
		close(*fd);
		*fd = -1;
	}
	return status;
}

static int serve(struct serve *sv, struct wd_opts *o, uid_t uid, gid_t gid)
{
	struct MHD_Daemon *d = NULL;
	int fd = -1, status;
	bool v6 = false;
	double t0;

	status = listen_and_attach(sv, o, &fd, &v6);
	if (status)
		return status;
	if (sv->so.per_if)	/* while namespaces can still be entered */
		wd_ifnames_open(&sv->s.ifnames, sv->s.netns.inode ? sv->s.netns_path : NULL);
	/* a released cgroup's name is kept as long as its series may be */
	sv->s.who.cgroups.keep = sv->so.series_grace;
	status = 1;
	if (wd_serve_drop_privileges(sv, uid, gid))
		goto out;
	d = wd_http_start(fd, v6, wd_serve_render, sv, sv->verbose);
	if (!d)
		goto out;
	wd_serve_announce(sv, fd);
	fd = -1;	/* libmicrohttpd closes it */
	t0 = wd_now();
	do {
		/* cgroups made and gone between scrapes: named now, while they exist */
		pthread_mutex_lock(&sv->lock);
		wd_session_cgroups_read(&sv->s);
		pthread_mutex_unlock(&sv->lock);
		if (wd_over(t0, o->duration))
			break;
	} while (wd_session_poll(&sv->s, wd_wait_ms(t0, o->duration, 1000)));
	status = 0;
out:
	if (d)
		MHD_stop_daemon(d);
	if (fd >= 0)
		close(fd);
	wd_session_close(&sv->s);
	if (!status)
		fprintf(stderr, "whydrop serve: stopped after %" PRIu64 " %s; detached\n",
			sv->scrapes, wd_plural(sv->scrapes, "scrape", "scrapes"));
	return status;
}

int cmd_serve(int argc, char **argv)
{
	struct wd_noise nz = { 0 };
	struct wd_netns_id self;
	struct serve sv = { 0 };
	uid_t uid = 0;
	gid_t gid = 0;
	struct wd_cli cli;
	struct wd_opts *o = &cli.o;
	int status;

	if (wd_cli_parse(WD_CMD_SERVE, argc, argv, &cli, &status))
		return status;
	sv.so = (struct serve_opts){
		.listen = cli.listen, .max_series = cli.max_series, .per_if = cli.per_if,
		.per_netns = cli.per_netns, .user = cli.user, .netns_names = o->netns_names,
		.per_cgroup = cli.per_cgroup || cli.per_container,
		.per_container = cli.per_container, .series_grace = cli.series_grace,
	};
	sv.verbose = o->verbose;
	sv.cap_drops.max = sv.cap_hidden.max = sv.cap_if.max = sv.cap_ns.max =
		sv.cap_cg.max = sv.cap_rules.max = sv.cap_tcp.max = sv.so.max_series;
	sv.cgroups.grace = sv.netns.grace = sv.so.series_grace;
	wd_aging_init(&sv.aging, &sv.s);
	self = wd_netns_self();
	sv.own_netns = wd_serve_ns_id_of(&self);
	/* the kernel counts by socket; every cgroup is kept, the cap folds */
	if (sv.so.per_cgroup)
		o->group_by = WD_GROUP_CGROUP;
	/* namespaces' names and presence are scanned for (who.c) */
	else if (sv.so.per_netns || sv.so.per_if)
		o->group_by = WD_GROUP_NETNS;
	status = WD_EXIT_USAGE;
	if (geteuid() == 0 && wd_privileges_user("whydrop serve", sv.so.user, &uid, &gid))
		goto out;
	status = wd_noise_setup(&nz, o);
	if (status)
		goto out;
	sv.noise = &nz;
	pthread_mutex_init(&sv.lock, NULL);
	wd_install_signals();
	status = serve(&sv, o, uid, gid);
	pthread_mutex_destroy(&sv.lock);
out:
	wd_prom_cap_free(&sv.cap_drops);
	wd_prom_cap_free(&sv.cap_hidden);
	wd_prom_cap_free(&sv.cap_if);
	wd_prom_cap_free(&sv.cap_ns);
	wd_prom_cap_free(&sv.cap_cg);
	wd_prom_cap_free(&sv.cap_rules);
	wd_prom_cap_free(&sv.cap_tcp);
	wd_objs_free(&sv.cgroups);
	wd_objs_free(&sv.netns);
	wd_aging_free(&sv.aging);
	wd_noise_free(&nz);
	wd_cli_free(&cli);
	return status;
}
