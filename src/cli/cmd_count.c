// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <time.h>

#include "commands.h"
#include "flame_output.h"
#include "noise_opts.h"
#include "groups.h"
#include "options.h"
#include "report.h"

/* --counters-only: no BPF, two samples of the kernel's counters. */
static int count_counters_only(const struct wd_opts *o)
{
	struct wd_counter_sampler cs;
	double t0 = wd_now();
	int status;

	status = wd_counter_sampler_begin(&cs, o);
	if (status)
		goto out;
	fprintf(stderr, "whydrop: reading the kernel's counters only (nothing traced)\n");
	while (!wd_stop && !wd_over(t0, o->duration))
		wd_sleep_ms(wd_wait_ms(t0, o->duration, 100));
	wd_counter_sampler_take(&cs);
	status = wd_report_counts(NULL, NULL, o, wd_now() - t0, &cs, stdout);
out:
	wd_counter_sampler_end(&cs);
	return status;
}

/*
 * --group-by cgroup|process|container|pod, once a second: sockets close before count
 * ends, so their processes are learned while they are open, and the
 * by-socket hash's generations swap before it fills. Without them count
 * reads nothing until the end.
 */
static void refresh(struct wd_session *s, struct wd_groups *g)
{
	struct wd_snapshot snap;

	if (!wd_group_by_socket(g->by))
		return;
	if (wd_session_snapshot(s, &snap))
		return;
	wd_groups_refresh(g, &snap);
	wd_report_maintain(s, g);
	wd_snapshot_free(&snap);
}

int cmd_count(int argc, char **argv)
{
	struct wd_flame_out flame = { .fd = -1 };
	struct wd_counter_sampler cs;
	struct wd_noise nz = { 0 };
	struct wd_groups g;
	struct wd_session s;
	struct wd_cli cli;
	struct wd_opts *o = &cli.o;
	double t0, t_refresh;
	int status;

	if (wd_cli_parse(WD_CMD_COUNT, argc, argv, &cli, &status))
		return status;
	status = wd_noise_setup(&nz, o);
	if (status)
		goto out;
	o->noise = &nz;
	/* a bad path fails now, before anything is attached */
	if (cli.svg && (status = wd_flame_out_open(&flame, "count", cli.svg)))
		goto out;
	if (cli.svg)
		o->flame = &flame;
	wd_install_signals();
	if (o->counters_only) {
		status = count_counters_only(o);
		goto out;
	}
	status = wd_report_start(&s, o, &cs, &g);
	if (status)
		goto out;
	t0 = t_refresh = s.t_attached;
	while (wd_session_poll(&s, wd_wait_ms(t0, o->duration, 100))) {
		if (wd_over(t0, o->duration))
			break;
		if (wd_now() - t_refresh >= 1.0) {
			refresh(&s, &g);
			t_refresh = wd_now();
		}
	}
	wd_report_detach(&s, &cs);
	status = wd_report_counts_check(&s, &g, o, cli.has_check ? &cli.check : NULL,
					wd_now() - t0, &cs, stdout);
	wd_report_end(&s, &cs, &g);
out:
	wd_flame_out_close(&flame);
	wd_noise_free(&nz);
	wd_cli_free(&cli);
	return status;
}
