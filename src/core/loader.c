// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Loading and attaching the BPF program of a session: the flavour this
 * kernel takes (tp_btf, raw_tp, or the program without kernel BTF), chosen
 * by probing the kernel, never by failing full loads one after another;
 * its read-only configuration, the translated pcap filter and the first
 * generation of the counting hash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/filter.h>

#include "cbpf_ebpf.h"
#include "core.h"
#include "duration.h"
#include "source_bpf.h"
#include "whydrop.skel.h"
#include "whydrop_nobtf.skel.h"

/* How the program reads the skb (src/bpf/flavour.h), best first. */
enum wd_flavour {
	WD_TP_BTF,		/* tp_btf: BTF pointers, direct loads */
	WD_RAW_TP,		/* raw_tp: everything by bpf_probe_read_kernel */
	WD_NO_BTF,		/* no kernel BTF: the tracepoint's arguments only */
};

/* What the probes found: the flavour to load, and why. */
struct wd_probe {
	enum wd_flavour flavour;
	bool direct_pkt;	/* tp_btf may load packet bytes directly */
	__u32 tp_btf_id;	/* btf_trace_kfree_skb: where a tp_btf filter attaches */
	char why[256];		/* said with -v, and when the load fails */
};

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
	bpf_link__destroy(s->tcp_link);
	s->tcp_link = NULL;
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
		     struct whydrop_bpf *skel, const struct wd_probe *p)
{
	bool btf = p->flavour == WD_TP_BTF, flows = wd_flows_wanted(o);
	int status;

	skel->rodata->filter_netns = s->netns.inode;
	skel->rodata->filter_netns_cookie = s->netns.cookie;
	skel->rodata->filter_ifindex = s->ifindex;
	/* --rate 0 is no limit, as tcpdump users expect; the kernel side's 0 is "no records". */
	if (details) {
		skel->rodata->detail_budget = o->rate ? o->rate : UINT32_MAX;
		skel->rodata->jiffies_hz = wd_kernel_hz();
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
	skel->rodata->direct_pkt = p->direct_pkt;
	/* --rules: NETFILTER_DROP split by nf_trace (source_nftrace.c) */
	if (o->rules && wd_reason_code(s->reasons, "NETFILTER_DROP",
				       (uint32_t *)&skel->rodata->nftrace_reason)) {
		fprintf(stderr, "whydrop: --rules: this kernel has no NETFILTER_DROP drop reason "
				"(5.19+)\n");
		return 2;
	}
	skel->rodata->count_by_socket = wd_group_by_socket(o->group_by);
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
	/*
	 * --tcp: drops per TCP flow, --group-by flow|src|dst: per IP flow
	 * (tcp_drops.h); without either, no program and no map
	 */
	skel->rodata->flows_all_ip = wd_group_by_flow(o->group_by);
	bpf_map__set_autocreate(skel->maps.flow_drops, flows);
	bpf_map__set_autocreate(skel->maps.flow_drops_ovf, flows);
	bpf_program__set_autoload(skel->progs.kfree_skb_tcp_btf, btf && flows);
	bpf_program__set_autoload(skel->progs.kfree_skb_tcp_raw, !btf && flows);
	bpf_program__set_autoload(skel->progs.kfree_skb_btf, btf && !o->rules);
	bpf_program__set_autoload(skel->progs.kfree_skb_raw, !btf && !o->rules);
	bpf_program__set_autoload(skel->progs.kfree_skb_rules_btf, btf && o->rules);
	bpf_program__set_autoload(skel->progs.kfree_skb_rules_raw, !btf && o->rules);
	bpf_program__set_autoload(skel->progs.kfree_skb_matched_btf, btf && s->filter_len);
	bpf_program__set_autoload(skel->progs.kfree_skb_matched_raw, !btf && s->filter_len);
	return 0;
}

/*
 * The pcap filter, translated from classic BPF into a program of its own
 * that the tracepoint program tail-calls; on a match it tail-calls the
 * counting program. Only with a filter: nothing of it loads otherwise.
 */
static int load_filter(struct wd_bpf *s, struct whydrop_bpf *skel, const struct wd_probe *p)
{
	int progs = bpf_map__fd(skel->maps.filter_progs), fd, matched, err;
	bool btf = p->flavour == WD_TP_BTF;
	struct bpf_insn *insns = NULL;
	char msg[512] = "";
	__u32 slot;
	size_t n;

	if (!s->filter_len)
		return 0;
	err = wd_cbpf_to_ebpf(s->filter, s->filter_len, bpf_map__fd(skel->maps.filter_ctx),
			      progs, &insns, &n, msg, sizeof(msg));
	fd = err ? err : wd_filter_prog_load(btf ? BPF_PROG_TYPE_TRACING :
					     BPF_PROG_TYPE_RAW_TRACEPOINT, p->tp_btf_id,
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

/* --tcp: the per-flow count of TCP drops, a program beside the drop program. */
static struct bpf_link *attach_tcp(struct whydrop_bpf *skel, bool btf)
{
	if (btf)
		return bpf_program__attach(skel->progs.kfree_skb_tcp_btf);
	return bpf_program__attach_raw_tracepoint(skel->progs.kfree_skb_tcp_raw, "kfree_skb");
}

/* Load and attach the CO-RE program in the flavour probed; 0, <0 errno, >0 exit status. */
static int load_attach(struct wd_bpf *s, const struct wd_opts *o, bool details,
		       const struct wd_probe *p)
{
	/* WHYDROP_BTF: relocate against other types (tests: a kernel before 5.17) */
	LIBBPF_OPTS(bpf_object_open_opts, open_opts,
		    .btf_custom_path = secure_getenv("WHYDROP_BTF"));
	struct whydrop_bpf *skel = whydrop_bpf__open_opts(&open_opts);
	bool btf = p->flavour == WD_TP_BTF;
	struct bpf_program *prog;
	struct bpf_link *link;
	int status;

	if (!skel)
		return -errno;
	status = configure(s, o, details, skel, p);
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
		status = load_filter(s, skel, p);
	if (status)
		goto fail_status;
	if (wd_flows_wanted(o) && !(s->tcp_link = attach_tcp(skel, btf)))
		goto fail;
	prog = o->rules ? (btf ? skel->progs.kfree_skb_rules_btf : skel->progs.kfree_skb_rules_raw)
			: (btf ? skel->progs.kfree_skb_btf : skel->progs.kfree_skb_raw);
	link = btf ? bpf_program__attach(prog)
		   : bpf_program__attach_raw_tracepoint(prog, "kfree_skb");
	if (!link) {
		bpf_link__destroy(s->tcp_link);
		s->tcp_link = NULL;
		goto fail;
	}
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
	s->flow_drops_fd = wd_flows_wanted(o) ? bpf_map__fd(skel->maps.flow_drops) : -1;
	s->flow_drops_ovf_fd = wd_flows_wanted(o) ? bpf_map__fd(skel->maps.flow_drops_ovf) : -1;
	return 0;
fail:
	status = errno ? -errno : -EINVAL;
fail_status:
	close_owned_fds(s);
	whydrop_bpf__destroy(skel);
	return status;
}

/* Without BTF only the tracepoint's arguments can be read, not the skb. */
static int nobtf_usable(const struct wd_opts *o, bool details)
{
	if (!details && !o->netns && !o->ifname && !o->filter && !o->stacks && !o->rules &&
	    !wd_flows_wanted(o))
		return 0;
	fprintf(stderr,
		"whydrop: this kernel has no BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF=y):\n"
		"         whydrop can only count drops by reason and location here (`whydrop count`,\n"
		"         `whydrop top`); --netns, -i, --stacks, --rules, --tcp, --group-by flow|src|dst,\n"
		"         filter expressions and per-packet records need BTF\n");
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

/* ---------------------------------------------------------------- probes */

#define INSN(c, d, s_, o, i)	((struct bpf_insn){ .code = (c), .dst_reg = (d), \
						    .src_reg = (s_), .off = (o), .imm = (i) })
#define LDX(size, d, s_, o)	INSN(BPF_LDX | BPF_MEM | (size), d, s_, o, 0)
#define MOV_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* The verifier's reason: its last line but the "processed N insns" summary. */
static void log_reason(char *log, char *out, size_t outlen)
{
	char *line, *save = NULL;
	const char *last = NULL;

	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "processed ", 10))
			last = line;
	if (last)
		snprintf(out, outlen, "%s", last);
}

/* Does the kernel load this tp_btf program on kfree_skb? Its answer in err if not. */
static bool tp_btf_loads(__u32 id, const struct bpf_insn *insns, size_t n,
			 char *err, size_t errlen)
{
	char log[1024] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP,
		    .attach_btf_id = id, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "wd_probe", "Dual BSD/GPL",
			       insns, n, &opts);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	snprintf(err, errlen, "%s", strerror(-fd));
	log_reason(log, err, errlen);
	return false;
}

/* The byte offset of a member of a struct in BTF, -1 if it has none. */
static int member_offset(const struct btf *btf, const char *type, const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_member *m = t ? btf_members(t) : NULL;

	for (int i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, m[i].name_off), member))
			return (int)(btf_member_bit_offset(t, i) / 8);
	return -1;
}

/*
 * May tp_btf load packet bytes directly, as ip_length() does with
 * direct_pkt: skb->head plus a bounded number, one byte read there.
 */
static bool probe_direct_pkt(const struct btf *btf, __u32 id)
{
	int head = member_offset(btf, "sk_buff", "head");
	int len = member_offset(btf, "sk_buff", "len");
	const struct bpf_insn insns[] = {
		LDX(BPF_DW, BPF_REG_6, BPF_REG_1, 0),		/* skb */
		LDX(BPF_DW, BPF_REG_2, BPF_REG_6, head),	/* skb->head */
		LDX(BPF_W, BPF_REG_3, BPF_REG_6, len),
		INSN(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_3, 0, 0, 0xffff),
		INSN(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_2, BPF_REG_3, 0, 0),
		LDX(BPF_B, BPF_REG_0, BPF_REG_2, 3),		/* a byte there */
		MOV_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	char err[128];

	if (head < 0 || len < 0)
		return false;
	return tp_btf_loads(id, insns, sizeof(insns) / sizeof(insns[0]), err, sizeof(err));
}

/*
 * tp_btf, where the kernel has BTF programs on tracepoints and kfree_skb's
 * (its btf_trace_kfree_skb typedef): a two-instruction program attached
 * there tells both. Else raw_tp.
 */
static void probe_tp_btf(struct wd_probe *p, bool filter)
{
	const struct bpf_insn ret0[] = { MOV_IMM(BPF_REG_0, 0), EXIT() };
	struct btf *btf = btf__load_vmlinux_btf();
	char err[160];
	int id;

	if (!btf) {
		/* nor can CO-RE relocate then: only the program without BTF loads */
		p->flavour = WD_NO_BTF;
		snprintf(p->why, sizeof(p->why), "no BTF: the kernel's BTF cannot be read (%s)",
			 strerror(errno));
		return;
	}
	p->flavour = WD_RAW_TP;
	id = btf__find_by_name_kind(btf, "btf_trace_kfree_skb", BTF_KIND_TYPEDEF);
	if (id <= 0) {
		snprintf(p->why, sizeof(p->why),
			 "raw_tp: the kernel's BTF has no btf_trace_kfree_skb (no tp_btf on it)");
	} else if (!tp_btf_loads(id, ret0, 2, err, sizeof(err))) {
		snprintf(p->why, sizeof(p->why), "raw_tp: a tp_btf program on kfree_skb "
			 "is refused (%s)", err);
	} else {
		p->flavour = WD_TP_BTF;
		p->tp_btf_id = id;
		/* only a filter expression reads packet bytes in the program */
		p->direct_pkt = filter && probe_direct_pkt(btf, id);
		snprintf(p->why, sizeof(p->why), "tp_btf: the kernel loads tp_btf programs on "
			 "kfree_skb%s", !filter ? "" : p->direct_pkt ?
			 ", with direct packet loads" : ", packet bytes by bpf_probe_read_kernel");
	}
	btf__free(btf);
}

/*
 * The flavour of this kernel. 0, or <0 when no flavour can load: no raw
 * tracepoint programs, or (with BTF) no BPF ring buffer. WHYDROP_ATTACH=
 * raw_tp|nobtf forces a flavour (tests).
 */
static int probe(struct wd_probe *p, bool filter)
{
	const char *forced = secure_getenv("WHYDROP_ATTACH");

	p->flavour = WD_NO_BTF;
	if (libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL) != 1) {
		snprintf(p->why, sizeof(p->why), "this kernel has no raw tracepoint programs");
		return -EOPNOTSUPP;
	}
	if (forced && !strcmp(forced, "nobtf")) {
		snprintf(p->why, sizeof(p->why), "no BTF: WHYDROP_ATTACH=nobtf");
		return 0;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(p->why, sizeof(p->why), "no BTF: no /sys/kernel/btf/vmlinux");
		return 0;
	}
	/* records: the ring buffer (5.8), newer than every other helper used */
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_ringbuf_reserve,
				    NULL) != 1) {
		snprintf(p->why, sizeof(p->why), "this kernel has no BPF ring buffer "
			 "(bpf_ringbuf_reserve, 5.8)");
		return -EOPNOTSUPP;
	}
	if (forced && !strcmp(forced, "raw_tp")) {
		p->flavour = WD_RAW_TP;
		snprintf(p->why, sizeof(p->why), "raw_tp: WHYDROP_ATTACH=raw_tp");
		return 0;
	}
	probe_tp_btf(p, filter);
	return 0;
}

int wd_loader_attach(struct wd_bpf *s, const struct wd_opts *o, bool details)
{
	const char *forced = secure_getenv("WHYDROP_ATTACH");
	struct wd_probe p = { 0 };
	int status;

	if (forced && !strcmp(forced, "fail"))
		return -EPERM;	/* tests: the fallback to drop_monitor */
	status = probe(&p, s->filter_len > 0);
	if (o->verbose)
		fprintf(stderr, "whydrop: flavour %s\n", p.why);
	/* first in the log: a failure says which flavour failed and why it was the one */
	wd_libbpf_log_clear();
	wd_libbpf_log_add("whydrop: flavour %s\n", p.why);
	if (status)
		return status;
	if (p.flavour == WD_NO_BTF)
		return load_attach_nobtf(s, o, details);
	return load_attach(s, o, details, &p);
}
