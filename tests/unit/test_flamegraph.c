// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SVG flame graph writer (src/lib/output/flamegraph*.c): well-formed XML
 * (checked by a small parser here), widths proportional to the exact
 * counts, escaping, zero and huge counts, deterministic output, the folded
 * text parser and its errors.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "flamegraph.h"
#include "unit.h"
#include "utf8.h"

static const struct wd_flame_opts opts = {
	.title = "Kernel stacks of dropped packets", .subtitle = "a <test> & \"its\" 'quotes'",
	.unit = "drops", .unit_one = "drop",
};

static char *svg_of(const struct wd_flame *fg)
{
	struct unit_stream s;

	CHECK_INT(wd_flame_write_svg(unit_stream_open(&s), fg, &opts), 0);
	return unit_stream_text(&s);
}

/* ------------------------------------------- a small XML well-formedness check */

/* "&amp;" and the other four, or a character reference: its length, 0 if none. */
static size_t entity(const char *s)
{
	static const char *const names[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	size_t n = 2;

	for (size_t i = 0; i < 5; i++)
		if (!strncmp(s, names[i], strlen(names[i])))
			return strlen(names[i]);
	if (strncmp(s, "&#", 2))
		return 0;
	while (isalnum((unsigned char)s[n]))
		n++;
	return s[n] == ';' && n > 2 ? n + 1 : 0;
}

/* Text or an attribute's value up to stop: no '<', '&' only in references, UTF-8. */
static const char *xml_chars(const char *s, char stop)
{
	while (*s && *s != stop) {
		size_t n = *s == '&' ? entity(s) : wd_utf8_len(s);

		if (*s == '<' || !n)
			return NULL;
		if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
			return NULL;
		s += n;
	}
	return s;
}

static const char *xml_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return NULL;
	while (isalnum((unsigned char)*s) || *s == '-' || *s == '_' || *s == ':' || *s == '.')
		s++;
	return s;
}

/* A start tag's attributes: name="value", each name once. */
static const char *xml_attrs(const char *s, bool *empty)
{
	char seen[32][40];
	size_t n = 0;

	for (;;) {
		const char *name;

		while (*s == ' ' || *s == '\n')
			s++;
		if (*s == '>' || !strncmp(s, "/>", 2)) {
			*empty = *s == '/';
			return s + (*empty ? 2 : 1);
		}
		name = s;
		s = xml_name(s);
		if (!s || s - name >= 40 || n == 32 || s[0] != '=' || s[1] != '"')
			return NULL;
		for (size_t i = 0; i < n; i++)
			if (!strncmp(seen[i], name, (size_t)(s - name)) && !seen[i][s - name])
				return NULL;
		snprintf(seen[n++], sizeof(seen[0]), "%.*s", (int)(s - name), name);
		s = xml_chars(s + 2, '"');
		if (!s || *s != '"')
			return NULL;
		s++;
	}
}

/* Well-formed: one root element, tags balanced, text and attributes escaped. */
static bool well_formed(const char *doc)
{
	const char *stack[2048], *s = doc;
	size_t lens[2048], depth = 0, roots = 0;

	if (!strncmp(s, "<?xml", 5)) {
		s = strstr(s, "?>");
		if (!s)
			return false;
		s += 2;
	}
	while (*s) {
		if (!strncmp(s, "<![CDATA[", 9)) {
			s = strstr(s, "]]>");
			if (!s || !depth)
				return false;
			s += 3;
		} else if (!strncmp(s, "</", 2)) {
			const char *name = s + 2, *end = xml_name(name);

			if (!end || !depth || *end != '>')
				return false;
			if ((size_t)(end - name) != lens[depth - 1] ||
			    strncmp(name, stack[depth - 1], lens[depth - 1]))
				return false;
			depth--;
			s = end + 1;
		} else if (*s == '<') {
			const char *name = s + 1, *end = xml_name(name);
			bool empty;

			if (!end || depth == 2048 || (!depth && roots++))
				return false;
			s = xml_attrs(end, &empty);
			if (!s)
				return false;
			if (!empty) {
				stack[depth] = name;
				lens[depth++] = (size_t)(end - name);
			}
		} else {
			s = xml_chars(s, '<');
			if (!s || (!depth && s[-1] != '\n' && *s != '<' && *s))
				return false;
		}
	}
	return !depth && roots == 1;
}

static void test_xml_checker(void)
{
	/* the checker itself must refuse what is not XML */
	CHECK(well_formed("<a x=\"1\"><b/>t &amp; u</a>\n"));
	CHECK(!well_formed("<a><b></a></b>"));
	CHECK(!well_formed("<a>x & y</a>"));
	CHECK(!well_formed("<a x=\"<\"/>"));
	CHECK(!well_formed("<a x=\"1\" x=\"2\"/>"));
	CHECK(!well_formed("<a>\x01</a>"));
	CHECK(!well_formed("<a>\xff</a>"));
	CHECK(!well_formed("<a/><b/>"));
	CHECK(!well_formed("<a>"));
}

/* ------------------------------------------------------------ frames */

struct frame {
	char id[16], parent[16], name[256];
	uint64_t x, n;
	double rx, rw;
	bool has_parent;
};

static const char *attr(const char *tag, const char *name, char *out, size_t len)
{
	char key[64];
	const char *p, *end;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	if (!p || p > strchr(tag, '>'))
		return NULL;
	p += strlen(key);
	end = strchr(p, '"');
	snprintf(out, len, "%.*s", (int)(end - p), p);
	return out;
}

/* The frames of an SVG in document order; at most max. */
static size_t frames_of(const char *svg, struct frame *v, size_t max)
{
	const char *p = svg;
	size_t n = 0;
	char buf[64];

	while (n < max && (p = strstr(p, "<g class=\"fr\"")) != NULL) {
		struct frame *f = &v[n++];
		const char *t = strstr(p, "<title>") + 7, *r = strstr(p, "<rect");

		memset(f, 0, sizeof(*f));
		attr(p, "id", f->id, sizeof(f->id));
		f->has_parent = attr(p, "data-p", f->parent, sizeof(f->parent));
		f->x = strtoull(attr(p, "data-x", buf, sizeof(buf)), NULL, 10);
		f->n = strtoull(attr(p, "data-n", buf, sizeof(buf)), NULL, 10);
		snprintf(f->name, sizeof(f->name), "%.*s", (int)strcspn(t, "\n"), t);
		f->rx = strtod(attr(r, "x", buf, sizeof(buf)), NULL);
		f->rw = strtod(attr(r, "width", buf, sizeof(buf)), NULL);
		p = r;
	}
	return n;
}

static const struct frame *find(const struct frame *v, size_t n, const char *name,
				const char *parent)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name) && (!parent || !strcmp(v[i].parent, parent)))
			return &v[i];
	return NULL;
}

static void test_counts_and_widths(void)
{
	struct frame v[32];
	struct wd_flame fg;
	const struct frame *all, *ns, *csum, *rcv, *tcp;
	size_t n;
	char *svg;

	CHECK_INT(wd_flame_init(&fg), 0);
	CHECK_INT(wd_flame_add(&fg, "NO_SOCKET;ip_rcv;__udp4_lib_rcv", 37), 0);
	CHECK_INT(wd_flame_add(&fg, "NO_SOCKET;ip_rcv;tcp_v4_rcv", 4), 0);
	CHECK_INT(wd_flame_add(&fg, "TCP_CSUM;ip_rcv;tcp_v4_rcv", 9), 0);
	CHECK_INT(wd_flame_add(&fg, "NO_SOCKET;ip_rcv;__udp4_lib_rcv", 5), 0);	/* merged */
	CHECK_INT(wd_flame_total(&fg), 55);
	svg = svg_of(&fg);
	CHECK(well_formed(svg));
	n = frames_of(svg, v, 32);
	CHECK_INT(n, 8);	/* all, 2 reasons, 2 ip_rcv, 3 leaves */
	all = find(v, n, "all", NULL);
	ns = find(v, n, "NO_SOCKET", "f0");
	csum = find(v, n, "TCP_CSUM", "f0");
	CHECK(all && ns && csum);
	if (!all || !ns || !csum)
		goto out;
	CHECK_INT(all->n, 55);
	CHECK_INT(ns->n, 46);
	CHECK_INT(csum->n, 9);
	CHECK_INT(csum->x, 46);	/* after NO_SOCKET: children by name */
	rcv = find(v, n, "ip_rcv", ns->id);
	CHECK(rcv && rcv->n == 46);
	tcp = rcv ? find(v, n, "tcp_v4_rcv", rcv->id) : NULL;
	CHECK(tcp && tcp->n == 4 && tcp->x == 42);
	/* every width and x is its count's share of 1180 pixels */
	for (size_t i = 0; i < n; i++) {
		CHECK(fabs(v[i].rw - 1180.0 * (double)v[i].n / 55) < 0.001);
		CHECK(fabs(v[i].rx - (10 + 1180.0 * (double)v[i].x / 55)) < 0.001);
	}
	CHECK(strstr(svg, "<title>__udp4_lib_rcv\n42 drops, 76.36% of all</title>"));
	CHECK(strstr(svg, "<title>all\n55 drops, 100.00% of all</title>"));
	CHECK(strstr(svg, "data-total=\"55\""));
	CHECK(strstr(svg, "<script type=\"text/ecmascript\"><![CDATA["));
	CHECK(!strstr(svg, "http://") || !strstr(strstr(svg, "http://") + 7, "http"));
out:
	free(svg);
	wd_flame_free(&fg);
}

static void test_escaping(void)
{
	static const char stack[] =
		"R<1>;a&b;\"q\";'s';ctl\x01x;bad\xff\xfe;ok\xc3\xa9;nc\xef\xbf\xbe";
	struct wd_flame fg;
	char *svg;

	CHECK_INT(wd_flame_init(&fg), 0);
	CHECK_INT(wd_flame_add(&fg, stack, 1), 0);
	svg = svg_of(&fg);
	CHECK(well_formed(svg));
	CHECK(strstr(svg, "<title>R&lt;1&gt;\n1 drop, 100.00% of all</title>"));
	CHECK(strstr(svg, ">a&amp;b<"));
	CHECK(strstr(svg, ">&quot;q&quot;<"));
	CHECK(strstr(svg, ">&apos;s&apos;<"));
	CHECK(strstr(svg, ">ctl" WD_UTF8_REPLACEMENT "x<"));
	CHECK(strstr(svg, ">bad" WD_UTF8_REPLACEMENT WD_UTF8_REPLACEMENT "<"));
	CHECK(strstr(svg, ">ok\xc3\xa9<"));	/* well-formed UTF-8 kept */
	CHECK(strstr(svg, ">nc" WD_UTF8_REPLACEMENT "<"));	/* U+FFFE is no XML character */
	CHECK(strstr(svg, "a &lt;test&gt; &amp; &quot;its&quot; &apos;quotes&apos;"));
	free(svg);
	wd_flame_free(&fg);
}

static void test_cut_names(void)
{
	char name[300], stack[400];
	struct frame v[8];
	struct wd_flame fg;
	size_t n;
	char *svg;

	memset(name, 'x', 299);
	name[299] = '\0';
	snprintf(stack, sizeof(stack), "R;%s", name);
	CHECK_INT(wd_flame_init(&fg), 0);
	CHECK_INT(wd_flame_add(&fg, stack, 1000), 0);
	CHECK_INT(wd_flame_add(&fg, "R;short_but_narrow", 1), 0);
	svg = svg_of(&fg);
	CHECK(well_formed(svg));
	n = frames_of(svg, v, 8);
	CHECK_INT(n, 4);
	/* 1178.8 px wide: (1178.8 - 6) / 7.08 = 165 characters: 163 and ".." */
	memset(stack, 0, sizeof(stack));
	stack[0] = '>';
	memset(stack + 1, 'x', 163);
	strcat(stack, "..</text>");
	CHECK(strstr(svg, stack));
	CHECK(strstr(svg, name));	/* whole in its title */
	/* 1.2 px: no room for any text */
	CHECK(strstr(svg, "<title>short_but_narrow\n1 drop, 0.10% of all</title>"));
	CHECK(strstr(strstr(svg, "<title>short_but_narrow"), "\"></text>"));
	free(svg);
	wd_flame_free(&fg);
}

static void test_zero_and_huge(void)
{
	struct frame v[8];
	struct wd_flame fg;
	char *svg;

	CHECK_INT(wd_flame_init(&fg), 0);
	CHECK_INT(wd_flame_add(&fg, "R;a", 0), 0);	/* nothing */
	CHECK_INT(wd_flame_total(&fg), 0);
	svg = svg_of(&fg);
	CHECK(well_formed(svg));
	CHECK_INT(frames_of(svg, v, 8), 0);
	CHECK(strstr(svg, "Nothing was counted"));
	free(svg);

	CHECK_INT(wd_flame_add(&fg, "R;a", UINT64_MAX - 1), 0);
	CHECK_INT(wd_flame_add(&fg, "S;b", 2), -EOVERFLOW);	/* nothing added */
	CHECK_INT(wd_flame_add(&fg, "S;b", 1), 0);
	CHECK(wd_flame_total(&fg) == UINT64_MAX);
	svg = svg_of(&fg);
	CHECK(well_formed(svg));
	CHECK_INT(frames_of(svg, v, 8), 5);
	CHECK(strstr(svg, "data-n=\"18446744073709551614\""));	/* exact, not a double */
	CHECK(strstr(svg, "data-total=\"18446744073709551615\""));
	CHECK(strstr(svg, "<title>S\n1 drop, 0.00% of all</title>"));
	CHECK(fabs(v[1].rw - 1180.0) < 0.001);
	CHECK(v[3].rw < 0.001 && v[3].rw >= 0);
	free(svg);
	wd_flame_free(&fg);
}

static void test_deterministic(void)
{
	static const char *const lines[] = { "B;z;y 3", "A;x 1", "B;z 2", "A;w;v 5", "C 1" };
	struct wd_flame a, b;
	char *sa, *sb;

	CHECK_INT(wd_flame_init(&a), 0);
	CHECK_INT(wd_flame_init(&b), 0);
	for (size_t i = 0; i < 5; i++) {
		size_t line;

		CHECK_INT(wd_flame_parse(&a, lines[i], strlen(lines[i]), &line), 0);
		CHECK_INT(wd_flame_parse(&b, lines[4 - i], strlen(lines[4 - i]), &line), 0);
	}
	sa = svg_of(&a);
	sb = svg_of(&b);
	CHECK_STR(sa, sb);
	/* siblings by name: A before B before C, w before x */
	CHECK(strstr(sa, "<title>A\n") < strstr(sa, "<title>B\n"));
	CHECK(strstr(sa, "<title>B\n") < strstr(sa, "<title>C\n"));
	CHECK(strstr(sa, "<title>w\n") < strstr(sa, "<title>x\n"));
	free(sa);
	free(sb);
	wd_flame_free(&a);
	wd_flame_free(&b);
}

static void test_parse(void)
{
	static const char text[] = "NO_SOCKET;ip_rcv;udp_rcv 3\r\n\n  \nNO_SOCKET;ip_rcv 2\n"
				   "NO_SOCKET;ip_rcv;udp_rcv\t4";
	char deep[WD_FLAME_MAX_DEPTH * 2 + 8];
	struct wd_flame fg;
	struct frame v[8];
	size_t line, n;
	char *svg;

	CHECK_INT(wd_flame_init(&fg), 0);
	CHECK_INT(wd_flame_parse(&fg, text, strlen(text), &line), 0);
	CHECK_INT(line, 0);
	CHECK_INT(wd_flame_total(&fg), 9);
	svg = svg_of(&fg);
	n = frames_of(svg, v, 8);
	CHECK_INT(n, 4);
	CHECK(find(v, n, "ip_rcv", NULL) && find(v, n, "ip_rcv", NULL)->n == 9);
	CHECK(find(v, n, "udp_rcv", NULL) && find(v, n, "udp_rcv", NULL)->n == 7);
	free(svg);

	CHECK_INT(wd_flame_parse(&fg, "A;b 1\nno count\n", 15, &line), -EINVAL);
	CHECK_INT(line, 2);
	CHECK_INT(wd_flame_total(&fg), 10);	/* the line before the bad one counted */
	CHECK_INT(wd_flame_parse(&fg, "A;;b 1", 6, &line), -EINVAL);
	CHECK_INT(wd_flame_parse(&fg, ";b 1", 4, &line), -EINVAL);
	CHECK_INT(wd_flame_parse(&fg, "b; 1", 4, &line), -EINVAL);
	CHECK_INT(wd_flame_parse(&fg, " 1", 2, &line), -EINVAL);
	CHECK_INT(wd_flame_parse(&fg, "A 18446744073709551616", 22, &line), -EINVAL);
	CHECK_INT(wd_flame_parse(&fg, "A 1x", 4, &line), -EINVAL);
	CHECK_INT(wd_flame_parse(&fg, "A\0B 1", 5, &line), -EINVAL);
	CHECK_INT(wd_flame_total(&fg), 10);	/* bad lines add nothing */
	wd_flame_free(&fg);

	/* WD_FLAME_MAX_DEPTH frames are fine, one more is refused */
	CHECK_INT(wd_flame_init(&fg), 0);
	for (size_t i = 0; i < WD_FLAME_MAX_DEPTH; i++)
		memcpy(deep + 2 * i, "a;", 2);
	deep[2 * WD_FLAME_MAX_DEPTH - 1] = '\0';
	CHECK_INT(wd_flame_add(&fg, deep, 1), 0);
	CHECK_INT(fg.depth, WD_FLAME_MAX_DEPTH);
	deep[2 * WD_FLAME_MAX_DEPTH - 1] = ';';
	memcpy(deep + 2 * WD_FLAME_MAX_DEPTH, "a", 2);
	CHECK_INT(wd_flame_add(&fg, deep, 1), -EINVAL);
	svg = svg_of(&fg);
	CHECK(well_formed(svg));
	free(svg);
	wd_flame_free(&fg);
}

UNIT_MAIN(test_xml_checker, test_counts_and_widths, test_escaping, test_cut_names,
	  test_zero_and_huge, test_deterministic, test_parse)
