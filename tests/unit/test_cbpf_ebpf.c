// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The classic-to-eBPF translator without a kernel: what it refuses, the
 * shape of what it emits (every instruction reachable, jumps in range, as
 * the verifier's CFG check wants), and what the program does, run by a
 * small eBPF interpreter here against libpcap's own pcap_offline_filter()
 * on random packets. The interpreter only lets the program touch its
 * stack and filter_ctx, and lets bpf_probe_read_kernel read only the
 * packet's linear bytes: a translation that reads past linear fails here.
 * tests/system/filter_equal.c does the same in the kernel.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#define bpf_insn pcap_bpf_insn	/* libpcap's classic struct, not the kernel's */
#include <pcap/pcap.h>
#undef bpf_insn

#include "unit.h"
#include "cbpf_ebpf.h"
#include "ebpf_vm.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define I(c, k)		{ (c), 0, 0, (k) }
#define J(c, k, t, f)	{ (c), (t), (f), (k) }

/* ---- what is refused ---- */

static int translate(const struct wd_cbpf_insn *in, size_t n, char *err, size_t errlen)
{
	struct bpf_insn *out = NULL;
	size_t len = 0;
	int ret;

	err[0] = '\0';
	ret = wd_cbpf_to_ebpf(in, n, CTX_FD, PROGS_FD, &out, &len, err, errlen);
	if (!ret && (!out || !len))
		ret = -1000;
	free(out);
	return ret;
}

#define REFUSED(prog, n, what) do {						\
	char _err[256];								\
	int _ret = translate(prog, n, _err, sizeof(_err));			\
	UNIT_RECORD(_ret == -EINVAL && strstr(_err, what),			\
		    "%s: %d \"%s\", wanted -EINVAL \"%s\"", #prog, _ret, _err, what); \
} while (0)

static void test_refused(void)
{
	static const struct wd_cbpf_insn unknown[] = { I(0xff, 0), I(BPF_RET | BPF_K, 1) };
	static const struct wd_cbpf_insn ldx_abs[] = {
		I(BPF_LDX | BPF_W | BPF_ABS, 0), I(BPF_RET | BPF_K, 1),
	};
	static const struct wd_cbpf_insn ret_x[] = { I(BPF_RET | BPF_X, 0) };
	static const struct wd_cbpf_insn back[] = {
		I(BPF_LD | BPF_IMM, 1), I(BPF_JMP | BPF_JA, 0xfffffffe), I(BPF_RET | BPF_K, 1),
	};
	static const struct wd_cbpf_insn ja_far[] = {
		I(BPF_JMP | BPF_JA, 1), I(BPF_RET | BPF_K, 1),
	};
	static const struct wd_cbpf_insn jeq_far[] = {
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2), I(BPF_RET | BPF_K, 1), I(BPF_RET | BPF_K, 0),
	};
	static const struct wd_cbpf_insn div0[] = {
		I(BPF_ALU | BPF_DIV | BPF_K, 0), I(BPF_RET | BPF_A, 0),
	};
	static const struct wd_cbpf_insn mod0[] = {
		I(BPF_ALU | BPF_MOD | BPF_K, 0), I(BPF_RET | BPF_A, 0),
	};
	static const struct wd_cbpf_insn lsh32[] = {
		I(BPF_ALU | BPF_LSH | BPF_K, 32), I(BPF_RET | BPF_A, 0),
	};
	static const struct wd_cbpf_insn rsh40[] = {
		I(BPF_ALU | BPF_RSH | BPF_K, 40), I(BPF_RET | BPF_A, 0),
	};
	static const struct wd_cbpf_insn mem16[] = { I(BPF_ST, 16), I(BPF_RET | BPF_K, 1) };
	static const struct wd_cbpf_insn ldmem16[] = {
		I(BPF_LDX | BPF_MEM, 16), I(BPF_RET | BPF_K, 1),
	};
	static const struct wd_cbpf_insn no_ret[] = {
		I(BPF_RET | BPF_K, 1), I(BPF_LD | BPF_IMM, 1),
	};
	static struct wd_cbpf_insn too_long[WD_CBPF_MAX_INSNS + 1];
	struct bpf_insn *out = (struct bpf_insn *)1;
	size_t i, len = 1;
	char err[256];

	REFUSED(unknown, 2, "unknown opcode");
	REFUSED(ldx_abs, 2, "unknown opcode");
	REFUSED(ret_x, 1, "unknown opcode");
	REFUSED(back, 3, "backward jump");
	REFUSED(ja_far, 2, "past the end");
	REFUSED(jeq_far, 3, "past the end");
	REFUSED(div0, 2, "division by the constant 0");
	REFUSED(mod0, 2, "division by the constant 0");
	REFUSED(lsh32, 2, "shift by 32");
	REFUSED(rsh40, 2, "shift by 32");
	REFUSED(mem16, 2, "M[k]");
	REFUSED(ldmem16, 2, "M[k]");
	REFUSED(no_ret, 2, "does not end with a return");
	REFUSED(unknown, 0, "1 to 4096");
	for (i = 0; i < ARRAY_SIZE(too_long); i++)
		too_long[i].code = BPF_RET | BPF_K;
	REFUSED(too_long, ARRAY_SIZE(too_long), "1 to 4096");
	CHECK_INT(translate(too_long, WD_CBPF_MAX_INSNS, err, sizeof(err)), 0);
	/* the error leaves the outputs empty, and needs no message buffer */
	CHECK_INT(wd_cbpf_to_ebpf(div0, 2, CTX_FD, PROGS_FD, &out, &len, NULL, 0), -EINVAL);
	CHECK(out == NULL && len == 0);
	CHECK_INT(wd_cbpf_to_ebpf(div0, 2, CTX_FD, PROGS_FD, NULL, &len, err, sizeof(err)),
		  -EINVAL);
	CHECK_INT(wd_cbpf_to_ebpf(NULL, 2, CTX_FD, PROGS_FD, &out, &len, err, sizeof(err)),
		  -EINVAL);
}

/* ---- the shape of the program ---- */

static bool is_ld_imm64(const struct bpf_insn *i)
{
	return i->code == (BPF_LD | BPF_DW | BPF_IMM);
}

static bool is_jump(const struct bpf_insn *i)
{
	__u8 cls = BPF_CLASS(i->code), op = BPF_OP(i->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT;
}

/*
 * As the verifier's check_cfg(): every jump lands on an instruction (not
 * inside an ld_imm64), nothing falls off the end, everything is reached,
 * every jump goes forward or to an earlier place without a cycle (here:
 * simply no cycle, by a DFS). Returns a description of the first problem.
 */
static const char *bad_shape(const struct bpf_insn *p, size_t n)
{
	char *state = calloc(n, 1);	/* 0 new, 1 on the DFS stack, 2 done */
	size_t *stack = calloc(n + 1, sizeof(*stack)), *next = calloc(n + 1, sizeof(*next));
	const char *why = NULL;
	size_t sp = 0, i;

	if (!state || !stack || !next) {
		why = "out of memory";
		goto out;
	}
	for (i = 0; i + 1 < n; i++)
		if (is_ld_imm64(&p[i]))
			state[++i] = 2;	/* the second half: never a target */
	stack[sp++] = 0;
	state[0] = 1;
	while (sp && !why) {
		size_t at = stack[sp - 1], succ[2], ns = 0, k;
		const struct bpf_insn *in = &p[at];

		if (in->code == (BPF_JMP | BPF_EXIT)) {
			ns = 0;
		} else if (is_jump(in)) {
			long to = (long)at + 1 + in->off;

			if (to < 0 || (size_t)to >= n)
				why = "jump out of the program";
			else
				succ[ns++] = (size_t)to;
			if (BPF_OP(in->code) != BPF_JA)
				succ[ns++] = at + 1;
		} else {
			succ[ns++] = at + (is_ld_imm64(in) ? 2 : 1);
		}
		for (k = 0; k < ns && !why; k++) {
			if (succ[k] >= n)
				why = "falls off the end";
			else if (k == 0 && is_jump(in) && state[succ[k]] == 2 && succ[k] &&
				 is_ld_imm64(&p[succ[k] - 1]))
				why = "jump into an ld_imm64";
		}
		if (why)
			break;
		for (k = next[at]; k < ns; k++) {
			next[at] = k + 1;
			if (state[succ[k]] == 1) {
				why = "a cycle";
				break;
			}
			if (!state[succ[k]]) {
				state[succ[k]] = 1;
				stack[sp++] = succ[k];
				break;
			}
		}
		if (k >= ns) {
			state[at] = 2;
			sp--;
		}
	}
	for (i = 0; i < n && !why; i++)
		if (state[i] != 2)
			why = "an unreachable instruction";
out:
	free(state);
	free(stack);
	free(next);
	return why;
}

/* libpcap's program for expr, as the translator's input. */
static struct wd_cbpf_insn *compile(const char *expr, size_t *n)
{
	pcap_t *p = pcap_open_dead(DLT_RAW, 262144);
	struct wd_cbpf_insn *in = NULL;
	struct bpf_program prog;
	u_int i;

	if (!p)
		return NULL;
	if (!pcap_compile(p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN)) {
		in = calloc(prog.bf_len, sizeof(*in));
		for (i = 0; in && i < prog.bf_len; i++) {
			in[i].code = prog.bf_insns[i].code;
			in[i].jt = prog.bf_insns[i].jt;
			in[i].jf = prog.bf_insns[i].jf;
			in[i].k = prog.bf_insns[i].k;
		}
		*n = prog.bf_len;
		pcap_freecode(&prog);
	}
	pcap_close(p);
	return in;
}

static size_t count(const struct bpf_insn *p, size_t n, __u8 code, __u8 dst)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += p[i].code == code && p[i].dst_reg == dst;
	return c;
}

static const char *const shapes[] = {
	"ip", "tcp port 443", "udp[150:2] = 0x4142", "ip[300] = 1", "ip[len - 1] = 1",
	"len > 100", "ip[2:2] % ip[8] = 0", "ip[8] << ip[9] = 0", "icmp6 or ip6 net 2001:db8::/32",
	"tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420",
};

static void test_shape(void)
{
	struct bpf_insn *out;
	struct wd_cbpf_insn *in;
	char err[256];
	size_t i, n, len, maps;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		const char *why;

		in = compile(shapes[i], &n);
		CHECK(in != NULL);
		if (!in)
			continue;
		if (wd_cbpf_to_ebpf(in, n, CTX_FD, PROGS_FD, &out, &len, err, sizeof(err))) {
			UNIT_RECORD(false, "'%s': %s", shapes[i], err);
			free(in);
			continue;
		}
		why = bad_shape(out, len);
		UNIT_RECORD(!why, "'%s': %s", shapes[i], why ? why : "");
		/* both maps by fd, the context one first */
		maps = count(out, len, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1) +
		       count(out, len, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2);
		CHECK_INT(maps, 2);
		CHECK(out[2].src_reg == BPF_PSEUDO_MAP_FD && out[2].imm == CTX_FD);
		CHECK(len < 40 + 8 * n);
		free(out);
		free(in);
	}
}

/* A second load at a lower offset needs no bounds check of its own. */
static void test_checks_elided(void)
{
	static const struct wd_cbpf_insn twice[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 8), I(BPF_LD | BPF_B | BPF_ABS, 0),
		I(BPF_LD | BPF_H | BPF_ABS, 10), I(BPF_LD | BPF_H | BPF_ABS, 11),
		I(BPF_RET | BPF_A, 0),
	};
	static const struct wd_cbpf_insn none[] = { I(BPF_LD | BPF_W | BPF_LEN, 0), I(BPF_RET | BPF_A, 0) };
	struct bpf_insn *out;
	char err[256];
	size_t len;

	CHECK_INT(wd_cbpf_to_ebpf(twice, ARRAY_SIZE(twice), CTX_FD, PROGS_FD, &out, &len, err,
				  sizeof(err)), 0);
	/* [8:4] and [11:2] are checked, [0] and [10:2] are not */
	CHECK_INT(count(out, len, BPF_JMP32 | BPF_JLT | BPF_K, BPF_REG_9), 2);
	free(out);
	/* no packet load: no copy, no bounds, no helper but the map lookup */
	CHECK_INT(wd_cbpf_to_ebpf(none, ARRAY_SIZE(none), CTX_FD, -1, &out, &len, err,
				  sizeof(err)), 0);
	CHECK_INT(count(out, len, BPF_JMP | BPF_CALL, 0), 1);
	CHECK(!bad_shape(out, len));
	free(out);
}

/* ---- running it (ebpf_vm.h) ---- */

static __u64 rng = 0x9e3779b97f4a7c15ULL;

static __u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (__u32)(rng >> 11);
}

/* Random bytes under a plausible IPv4 or IPv6 header. */
static __u32 random_packet(__u8 *p, size_t cap)
{
	__u32 len = 1 + rnd() % (rnd() % 4 ? 300 : (__u32)cap - 1), i;
	static const __u8 protos[] = { 6, 17, 1, 58, 44, 0 };

	for (i = 0; i < len; i++)
		p[i] = (__u8)rnd();
	if (rnd() % 2) {
		p[0] = 0x40 | (rnd() % 3 ? 5 : 5 + rnd() % 11);
		if (len > 9)
			p[9] = protos[rnd() % ARRAY_SIZE(protos)];
		if (len > 7 && rnd() % 2)
			p[6] = p[7] = 0;
	} else {
		p[0] = 0x60 | (p[0] & 0xf);
		if (len > 6)
			p[6] = protos[rnd() % ARRAY_SIZE(protos)];
	}
	if (len > 8 && rnd() % 8 == 0)
		p[8] = 0;	/* a TTL of 0: a divisor of 0 */
	if (len > 3) {
		p[2] = (__u8)(len >> 8);
		p[3] = (__u8)len;
	}
	return len;
}

static const char *const exprs[] = {
	"ip", "ip6", "tcp port 443", "udp and dst port 53", "icmp6", "len > 200", "less 100",
	"udp[150:2] = 0x4142", "ip[200] = 0x7a", "ip[300] & 1 = 1", "ip[len - 1] & 1 = 1",
	"tcp[tcpflags] & tcp-syn != 0", "ip[6:2] & 0x1fff = 0", "net 192.0.2.0/24",
	"ip6 dst net 2001:db8::/32", "portrange 1000-2000", "ip[0] & 0xf > 5",
	"tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420", "ip[2:2] % ip[8] = 0",
	"ip[2:2] / ip[8] > 3", "ip[8] << ip[9] = 0x600", "ip[2:2] >> (ip[8] & 0x3f) = 0",
	"-ip[1] = 0xffffff00 or ip[4:2] ^ ip[6:2] = 0x4000",
};

/*
 * in on random packets, whole, truncated (linear < wirelen) and padded:
 * the verdict of libpcap's ref with caplen = min(linear, wirelen),
 * nonlinear counted only when a load needed bytes past linear.
 */
static void test_equal_prog(const char *expr, const struct wd_cbpf_insn *in, size_t n,
			    const struct bpf_program *ref)
{
	static __u8 pkt[2048];
	struct vm *vm = calloc(1, sizeof(*vm));
	unsigned int i, view, bad = 0, faults = 0;
	struct bpf_insn *out = NULL;
	char err[256];
	size_t len;

	if (!vm || wd_cbpf_to_ebpf(in, n, CTX_FD, PROGS_FD, &out, &len, err, sizeof(err))) {
		UNIT_RECORD(false, "'%s': %s", expr, vm ? err : "no memory");
		goto out;
	}
	for (i = 0; i < 300; i++) {
		__u32 plen = random_packet(pkt, sizeof(pkt));
		struct pcap_pkthdr h = { .len = plen };

		for (view = 0; view < 3; view++) {
			__u64 before = vm->fc.nonlinear;
			__u32 caplen = plen;
			int want, got;

			vm->linear = plen;
			if (view == 1)
				vm->linear = caplen = rnd() % plen;
			else if (view == 2)
				vm->linear = plen + rnd() % 16;	/* the bytes past plen: junk */
			h.caplen = caplen;
			want = pcap_offline_filter(ref, &h, pkt) != 0;
			vm->pkt = pkt;
			vm->fc.nh = (__u64)(uintptr_t)pkt;
			vm->fc.linear = vm->linear;
			vm->fc.wirelen = plen;
			got = run(vm, out, len);
			if (got < 0) {
				if (faults++ < 3)
					fprintf(stderr, "'%s': %s\n", expr, vm->fault);
				continue;
			}
			if (got != want || vm->tail_called != (got == 1) ||
			    vm->fc.nonlinear - before > (view == 1 ? 1 : 0) ||
			    (got && vm->fc.nonlinear != before)) {
				if (bad++ < 3)
					fprintf(stderr, "'%s': view %u length %u linear %u: libpcap %d, "
						"translated %d\n", expr, view, plen, vm->linear, want, got);
			}
		}
	}
	UNIT_RECORD(!bad && !faults, "'%s': %u mismatches, %u faults", expr, bad, faults);
out:
	free(out);
	free(vm);
}

static void test_equal(void)
{
	pcap_t *dead = pcap_open_dead(DLT_RAW, 262144);
	struct bpf_program prog;
	struct wd_cbpf_insn *in;
	size_t i, n;

	for (i = 0; dead && i < ARRAY_SIZE(exprs); i++) {
		in = compile(exprs[i], &n);
		if (!in || pcap_compile(dead, &prog, exprs[i], 1, PCAP_NETMASK_UNKNOWN)) {
			UNIT_RECORD(false, "'%s': does not compile", exprs[i]);
			free(in);
			continue;
		}
		test_equal_prog(exprs[i], in, n, &prog);
		pcap_freecode(&prog);
		free(in);
	}
	if (dead)
		pcap_close(dead);
}

static const struct wd_cbpf_insn p_mod[] = {	/* modulo by X = TTL, 0 ends with 0 */
	I(BPF_LD | BPF_B | BPF_ABS, 8), I(BPF_MISC | BPF_TAX, 0), I(BPF_LD | BPF_H | BPF_ABS, 2),
	I(BPF_ALU | BPF_MOD | BPF_X, 0), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_join[] = {	/* [50:4] is not checked by [99] */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1),
	I(BPF_LD | BPF_B | BPF_ABS, 99), I(BPF_LD | BPF_W | BPF_ABS, 50), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_wrap[] = {	/* X + k past 2^32 is out, not wrapped */
	I(BPF_LD | BPF_B | BPF_ABS, 0), I(BPF_ALU | BPF_AND | BPF_K, 0xf), I(BPF_MISC | BPF_TAX, 0),
	I(BPF_LD | BPF_B | BPF_IND, 0xfffffffc), I(BPF_RET | BPF_K, 1),
};
static const struct wd_cbpf_insn p_uninit[] = {	/* M[5] before a store: 0 */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JGT | BPF_K, 0x50, 0, 2),
	I(BPF_LD | BPF_IMM, 7), I(BPF_ST, 5), I(BPF_LD | BPF_MEM, 5), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_shift[] = {	/* by X >= 32: 0 */
	I(BPF_LD | BPF_B | BPF_ABS, 1), I(BPF_ALU | BPF_AND | BPF_K, 0x3f), I(BPF_MISC | BPF_TAX, 0),
	I(BPF_LD | BPF_IMM, 0xfedcba98), I(BPF_ALU | BPF_LSH | BPF_X, 0), I(BPF_RET | BPF_A, 0),
};

static const struct wd_cbpf_insn p_xjoin[] = {	/* X = 0 or 0..60 from MSH, then [x + 100] */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JSET | BPF_K, 0x10, 0, 2),
	I(BPF_LDX | BPF_IMM, 0), I(BPF_JMP | BPF_JA, 1), I(BPF_LDX | BPF_MSH | BPF_B, 0),
	I(BPF_LD | BPF_B | BPF_IND, 100), J(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1),
	I(BPF_RET | BPF_K, 1), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_ja[] = {	/* JA, JA 0, unreachable code */
	I(BPF_JMP | BPF_JA, 2), I(BPF_RET | BPF_K, 7), I(BPF_RET | BPF_K, 0),
	I(BPF_LD | BPF_B | BPF_ABS, 9), J(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 1),
	I(BPF_RET | BPF_A, 0), I(BPF_JMP | BPF_JA, 0), I(BPF_RET | BPF_K, 0),
};

/* Hand-written programs; libpcap's reference stores 0 into every M[] first. */
static void test_equal_hand(const char *name, const struct wd_cbpf_insn *in, size_t n)
{
	struct bpf_program ref;
	size_t i, pre = 1 + WD_FILTER_MEMWORDS;

	ref.bf_len = (u_int)(pre + n);
	ref.bf_insns = calloc(pre + n, sizeof(*ref.bf_insns));
	if (!ref.bf_insns)
		return;
	for (i = 1; i < pre; i++) {
		ref.bf_insns[i].code = BPF_ST;
		ref.bf_insns[i].k = (bpf_u_int32)(i - 1);
	}
	for (i = 0; i < n; i++) {
		ref.bf_insns[pre + i].code = in[i].code;
		ref.bf_insns[pre + i].jt = in[i].jt;
		ref.bf_insns[pre + i].jf = in[i].jf;
		ref.bf_insns[pre + i].k = in[i].k;
	}
	test_equal_prog(name, in, n, &ref);
	free(ref.bf_insns);
}

static void test_equal_hands(void)
{
	test_equal_hand("modulo by X", p_mod, ARRAY_SIZE(p_mod));
	test_equal_hand("bounds after a join", p_join, ARRAY_SIZE(p_join));
	test_equal_hand("X + k wraps", p_wrap, ARRAY_SIZE(p_wrap));
	test_equal_hand("M[] before a store", p_uninit, ARRAY_SIZE(p_uninit));
	test_equal_hand("shift by X", p_shift, ARRAY_SIZE(p_shift));
	test_equal_hand("JA, JA 0, unreachable code", p_ja, ARRAY_SIZE(p_ja));
	test_equal_hand("X from paths that join", p_xjoin, ARRAY_SIZE(p_xjoin));
}

/* "host 198.51.0.1 or host 198.51.0.2 or ...", n hosts; the caller frees. */
static char *host_chain(unsigned int n)
{
	size_t cap = (size_t)n * 32 + 1, off = 0;
	char *s = malloc(cap);

	for (unsigned int i = 0; s && i < n; i++)
		off += (size_t)snprintf(s + off, cap - off, "%shost 198.51.%u.%u",
					i ? " or " : "", i / 250, i % 250 + 1);
	return s;
}

/* An IPv4/UDP packet from 198.51.(i / 250).(i % 250 + 1), or to it. */
static __u32 host_packet(__u8 *p, unsigned int i, bool to)
{
	static const __u8 hdr[28] = { 0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0,
				      203, 0, 113, 9, 203, 0, 113, 10 };
	__u8 *a = p + (to ? 16 : 12);

	memcpy(p, hdr, sizeof(hdr));
	a[0] = 198;
	a[1] = 51;
	a[2] = (__u8)(i / 250);
	a[3] = (__u8)(i % 250 + 1);
	return sizeof(hdr);
}

/*
 * A 'host' chain as long as the kernel's limit for classic BPF allows
 * (BPF_MAXINSNS), jumps across thousands of instructions: translated in
 * range, and matching the hosts libpcap matches, first, middle and last.
 */
static void test_long_chain(void)
{
	pcap_t *dead = pcap_open_dead(DLT_RAW, 262144);
	struct vm *vm = calloc(1, sizeof(*vm));
	/* libpcap 1.10: 4 instructions a host, less 248 shared */
	unsigned int hosts = (WD_CBPF_MAX_INSNS + 248) / 4 + 1, probe[] = { 0, 0, 0, 0 }, bad = 0;
	struct bpf_insn *out = NULL;
	struct wd_cbpf_insn *in = NULL;
	struct bpf_program prog;
	char err[256], *expr = NULL;
	size_t n = 0, len = 0;
	__u8 pkt[64];

	CHECK_INT(WD_CBPF_MAX_INSNS, BPF_MAXINSNS);
	do {	/* the longest chain within the limit */
		free(expr);
		free(in);
		expr = host_chain(--hosts);
		in = expr ? compile(expr, &n) : NULL;
	} while (in && n > WD_CBPF_MAX_INSNS && hosts > 1);
	if (!dead || !vm || !in || pcap_compile(dead, &prog, expr, 1, PCAP_NETMASK_UNKNOWN)) {
		UNIT_RECORD(false, "%u hosts: does not compile", hosts);
		goto out;
	}
	UNIT_RECORD(n > WD_CBPF_MAX_INSNS - 32 && n <= WD_CBPF_MAX_INSNS,
		    "%u hosts: %zu instructions, near %d", hosts, n, WD_CBPF_MAX_INSNS);
	CHECK_INT(wd_cbpf_to_ebpf(in, n, CTX_FD, PROGS_FD, &out, &len, err, sizeof(err)), 0);
	CHECK(out && !bad_shape(out, len));
	probe[1] = hosts / 2;
	probe[2] = hosts - 1;
	probe[3] = hosts;	/* not in the chain */
	for (size_t i = 0; out && i < ARRAY_SIZE(probe) * 2; i++) {
		__u32 plen = host_packet(pkt, probe[i / 2], i % 2);
		struct pcap_pkthdr h = { .len = plen, .caplen = plen };
		int want = pcap_offline_filter(&prog, &h, pkt) != 0;

		vm->pkt = pkt;
		vm->linear = plen;
		vm->fc.nh = (__u64)(uintptr_t)pkt;
		vm->fc.linear = vm->fc.wirelen = plen;
		bad += run(vm, out, len) != want || want != (probe[i / 2] < hosts);
	}
	UNIT_RECORD(!bad, "%u hosts: %u verdicts differ from libpcap's", hosts, bad);
	test_equal_prog("a long host chain", in, n, &prog);
	pcap_freecode(&prog);
out:
	free(out);
	free(in);
	free(expr);
	free(vm);
	if (dead)
		pcap_close(dead);
}

/* Without a program array a match returns 1, no tail call. */
static void test_no_progs(void)
{
	static const struct wd_cbpf_insn ok[] = { I(BPF_RET | BPF_K, 1) };
	struct vm *vm = calloc(1, sizeof(*vm));
	struct bpf_insn *out;
	char err[256];
	size_t len;

	if (!vm)
		return;
	CHECK_INT(wd_cbpf_to_ebpf(ok, 1, CTX_FD, -1, &out, &len, err, sizeof(err)), 0);
	CHECK_INT(run(vm, out, len), 1);
	CHECK(!vm->tail_called);
	free(out);
	free(vm);
}

UNIT_MAIN(test_refused, test_shape, test_checks_elided, test_equal, test_equal_hands,
	  test_long_chain, test_no_progs)
