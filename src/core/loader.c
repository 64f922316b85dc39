// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Loading and attaching the BPF program of a session: the skeleton
 * flavours (tp_btf with direct packet loads, tp_btf, raw_tp, and the
 * program without kernel BTF), their read-only configuration, the
 * translated pcap filter and the first generation of the counting hash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cbpf_ebpf.h"
#include "core.h"
#include "source_bpf.h"
#include "whydrop.skel.h"
#include "whydrop_nobtf.skel.h"

/* How the program reads the skb, best first. */
enum wd_flavour {
	WD_TP_BTF_DIRECT,	/* tp_btf, packet bytes by direct loads (newer kernels) */
	WD_TP_BTF,		/* tp_btf, packet bytes by bpf_probe_read_kernel */
	WD_RAW_TP,		/* raw_tp, everything by bpf_probe_read_kernel */
};

/* The kernel's HZ: the coarse clocks advance once a tick. 0 if implausible. */
static __u32 kernel_hz(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) || res.tv_sec || !res.tv_nsec ||
	    1000000000L % res.tv_nsec)
		return 0;
	return (__u32)(1000000000L / res.tv_nsec);
}

/* What the session created beside the skeleton: the counting maps, the filter. */
static void close_owned_fds(struct wd_bpf *s)
{
	wd_gen_close(&s->counts);
	wd_gen_close(&s->socks);
	if (s->filter_fd >= 0)
		close(s->filter_fd);
	s->filter_fd = -1;
}

void wd_loader_free(struct wd_bpf *s)
{
	bpf_link__destroy(s->link);
	s->link = NULL;
	whydrop_bpf__destroy(s->skel);
	s->skel = NULL;
	whydrop_nobtf_bpf__destroy(s->nobtf);
	s->nobtf = NULL;
	close_owned_fds(s);
}

/*
 * record -s: records say when the packet had paged data; beyond
 * WD_HDR_BYTES, records of up to that many packet bytes, assembled in a
 * slot per CPU, and a ring buffer for them (whydrop.bpf.c).
 */
static int configure_record_bytes(struct whydrop_bpf *skel, __u32 record_bytes)
{
	int ncpu = libbpf_num_possible_cpus();

	skel->rodata->record_bytes = record_bytes < WD_COPY_MAX ? record_bytes : WD_COPY_MAX;
	if (record_bytes <= WD_HDR_BYTES)
		return 0;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	bpf_map__set_max_entries(skel->maps.long_events, (__u32)ncpu);
	bpf_map__set_max_entries(skel->maps.events, WD_RING_BYTES_LONG);
	return 0;
}

static int configure(struct wd_bpf *s, const struct wd_opts *o, bool details,
		     struct whydrop_bpf *skel, enum wd_flavour fl)
{
	bool btf = fl != WD_RAW_TP;
	int status;

	skel->rodata->filter_netns = s->netns.inode;
	skel->rodata->filter_netns_cookie = s->netns.cookie;
	skel->rodata->filter_ifindex = s->ifindex;
	/* --rate 0 is no limit, as tcpdump users expect; the kernel side's 0 is "no records". */
	if (details) {
		skel->rodata->detail_budget = o->rate ? o->rate : UINT32_MAX;
		skel->rodata->jiffies_hz = kernel_hz();
		status = configure_record_bytes(skel, o->record_bytes);
		if (status)
			return status;
	}
	if (o->reasons) {
		status = wd_reason_bits(s->reasons, o->reasons, skel->rodata->reason_bits,
					&skel->rodata->filter_reasons);
		if (status)
			return status;
	}
	skel->rodata->has_filter = s->filter_len > 0;
	skel->rodata->direct_pkt = fl == WD_TP_BTF_DIRECT;
	skel->rodata->count_by_socket = o->group_by == WD_GROUP_CGROUP ||
					o->group_by == WD_GROUP_PROCESS;
	s->map_size = o->map_size;
	/* Without --stacks the stack maps take no memory worth naming. */
	skel->rodata->want_stacks = o->stacks;
	if (!o->stacks) {
		bpf_map__set_max_entries(skel->maps.stackmap, 1);
		bpf_map__set_max_entries(skel->maps.stack_counts, 1);
		bpf_map__set_max_entries(skel->maps.stack_overflow, 1);
	} else {
		bpf_map__set_max_entries(skel->maps.stackmap, o->stack_map_size);
		bpf_map__set_max_entries(skel->maps.stack_counts, o->map_size);
	}
	bpf_program__set_autoload(skel->progs.kfree_skb_btf, btf);
	bpf_program__set_autoload(skel->progs.kfree_skb_raw, !btf);
	bpf_program__set_autoload(skel->progs.kfree_skb_matched_btf, btf && s->filter_len);
	bpf_program__set_autoload(skel->progs.kfree_skb_matched_raw, !btf && s->filter_len);
	return 0;
}

/*
 * The BTF id of the tracepoint, as the loaded program has it (5.19+), else
 * from the kernel's BTF (which costs parsing it once more).
 */
static __u32 tracepoint_btf_id(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int id;

	if (!bpf_obj_get_info_by_fd(prog_fd, &info, &len) && info.attach_btf_id)
		return info.attach_btf_id;
	id = libbpf_find_vmlinux_btf_id("kfree_skb", BPF_TRACE_RAW_TP);
	return id > 0 ? (__u32)id : 0;
}

/*
 * The pcap filter, translated from classic BPF into a program of its own
 * that the tracepoint program tail-calls; on a match it tail-calls the
 * counting program. Only with a filter: nothing of it loads otherwise.
 */
static int load_filter(struct wd_bpf *s, struct whydrop_bpf *skel, bool btf)
{
	int progs = bpf_map__fd(skel->maps.filter_progs), fd, matched, err;
	struct bpf_insn *insns = NULL;
	char msg[512] = "";
	__u32 slot, attach_id = 0;
	size_t n;

	if (!s->filter_len)
		return 0;
	err = wd_cbpf_to_ebpf(s->filter, s->filter_len, bpf_map__fd(skel->maps.filter_ctx),
			      progs, &insns, &n, msg, sizeof(msg));
	if (!err && btf) {
		attach_id = tracepoint_btf_id(bpf_program__fd(skel->progs.kfree_skb_btf));
		err = attach_id ? 0 : -ENOENT;
	}
	fd = err ? err : wd_filter_prog_load(btf ? BPF_PROG_TYPE_TRACING :
					     BPF_PROG_TYPE_RAW_TRACEPOINT, attach_id,
					     insns, n, msg, sizeof(msg));
	free(insns);
	if (fd < 0) {
		wd_libbpf_log_add("the filter expression's program: %s\n", msg);
		return fd;
	}
	s->filter_fd = fd;
	matched = bpf_program__fd(btf ? skel->progs.kfree_skb_matched_btf :
				  skel->progs.kfree_skb_matched_raw);
	slot = WD_FILTER_PROG;
	if (bpf_map_update_elem(progs, &slot, &fd, BPF_ANY))
		return -errno;
	slot = WD_FILTER_MATCHED;
	if (bpf_map_update_elem(progs, &slot, &matched, BPF_ANY))
		return -errno;
	return 0;
}

/* Load and attach one flavour; 0 on success, <0 to try the next, >0 exit status. */
static int load_attach(struct wd_bpf *s, const struct wd_opts *o, bool details,
		       enum wd_flavour fl)
{
	/* WHYDROP_BTF: relocate against other types (tests: a kernel before 5.17) */
	LIBBPF_OPTS(bpf_object_open_opts, open_opts,
		    .btf_custom_path = secure_getenv("WHYDROP_BTF"));
	struct whydrop_bpf *skel = whydrop_bpf__open_opts(&open_opts);
	bool btf = fl != WD_RAW_TP;
	struct bpf_program *prog;
	struct bpf_link *link;
	int status;

	if (!skel)
		return -errno;
	status = configure(s, o, details, skel, fl);
	if (status) {
		whydrop_bpf__destroy(skel);
		return status;
	}
	if (whydrop_bpf__load(skel))
		goto fail;
	status = wd_counts_setup(s, bpf_map__fd(skel->maps.counts));
	if (!status && skel->rodata->count_by_socket)
		status = wd_socks_setup(s, bpf_map__fd(skel->maps.by_socket));
	if (!status)
		status = load_filter(s, skel, btf);
	if (status)
		goto fail_status;
	prog = btf ? skel->progs.kfree_skb_btf : skel->progs.kfree_skb_raw;
	link = btf ? bpf_program__attach(prog)
		   : bpf_program__attach_raw_tracepoint(prog, "kfree_skb");
	if (!link)
		goto fail;
	s->skel = skel;
	s->link = link;
	s->overflow_fd = bpf_map__fd(skel->maps.overflow);
	s->runs_fd = bpf_map__fd(skel->maps.runs);
	s->stats_fd = bpf_map__fd(skel->maps.stats);
	s->filter_ctx_fd = s->filter_len ? bpf_map__fd(skel->maps.filter_ctx) : -1;
	s->prog_fd = bpf_program__fd(prog);
	s->stacks = o->stacks;
	s->stackmap_fd = bpf_map__fd(skel->maps.stackmap);
	s->stack_counts_fd = bpf_map__fd(skel->maps.stack_counts);
	s->stack_overflow_fd = bpf_map__fd(skel->maps.stack_overflow);
	s->attach_mode = btf ? "tp_btf" : "raw_tp";
	return 0;
fail:
	status = errno ? -errno : -EINVAL;
fail_status:
	close_owned_fds(s);
	whydrop_bpf__destroy(skel);
	return status;
}

static bool kernel_has_btf(void)
{
	const char *forced = secure_getenv("WHYDROP_ATTACH");

	if (forced && !strcmp(forced, "nobtf"))
		return false;
	return !access("/sys/kernel/btf/vmlinux", R_OK);
}

/* Without BTF only the tracepoint's arguments can be read, not the skb. */
static int nobtf_usable(const struct wd_opts *o, bool details)
{
	if (!details && !o->netns && !o->ifname && !o->filter && !o->stacks)
		return 0;
	fprintf(stderr,
		"whydrop: this kernel has no BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF=y):\n"
		"         whydrop can only count drops by reason and location here (`whydrop count`,\n"
		"         `whydrop top`); --netns, -i, --stacks, filter expressions and per-packet\n"
		"         records need BTF\n");
	return 1;
}

static int load_attach_nobtf(struct wd_bpf *s, const struct wd_opts *o, bool details)
{
	struct whydrop_nobtf_bpf *skel;
	int status = nobtf_usable(o, details);

	if (status)
		return status;
	skel = whydrop_nobtf_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->has_reason = s->reasons->has_reason;
	if (o->reasons)
		status = wd_reason_bits(s->reasons, o->reasons, skel->rodata->reason_bits,
					&skel->rodata->filter_reasons);
	if (status)
		goto out;
	s->map_size = o->map_size;
	status = -EINVAL;
	if (whydrop_nobtf_bpf__load(skel))
		goto out;
	if (wd_counts_setup(s, bpf_map__fd(skel->maps.counts)))
		goto out;
	s->link = bpf_program__attach_raw_tracepoint(skel->progs.kfree_skb_nobtf, "kfree_skb");
	if (!s->link)
		goto out;
	s->nobtf = skel;
	s->overflow_fd = bpf_map__fd(skel->maps.overflow);
	s->runs_fd = bpf_map__fd(skel->maps.runs);
	s->stats_fd = bpf_map__fd(skel->maps.stats);
	s->prog_fd = bpf_program__fd(skel->progs.kfree_skb_nobtf);
	s->attach_mode = "raw_tp, no BTF: by reason and location only";
	return 0;
out:
	if (status < 0 && errno)
		status = -errno;
	close_owned_fds(s);
	whydrop_nobtf_bpf__destroy(skel);
	return status;
}

int wd_loader_attach(struct wd_bpf *s, const struct wd_opts *o, bool details)
{
	const char *forced = secure_getenv("WHYDROP_ATTACH");
	int status = -1;

	if (forced && !strcmp(forced, "fail"))
		return -EPERM;	/* tests: the fallback to drop_monitor */
	if (!kernel_has_btf())
		return load_attach_nobtf(s, o, details);
	if (!forced || strcmp(forced, "raw_tp")) {
		status = load_attach(s, o, details, WD_TP_BTF_DIRECT);
		if (status < 0) {
			wd_libbpf_log_clear();
			status = load_attach(s, o, details, WD_TP_BTF);
		}
	}
	if (status < 0) {
		wd_libbpf_log_clear();
		status = load_attach(s, o, details, WD_RAW_TP);
	}
	return status;
}
