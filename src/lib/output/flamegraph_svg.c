// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A flame graph's SVG: the root ("all") at the bottom, each frame over its
 * caller, as wide as its exact count's share. Every frame is written, even
 * one too narrow to see, so that zooming in shows it. Text is escaped for
 * XML and cut to its box as the script cuts it after a zoom.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "flamegraph.h"
#include "flamegraph_script.h"
#include "flamegraph_tree.h"
#include "utf8.h"

#define PAD		10	/* left and right margin */
#define FRAME_H		16	/* a row: a frame of 15 and 1 of space */
#define FONT		12
#define CHAR_W		(FONT * 0.59)	/* a character's width, about, in Verdana */
#define TOP		84	/* title, subtitle, legend */
#define BOTTOM		34	/* the details line */

/* ------------------------------------------------------------ text */

/*
 * The character at s: its length, with *ok false when U+FFFD is written
 * instead (a control, bytes that are not UTF-8, a UTF-8 non-character of XML).
 */
static size_t xml_char(const char *s, bool *ok)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = wd_utf8_len(s);

	*ok = n && u[0] >= 0x20 && u[0] != 0x7f;
	/* U+FFFE and U+FFFF are UTF-8 but not XML characters */
	if (n == 3 && u[0] == 0xef && u[1] == 0xbf && (u[2] == 0xbe || u[2] == 0xbf))
		*ok = false;
	return n ? n : 1;
}

/* Characters in s, as xml_text counts them. */
static size_t text_chars(const char *s)
{
	size_t chars = 0;
	bool ok;

	for (; *s; chars++)
		s += xml_char(s, &ok);
	return chars;
}

/* At most max characters of s, escaped for XML text and attributes. */
static void xml_text(FILE *f, const char *s, size_t max)
{
	static const char *const ent[] = { ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
					   ['"'] = "&quot;", ['\''] = "&apos;" };

	for (size_t chars = 0; *s && chars < max; chars++) {
		unsigned char c = (unsigned char)*s;
		bool ok;
		size_t n = xml_char(s, &ok);

		if (c < sizeof(ent) / sizeof(ent[0]) && ent[c])
			fputs(ent[c], f);
		else if (ok)
			fwrite(s, 1, n, f);
		else
			fputs(WD_UTF8_REPLACEMENT, f);
		s += n;
	}
}

/* The name as it fits in a box w pixels wide: whole, cut with "..", or nothing. */
static void fitted_name(FILE *f, const char *name, double w)
{
	double room = (w - 6) / CHAR_W;
	size_t chars = text_chars(name);

	if (room >= (double)chars) {
		xml_text(f, name, chars);
	} else if (room >= 3) {
		xml_text(f, name, (size_t)room - 2);
		fputs("..", f);
	}
}

/* ---------------------------------------------------------- colours */

enum kind { K_ALL, K_REASON, K_LOST, K_NETFILTER, K_SOCKET, K_IP, K_DEVICE, K_ENTRY,
	    K_OTHER, K_N };

static const struct kind_style {
	const char *label;
	unsigned char r, g, b;		/* the darkest of the kind */
	unsigned char dr, dg, db;	/* how much a name's hash may add */
	const char *const *prefixes;	/* of the name without its leading '_' */
} kinds[K_N] = {
	[K_ALL] = { "all", 190, 190, 190, 0, 0, 0, NULL },
	[K_REASON] = { "drop reason", 205, 60, 50, 30, 30, 20, NULL },
	[K_LOST] = { "stack lost", 150, 150, 175, 10, 10, 10, NULL },
	[K_NETFILTER] = { "netfilter", 80, 170, 80, 40, 45, 30,
		(const char *const []){ "nf_", "nft_", "nfqnl", "nfnetlink", "ipt_", "ip6t_",
					"ebt_", "xt_", "br_nf", "ipv4_conntrack",
					"ipv6_conntrack", NULL } },
	[K_SOCKET] = { "socket, TCP/UDP, skb", 225, 120, 30, 25, 60, 30,
		(const char *const []){ "tcp", "udp", "sk_", "sock", "inet", "raw", "icmp",
					"ping", "unix", "skb", "kfree_skb", "consume_skb",
					"sctp", "mptcp", NULL } },
	[K_IP] = { "IP, routing, neighbours", 210, 185, 50, 30, 35, 30,
		(const char *const []){ "ip_", "ip6", "ipv6", "ipv4", "fib", "rt_", "rt6",
					"route", "neigh", "arp", "ndisc", "xfrm", "igmp",
					"mld", "dst_", NULL } },
	[K_DEVICE] = { "device, qdisc, driver", 80, 130, 210, 40, 40, 30,
		(const char *const []){ "netif", "dev_", "napi", "net_rx", "process_backlog",
					"veth", "qdisc", "sch_", "tc_", "tcf_", "xdp", "br_",
					"bond", "vxlan", "gro", "validate_xmit", "loopback",
					"tun_", "macvlan", "ipvlan", "eth_", "virtnet", NULL } },
	[K_ENTRY] = { "syscall, softirq, entry", 70, 175, 175, 30, 40, 40,
		(const char *const []){ "entry_", "do_syscall", "x64_sys", "sys_", "do_sys",
					"do_softirq", "handle_softirqs", "local_bh",
					"run_ksoftirqd", "softirq", "irq", "sysvec", "asm_",
					"ret_from", "kthread", "smpboot", "worker_thread",
					"process_one_work", "do_idle", "cpu_startup",
					"start_secondary", "common_startup", "run_timer",
					"expire_timers", "call_timer", "tasklet", NULL } },
	[K_OTHER] = { "other", 195, 145, 105, 30, 30, 30, NULL },
};

static enum kind kind_of(const char *name, size_t depth)
{
	if (!depth)
		return K_ALL;
	if (depth == 1)
		return K_REASON;
	if (name[0] == '[')
		return K_LOST;
	while (*name == '_')
		name++;
	for (int k = K_NETFILTER; k < K_OTHER; k++)
		for (const char *const *p = kinds[k].prefixes; *p; p++)
			if (!strncmp(name, *p, strlen(*p)))
				return (enum kind)k;
	return K_OTHER;
}

/* FNV-1a: the same name gets the same shade in every graph. */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void fill(FILE *f, enum kind k, const char *name)
{
	const struct kind_style *ks = &kinds[k];
	uint32_t h = name_hash(name);

	fprintf(f, "rgb(%u,%u,%u)", ks->r + (ks->dr ? h % (ks->dr + 1u) : 0),
		ks->g + (ks->dg ? (h >> 8) % (ks->dg + 1u) : 0),
		ks->b + (ks->db ? (h >> 16) % (ks->db + 1u) : 0));
}

/* ----------------------------------------------------------- frames */

struct layout {
	FILE *f;
	double scale;		/* pixels per count */
	size_t rows;		/* frame rows, "all" included */
	uint64_t total;
	size_t next_id;
	const char *unit, *unit_one;
};

static void frame(struct layout *l, const struct wd_flame_node *n, size_t depth, uint64_t x,
		  size_t id, size_t parent)
{
	double px = PAD + (double)x * l->scale, w = (double)n->total * l->scale;
	double y = TOP + (double)(l->rows - 1 - depth) * FRAME_H;
	FILE *f = l->f;

	fprintf(f, "<g class=\"fr\" id=\"f%zu\"", id);
	if (depth)
		fprintf(f, " data-p=\"f%zu\"", parent);
	fprintf(f, " data-x=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\"><title>", x, n->total);
	xml_text(f, n->name, SIZE_MAX);
	fprintf(f, "\n%" PRIu64 " %s, %.2f%% of all</title>", n->total,
		n->total == 1 ? l->unit_one : l->unit, 100.0 * (double)n->total / (double)l->total);
	fprintf(f, "<rect x=\"%.3f\" y=\"%.1f\" width=\"%.3f\" height=\"%d\" fill=\"", px, y, w,
		FRAME_H - 1);
	fill(f, kind_of(n->name, depth), n->name);
	fprintf(f, "\"/><text x=\"%.3f\" y=\"%.1f\">", px + 3, y + FRAME_H - 4.5);
	fitted_name(f, n->name, w);
	fputs("</text></g>\n", f);
}

/* n and everything over it, ids in depth-first order; children by name. */
static void frames(struct layout *l, const struct wd_flame_node *n, size_t depth, uint64_t x,
		   size_t parent)
{
	size_t id = l->next_id++;

	frame(l, n, depth, x, id, parent);
	for (size_t i = 0; i < n->n; i++) {
		if (!n->kids[i]->total)
			continue;	/* made by an add that then failed */
		frames(l, n->kids[i], depth + 1, x, id);
		x += n->kids[i]->total;
	}
}

/* ------------------------------------------------------------ page */

static void header(FILE *f, unsigned int width, unsigned int height, const struct layout *l)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		"height=\"%u\" viewBox=\"0 0 %u %u\" data-pad=\"%d\" data-char-width=\"%.2f\" "
		"data-total=\"%" PRIu64 "\" data-unit=\"", width, height, width, height, PAD,
		CHAR_W, l->total);
	xml_text(f, l->unit, SIZE_MAX);
	fputs("\" data-unit-one=\"", f);
	xml_text(f, l->unit_one, SIZE_MAX);
	fprintf(f, "\">\n<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		"<stop stop-color=\"#f4f4f4\" offset=\"5%%\"/><stop stop-color=\"#e8e8d8\" "
		"offset=\"95%%\"/></linearGradient></defs>\n<style>\n"
		"text { font-family: Verdana, sans-serif; font-size: %dpx; fill: #000; }\n"
		".fr text { pointer-events: none; }\n"
		".fr:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
		".parent { opacity: 0.5; }\n.hide { display: none; }\n"
		".btn { fill: #2255cc; cursor: pointer; }\n"
		"#title { font-size: 17px; text-anchor: middle; }\n"
		"#subtitle, #legend text { fill: #333; }\n</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"url(#bg)\"/>\n",
		FONT, width, height);
}

static void titles(FILE *f, unsigned int width, const struct wd_flame_opts *o)
{
	fprintf(f, "<text id=\"title\" x=\"%u\" y=\"24\">", width / 2);
	xml_text(f, o->title ? o->title : "Flame graph", SIZE_MAX);
	fputs("</text>\n", f);
	if (o->subtitle) {
		fprintf(f, "<text id=\"subtitle\" x=\"%u\" y=\"44\" text-anchor=\"middle\">",
			width / 2);
		xml_text(f, o->subtitle, SIZE_MAX);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text id=\"reset\" class=\"btn\" x=\"%d\" y=\"24\" visibility=\"hidden\">"
		"Reset zoom</text>\n<text id=\"search\" class=\"btn\" x=\"%u\" y=\"24\" "
		"text-anchor=\"end\">Search</text>\n", PAD, width - PAD);
}

/* A box of each kind's colour and its name. */
static void legend(FILE *f)
{
	double x = PAD;

	fputs("<g id=\"legend\">", f);
	for (int k = 0; k < K_N; k++) {
		fprintf(f, "<rect x=\"%.1f\" y=\"58\" width=\"10\" height=\"10\" fill=\"", x);
		fill(f, (enum kind)k, "");
		fprintf(f, "\"/><text x=\"%.1f\" y=\"67\">%s</text>", x + 14, kinds[k].label);
		x += 14 + (double)strlen(kinds[k].label) * CHAR_W + 16;
	}
	fputs("</g>\n", f);
}

int wd_flame_write_svg(FILE *f, const struct wd_flame *fg, const struct wd_flame_opts *o)
{
	unsigned int width = o->width ? o->width : WD_FLAME_WIDTH;
	struct layout l = {
		.f = f, .total = wd_flame_total(fg), .rows = fg->depth + 1,
		.unit = o->unit ? o->unit : "samples",
		.unit_one = o->unit_one ? o->unit_one : "sample",
	};
	unsigned int height = (unsigned int)(TOP + l.rows * FRAME_H + BOTTOM);

	if (width < 2 * PAD + 100)
		width = 2 * PAD + 100;
	l.scale = l.total ? (double)(width - 2 * PAD) / (double)l.total : 0;
	header(f, width, height, &l);
	titles(f, width, o);
	legend(f);
	fputs("<g id=\"frames\">\n", f);
	if (l.total)
		frames(&l, fg->root, 0, 0, 0);
	else
		fprintf(f, "<text x=\"%u\" y=\"%d\" text-anchor=\"middle\">Nothing was counted: "
			"no frames</text>\n", width / 2, TOP + FRAME_H);
	fprintf(f, "</g>\n<text id=\"details\" x=\"%d\" y=\"%u\">%s</text>\n"
		"<text id=\"matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"></text>\n",
		PAD, height - 12, l.total ? "Hover a frame for its count; click to zoom" : " ",
		width - PAD, height - 12);
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n" WD_FLAME_SCRIPT "]]></script>\n"
	      "</svg>\n", f);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
