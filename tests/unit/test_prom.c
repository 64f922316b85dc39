// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The Prometheus exposition format: rendering, escaping, the cardinality cap. */
#include "prom.h"
#include "unit.h"

static const char *escape(struct wd_prom_buf *b, const char *s)
{
	b->len = 0;
	wd_prom_escape(b, s);
	return b->data ? b->data : "";
}

static void test_escape(void)
{
	struct wd_prom_buf b = {};

	CHECK_STR(escape(&b, "tcp_v4_rcv"), "tcp_v4_rcv");
	CHECK_STR(escape(&b, "a\\b"), "a\\\\b");
	CHECK_STR(escape(&b, "say \"hi\""), "say \\\"hi\\\"");
	CHECK_STR(escape(&b, "two\nlines"), "two\\nlines");
	CHECK_STR(escape(&b, "\\\"\n"), "\\\\\\\"\\n");
	CHECK_STR(escape(&b, ""), "");
	/* label values are UTF-8: well-formed kept, anything else U+FFFD */
	CHECK_STR(escape(&b, "v\xc3\xa9th\"0"), "v\xc3\xa9th\\\"0");
	CHECK_STR(escape(&b, "a\xff" "b\xc3"), "a\xef\xbf\xbd" "b\xef\xbf\xbd");
	CHECK(!b.failed);
	wd_prom_buf_free(&b);
}

static struct wd_prom_family drops(void)
{
	struct wd_prom_family f = {
		.name = "whydrop_drops_total", .type = "counter",
		.help = "Packets dropped.\nBy reason \\ layer",
		.labels = { "reason", "layer", "function" }, .nlabels = 3,
	};
	return f;
}

static void add3(struct wd_prom_family *f, const char *a, const char *b, const char *c,
		 uint64_t v)
{
	const char *vals[] = { a, b, c };

	CHECK_INT(wd_prom_add(f, vals, v), 0);
}

static void test_render(void)
{
	struct wd_prom_family f = drops();
	struct wd_prom_buf b = {};

	add3(&f, "NO_SOCKET", "TCP/UDP", "__udp4_lib_rcv", 5);
	add3(&f, "NO_SOCKET", "TCP/UDP", "__udp4_lib_rcv", 2);	/* another offset */
	add3(&f, "IP_CSUM", "IPv4", "we\"ird\\fn\n", 1);
	wd_prom_merge(&f);
	CHECK_INT(f.n, 2);
	wd_prom_render_family(&b, &f);
	wd_prom_render_value(&b, "whydrop_lost_events_total", "counter", "Lost.", 3);
	CHECK_STR(b.data,
		  "# HELP whydrop_drops_total Packets dropped.\\nBy reason \\\\ layer\n"
		  "# TYPE whydrop_drops_total counter\n"
		  "whydrop_drops_total{reason=\"IP_CSUM\",layer=\"IPv4\","
		  "function=\"we\\\"ird\\\\fn\\n\"} 1\n"
		  "whydrop_drops_total{reason=\"NO_SOCKET\",layer=\"TCP/UDP\","
		  "function=\"__udp4_lib_rcv\"} 7\n"
		  "# HELP whydrop_lost_events_total Lost.\n"
		  "# TYPE whydrop_lost_events_total counter\n"
		  "whydrop_lost_events_total 3\n");
	CHECK_INT(b.len, strlen(b.data));
	wd_prom_family_clear(&f);
	wd_prom_buf_free(&b);
}

static void test_render_empty(void)
{
	struct wd_prom_family f = drops();
	struct wd_prom_buf b = {};

	f.help = "Drops.";
	wd_prom_merge(&f);
	wd_prom_render_family(&b, &f);
	CHECK_STR(b.data, "# HELP whydrop_drops_total Drops.\n"
			  "# TYPE whydrop_drops_total counter\n");
	wd_prom_buf_free(&b);
}

static void test_single_label(void)
{
	struct wd_prom_family f = {
		.name = "whydrop_netns_drops_total", .type = "counter", .help = "By netns.",
		.labels = { "netns" }, .nlabels = 1,
	};
	const char *a[] = { "4026531840" }, *c[] = { "4026532174" };
	struct wd_prom_buf b = {};

	CHECK_INT(wd_prom_add(&f, c, 4), 0);
	CHECK_INT(wd_prom_add(&f, a, 9), 0);
	wd_prom_merge(&f);
	wd_prom_render_family(&b, &f);
	CHECK_STR(b.data, "# HELP whydrop_netns_drops_total By netns.\n"
			  "# TYPE whydrop_netns_drops_total counter\n"
			  "whydrop_netns_drops_total{netns=\"4026531840\"} 9\n"
			  "whydrop_netns_drops_total{netns=\"4026532174\"} 4\n");
	wd_prom_family_clear(&f);
	wd_prom_buf_free(&b);
}

/*
 * The cap across scrapes: the text of each scrape is rendered into b.
 * One scrape: v[i] is label set i's input (ABSENT: not in it) and ret[i]
 * says its object is gone for good (series that retire: serve
 * --per-cgroup, --per-netns).
 */
struct capped {
	struct wd_prom_cap c;
	struct wd_prom_buf b;
};

#define ABSENT UINT64_MAX

static void scrape(struct capped *p, const uint64_t *v, const bool *ret, size_t n)
{
	static const char *const names[] = { "A", "B", "C", "D", "E" };
	struct wd_prom_family f = drops();

	f.help = "D.";
	for (size_t i = 0; i < n; i++) {
		const char *vals[] = { names[i], "L", "f" };

		if (v[i] != ABSENT)
			CHECK_INT(wd_prom_add_retired(&f, vals, v[i], ret && ret[i]), 0);
	}
	wd_prom_merge(&f);
	CHECK_INT(wd_prom_cap_apply(&p->c, &f), 0);
	p->b.len = 0;
	wd_prom_render_family(&p->b, &f);
	wd_prom_family_clear(&f);
}

/* A scrape whose page is @want. */
static void scrape_is(struct capped *p, const uint64_t *v, const bool *ret, size_t n,
		      const char *want)
{
	scrape(p, v, ret, n);
	CHECK_STR(p->b.data, want);
}

static void capped_free(struct capped *p)
{
	wd_prom_cap_free(&p->c);
	wd_prom_buf_free(&p->b);
}

#define HDR "# HELP whydrop_drops_total D.\n# TYPE whydrop_drops_total counter\n"
#define S(r, v) "whydrop_drops_total{reason=\"" r "\",layer=\"L\",function=\"f\"} " #v "\n"
#define OTHER(v) "whydrop_drops_total{reason=\"other\",layer=\"other\",function=\"other\"} " #v "\n"

static void test_cap_fold(void)
{
	struct capped p = { .c = { .max = 3 } };
	uint64_t v1[] = { 1, 50, 7, 3 };
	uint64_t v2[] = { 1000, 51, 7, 3, 2 };	/* A grows past the admitted */

	/* Two largest kept, the other two summed; the fold is the third series. */
	scrape_is(&p, v1, NULL, 4, HDR S("B", 50) S("C", 7) OTHER(4));
	CHECK_INT(p.c.folded, 2);
	/* Admission is sticky: A stays folded, so every series only grows. */
	scrape_is(&p, v2, NULL, 5, HDR S("B", 51) S("C", 7) OTHER(1005));
	CHECK_INT(p.c.folded, 3);
	capped_free(&p);
}

static void test_cap_room(void)
{
	struct capped p = { .c = { .max = 10 } };
	uint64_t v1[] = { ABSENT, 5 };
	uint64_t v2[] = { 2, 6 };

	/* Under the cap: the fold is present, at zero. */
	scrape_is(&p, v1, NULL, 2, HDR S("B", 5) OTHER(0));
	CHECK_INT(p.c.folded, 0);
	scrape_is(&p, v2, NULL, 2, HDR S("A", 2) S("B", 6) OTHER(0));
	capped_free(&p);
}

static void test_cap_one(void)
{
	struct capped p = { .c = { .max = 1 } };
	uint64_t v[] = { 1, 2, 3 };

	scrape_is(&p, v, NULL, 3, HDR OTHER(6));
	CHECK_INT(p.c.folded, 3);
	capped_free(&p);
}

static void test_cap_empty(void)
{
	struct capped p = { .c = { .max = 500 } };

	/* No drop yet: the fold alone, at zero. */
	scrape_is(&p, NULL, NULL, 0, HDR OTHER(0));
	CHECK_INT(p.c.folded, 0);
	capped_free(&p);
}

/* Many label sets: the total is kept exactly whatever the cap. */
static void test_cap_many(void)
{
	struct wd_prom_family f = drops();
	struct wd_prom_cap c = { .max = 500 };
	uint64_t sum = 0, want = 0;
	char name[32];
	int errors = 0;

	for (int i = 0; i < 5000; i++) {
		const char *vals[] = { name, "L", "f" };

		snprintf(name, sizeof(name), "R%d", i);
		errors += wd_prom_add(&f, vals, (uint64_t)i + 1) != 0;
		want += (uint64_t)i + 1;
	}
	CHECK_INT(errors, 0);
	wd_prom_merge(&f);
	CHECK_INT(wd_prom_cap_apply(&c, &f), 0);
	CHECK_INT(f.n, 500);
	CHECK_INT(c.folded, 4501);
	for (size_t i = 0; i < f.n; i++)
		sum += f.s[i].value;
	CHECK_INT(sum, want);
	CHECK_STR(f.s[f.n - 1].v[0], "other");
	/* The 499 largest were admitted: R4501..R4999. */
	CHECK_STR(f.s[0].v[0], "R4501");
	wd_prom_family_clear(&f);
	wd_prom_cap_free(&c);
}

/* A retired series leaves the page and its room goes to a newcomer. */
static void test_cap_retire(void)
{
	struct capped p = { .c = { .max = 3 } };
	uint64_t v1[] = { 5, 9, ABSENT };
	uint64_t v2[] = { 5, 9, 4 };
	bool r3[] = { true, false, false };
	uint64_t v4[] = { ABSENT, 10, 4 };

	scrape_is(&p, v1, NULL, 3, HDR S("A", 5) S("B", 9) OTHER(0));
	/* full: C goes to the fold */
	scrape_is(&p, v2, NULL, 3, HDR S("A", 5) S("B", 9) OTHER(4));
	/*
	 * A retires: its series vanishes; C, folded, gets A's room and counts
	 * from there; its 4 stay in the fold, which never goes down.
	 */
	scrape_is(&p, v2, r3, 3, HDR S("B", 9) S("C", 0) OTHER(4));
	CHECK_INT(p.c.folded, 0);
	CHECK_INT(p.c.retired, 1);
	/* A forgotten (gone from the input): its tombstone is freed. */
	scrape_is(&p, v4, NULL, 3, HDR S("B", 10) S("C", 0) OTHER(4));
	CHECK_INT(p.c.n, 2);
	capped_free(&p);
}

/* A folded label set that retires leaves its value in the fold. */
static void test_cap_retire_folded(void)
{
	struct capped p = { .c = { .max = 2 } };
	uint64_t v1[] = { 7, 3, 2 };
	bool r2[] = { false, true, false };
	uint64_t v3[] = { 8, ABSENT, 6 };

	scrape_is(&p, v1, NULL, 3, HDR S("A", 7) OTHER(5));
	scrape_is(&p, v1, r2, 3, HDR S("A", 7) OTHER(5));
	CHECK_INT(p.c.folded, 1);
	scrape_is(&p, v3, NULL, 3, HDR S("A", 8) OTHER(9));
	capped_free(&p);
}

/*
 * A tombstone in the input (a namespace whose counts the session keeps)
 * stays off the page until its input grows: then its series counts from 0.
 */
static void test_cap_revive(void)
{
	struct capped p = { .c = { .max = 5 } };
	uint64_t v1[] = { 40, 1 };
	bool r1[] = { true, false };
	uint64_t v3[] = { 43, 1 };

	scrape(&p, v1, NULL, 2);
	scrape_is(&p, v1, r1, 2, HDR S("B", 1) OTHER(0));
	/* still retired, still 40: nothing */
	scrape_is(&p, v1, NULL, 2, HDR S("B", 1) OTHER(0));
	scrape_is(&p, v3, NULL, 2, HDR S("A", 3) S("B", 1) OTHER(0));
	capped_free(&p);
}

/* An input that shrinks (one of two cgroups with one label forgotten) is carried. */
static void test_cap_carry(void)
{
	struct capped p = { .c = { .max = 5 } };
	uint64_t v1[] = { 30 }, v2[] = { 12 }, v3[] = { 15 };

	scrape(&p, v1, NULL, 1);
	scrape_is(&p, v2, NULL, 1, HDR S("A", 30) OTHER(0));
	scrape_is(&p, v3, NULL, 1, HDR S("A", 33) OTHER(0));
	capped_free(&p);
}

/* Churn: 30 label sets, 3 alive at a time, under max 4: each gets a series. */
static void test_cap_churn(void)
{
	struct wd_prom_family f = drops();
	struct wd_prom_cap c = { .max = 4 };
	char name[3][8];
	int own = 0, errors = 0;

	for (int round = 0; round < 10; round++) {
		for (int phase = 0; phase < 2; phase++) {
			for (int j = 0; j < 3; j++) {
				const char *vals[] = { name[j], "L", "f" };

				snprintf(name[j], sizeof(name[j]), "R%d", round * 3 + j);
				errors += wd_prom_add_retired(&f, vals, 10 + (uint64_t)j,
							      phase == 1) != 0;
			}
			wd_prom_merge(&f);
			errors += wd_prom_cap_apply(&c, &f) != 0;
			for (size_t i = 0; phase == 0 && i < f.n; i++)
				own += strcmp(f.s[i].v[0], "other") != 0;
			errors += phase == 1 && f.n != 1;	/* the fold alone */
			wd_prom_family_clear(&f);
		}
	}
	CHECK_INT(errors, 0);
	CHECK_INT(own, 30);
	CHECK_INT(c.fold_base, 0);
	CHECK_INT(c.retired, 30);
	wd_prom_cap_free(&c);
}

UNIT_MAIN(test_escape, test_render, test_render_empty, test_single_label, test_cap_fold,
	  test_cap_room, test_cap_one, test_cap_empty, test_cap_many, test_cap_retire,
	  test_cap_retire_folded, test_cap_revive, test_cap_carry, test_cap_churn)
