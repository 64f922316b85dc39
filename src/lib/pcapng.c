// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcapng.h"

#define WRITER_BUF	(64u << 10)
#define MAX_OPT_LEN	0xffffu

/* Option codes. */
#define OPT_ENDOFOPT	0
#define OPT_COMMENT	1
#define SHB_HARDWARE	2
#define SHB_OS		3
#define SHB_USERAPPL	4
#define IF_NAME		2
#define IF_DESCRIPTION	3
#define IF_TSRESOL	9
#define ISB_STARTTIME	2
#define ISB_ENDTIME	3
#define ISB_IFRECV	4
#define ISB_OSDROP	7
#define ISB_USRDELIV	8

#define TSRESOL_NS	9
#define TSRESOL_DEFAULT	6	/* microseconds, when if_tsresol is absent */

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* ---- writer ---- */

static size_t str_len(const char *s)
{
	return s ? strnlen(s, MAX_OPT_LEN) : 0;
}

/* Bytes an option takes, header and padding included; 0 for no string. */
static size_t str_opt_size(const char *s)
{
	return s ? 4 + pad4(str_len(s)) : 0;
}

int wd_pcapng_writer_init(struct wd_pcapng_writer *w, int fd, bool flush_each)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->flush_each = flush_each;
	w->buf = malloc(WRITER_BUF);
	if (!w->buf)
		return -ENOMEM;
	w->cap = WRITER_BUF;
	return 0;
}

/* EPBs complete within the first n bytes of the buffer (our own blocks). */
static uint64_t complete_epbs(const uint8_t *buf, size_t n)
{
	uint64_t epbs = 0;
	size_t off = 0;
	uint32_t type, len;

	while (off + 8 <= n) {
		memcpy(&type, buf + off, 4);
		memcpy(&len, buf + off + 4, 4);
		if (len < 12 || off + len > n)
			break;
		epbs += type == WD_PCAPNG_EPB;
		off += len;
	}
	return epbs;
}

static int flush_buf(struct wd_pcapng_writer *w)
{
	size_t done = 0;
	ssize_t n;

	while (done < w->len) {
		n = write(w->fd, w->buf + done, w->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n < 0 ? errno : EIO;
			w->written += complete_epbs(w->buf, done);
			w->pending = 0;
			w->len = 0;
			return -w->err;
		}
		done += (size_t)n;
	}
	w->written += w->pending;
	w->pending = 0;
	w->len = 0;
	return 0;
}

int wd_pcapng_flush(struct wd_pcapng_writer *w)
{
	if (w->err)
		return -w->err;
	return flush_buf(w);
}

void wd_pcapng_writer_free(struct wd_pcapng_writer *w)
{
	if (w->buf && !w->err)
		flush_buf(w);
	free(w->buf);
	w->buf = NULL;
	w->cap = 0;
}

/* Room for a block of total bytes, flushing or growing the buffer. */
static int reserve(struct wd_pcapng_writer *w, size_t total)
{
	uint8_t *tmp;

	if (w->err)
		return -w->err;
	if (!w->buf)
		return -EINVAL;
	if (total > UINT32_MAX)
		return -EINVAL;
	if (w->len + total > w->cap && flush_buf(w))
		return -w->err;
	if (total <= w->cap)
		return 0;
	tmp = realloc(w->buf, total);
	if (!tmp)
		return -ENOMEM;
	w->buf = tmp;
	w->cap = total;
	return 0;
}

static void put(struct wd_pcapng_writer *w, const void *p, size_t n)
{
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void put_zero(struct wd_pcapng_writer *w, size_t n)
{
	memset(w->buf + w->len, 0, n);
	w->len += n;
}

static void put16(struct wd_pcapng_writer *w, uint16_t v)
{
	put(w, &v, 2);
}

static void put32(struct wd_pcapng_writer *w, uint32_t v)
{
	put(w, &v, 4);
}

static void put64(struct wd_pcapng_writer *w, uint64_t v)
{
	put(w, &v, 8);
}

/* 64-bit timestamps are two 32-bit words, the high one first. */
static void put_ts(struct wd_pcapng_writer *w, uint64_t ts)
{
	put32(w, (uint32_t)(ts >> 32));
	put32(w, (uint32_t)ts);
}

static void put_opt(struct wd_pcapng_writer *w, uint16_t code, const void *val, size_t len)
{
	put16(w, code);
	put16(w, (uint16_t)len);
	put(w, val, len);
	put_zero(w, pad4(len) - len);
}

static void put_str_opt(struct wd_pcapng_writer *w, uint16_t code, const char *s)
{
	if (s)
		put_opt(w, code, s, str_len(s));
}

static void put_ts_opt(struct wd_pcapng_writer *w, uint16_t code, uint64_t ts)
{
	uint32_t v[2] = { (uint32_t)(ts >> 32), (uint32_t)ts };

	put_opt(w, code, v, sizeof(v));
}

static void put_u64_opt(struct wd_pcapng_writer *w, uint16_t code, uint64_t val)
{
	put_opt(w, code, &val, sizeof(val));
}

/* Options end with opt_endofopt when there are any. */
static size_t end_size(size_t opts)
{
	return opts ? opts + 4 : 0;
}

static void put_end(struct wd_pcapng_writer *w, size_t opts)
{
	if (opts)
		put32(w, OPT_ENDOFOPT);
}

static int begin_block(struct wd_pcapng_writer *w, uint32_t type, size_t total)
{
	int err = reserve(w, total);

	if (err)
		return err;
	put32(w, type);
	put32(w, (uint32_t)total);
	w->bytes += total;
	return 0;
}

static int write_shb(struct wd_pcapng_writer *w, const struct wd_pcapng_header *h)
{
	size_t opts = str_opt_size(h->hardware) + str_opt_size(h->os) +
		      str_opt_size(h->userappl);
	size_t total = 28 + end_size(opts);
	int err = begin_block(w, WD_PCAPNG_SHB, total);

	if (err)
		return err;
	put32(w, WD_PCAPNG_BOM);
	put16(w, 1);			/* major version */
	put16(w, 0);			/* minor version */
	put64(w, UINT64_MAX);		/* section length: not given */
	put_str_opt(w, SHB_HARDWARE, h->hardware);
	put_str_opt(w, SHB_OS, h->os);
	put_str_opt(w, SHB_USERAPPL, h->userappl);
	put_end(w, opts);
	put32(w, (uint32_t)total);
	return 0;
}

static int write_idb(struct wd_pcapng_writer *w, const struct wd_pcapng_header *h)
{
	static const uint8_t tsresol = TSRESOL_NS;
	size_t opts = str_opt_size(h->if_name) + str_opt_size(h->if_description) + 8;
	size_t total = 20 + end_size(opts);
	int err = begin_block(w, WD_PCAPNG_IDB, total);

	if (err)
		return err;
	put16(w, h->linktype);
	put16(w, 0);
	put32(w, h->snaplen);
	put_str_opt(w, IF_NAME, h->if_name);
	put_str_opt(w, IF_DESCRIPTION, h->if_description);
	put_opt(w, IF_TSRESOL, &tsresol, 1);
	put_end(w, opts);
	put32(w, (uint32_t)total);
	return 0;
}

int wd_pcapng_write_header(struct wd_pcapng_writer *w, const struct wd_pcapng_header *h)
{
	int err = write_shb(w, h);

	if (!err)
		err = write_idb(w, h);
	if (!err && w->flush_each)
		err = flush_buf(w);
	return err;
}

size_t wd_pcapng_packet_size(const struct wd_pcapng_packet *p)
{
	return 32 + pad4(p->caplen) + end_size(str_opt_size(p->comment));
}

int wd_pcapng_write_packet(struct wd_pcapng_writer *w, const struct wd_pcapng_packet *p)
{
	size_t total;
	int err;

	if (p->caplen > WD_PCAPNG_MAX_BLOCK / 2 || (p->caplen && !p->data))
		return -EINVAL;
	total = wd_pcapng_packet_size(p);
	err = begin_block(w, WD_PCAPNG_EPB, total);
	if (err)
		return err;
	put32(w, 0);			/* interface id */
	put_ts(w, p->ts_ns);
	put32(w, p->caplen);
	put32(w, p->origlen);
	put(w, p->data, p->caplen);
	put_zero(w, pad4(p->caplen) - p->caplen);
	put_str_opt(w, OPT_COMMENT, p->comment);
	put_end(w, str_opt_size(p->comment));
	put32(w, (uint32_t)total);
	w->packets++;
	w->pending++;
	return w->flush_each ? flush_buf(w) : 0;
}

int wd_pcapng_write_stats(struct wd_pcapng_writer *w, const struct wd_pcapng_stats *st)
{
	size_t opts = str_opt_size(st->comment);
	size_t total;
	int err;

	opts += st->has_start ? 12 : 0;
	opts += st->has_end ? 12 : 0;
	opts += st->has_ifrecv ? 12 : 0;
	opts += st->has_osdrop ? 12 : 0;
	opts += st->has_usrdeliv ? 12 : 0;
	total = 24 + end_size(opts);
	err = begin_block(w, WD_PCAPNG_ISB, total);
	if (err)
		return err;
	put32(w, 0);			/* interface id */
	put_ts(w, st->has_end ? st->end_ns : st->start_ns);
	put_str_opt(w, OPT_COMMENT, st->comment);
	if (st->has_start)
		put_ts_opt(w, ISB_STARTTIME, st->start_ns);
	if (st->has_end)
		put_ts_opt(w, ISB_ENDTIME, st->end_ns);
	if (st->has_ifrecv)
		put_u64_opt(w, ISB_IFRECV, st->ifrecv);
	if (st->has_osdrop)
		put_u64_opt(w, ISB_OSDROP, st->osdrop);
	if (st->has_usrdeliv)
		put_u64_opt(w, ISB_USRDELIV, st->usrdeliv);
	put_end(w, opts);
	put32(w, (uint32_t)total);
	return w->flush_each ? flush_buf(w) : 0;
}

/* ---- rotated recordings ---- */

int wd_pcapng_file_name(char *buf, size_t len, const char *pattern, const struct tm *tm,
			unsigned int count, unsigned int width)
{
	size_t n;
	int m;

	if (!*pattern)
		return -EINVAL;
	if (!len)
		return -ENAMETOOLONG;
	if (tm) {
		n = strftime(buf, len, pattern, tm);
		if (!n)		/* too long, or made nothing of it */
			return -ENAMETOOLONG;
	} else {
		n = strlen(pattern);
		if (n >= len)
			return -ENAMETOOLONG;
		memcpy(buf, pattern, n + 1);
	}
	if (!count && !width)
		return 0;
	m = snprintf(buf + n, len - n, "%0*u", (int)width, count);
	return m < 0 || (size_t)m >= len - n ? -ENAMETOOLONG : 0;
}

unsigned int wd_pcapng_count_width(unsigned int filecount)
{
	unsigned int digits = 0;

	for (unsigned int x = filecount ? filecount - 1 : 0; x; x /= 10)
		digits++;
	return digits;
}

int wd_pcapng_parse_file_size(const char *arg, uint64_t *bytes)
{
	uint64_t v = 0, unit = 1000000;
	const char *p = arg;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (*p) {
	case '\0':
		break;
	case 'k': case 'K':
		unit = 1ULL << 10;
		p++;
		break;
	case 'm': case 'M':
		unit = 1ULL << 20;
		p++;
		break;
	case 'g': case 'G':
		unit = 1ULL << 30;
		p++;
		break;
	default:
		return -1;
	}
	if (*p || !v || v > UINT64_MAX / unit)
		return -1;
	*bytes = v * unit;
	return 0;
}

/* ---- drops ---- */

/* LINKTYPE_RAW holds IPv4 and IPv6 only, told apart by the version nibble. */
static bool ip_bytes(const struct wd_drop_view *v, const uint8_t *hdr, size_t hdr_len)
{
	if (!hdr || !hdr_len)
		return false;
	if (v->l3proto == WD_ETH_P_IP)
		return hdr[0] >> 4 == 4;
	if (v->l3proto == WD_ETH_P_IPV6)
		return hdr[0] >> 4 == 6;
	return false;
}

/* The IP header's length, unless it cannot be the packet's (GSO: 0). */
static uint32_t ip_len(const struct wd_drop_view *v)
{
	if (v->flow.family == 4 && v->flow.ip_len >= 20)
		return v->flow.ip_len;
	if (v->flow.family == 6 && v->flow.ip_len > 40)
		return v->flow.ip_len;
	return 0;
}

void wd_pcapng_drop_lengths(const struct wd_drop_view *v, const uint8_t *hdr, size_t hdr_len,
			    uint32_t snaplen, uint32_t *caplen, uint32_t *origlen)
{
	uint32_t cap = 0, orig = ip_len(v);

	if (ip_bytes(v, hdr, hdr_len))
		cap = hdr_len < snaplen ? (uint32_t)hdr_len : snaplen;
	if (orig && cap > orig)
		cap = orig;	/* bytes past the IP packet: link padding */
	if (!orig)
		orig = v->len > cap ? v->len : cap;
	*caplen = cap;
	*origlen = orig;
}

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

static void append_sock(char *buf, size_t len, size_t *used, const struct wd_sock_view *k)
{
	if (k->kind == WD_SOCK_UNKNOWN) {
		append(buf, len, used, " sock=unknown");
		return;
	}
	if (k->kind != WD_SOCK_SEEN)
		return;
	if (k->full)
		append(buf, len, used, " sock=%" PRIu64, k->ino);
	append(buf, len, used, " lport=%u rport=%u state=%s", k->lport, k->rport,
	       wd_sock_state_name(k->state));
	if (k->pid) {
		append(buf, len, used, " pid=%d", k->pid);
		append_word(buf, len, used, "comm", k->comm);
	}
	if (k->cgroup)
		append_word(buf, len, used, "cgroup", k->cgroup);
	if (k->workload)
		append_word(buf, len, used, "workload", k->workload);
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
	if (v->netns_name)
		append_word(buf, len, &used, "netns_name", v->netns_name);
	if (v->hw_trap)
		append(buf, len, &used, " hw_trap=%s%s%s", v->hw_group ? v->hw_group : "",
		       v->hw_group ? "/" : "", v->hw_trap);
	append_sock(buf, len, &used, &v->sock);
	if (v->l3proto && v->l3proto != WD_ETH_P_IP && v->l3proto != WD_ETH_P_IPV6)
		append(buf, len, &used, " l3=%s", wd_l3_name(v->l3proto, l3, sizeof(l3)));
	/* --stacks: one word, innermost frame first, "func+0xoff[module]" */
	for (size_t i = 0; i < v->n_stack; i++) {
		const char *fr = v->stack[i];
		size_t n = strcspn(fr, " ");

		append(buf, len, &used, "%s%.*s", i ? ";" : " stack=", (int)n, fr);
		if (fr[n] == ' ')
			append(buf, len, &used, "%s", fr + n + 1);
	}
}

int wd_pcapng_write_drop(struct wd_pcapng_writer *w, const struct wd_drop_view *v,
			 const uint8_t *hdr, size_t hdr_len, uint32_t snaplen)
{
	struct wd_pcapng_packet p = { .ts_ns = v->ts_realtime_ns, .data = hdr };
	char comment[4096];

	wd_pcapng_drop_lengths(v, hdr, hdr_len, snaplen, &p.caplen, &p.origlen);
	wd_pcapng_drop_comment(v, comment, sizeof(comment));
	p.comment = comment;
	return wd_pcapng_write_packet(w, &p);
}

/* ---- comments ---- */

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return false;
	return true;
}

static bool parse_u32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v = 0;

	if (!n || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > UINT32_MAX)
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

static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (!n || n > 19)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
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
 * cgroup, workload.
 */
static void parse_who_word(const char *w, size_t klen, const char *val, size_t vlen,
			   struct wd_pcapng_meta *m)
{
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(w, k, klen))
	uint32_t v;

	if (KEY("netns_name"))
		take_word(m->netns_name, sizeof(m->netns_name), val, vlen, &m->has_netns_name);
	else if (KEY("sock") && vlen == 7 && !memcmp(val, "unknown", 7))
		m->sock_unknown = true;
	else if (KEY("sock") && !m->has_sock)
		m->has_sock = parse_u64(val, vlen, &m->sock);
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

/* ---- reader ---- */

/* Internal: the block was consumed, read the next one. */
#define CONTINUE ((enum wd_pcapng_rec_type)100)

void wd_pcapng_reader_init(struct wd_pcapng_reader *r, FILE *f)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
}

void wd_pcapng_reader_free(struct wd_pcapng_reader *r)
{
	free(r->buf);
	free(r->ifs);
	r->buf = NULL;
	r->ifs = NULL;
	r->cap = 0;
	r->n_ifs = 0;
}

static uint16_t rd16(const struct wd_pcapng_reader *r, const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return r->swap ? bswap_16(v) : v;
}

static uint32_t rd32(const struct wd_pcapng_reader *r, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return r->swap ? bswap_32(v) : v;
}

static uint64_t rd64(const struct wd_pcapng_reader *r, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return r->swap ? bswap_64(v) : v;
}

static uint64_t rd_ts(const struct wd_pcapng_reader *r, const uint8_t *p)
{
	return (uint64_t)rd32(r, p) << 32 | rd32(r, p + 4);
}

__attribute__((format(printf, 2, 3)))
static enum wd_pcapng_rec_type fail(struct wd_pcapng_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->failed = true;
	return WD_PCAPNG_ERROR;
}

__attribute__((format(printf, 3, 4)))
static void malformed(struct wd_pcapng_reader *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->n_malformed++)
		return;
	n = snprintf(r->malformed, sizeof(r->malformed), "block at offset %" PRIu64 ": ", off);
	if (n < 0 || (size_t)n >= sizeof(r->malformed))
		return;
	va_start(ap, fmt);
	vsnprintf(r->malformed + n, sizeof(r->malformed) - (size_t)n, fmt, ap);
	va_end(ap);
}

static bool pcap_magic(const uint8_t *h)
{
	static const uint8_t magics[][4] = {
		{ 0xd4, 0xc3, 0xb2, 0xa1 }, { 0xa1, 0xb2, 0xc3, 0xd4 },
		{ 0x4d, 0x3c, 0xb2, 0xa1 }, { 0xa1, 0xb2, 0x3c, 0x4d },
	};

	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (!memcmp(h, magics[i], 4))
			return true;
	return false;
}

static enum wd_pcapng_rec_type not_pcapng(struct wd_pcapng_reader *r, const uint8_t *h)
{
	if (pcap_magic(h))
		return fail(r, "a classic pcap file, not pcapng (convert it: editcap -F pcapng IN OUT)");
	if (!r->n_sections)
		return fail(r, "not a pcapng file: it does not start with a Section Header Block");
	return fail(r, "block at offset %" PRIu64 " outside any section", r->off);
}

static size_t read_bytes(struct wd_pcapng_reader *r, void *buf, size_t n)
{
	return fread(buf, 1, n, r->f);
}

static enum wd_pcapng_rec_type short_read(struct wd_pcapng_reader *r, const char *what)
{
	if (ferror(r->f))
		return fail(r, "read error at offset %" PRIu64 ": %s", r->off, strerror(errno));
	if (!r->n_sections && !r->off && strcmp(what, "block"))
		return fail(r, "not a pcapng file: too short for a Section Header Block");
	return fail(r, "truncated %s at offset %" PRIu64 " (the file was cut short)", what, r->off);
}

/* Section Header Block: the byte-order magic sets the order of the section. */
static enum wd_pcapng_rec_type read_bom(struct wd_pcapng_reader *r, uint8_t *h)
{
	uint32_t bom;

	if (read_bytes(r, h + 8, 4) != 4)
		return short_read(r, "section header");
	memcpy(&bom, h + 8, 4);
	if (bom == WD_PCAPNG_BOM)
		r->swap = false;
	else if (bswap_32(bom) == WD_PCAPNG_BOM)
		r->swap = true;
	else
		return fail(r, "bad byte-order magic 0x%08x at offset %" PRIu64 ": not a pcapng section",
			    bom, r->off);
	return CONTINUE;
}

static enum wd_pcapng_rec_type check_len(struct wd_pcapng_reader *r, uint32_t type, uint32_t len)
{
	if (len < 12 || len % 4 || (type == WD_PCAPNG_SHB && len < 28))
		return fail(r, "bad block length %" PRIu32 " at offset %" PRIu64, len, r->off);
	if (len > WD_PCAPNG_MAX_BLOCK)
		return fail(r, "block of %" PRIu32 " bytes at offset %" PRIu64
			    " (more than the %u MiB accepted)", len, r->off, WD_PCAPNG_MAX_BLOCK >> 20);
	return CONTINUE;
}

static enum wd_pcapng_rec_type grow(struct wd_pcapng_reader *r, size_t len)
{
	uint8_t *tmp;

	if (len <= r->cap)
		return CONTINUE;
	tmp = realloc(r->buf, len);
	if (!tmp)
		return fail(r, "out of memory for a block of %zu bytes", len);
	r->buf = tmp;
	r->cap = len;
	return CONTINUE;
}

/* One whole, framed block into r->buf. END at a clean end of file. */
static enum wd_pcapng_rec_type read_block(struct wd_pcapng_reader *r, uint32_t *type,
					  uint32_t *len)
{
	uint8_t h[12];
	size_t got = read_bytes(r, h, 8), head = 8;
	enum wd_pcapng_rec_type t;

	if (got == 0 && !ferror(r->f))
		return r->n_sections ? WD_PCAPNG_END : fail(r, "empty file");
	if (got < 8)
		return short_read(r, "block header");
	memcpy(type, h, 4);
	if (*type == WD_PCAPNG_SHB) {	/* a palindrome: same in both orders */
		t = read_bom(r, h);
		if (t != CONTINUE)
			return t;
		head = 12;
	} else if (!r->in_section) {
		return not_pcapng(r, h);
	}
	*type = rd32(r, h);
	*len = rd32(r, h + 4);
	t = check_len(r, *type, *len);
	if (t == CONTINUE)
		t = grow(r, *len);
	if (t != CONTINUE)
		return t;
	memcpy(r->buf, h, head);
	if (read_bytes(r, r->buf + head, *len - head) != *len - head)
		return short_read(r, "block");
	if (rd32(r, r->buf + *len - 4) != *len)
		return fail(r, "block at offset %" PRIu64 " says %" PRIu32
			    " bytes at its start and %" PRIu32 " at its end",
			    r->off, *len, rd32(r, r->buf + *len - 4));
	return CONTINUE;
}

typedef void (*opt_fn)(struct wd_pcapng_reader *r, uint16_t code, const uint8_t *val,
		       uint16_t len, void *ctx);

/* Walk options in [p, end); false if one runs past the block. */
static bool parse_options(struct wd_pcapng_reader *r, const uint8_t *p, const uint8_t *end,
			  opt_fn fn, void *ctx)
{
	uint16_t code, len;

	while (end - p >= 4) {
		code = rd16(r, p);
		len = rd16(r, p + 2);
		p += 4;
		if (code == OPT_ENDOFOPT)
			return true;
		if (pad4(len) > (size_t)(end - p))
			return false;
		fn(r, code, p, len, ctx);
		p += pad4(len);
	}
	return true;
}

/* Printable ASCII copy; anything else becomes '?'. */
static void copy_text(char *dst, size_t cap, const uint8_t *val, size_t len)
{
	size_t n = strnlen((const char *)val, len);

	if (n >= cap)
		n = cap - 1;
	for (size_t i = 0; i < n; i++)
		dst[i] = val[i] >= 0x20 && val[i] < 0x7f ? (char)val[i] : '?';
	dst[n] = '\0';
}

/* Comments keep their bytes (whydrop's parser checks them); joined by '\n'. */
static void add_comment(struct wd_pcapng_reader *r, const uint8_t *val, uint16_t len)
{
	size_t used = strlen(r->comment), n = strnlen((const char *)val, len);

	if (used && used + 1 < sizeof(r->comment))
		r->comment[used++] = '\n';
	if (n > sizeof(r->comment) - 1 - used)
		n = sizeof(r->comment) - 1 - used;
	memcpy(r->comment + used, val, n);
	r->comment[used + n] = '\0';
}

static void shb_opt(struct wd_pcapng_reader *r, uint16_t code, const uint8_t *val, uint16_t len,
		    void *ctx)
{
	(void)ctx;
	if (code == SHB_OS)
		copy_text(r->os, sizeof(r->os), val, len);
	else if (code == SHB_USERAPPL)
		copy_text(r->userappl, sizeof(r->userappl), val, len);
}

static enum wd_pcapng_rec_type on_shb(struct wd_pcapng_reader *r, uint32_t len)
{
	uint16_t major = rd16(r, r->buf + 12), minor = rd16(r, r->buf + 14);

	if (major != 1)
		return fail(r, "pcapng version %u.%u at offset %" PRIu64 " (only 1.x is defined)",
			    major, minor, r->off);
	r->in_section = true;
	r->n_sections++;
	r->n_ifs = 0;
	r->os[0] = r->userappl[0] = '\0';
	if (!parse_options(r, r->buf + 24, r->buf + len - 4, shb_opt, NULL))
		malformed(r, r->off, "section header options run past the block");
	return CONTINUE;
}

static void idb_opt(struct wd_pcapng_reader *r, uint16_t code, const uint8_t *val, uint16_t len,
		    void *ctx)
{
	struct wd_pcapng_if *ifc = ctx;

	(void)r;
	if (code == IF_TSRESOL && len >= 1)
		ifc->tsresol = val[0];
}

static enum wd_pcapng_rec_type on_idb(struct wd_pcapng_reader *r, uint32_t len)
{
	struct wd_pcapng_if ifc = { .tsresol = TSRESOL_DEFAULT }, *tmp;

	if (r->n_ifs >= WD_PCAPNG_MAX_IFS) {
		malformed(r, r->off, "more than %d interfaces", WD_PCAPNG_MAX_IFS);
		return CONTINUE;
	}
	/* Keep the numbering even when the block is bad: later ids refer to it. */
	if (len < 20) {
		malformed(r, r->off, "interface description of %" PRIu32 " bytes", len);
	} else {
		ifc.linktype = rd16(r, r->buf + 8);
		ifc.snaplen = rd32(r, r->buf + 12);
		if (!parse_options(r, r->buf + 16, r->buf + len - 4, idb_opt, &ifc))
			malformed(r, r->off, "interface options run past the block");
	}
	tmp = realloc(r->ifs, (r->n_ifs + 1) * sizeof(*tmp));
	if (!tmp)
		return fail(r, "out of memory for interface %zu", r->n_ifs);
	r->ifs = tmp;
	r->ifs[r->n_ifs++] = ifc;
	return CONTINUE;
}

static uint64_t pow10_u64(unsigned int n)
{
	uint64_t v = 1;

	while (n--)
		v *= 10;
	return v;
}

/* Units of 10^-k or 2^-k seconds (high bit of if_tsresol) to nanoseconds. */
static bool to_ns(uint64_t ts, uint8_t resol, uint64_t *out)
{
	unsigned __int128 v = ts;
	unsigned int k = resol & 0x7f;

	if (resol & 0x80)
		v = (v * 1000000000u) >> k;
	else if (k <= 9)
		v *= pow10_u64(9 - k);
	else if (k - 9 <= 19)
		v /= pow10_u64(k - 9);
	else
		v = 0;
	if (v > UINT64_MAX)
		return false;
	*out = (uint64_t)v;
	return true;
}

static void comment_opt(struct wd_pcapng_reader *r, uint16_t code, const uint8_t *val,
			uint16_t len, void *ctx)
{
	(void)ctx;
	if (code == OPT_COMMENT)
		add_comment(r, val, len);
}

/* Enhanced (and the obsolete) Packet Block: same layout after the id. */
static enum wd_pcapng_rec_type on_epb(struct wd_pcapng_reader *r, uint32_t type, uint32_t len,
				      struct wd_pcapng_rec *rec)
{
	const uint8_t *b = r->buf;

	if (len < 32) {
		malformed(r, r->off, "packet block of %" PRIu32 " bytes", len);
		return CONTINUE;
	}
	rec->if_id = type == WD_PCAPNG_EPB ? rd32(r, b + 8) : rd16(r, b + 8);
	rec->caplen = rd32(r, b + 20);
	rec->origlen = rd32(r, b + 24);
	if (rec->caplen > len - 32) {
		malformed(r, r->off, "captured length %" PRIu32 " exceeds the block", rec->caplen);
		return CONTINUE;
	}
	if (rec->if_id >= r->n_ifs) {
		malformed(r, r->off, "packet on undescribed interface %" PRIu32, rec->if_id);
		return CONTINUE;
	}
	rec->data = b + 28;
	rec->has_ts = to_ns(rd_ts(r, b + 12), r->ifs[rec->if_id].tsresol, &rec->ts_ns);
	r->comment[0] = '\0';
	if (!parse_options(r, b + 28 + pad4(rec->caplen), b + len - 4, comment_opt, NULL))
		malformed(r, r->off, "packet options run past the block");
	rec->comment = r->comment[0] ? r->comment : NULL;
	rec->type = WD_PCAPNG_PACKET;
	return WD_PCAPNG_PACKET;
}

/* Simple Packet Block: interface 0, no timestamp, no options. */
static enum wd_pcapng_rec_type on_spb(struct wd_pcapng_reader *r, uint32_t len,
				      struct wd_pcapng_rec *rec)
{
	uint32_t snap;

	if (len < 16 || !r->n_ifs) {
		malformed(r, r->off, "simple packet block without interface or body");
		return CONTINUE;
	}
	snap = r->ifs[0].snaplen;
	rec->origlen = rd32(r, r->buf + 8);
	rec->caplen = rec->origlen;
	if (snap && rec->caplen > snap)
		rec->caplen = snap;
	if (rec->caplen > len - 16)
		rec->caplen = len - 16;
	rec->data = r->buf + 12;
	rec->type = WD_PCAPNG_PACKET;
	return WD_PCAPNG_PACKET;
}

struct isb_ctx {
	struct wd_pcapng_stats *st;
	uint64_t start, end;
};

static void isb_opt(struct wd_pcapng_reader *r, uint16_t code, const uint8_t *val, uint16_t len,
		    void *ctx)
{
	struct isb_ctx *c = ctx;
	struct wd_pcapng_stats *st = c->st;

	if (code == OPT_COMMENT) {
		add_comment(r, val, len);
		return;
	}
	if (len != 8)
		return;
	if (code == ISB_STARTTIME) {
		c->start = rd_ts(r, val);
		st->has_start = true;
	} else if (code == ISB_ENDTIME) {
		c->end = rd_ts(r, val);
		st->has_end = true;
	} else if (code == ISB_IFRECV) {
		st->ifrecv = rd64(r, val);
		st->has_ifrecv = true;
	} else if (code == ISB_OSDROP) {
		st->osdrop = rd64(r, val);
		st->has_osdrop = true;
	} else if (code == ISB_USRDELIV) {
		st->usrdeliv = rd64(r, val);
		st->has_usrdeliv = true;
	}
}

static enum wd_pcapng_rec_type on_isb(struct wd_pcapng_reader *r, uint32_t len,
				      struct wd_pcapng_rec *rec)
{
	struct isb_ctx c = { .st = &rec->stats };
	uint8_t resol;
	uint32_t id;

	if (len < 24) {
		malformed(r, r->off, "statistics block of %" PRIu32 " bytes", len);
		return CONTINUE;
	}
	id = rd32(r, r->buf + 8);
	r->comment[0] = '\0';
	if (!parse_options(r, r->buf + 20, r->buf + len - 4, isb_opt, &c))
		malformed(r, r->off, "statistics options run past the block");
	resol = id < r->n_ifs ? r->ifs[id].tsresol : 0xff;
	/* Times need the interface's resolution; without it they are unknown. */
	if (c.st->has_start)
		c.st->has_start = id < r->n_ifs && to_ns(c.start, resol, &c.st->start_ns);
	if (c.st->has_end)
		c.st->has_end = id < r->n_ifs && to_ns(c.end, resol, &c.st->end_ns);
	c.st->comment = r->comment[0] ? r->comment : NULL;
	rec->if_id = id;
	rec->type = WD_PCAPNG_STATS;
	return WD_PCAPNG_STATS;
}

static enum wd_pcapng_rec_type on_block(struct wd_pcapng_reader *r, uint32_t type,
					uint32_t len, struct wd_pcapng_rec *rec)
{
	switch (type) {
	case WD_PCAPNG_SHB:
		return on_shb(r, len);
	case WD_PCAPNG_IDB:
		return on_idb(r, len);
	case WD_PCAPNG_EPB:
	case WD_PCAPNG_PB:
		return on_epb(r, type, len, rec);
	case WD_PCAPNG_SPB:
		return on_spb(r, len, rec);
	case WD_PCAPNG_ISB:
		return on_isb(r, len, rec);
	default:
		r->n_skipped++;
		return CONTINUE;
	}
}

enum wd_pcapng_rec_type wd_pcapng_next(struct wd_pcapng_reader *r, struct wd_pcapng_rec *rec)
{
	enum wd_pcapng_rec_type t;
	uint32_t type = 0, len = 0;

	memset(rec, 0, sizeof(*rec));
	if (r->failed)
		return WD_PCAPNG_ERROR;
	do {
		memset(rec, 0, sizeof(*rec));
		t = read_block(r, &type, &len);
		if (t != CONTINUE)
			break;
		t = on_block(r, type, len, rec);
		if (t != WD_PCAPNG_ERROR)
			r->off += len;
	} while (t == CONTINUE);
	rec->type = t;
	return t;
}
