// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The packet comment of a drop: written, and parsed back; see drop_comment.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "drop_comment.h"

/* ---- writing ---- */

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n;
}

/* key=value with the value's spaces, '%' and non-ASCII bytes as %XX: one word. */
static void append_word(char *buf, size_t len, size_t *used, const char *key, const char *val)
{
	append(buf, len, used, " %s=", key);
	for (const unsigned char *c = (const unsigned char *)val; *c; c++) {
		if (*c > 0x20 && *c < 0x7f && *c != '%')
			append(buf, len, used, "%c", *c);
		else
			append(buf, len, used, "%%%02X", *c);
	}
}

static void append_sock(char *buf, size_t len, size_t *used, const struct wd_sock_view *k,
			bool with_state)
{
	if (k->kind == WD_SOCK_UNKNOWN) {
		append(buf, len, used, " sock=unknown");
		return;
	}
	if (k->kind != WD_SOCK_SEEN)
		return;
	if (k->full)
		append(buf, len, used, " sock=%" PRIu64, k->ino);
	append(buf, len, used, " lport=%u rport=%u", k->lport, k->rport);
	if (with_state)
		append(buf, len, used, " state=%s", wd_sock_state_name(k->state));
	if (k->pid) {
		append(buf, len, used, " pid=%d", k->pid);
		append_word(buf, len, used, "comm", k->comm);
	}
	if (k->cgroup)
		append_word(buf, len, used, "cgroup", k->cgroup);
	if (k->workload)
		append_word(buf, len, used, "workload", k->workload);
	if (k->container)
		append_word(buf, len, used, "container", k->container);
	if (k->pod)
		append_word(buf, len, used, "pod", k->pod);
	if (k->k8s_namespace)
		append_word(buf, len, used, "k8s_namespace", k->k8s_namespace);
}

void wd_pcapng_sock_words(const struct wd_sock_view *k, char *buf, size_t len)
{
	size_t used = strnlen(buf, len);

	append_sock(buf, len, &used, k, false);
}

/*
 * A frame inside the one-word stack=: "func+0x1 [mod]" loses its space
 * ("func+0x1[mod]"); a pseudo-frame ("[stack lost: stack map full]") has
 * its spaces written as '_', which wd_pcapng_stack_frame() turns back.
 */
static void append_frame(char *buf, size_t len, size_t *used, const char *sep, const char *fr)
{
	bool pseudo = fr[0] == '[';

	append(buf, len, used, "%s", sep);
	for (; *fr && *used + 1 < len; fr++) {
		if (*fr == ' ' && !pseudo)
			continue;
		buf[(*used)++] = *fr == ' ' ? '_' : *fr;
	}
	if (*used < len)
		buf[*used] = '\0';
}

void wd_pcapng_drop_comment(const struct wd_drop_view *v, char *buf, size_t len)
{
	size_t used = 0;
	char l3[16];

	if (!len)
		return;
	buf[0] = '\0';
	if (v->reason)
		append(buf, len, &used, "reason=%s ", v->reason);
	append(buf, len, &used, "location=%s", v->location ? v->location : "?");
	if (v->ifname)
		append(buf, len, &used, " ifname=%s", v->ifname);
	else if (v->ifindex)
		append(buf, len, &used, " ifindex=%u", v->ifindex);
	if (v->netns)
		append(buf, len, &used, " netns=%u", v->netns);
	if (v->reason && !v->no_code)
		append(buf, len, &used, " code=%u", v->code);
	if (v->netns_cookie)
		append(buf, len, &used, " netns_cookie=%" PRIu64, v->netns_cookie);
	if (v->netns_name)
		append_word(buf, len, &used, "netns_name", v->netns_name);
	if (v->hw_trap)
		append(buf, len, &used, " hw_trap=%s%s%s", v->hw_group ? v->hw_group : "",
		       v->hw_group ? "/" : "", v->hw_trap);
	append_sock(buf, len, &used, &v->sock, true);
	if (v->rule)
		append_word(buf, len, &used, "rule", v->rule);
	if (v->l3proto && v->l3proto != WD_ETH_P_IP && v->l3proto != WD_ETH_P_IPV6)
		append(buf, len, &used, " l3=%s", wd_l3_name(v->l3proto, l3, sizeof(l3)));
	/* --stacks: one word, innermost frame first, "func+0xoff[module]" */
	for (size_t i = 0; i < v->n_stack; i++)
		append_frame(buf, len, &used, i ? ";" : " stack=", v->stack[i]);
}

void wd_pcapng_stack_frame(char *frame)
{
	if (frame[0] != '[')
		return;
	for (char *c = frame; *c; c++)
		if (*c == '_')
			*c = ' ';
}

/* ---- parsing ---- */

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return false;
	return true;
}

/* n decimal digits, at most max_digits of them (no overflow). */
static bool parse_u64(const char *s, size_t n, size_t max_digits, uint64_t *out)
{
	uint64_t v = 0;

	if (!n || n > max_digits)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool parse_u32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v;

	if (!parse_u64(s, n, 10, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* A value written by append_word, %XX decoded; false if malformed or too long. */
static bool take_word(char *dst, size_t cap, const char *val, size_t n, bool *has)
{
	size_t o = 0;

	if (*has || !n)
		return false;
	for (size_t i = 0; i < n; i++, o++) {
		int hi, lo;

		if (o + 1 >= cap)
			return false;
		if (val[i] != '%') {
			dst[o] = val[i];
			continue;
		}
		if (i + 2 >= n)
			return false;
		hi = hex_digit(val[i + 1]);
		lo = hex_digit(val[i + 2]);
		if (hi < 0 || lo < 0 || (!hi && !lo))
			return false;
		dst[o] = (char)(hi << 4 | lo);
		i += 2;
	}
	dst[o] = '\0';
	*has = true;
	return true;
}

/* Copy a value if it fits whole: a cut name would be a wrong name. */
static bool take(char *dst, size_t cap, const char *val, size_t n, bool *has)
{
	if (*has || n >= cap)
		return false;
	memcpy(dst, val, n);
	dst[n] = '\0';
	*has = true;
	return true;
}

/* A TCP state name as format.c writes it ("SYN_SENT", "?"): capitals and '_'. */
static bool take_state(char *dst, size_t cap, const char *val, size_t n, bool *has)
{
	if (n == 1 && val[0] == '?')
		return take(dst, cap, val, n, has);
	for (size_t i = 0; i < n; i++)
		if ((val[i] < 'A' || val[i] > 'Z') && val[i] != '_')
			return false;
	return n && take(dst, cap, val, n, has);
}

/*
 * The attribution words: netns_name, sock, lport, rport, state, pid, comm,
 * cgroup, workload, container, pod, k8s_namespace.
 */
static void parse_who_word(const char *w, size_t klen, const char *val, size_t vlen,
			   struct wd_pcapng_meta *m)
{
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(w, k, klen))
	uint32_t v;

	if (KEY("netns_name"))
		take_word(m->netns_name, sizeof(m->netns_name), val, vlen, &m->has_netns_name);
	else if (KEY("netns_cookie") && !m->has_netns_cookie)
		m->has_netns_cookie = parse_u64(val, vlen, 19, &m->netns_cookie);
	else if (KEY("sock") && vlen == 7 && !memcmp(val, "unknown", 7))
		m->sock_unknown = true;
	else if (KEY("sock") && !m->has_sock)
		m->has_sock = parse_u64(val, vlen, 19, &m->sock);
	else if (KEY("lport") && !m->has_lport && parse_u32(val, vlen, &v) && v <= 65535)
		m->lport = (uint16_t)v, m->has_lport = true;
	else if (KEY("rport") && !m->has_rport && parse_u32(val, vlen, &v) && v <= 65535)
		m->rport = (uint16_t)v, m->has_rport = true;
	else if (KEY("state"))
		take_state(m->state, sizeof(m->state), val, vlen, &m->has_state);
	else if (KEY("pid") && !m->has_pid)
		m->has_pid = parse_u32(val, vlen, &m->pid);
	else if (KEY("comm"))
		take_word(m->comm, sizeof(m->comm), val, vlen, &m->has_comm);
	else if (KEY("cgroup"))
		take_word(m->cgroup, sizeof(m->cgroup), val, vlen, &m->has_cgroup);
	else if (KEY("workload"))
		take_word(m->workload, sizeof(m->workload), val, vlen, &m->has_workload);
	else if (KEY("container"))
		take_word(m->container, sizeof(m->container), val, vlen, &m->has_container);
	else if (KEY("pod"))
		take_word(m->pod, sizeof(m->pod), val, vlen, &m->has_pod);
	else if (KEY("k8s_namespace"))
		take_word(m->k8s_namespace, sizeof(m->k8s_namespace), val, vlen,
			  &m->has_k8s_namespace);
#undef KEY
}

static void parse_word(const char *w, size_t n, struct wd_pcapng_meta *m)
{
	const char *eq = memchr(w, '=', n);
	size_t klen, vlen;
	const char *val;

	if (!eq || !printable(w, n))
		return;
	klen = (size_t)(eq - w);
	val = eq + 1;
	vlen = n - klen - 1;
	if (klen == 6 && !memcmp(w, "reason", 6) && vlen)
		take(m->reason, sizeof(m->reason), val, vlen, &m->has_reason);
	else if (klen == 8 && !memcmp(w, "location", 8) && vlen)
		take(m->location, sizeof(m->location), val, vlen, &m->has_location);
	else if (klen == 6 && !memcmp(w, "ifname", 6) && vlen)
		take(m->ifname, sizeof(m->ifname), val, vlen, &m->has_ifname);
	else if (klen == 5 && !memcmp(w, "netns", 5) && !m->has_netns)
		m->has_netns = parse_u32(val, vlen, &m->netns);
	else if (klen == 4 && !memcmp(w, "code", 4) && !m->has_code)
		m->has_code = parse_u32(val, vlen, &m->code);
	else
		parse_who_word(w, klen, val, vlen, m);
}

bool wd_pcapng_parse_comment(const char *s, struct wd_pcapng_meta *m)
{
	size_t n;

	memset(m, 0, sizeof(*m));
	while (s && *s) {
		n = strcspn(s, " \t\r\n");
		if (n)
			parse_word(s, n, m);
		s += n;
		s += strspn(s, " \t\r\n");
	}
	if (!m->has_location)
		return false;
	n = strcspn(m->location, "+");
	memcpy(m->function, m->location, n);
	m->function[n] = '\0';
	return true;
}
