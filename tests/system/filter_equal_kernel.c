// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * filter_equal's kernel side: filter_equal.bpf.o (its skeleton) and the
 * maps of the tp_btf loads set up, a packet run through the setup program
 * and the translated filter under BPF_PROG_TEST_RUN (its verdict and the
 * paged bytes it counted), the filter put in place, the verifier's
 * statistics of a load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "cbpf_ebpf.h"
#include "filter_equal.h"
#include "filter_equal_packets.h"
#include "filter_equal_kernel.h"
#include "filter_equal.skel.h"

static int nonlinear(struct env *e, __u64 *sum)
{
	__u32 zero = 0;
	int i;

	if (bpf_map_lookup_elem(e->ctx_fd, &zero, e->percpu))
		return -errno;
	for (*sum = 0, i = 0; i < e->ncpus; i++)
		*sum += e->percpu[i].nonlinear;
	return 0;
}

/*
 * Run the filter in filter_progs on pk, as linear bytes out of wirelen.
 * Bytes past min(linear, length) are junk: a filter reading them shows.
 */
int fe_run_once(struct env *e, const struct packet *pk, __u32 linear, __u32 wirelen,
		__u32 *verdict, __u64 *delta)
{
	static struct fe_pkt v;
	__u64 args[2] = { 0, 0 }, before, after;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	__u32 zero = 0, real = linear < pk->len ? linear : pk->len, i;
	int err;

	memcpy(v.data, pk->data, real);
	for (i = real; i < FE_PKT_MAX; i++)
		v.data[i] = (__u8)fe_rnd();
	v.linear = linear;
	v.wirelen = wirelen;
	if (bpf_map_update_elem(e->pkt_fd, &zero, &v, BPF_ANY))
		return -errno;
	err = nonlinear(e, &before);
	if (!err)
		err = bpf_prog_test_run_opts(e->setup_fd, &opts);
	if (!err)
		err = nonlinear(e, &after);
	if (err)
		return err;
	e->runs++;
	*verdict = opts.retval;
	*delta = after - before;
	return 0;
}

int fe_set_filter(struct env *e, int fd)
{
	__u32 slot = WD_FILTER_PROG;

	return bpf_map_update_elem(e->progs_fd, &slot, &fd, BPF_ANY) ? -errno : 0;
}

/* The verifier's own statistics (BPF_LOG_STATS) of a tp_btf load. */
void fe_verifier_stats(struct env *e, const struct bpf_insn *insns, size_t n)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP,
		    .attach_btf_id = e->btf_id, .log_level = 4);
	char log[4096] = "", *line, *save = NULL;
	int fd;

	opts.log_buf = log;
	opts.log_size = sizeof(log);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "wd_filter", "Dual BSD/GPL", insns, n, &opts);
	if (fd >= 0)
		close(fd);
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("        verifier: %s\n", line);
}

int fe_setup(struct env *e)
{
	struct btf *vmlinux;
	int id;

	e->skel = filter_equal_bpf__open_and_load();
	if (!e->skel)
		return -errno;
	e->setup_fd = bpf_program__fd(e->skel->progs.setup);
	e->pkt_fd = bpf_map__fd(e->skel->maps.pkt);
	e->ctx_fd = bpf_map__fd(e->skel->maps.filter_ctx);
	e->progs_fd = bpf_map__fd(e->skel->maps.filter_progs);
	e->ncpus = libbpf_num_possible_cpus();
	if (e->ncpus <= 0)
		return -EINVAL;
	e->percpu = calloc((size_t)e->ncpus, sizeof(*e->percpu));
	/* tp_btf loads get maps of their own: a program array has one program type */
	e->tr_ctx_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "fe_tr_ctx", 4,
				      sizeof(struct wd_filter_ctx), 1, NULL);
	e->tr_progs_fd = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "fe_tr_progs", 4, 4, 2, NULL);
	if (!e->percpu || e->tr_ctx_fd < 0 || e->tr_progs_fd < 0)
		return -ENOMEM;
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return -errno;
	id = btf__find_by_name_kind(vmlinux, "btf_trace_kfree_skb", BTF_KIND_TYPEDEF);
	btf__free(vmlinux);
	if (id <= 0)
		return -ENOENT;
	e->btf_id = (__u32)id;
	return 0;
}

void fe_teardown(struct env *e)
{
	free(e->percpu);
	filter_equal_bpf__destroy(e->skel);
}
