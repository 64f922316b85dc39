// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The pcapng reader of `whydrop read`; see pcapng_read.h. */
#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcapng_blocks.h"
#include "pcapng_read.h"

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
	else if (code == OPT_COMMENT && !r->shb_comment[0])
		copy_text(r->shb_comment, sizeof(r->shb_comment), val, len);
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
	r->os[0] = r->userappl[0] = r->shb_comment[0] = '\0';
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
	const struct {
		uint16_t code;
		bool ts;	/* a timestamp, else a count */
		uint64_t *v;
		bool *has;
	} opts[] = {
		{ ISB_STARTTIME, true, &c->start, &st->has_start },
		{ ISB_ENDTIME, true, &c->end, &st->has_end },
		{ ISB_IFRECV, false, &st->ifrecv, &st->has_ifrecv },
		{ ISB_OSDROP, false, &st->osdrop, &st->has_osdrop },
		{ ISB_USRDELIV, false, &st->usrdeliv, &st->has_usrdeliv },
	};

	if (code == OPT_COMMENT) {
		add_comment(r, val, len);
		return;
	}
	if (len != 8)
		return;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (opts[i].code != code)
			continue;
		*opts[i].v = opts[i].ts ? rd_ts(r, val) : rd64(r, val);
		*opts[i].has = true;
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
