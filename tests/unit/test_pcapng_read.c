// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The pcapng reader: the other byte order and other resolutions, and
 * hostile inputs: every truncation, bogus lengths, wrong magic, bad
 * options, byte flips. The reader must end every file in a bounded number
 * of calls.
 */
#include <errno.h>
#include <unistd.h>

#include "pcapng_fixtures.h"

/* ---- the other byte order, other resolutions ---- */

struct be {
	uint8_t b[1024];
	size_t n;
};

static void be32(struct be *o, uint32_t v)
{
	o->b[o->n++] = (uint8_t)(v >> 24);
	o->b[o->n++] = (uint8_t)(v >> 16);
	o->b[o->n++] = (uint8_t)(v >> 8);
	o->b[o->n++] = (uint8_t)v;
}

static void be16x2(struct be *o, uint16_t a, uint16_t b)
{
	be32(o, (uint32_t)a << 16 | b);
}

/* Big-endian SHB, IDB with if_tsresol resol (none if 0), one EPB at ts. */
static size_t big_endian_file(struct be *o, uint8_t resol, uint64_t ts)
{
	o->n = 0;
	be32(o, WD_PCAPNG_SHB); be32(o, 28); be32(o, WD_PCAPNG_BOM);
	be16x2(o, 1, 0); be32(o, 0xffffffff); be32(o, 0xffffffff); be32(o, 28);
	be32(o, WD_PCAPNG_IDB); be32(o, resol ? 32 : 20);
	be16x2(o, 101, 0); be32(o, 0);
	if (resol) {
		be16x2(o, 9, 1);
		be32(o, (uint32_t)resol << 24);
		be32(o, 0);
	}
	be32(o, resol ? 32 : 20);
	be32(o, WD_PCAPNG_EPB); be32(o, 48); be32(o, 0);
	be32(o, (uint32_t)(ts >> 32)); be32(o, (uint32_t)ts);
	be32(o, 4); be32(o, 4); be32(o, 0x45000004);
	be16x2(o, 1, 4); be32(o, 0x6c6f636e);	/* "locn" */
	be32(o, 0); be32(o, 48);
	return o->n;
}

static void check_ts(uint8_t resol, uint64_t ts, bool has, uint64_t want)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	struct be o;
	FILE *f = mem_file(o.b, big_endian_file(&o, resol, ts));

	wd_pcapng_reader_init(&r, f);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK(r.swap == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__));
	CHECK_INT(rec.has_ts, has);
	if (has)
		CHECK_INT(rec.ts_ns, want);
	CHECK_INT(rec.caplen, 4);
	CHECK(rec.data && rec.data[0] == 0x45);
	CHECK_STR(rec.comment, "locn");
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	wd_pcapng_reader_free(&r);
	fclose(f);
}

static void test_other_byte_order(void)
{
	check_ts(0, 1500000, true, 1500000000ULL);		/* default: µs */
	check_ts(9, 42, true, 42);				/* ns */
	check_ts(3, 7, true, 7000000ULL);			/* ms */
	check_ts(12, 5000, true, 5);				/* ps */
	check_ts(0x80 | 10, 1024 * 3, true, 3000000000ULL);	/* 2^-10 s */
	check_ts(0x80 | 127, UINT64_MAX, true, 0);		/* absurd, no crash */
	check_ts(127, UINT64_MAX, true, 0);
	check_ts(0, UINT64_MAX, false, 0);			/* overflows ns */
}

/* ---- hostile inputs ---- */

static uint8_t *valid_file(size_t *len)
{
	FILE *f = tmpfile();
	uint64_t written;
	uint8_t *buf;

	write_recording(fileno(f), &written);
	buf = fd_bytes(fileno(f), len);
	fclose(f);
	return buf;
}

/* Every prefix ends cleanly: at a block boundary END, else ERROR. */
static void test_truncation(void)
{
	size_t len, bounds[8], nb = 0, off = 0;
	uint8_t *buf = valid_file(&len);
	int bad = 0;

	while (off + 8 <= len && nb < 8) {
		uint32_t l;

		memcpy(&l, buf + off + 4, 4);
		off += l;
		bounds[nb++] = off;
	}
	CHECK_INT(nb, 6);	/* SHB IDB EPB EPB EPB ISB */
	for (size_t cut = 0; cut <= len; cut++) {
		struct tally t = read_to_end(buf, cut, NULL);
		bool at_bound = false;

		for (size_t i = 0; i < nb; i++)
			at_bound |= bounds[i] == cut;
		if (t.last != (at_bound ? WD_PCAPNG_END : WD_PCAPNG_ERROR) || t.calls > 8)
			bad++;
	}
	CHECK_INT(bad, 0);
	free(buf);
}

static enum wd_pcapng_rec_type first_error(const uint8_t *buf, size_t len, char *err,
					   size_t errlen)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	enum wd_pcapng_rec_type t;
	FILE *f = mem_file(buf, len);
	int calls = 0;

	wd_pcapng_reader_init(&r, f);
	do
		t = wd_pcapng_next(&r, &rec);
	while (t > 0 && ++calls < 100);
	snprintf(err, errlen, "%s", r.err);
	wd_pcapng_reader_free(&r);
	fclose(f);
	return t;
}

static void set32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void test_bogus_lengths(void)
{
	static const uint32_t lens[] = { 0, 4, 8, 13, 26, 0xfffffffc, 0xffffffff,
					 WD_PCAPNG_MAX_BLOCK + 4 };
	size_t len;
	uint8_t *buf = valid_file(&len), *copy = malloc(len);
	char err[200];

	uint32_t shb, idb;

	memcpy(&shb, buf + 4, 4);
	memcpy(&idb, buf + shb + 4, 4);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		/* in the SHB, then in the first EPB (after SHB and IDB) */
		memcpy(copy, buf, len);
		set32(copy + 4, lens[i]);
		CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
		memcpy(copy, buf, len);
		set32(copy + shb + idb + 4, lens[i]);
		CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	}
	/* trailing length differs from the leading one */
	memcpy(copy, buf, len);
	set32(copy + shb - 4, shb + 4);
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "at its end") != NULL);
	/* a huge block announced in a small file: truncated, not allocated forever */
	memcpy(copy, buf, len);
	set32(copy + 4, WD_PCAPNG_MAX_BLOCK);
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "truncated") != NULL);
	free(copy);
	free(buf);
}

static void test_bad_magic(void)
{
	static const uint8_t pcap[24] = { 0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0 };
	static const uint8_t text[] = "hello, this is not a capture file at all\n";
	size_t len;
	uint8_t *buf = valid_file(&len), *copy = malloc(len);
	char err[200];

	memcpy(copy, buf, len);
	set32(copy + 8, 0x1a2b3c4e);		/* byte-order magic off by one */
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "byte-order magic") != NULL);
	memcpy(copy, buf, len);
	set32(copy + 12, 2);			/* version 2.0 */
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "version") != NULL);
	CHECK_INT(first_error(pcap, sizeof(pcap), err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "classic pcap") != NULL);
	CHECK_INT(first_error(text, sizeof(text), err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "not a pcapng") != NULL);
	CHECK_INT(first_error(text, 0, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "empty") != NULL);
	free(copy);
	free(buf);
}

/* Well-framed blocks with bad insides: skipped or read in part, never fatal. */
static void test_bad_contents(void)
{
	static const uint8_t head[] = {
		0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a,
		1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 28, 0, 0, 0,
		1, 0, 0, 0, 20, 0, 0, 0, 101, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0,
	};
	static const uint8_t blocks[] = {
		/* EPB, caplen 200 in a 36-byte block */
		6, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		200, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4, 36, 0, 0, 0,
		/* EPB on interface 7, which nobody described */
		6, 0, 0, 0, 32, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0,
		/* EPB with a zero-length comment, then an option of 0xffff bytes */
		6, 0, 0, 0, 44, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0xff, 0xff, 0, 0, 0, 0,
		44, 0, 0, 0,
		/* unknown block type 0x0bad */
		0xad, 0x0b, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0,
		/* EPB too short for its fields */
		6, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0,
		/* ISB on interface 3: counters kept, times unknown */
		5, 0, 0, 0, 48, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		2, 0, 8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 8, 0, 9, 0, 0, 0, 0, 0, 0, 0,
		48, 0, 0, 0,
		/* SPB, original length 1000, 4 bytes present */
		3, 0, 0, 0, 20, 0, 0, 0, 0xe8, 3, 0, 0, 0x45, 0, 0, 0, 20, 0, 0, 0,
	};
	uint8_t buf[sizeof(head) + sizeof(blocks)];
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	FILE *f;

	memcpy(buf, head, sizeof(head));
	memcpy(buf + sizeof(head), blocks, sizeof(blocks));
	f = mem_file(buf, sizeof(buf));
	wd_pcapng_reader_init(&r, f);
	/* the first two EPBs are skipped; the third is read without its options */
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK_INT(rec.caplen, 0);
	CHECK(rec.comment == NULL);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_STATS);
	CHECK(!rec.stats.has_start);
	CHECK(rec.stats.has_ifrecv && rec.stats.ifrecv == 9);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK_INT(rec.origlen, 1000);
	CHECK_INT(rec.caplen, 4);
	CHECK(!rec.has_ts);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	CHECK_INT(r.n_skipped, 1);
	CHECK_INT(r.n_malformed, 4);
	CHECK(strstr(r.malformed, "offset 48") && strstr(r.malformed, "captured length 200"));
	wd_pcapng_reader_free(&r);
	fclose(f);
}

/* Many comments: joined, cut at the buffer, never overrun. */
static void test_many_comments(void)
{
	static uint8_t buf[48 + 28 + 20000];
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	size_t n = 48, start;
	FILE *f;

	memcpy(buf, "\x0a\x0d\x0d\x0a\x1c\0\0\0\x4d\x3c\x2b\x1a\1\0\0\0"
		    "\xff\xff\xff\xff\xff\xff\xff\xff\x1c\0\0\0"
		    "\1\0\0\0\x14\0\0\0\x65\0\0\0\0\0\0\0\x14\0\0\0", 48);
	start = n;
	set32(buf + n, WD_PCAPNG_EPB);
	n += 28;
	memset(buf + start + 8, 0, 20);
	for (int i = 0; i < 300; i++) {	/* 300 comments of 40 bytes */
		set32(buf + n, 1 | 40u << 16);
		memset(buf + n + 4, 'a' + i % 26, 40);
		n += 44;
	}
	n += 4;
	set32(buf + start + 4, (uint32_t)(n - start));
	set32(buf + n - 4, (uint32_t)(n - start));
	f = mem_file(buf, n);
	wd_pcapng_reader_init(&r, f);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK(rec.comment && strlen(rec.comment) == sizeof(r.comment) - 1);
	CHECK(rec.comment && rec.comment[40] == '\n' && rec.comment[41] == 'b');
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	wd_pcapng_reader_free(&r);
	fclose(f);
}

/* Byte flips everywhere: each read ends, in at most one call per block. */
static void test_byte_flips(void)
{
	static const uint8_t vals[] = { 0x00, 0xff, 0x80, 0x01, 0x7f };
	size_t len;
	uint8_t *buf = valid_file(&len), *copy = malloc(len);
	int runaway = 0, runs = 0;

	for (size_t i = 0; i < len; i++) {
		for (size_t v = 0; v < sizeof(vals); v++) {
			struct tally t;

			memcpy(copy, buf, len);
			copy[i] = vals[v];
			t = read_to_end(copy, len, NULL);
			runaway += t.calls > 8;
			runs++;
		}
	}
	CHECK_INT(runaway, 0);
	CHECK(runs > 1000);
	free(copy);
	free(buf);
}

UNIT_MAIN(test_other_byte_order, test_truncation, test_bogus_lengths, test_bad_magic,
	  test_bad_contents, test_many_comments, test_byte_flips)
