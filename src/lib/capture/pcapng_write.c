// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The pcapng writer of `whydrop record`; see pcapng_write.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drop_comment.h"
#include "pcapng_blocks.h"
#include "pcapng_write.h"

#define WRITER_BUF	(64u << 10)
#define MAX_OPT_LEN	0xffffu

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

/*
 * EPBs complete within the first n bytes of the buffer (our own blocks),
 * those of interface 0 and of the others apart.
 */
static void complete_epbs(const uint8_t *buf, size_t n, uint64_t *epbs, uint64_t *other)
{
	size_t off = 0;
	uint32_t type, len, if_id;

	while (off + 12 <= n) {
		memcpy(&type, buf + off, 4);
		memcpy(&len, buf + off + 4, 4);
		memcpy(&if_id, buf + off + 8, 4);
		if (len < 12 || off + len > n)
			break;
		if (type == WD_PCAPNG_EPB)
			*(if_id ? other : epbs) += 1;
		off += len;
	}
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
			complete_epbs(w->buf, done, &w->written, &w->other_written);
			w->pending = w->other_pending = 0;
			w->len = 0;
			return -w->err;
		}
		done += (size_t)n;
	}
	w->written += w->pending;
	w->other_written += w->other_pending;
	w->pending = w->other_pending = 0;
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
	size_t opts = str_opt_size(h->comment) + str_opt_size(h->hardware) +
		      str_opt_size(h->os) + str_opt_size(h->userappl);
	size_t total = 28 + end_size(opts);
	int err = begin_block(w, WD_PCAPNG_SHB, total);

	if (err)
		return err;
	put32(w, WD_PCAPNG_BOM);
	put16(w, 1);			/* major version */
	put16(w, 0);			/* minor version */
	put64(w, UINT64_MAX);		/* section length: not given */
	put_str_opt(w, OPT_COMMENT, h->comment);
	put_str_opt(w, SHB_HARDWARE, h->hardware);
	put_str_opt(w, SHB_OS, h->os);
	put_str_opt(w, SHB_USERAPPL, h->userappl);
	put_end(w, opts);
	put32(w, (uint32_t)total);
	return 0;
}

static int write_idb(struct wd_pcapng_writer *w, uint16_t linktype, uint32_t snaplen,
		     const char *name, const char *description)
{
	static const uint8_t tsresol = TSRESOL_NS;
	size_t opts = str_opt_size(name) + str_opt_size(description) + 8;
	size_t total = 20 + end_size(opts);
	int err = begin_block(w, WD_PCAPNG_IDB, total);

	if (err)
		return err;
	put16(w, linktype);
	put16(w, 0);
	put32(w, snaplen);
	put_str_opt(w, IF_NAME, name);
	put_str_opt(w, IF_DESCRIPTION, description);
	put_opt(w, IF_TSRESOL, &tsresol, 1);
	put_end(w, opts);
	put32(w, (uint32_t)total);
	return 0;
}

int wd_pcapng_write_header(struct wd_pcapng_writer *w, const struct wd_pcapng_header *h)
{
	int err = write_shb(w, h);

	if (!err)
		err = write_idb(w, h->linktype, h->snaplen, h->if_name, h->if_description);
	if (!err && h->if2_name)
		err = write_idb(w, h->linktype, h->if2_snaplen, h->if2_name,
				h->if2_description);
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
	put32(w, p->if_id);
	put_ts(w, p->ts_ns);
	put32(w, p->caplen);
	put32(w, p->origlen);
	put(w, p->data, p->caplen);
	put_zero(w, pad4(p->caplen) - p->caplen);
	put_str_opt(w, OPT_COMMENT, p->comment);
	put_end(w, str_opt_size(p->comment));
	put32(w, (uint32_t)total);
	if (p->if_id) {
		w->other_packets++;
		w->other_pending++;
	} else {
		w->packets++;
		w->pending++;
	}
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

void wd_pcapng_drop_lengths(const struct wd_drop_view *v, const uint8_t *hdr, size_t hdr_len,
			    uint32_t snaplen, uint32_t *caplen, uint32_t *origlen)
{
	uint32_t cap = 0, orig = wd_drop_ip_len(v);

	if (ip_bytes(v, hdr, hdr_len))
		cap = hdr_len < snaplen ? (uint32_t)hdr_len : snaplen;
	if (orig && cap > orig)
		cap = orig;	/* bytes past the IP packet: link padding */
	if (!orig)
		orig = v->skb_len > cap ? v->skb_len : cap;
	*caplen = cap;
	*origlen = orig;
}

void wd_pcapng_drop_packet(const struct wd_drop_view *v, const uint8_t *hdr, size_t hdr_len,
			   uint32_t snaplen, char *comment, size_t len, struct wd_pcapng_packet *p)
{
	*p = (struct wd_pcapng_packet){ .ts_ns = v->ts_realtime_ns, .data = hdr,
					.comment = comment };
	wd_pcapng_drop_lengths(v, hdr, hdr_len, snaplen, &p->caplen, &p->origlen);
	wd_pcapng_drop_comment(v, comment, len);
}
