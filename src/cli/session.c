// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cbpf_ebpf.h"
#include "pcapfilter.h"
#include "privileges.h"
#include "session.h"
#include "source_dropmon.h"
#include "whydrop.skel.h"
#include "whydrop_nobtf.skel.h"

#define CAP_PERFMON_BIT	38
#define CAP_BPF_BIT	39

volatile sig_atomic_t wd_stop;

static bool verbose;
static char libbpf_log[4096];

static void on_signal(int sig)
{
	(void)sig;
	wd_stop = 1;
}

void wd_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

double wd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Keep libbpf's warnings for the error message instead of spraying them. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t used = strlen(libbpf_log);

	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	if (verbose)
		return vfprintf(stderr, fmt, ap);
	if (used < sizeof(libbpf_log) - 1)
		vsnprintf(libbpf_log + used, sizeof(libbpf_log) - used, fmt, ap);
	return 0;
}

static bool has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1u << (cap % 32));
}

/* No CAP_BPF with CAP_PERFMON, nor CAP_SYS_ADMIN: --source auto tries drop_monitor. */
static bool bpf_refused;

/* dm_lacks: what drop_monitor, tried instead, refused to work without. */
static void say_needs_root(const char *dm_lacks)
{
	fprintf(stderr,
		"whydrop: tracing drops needs root, or the capabilities CAP_BPF and CAP_PERFMON\n");
	if (dm_lacks)
		fprintf(stderr, "         (drop_monitor, which this kernel has, needs no BPF but "
				"CAP_NET_ADMIN%s; this process lacks %s)\n",
			strcmp(dm_lacks, "CAP_SYS_ADMIN") ? "" :
			", and CAP_SYS_ADMIN to join its \"events\" group on this kernel", dm_lacks);
	fprintf(stderr, "         (try: sudo whydrop ...; `whydrop reasons` and `whydrop explain` "
			"work without)\n");
}

/*
 * CAP_BPF + CAP_PERFMON (5.8+), or CAP_SYS_ADMIN on any kernel. Without
 * them --source auto goes on where drop_monitor may do, with CAP_NET_ADMIN
 * (its configuration needs it): fall_back() then tries it and says why BPF
 * is not used, or that neither can be. Joining drop_monitor's group needs
 * CAP_SYS_ADMIN since 6.6 (and in stable updates: Debian's 6.1.192), which
 * allows BPF too: there, that comes to pass only where a policy forbids BPF.
 */
static int check_privileges(enum wd_source source)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	bpf_refused = false;
	if (syscall(SYS_capget, &h, d))
		return 0;	/* cannot tell: let the kernel decide */
	if (has_cap(d, CAP_SYS_ADMIN))
		return 0;
	if (has_cap(d, CAP_BPF_BIT) && has_cap(d, CAP_PERFMON_BIT))
		return 0;
	if (source == WD_SOURCE_AUTO && has_cap(d, CAP_NET_ADMIN)) {
		bpf_refused = true;
		return 0;
	}
	say_needs_root(NULL);
	return 1;
}

static uint64_t mono_to_real(void)
{
	struct timespec m, r;

	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &r);
	return (uint64_t)(r.tv_sec - m.tv_sec) * 1000000000ULL + (uint64_t)r.tv_nsec -
	       (uint64_t)m.tv_nsec;
}

/* Set the -r bitmap in either program's read-only data. */
static int set_reason_filter(struct wd_session *s, const char *list, volatile __u64 *bits,
			     volatile bool *enabled)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int status = 0;

	if (!copy)
		return 1;
	if (!s->reasons.has_reason) {
		fprintf(stderr, "whydrop: this kernel's skb:kfree_skb has no drop reason "
				"(before 5.17), so -r cannot select any: leave it out, "
				"drops are counted by location\n");
		free(copy);
		return WD_EXIT_USAGE;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct wd_reason *r = wd_reason_by_word(&s->reasons, tok);
		const char *hint;

		if (r && r->code < WD_REASON_BITMAP_WORDS * 64) {
			bits[r->code / 64] |= 1ULL << (r->code % 64);
			continue;
		}
		hint = wd_reason_suggest(&s->reasons, tok);
		fprintf(stderr, "whydrop: unknown drop reason '%s' on this kernel", tok);
		if (hint)
			fprintf(stderr, "; did you mean %s?", hint);
		fprintf(stderr, " (`whydrop reasons` lists them)\n");
		status = WD_EXIT_USAGE;
		break;
	}
	*enabled = true;
	free(copy);
	return status;
}

static int resolve_filters(struct wd_session *s, const struct wd_opts *o)
{
	char err[1024];

	if (o->filter && wd_filter_compile(o->filter, &s->filter, &s->filter_len, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return WD_EXIT_USAGE;
	}

	if (o->netns && wd_netns_resolve(o->netns, s->netns_path, sizeof(s->netns_path),
					 &s->netns_ino, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return WD_EXIT_USAGE;
	}
	if (o->ifname && wd_ifindex_in(o->netns ? s->netns_path : NULL, o->ifname, &s->ifindex)) {
		fprintf(stderr, "whydrop: no interface '%s' in %s%s; `ip%s%s link` lists them\n",
			o->ifname, o->netns ? "network namespace " : "this network namespace",
			o->netns ? o->netns : "", o->netns ? " -n " : "", o->netns ? o->netns : "");
		return WD_EXIT_USAGE;
	}
	return 0;
}

/* The kernel's HZ: the coarse clocks advance once a tick. 0 if implausible. */
static __u32 kernel_hz(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) || res.tv_sec || !res.tv_nsec ||
	    1000000000L % res.tv_nsec)
		return 0;
	return (__u32)(1000000000L / res.tv_nsec);
}

/* What the session created beside the skeleton: a counting map, the filter. */
static void close_owned_fds(struct wd_session *s)
{
	if (s->counts_fd >= 0)
		close(s->counts_fd);
	if (s->filter_fd >= 0)
		close(s->filter_fd);
	s->counts_fd = s->filter_fd = -1;
}

__u32 wd_record_bytes;

/*
 * record -s: records say when the packet had paged data; beyond
 * WD_HDR_BYTES, records of up to that many packet bytes, assembled in a
 * slot per CPU, and a ring buffer for them (whydrop.bpf.c).
 */
static int configure_record_bytes(struct whydrop_bpf *skel)
{
	int ncpu = libbpf_num_possible_cpus();

	skel->rodata->record_bytes = wd_record_bytes < WD_COPY_MAX ? wd_record_bytes :
				     WD_COPY_MAX;
	if (wd_record_bytes <= WD_HDR_BYTES)
		return 0;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	bpf_map__set_max_entries(skel->maps.long_events, (__u32)ncpu);
	bpf_map__set_max_entries(skel->maps.events, WD_RING_BYTES_LONG);
	return 0;
}

static int configure(struct wd_session *s, const struct wd_opts *o, bool details,
		     struct whydrop_bpf *skel, enum wd_flavour fl)
{
	bool btf = fl != WD_RAW_TP;
	int status;

	skel->rodata->filter_netns = s->netns_ino;
	skel->rodata->filter_ifindex = s->ifindex;
	/* --rate 0 is no limit, as tcpdump users expect; the kernel side's 0 is "no records". */
	if (details) {
		skel->rodata->detail_budget = o->rate ? o->rate : UINT32_MAX;
		skel->rodata->jiffies_hz = kernel_hz();
		status = configure_record_bytes(skel);
		if (status)
			return status;
	}
	if (o->reasons) {
		status = set_reason_filter(s, o->reasons, skel->rodata->reason_bits,
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
static int load_filter(struct wd_session *s, struct whydrop_bpf *skel, bool btf)
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
		snprintf(libbpf_log + strlen(libbpf_log), sizeof(libbpf_log) - strlen(libbpf_log),
			 "the filter expression's program: %s\n", msg);
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

/* The first generation of the counting hash (src/cli/counts.c swaps them). */
static int first_counts(struct wd_session *s, struct whydrop_bpf *skel)
{
	__u32 zero = 0;

	s->counts_outer_fd = bpf_map__fd(skel->maps.counts);
	s->counts_fd = wd_counts_map_create(s);
	if (s->counts_fd < 0)
		return s->counts_fd;
	if (bpf_map_update_elem(s->counts_outer_fd, &zero, &s->counts_fd, BPF_ANY))
		return -errno;
	return 0;
}

/* Load and attach one flavour; 0 on success, <0 to try the next, >0 exit status. */
static int load_attach(struct wd_session *s, const struct wd_opts *o, bool details,
		       enum wd_flavour fl)
{
	/* WHYDROP_BTF: relocate against other types (tests: a kernel before 5.17) */
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .btf_custom_path = getenv("WHYDROP_BTF"));
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
	status = first_counts(s, skel);
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
	s->by_socket_fd = bpf_map__fd(skel->maps.by_socket);
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
	const char *forced = getenv("WHYDROP_ATTACH");

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

static int load_attach_nobtf(struct wd_session *s, const struct wd_opts *o, bool details)
{
	struct whydrop_nobtf_bpf *skel;
	int status = nobtf_usable(o, details);

	if (status)
		return status;
	skel = whydrop_nobtf_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->has_reason = s->reasons.has_reason;
	if (o->reasons)
		status = set_reason_filter(s, o->reasons, skel->rodata->reason_bits,
					   &skel->rodata->filter_reasons);
	if (status)
		goto out;
	s->map_size = o->map_size;
	status = -EINVAL;
	if (whydrop_nobtf_bpf__load(skel))
		goto out;
	s->counts_outer_fd = bpf_map__fd(skel->maps.counts);
	s->counts_fd = wd_counts_map_create(s);
	if (s->counts_fd < 0 || bpf_map_update_elem(s->counts_outer_fd, &(__u32){ 0 },
						     &s->counts_fd, BPF_ANY))
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

/*
 * tp_btf with direct packet loads (kernels that allow them), tp_btf, raw_tp
 * where it cannot attach, arguments only without BTF. Which loads is tried,
 * not guessed from the kernel's version.
 */
static int attach_best(struct wd_session *s, const struct wd_opts *o, bool details)
{
	const char *forced = getenv("WHYDROP_ATTACH");
	int status = -1;

	if (forced && !strcmp(forced, "fail"))
		return -EPERM;	/* tests: the fallback to drop_monitor */
	if (!kernel_has_btf())
		return load_attach_nobtf(s, o, details);
	if (!forced || strcmp(forced, "raw_tp")) {
		status = load_attach(s, o, details, WD_TP_BTF_DIRECT);
		if (status < 0) {
			libbpf_log[0] = '\0';
			status = load_attach(s, o, details, WD_TP_BTF);
		}
	}
	if (status < 0) {
		libbpf_log[0] = '\0';
		status = load_attach(s, o, details, WD_RAW_TP);
	}
	return status;
}

static int on_ring(void *ctx, void *data, size_t len)
{
	struct wd_session *s = ctx;
	const struct wd_event *ev = data;
	struct wd_event cut;

	if (len < sizeof(*ev) || !s->on_event)
		return 0;
	/* Packet bytes past hdr[] are read only as far as the record holds them. */
	if (WD_EVENT_BYTES(ev->caplen) > len) {
		memcpy(&cut, ev, sizeof(cut));
		cut.caplen = WD_HDR_BYTES;
		ev = &cut;
	}
	s->on_event(s->event_ctx, ev);
	return 0;
}

static void explain_load_failure(int err)
{
	fprintf(stderr, "whydrop: cannot load the BPF program on skb:kfree_skb: %s\n%s",
		strerror(-err), libbpf_log);
}

static int load_names(struct wd_session *s)
{
	char err[512];

	if (wd_reasons_load(&s->reasons, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return 1;
	}
	if (!s->reasons.has_reason)
		fprintf(stderr, "whydrop: this kernel's skb:kfree_skb has no drop reason (before 5.17): "
				"counting by drop location only\n");
	return 0;
}

/* After attaching: symbols are only needed to print, not to count. */
static int load_symbols(struct wd_session *s)
{
	int e = wd_ksyms_load(&s->ksyms, NULL);

	if (e) {
		fprintf(stderr, "whydrop: cannot read /proc/kallsyms: %s\n", strerror(-e));
		return 1;
	}
	if (!s->ksyms.n)
		fprintf(stderr, "whydrop: /proc/kallsyms hides kernel addresses from this process "
				"(needs CAP_SYSLOG, or kernel.kptr_restrict=0 with "
				"kernel.perf_event_paranoid<=1): locations are shown as addresses\n");
	return 0;
}

/* drop_monitor instead of BPF; -r is checked before anything starts. */
static int open_dropmon(struct wd_session *s, const struct wd_opts *o, bool details, bool quiet)
{
	__u64 bits[WD_REASON_BITMAP_WORDS] = { 0 };
	bool enabled = false;
	int status = 0;

	if (o->reasons && !o->dropmon_summary)
		status = set_reason_filter(s, o->reasons, bits, &enabled);
	if (!status)
		status = wd_dm_source_open(s, o, details, quiet);
	if (status)
		return status;
	memcpy(s->dm->ev.reason_bits, bits, sizeof(bits));
	s->dm->ev.filter_reasons = enabled;
	return 0;
}

/*
 * --source auto: where BPF cannot load (or may not: bpf_refused),
 * drop_monitor if this kernel has it and lets this process use it, said
 * once on stderr; else why neither can be.
 */
static int fall_back(struct wd_session *s, const struct wd_opts *o, bool details, int err)
{
	int status = open_dropmon(s, o, details, true);
	const char *lacks = status < 0 ? wd_dm_source_lacks() : NULL;

	if (!status && bpf_refused)
		fprintf(stderr, "whydrop: BPF is not allowed to this process (no CAP_BPF with "
				"CAP_PERFMON, nor CAP_SYS_ADMIN): reading drop_monitor instead "
				"(--source dropmon)\n");
	else if (!status)
		fprintf(stderr, "whydrop: cannot load the BPF program on skb:kfree_skb (%s): "
				"reading drop_monitor instead (--source dropmon)\n", strerror(-err));
	if (!status)
		return 0;
	if (bpf_refused) {
		say_needs_root(lacks);
		return status > 0 ? status : 1;
	}
	if (lacks)
		fprintf(stderr, "whydrop: drop_monitor could count drops without BPF, but needs "
				"%s too\n", lacks);
	return err;
}

int wd_session_open(struct wd_session *s, const struct wd_opts *o, bool details,
		    wd_event_fn fn, void *ctx)
{
	struct utsname u;
	double t0 = wd_now();
	int status;

	memset(s, 0, sizeof(*s));
	s->by_socket_fd = s->counts_fd = s->filter_fd = s->filter_ctx_fd = -1;
	verbose = o->verbose;
	libbpf_set_print(libbpf_print);
	s->on_event = fn;
	s->event_ctx = ctx;
	s->details = details;
	if (!uname(&u))
		snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	status = o->source == WD_SOURCE_DROPMON ? 0 : check_privileges(o->source);
	if (!status)
		status = load_names(s);
	if (!status)
		status = resolve_filters(s, o);
	if (status)
		goto fail;
	/* WHYDROP_ATTACH=raw_tp|nobtf|fail forces a fallback, for tests. */
	if (o->source == WD_SOURCE_DROPMON)
		status = open_dropmon(s, o, details, false);
	else
		status = attach_best(s, o, details);
	if (status < 0 && o->source == WD_SOURCE_AUTO)
		status = fall_back(s, o, details, status);
	if (status) {
		if (status < 0)
			explain_load_failure(status);
		status = status < 0 ? 1 : status;
		goto fail;
	}
	if (details && s->skel) {
		s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.events), on_ring, s, NULL);
		if (!s->rb) {
			fprintf(stderr, "whydrop: cannot open the ring buffer: %s\n", strerror(errno));
			status = 1;
			goto fail;
		}
	}
	s->mono_to_real_ns = mono_to_real();
	s->t_attached = wd_now();
	s->attach_ms = (s->t_attached - t0) * 1000;
	fprintf(stderr, "whydrop: attached to %s (%s) in %.1f ms\n",
		s->dm ? "drop_monitor" : "skb:kfree_skb", s->attach_mode, s->attach_ms);
	status = load_symbols(s);
	if (status)
		goto fail;
	/* Before privileges go: /proc/PID/fd of every user is readable now, */
	if (details || o->group_by || o->netns_names) {
		wd_who_init(&s->who, o->processes);
		/* --netns: that namespace is called as the user gave it */
		wd_who_netns_given(&s->who, s->netns_ino, o->netns);
	}
	/* and namespaces can be entered to name their interfaces later. */
	if (s->skel && (details || o->group_by == WD_GROUP_INTERFACE))
		wd_ifnames_open(&s->ifnames, o->netns ? s->netns_path : NULL);
	return 0;
fail:
	wd_session_close(s);
	return status;
}

void wd_session_close(struct wd_session *s)
{
	wd_dm_source_close(s);
	ring_buffer__free(s->rb);
	s->rb = NULL;
	bpf_link__destroy(s->link);
	s->link = NULL;
	whydrop_bpf__destroy(s->skel);
	s->skel = NULL;
	whydrop_nobtf_bpf__destroy(s->nobtf);
	s->nobtf = NULL;
	close_owned_fds(s);
	wd_counts_free(s);
	wd_reasons_free(&s->reasons);
	wd_ksyms_free(&s->ksyms);
	wd_ifnames_free(&s->ifnames);
	wd_stack_free(&s->ev_stack);
	wd_who_free(&s->who);
	free(s->filter);
	s->filter = NULL;
}

/* On stderr, once: what drop_monitor could not deliver or say. */
static void say_dropmon_losses(struct wd_session *s)
{
	struct wd_dm_losses l;

	wd_dm_source_losses(s, &l);
	fprintf(stderr, "whydrop: drop_monitor: %" PRIu64 " drops lost in its per-CPU queue, "
			"socket overflowed %" PRIu64 " times%s; network namespaces unknown%s\n",
		l.queue_dropped + l.hw_queue_dropped, l.overruns,
		l.summary_full ? ", summaries full (locations lost)" : "",
		l.queue_dropped || l.hw_queue_dropped || l.overruns || l.summary_full ?
		": counts are lower bounds" : "");
}

void wd_session_detach(struct wd_session *s)
{
	if (s->dm) {
		wd_dm_source_detach(s);
		say_dropmon_losses(s);
		return;
	}
	bpf_link__destroy(s->link);
	s->link = NULL;
	/* Let runs already inside the program finish before the final read. */
	nanosleep(&(struct timespec){ 0, 20 * 1000000L }, NULL);
	if (s->rb)
		ring_buffer__consume(s->rb);
}

#define PROC_SCAN_CAPS	(WD_CAP(WD_CAP_DAC_READ_SEARCH) | WD_CAP(WD_CAP_SYS_PTRACE))

/* -p: like ss -p, read every process's socket links in /proc, now and then */
static void around_proc_scan(bool begin)
{
	if (!begin)
		wd_privileges_lower();
	else if (wd_privileges_raise(PROC_SCAN_CAPS))
		perror("whydrop: cannot raise CAP_DAC_READ_SEARCH to name processes");
}

int wd_session_drop_privileges(struct wd_session *s)
{
	uint64_t keep = 0;
	char caps[64];
	bool kept_bpf;

	/* Kept permitted, not in effect: raised only around their work. */
	if (s->dm)
		keep |= WD_CAP(WD_CAP_NET_ADMIN);	/* drop_monitor's STOP on exit */
	if (s->who.processes)
		keep |= PROC_SCAN_CAPS;
	if (wd_privileges_reduce("whydrop", keep, s->dm ? -1 : s->stats_fd, &kept_bpf))
		return 1;
	if (s->who.processes)
		s->who.owners.around_scan = around_proc_scan;
	if (verbose || kept_bpf)
		fprintf(stderr, "whydrop: attached; going on with %s%s\n",
			wd_privileges_describe(caps, sizeof(caps)),
			kept_bpf ? " (this kernel needs CAP_BPF to read BPF maps)" : "");
	return 0;
}

bool wd_session_poll(struct wd_session *s, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	if (s->dm)
		return wd_dm_source_poll(s, ms);
	if (wd_stop)
		return false;
	if (s->rb) {
		/* Records do not wake us one by one: take what waits after the poll. */
		int err = ring_buffer__poll(s->rb, ms);

		if (err >= 0 || err == -EINTR)
			err = ring_buffer__consume(s->rb);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "whydrop: reading records failed: %s\n", strerror(-err));
			wd_stop = 1;
		}
	} else {
		nanosleep(&ts, NULL);
	}
	return !wd_stop;
}

/*
 * What the program does not count itself, to keep a storm cheap: drops over
 * --rate are those counted minus those recorded or lost to a full ring
 * (0 while a live read of the counts lags the records), and the filter's
 * drops left unmatched for want of paged data, from its per-CPU state.
 */
static void derive_stats(struct wd_session *s, struct wd_stats *st)
{
	uint64_t done = st->v[WD_STAT_EMITTED] + st->v[WD_STAT_RING_FULL];
	int ncpu = libbpf_num_possible_cpus();
	struct wd_filter_ctx *fc;
	__u32 zero = 0;

	if (s->details)
		st->v[WD_STAT_RATE_LIMITED] = st->seen > done ? st->seen - done : 0;
	if (s->filter_ctx_fd < 0 || ncpu <= 0)
		return;
	fc = calloc((size_t)ncpu, sizeof(*fc));
	if (fc && !bpf_map_lookup_elem(s->filter_ctx_fd, &zero, fc))
		for (int c = 0; c < ncpu; c++)
			st->filter_nonlinear += fc[c].nonlinear;
	free(fc);
}

int wd_session_stats_of(struct wd_session *s, struct wd_stats *st,
			const struct wd_key_total *k, size_t n)
{
	int fd = s->stats_fd, ncpu = libbpf_num_possible_cpus();
	uint64_t *vals = calloc((size_t)ncpu, sizeof(*vals));
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (s->dm) {
		free(vals);
		return wd_dm_source_stats(s, st);
	}
	if (!vals)
		return -ENOMEM;
	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < n; i++)
		st->seen += k[i].count;
	for (uint32_t i = 0; i < WD_STAT_MAX; i++)
		if (!bpf_map_lookup_elem(fd, &i, vals))
			for (int c = 0; c < ncpu; c++)
				st->v[i] += vals[c];
	free(vals);
	derive_stats(s, st);
	if (!bpf_obj_get_info_by_fd(s->prog_fd, &info, &len))
		st->recursion_misses = info.recursion_misses;
	return 0;
}

int wd_session_stats(struct wd_session *s, struct wd_stats *st)
{
	struct wd_key_total *k = NULL;
	size_t n = 0;
	int err = s->dm ? 0 : wd_session_keys(s, &k, &n);

	if (!err)
		err = wd_session_stats_of(s, st, k, n);
	free(k);
	return err;
}

static void names(struct wd_session *s, uint32_t code, uint64_t location,
		  char *reason, char *function, char *loc, size_t len)
{
	uint64_t off = 0;
	const struct wd_ksym *k = location ? wd_ksym_find(&s->ksyms, location, &off) : NULL;

	if (s->dm && wd_dm_source_names(s, code, location, reason, function, loc, len))
		return;
	if (!s->dm || !wd_dm_source_subsys(s, code))
		wd_reason_name(&s->reasons, code, reason, len);
	if (!location) {
		snprintf(function, len, "(overflow)");
		snprintf(loc, len, "(overflow: counting map full)");
	} else if (!k) {
		snprintf(function, len, "0x%llx", (unsigned long long)location);
		snprintf(loc, len, "0x%llx", (unsigned long long)location);
	} else {
		snprintf(function, len, "%s", k->name);
		snprintf(loc, len, "%s+0x%llx", k->name, (unsigned long long)off);
	}
}

void wd_session_view(struct wd_session *s, const struct wd_event *ev, struct wd_drop_view *v,
		     char *reason, char *function, char *location, size_t len)
{
	memset(v, 0, sizeof(*v));
	names(s, ev->reason, ev->location, reason, function, location, len);
	v->ts_realtime_ns = ev->ts_ns + s->mono_to_real_ns;
	v->reason = s->reasons.has_reason ? reason : NULL;
	v->code = ev->reason;
	v->function = function;
	v->location = location;
	v->l3proto = ev->l3proto;
	/* caplen bytes from hdr[] on: on_ring() and drop_monitor's records see to it */
	wd_decode(ev->hdr, ev->caplen, ev->l3proto, &v->flow);
	v->len = ev->skb_len;
	v->ifindex = ev->ifindex;
	/* The record's own name is the one at the drop; else look it up now. */
	snprintf(s->ev_ifname, sizeof(s->ev_ifname), "%.*s", WD_IFNAME_BYTES, ev->ifname);
	v->ifname = s->ev_ifname[0] || s->dm ? s->ev_ifname :
		    wd_ifname(&s->ifnames, ev->netns, ev->ifindex);
	v->netns = ev->netns;
	v->cpu = ev->cpu;
	if (s->dm) {
		v->no_code = wd_dm_source_subsys(s, ev->reason) != NULL;
		wd_dm_source_view(s, v);
	}
	wd_stack_free(&s->ev_stack);
	if (s->stacks && ev->stack_id != WD_STACK_NONE &&
	    !wd_session_stack(s, ev->stack_id, &s->ev_stack)) {
		v->stack = (const char *const *)s->ev_stack.frames;
		v->n_stack = s->ev_stack.n;
	}
	wd_who_view(&s->who, ev->netns, &ev->sock, v);
}

void wd_session_row(struct wd_session *s, const struct wd_total *t, struct wd_count_row *row,
		    char *reason, char *subsys, char *function, char *location, size_t len)
{
	memset(row, 0, sizeof(*row));
	names(s, t->reason, t->location, reason, function, location, len);
	row->code = t->reason;
	row->reason = s->reasons.has_reason ? reason : NULL;
	row->subsystem = wd_reason_subsys(&s->reasons, t->reason, subsys, len);
	row->function = function;
	row->location = location;
	row->count = t->count;
	if (s->dm && wd_dm_source_subsys(s, t->reason)) {
		row->subsystem = wd_dm_source_subsys(s, t->reason);
		row->no_code = true;
	}
}
