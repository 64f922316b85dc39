// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What is made from the option table (options.c): each command's help
 * (its usage line and options from the table, its own description and
 * examples from here), whydrop -h, and the man page's COMMANDS and OPTIONS
 * (the bash completion: completion.c). `make docs` writes the man page part
 * into docs/whydrop.8; tests/cli/run.sh fails when it is stale.
 */
#include <stdio.h>
#include <string.h>

#include "options.h"

#define WIDTH		79	/* help lines end before column 80 */
#define HELP_COL	23	/* where an option's help starts */

/*
 * A command's own text. description: one paragraph a line (wrapped when
 * printed), a line starting with two spaces kept as it is, an empty line
 * between paragraphs.
 */
struct cmd_doc {
	const char *usage;	/* after "whydrop CMD " */
	const char *more_usage;	/* other forms, whole, one a line; NULL: none */
	const char *summary;	/* for whydrop -h */
	const char *words;	/* what follows the options, NULL: nothing */
	const char *words_help;
	const char *description;
	const char *examples;	/* one a line */
};

#define EXPRESSION_HELP \
	"a pcap-filter(7) expression, as for tcpdump, on the packet from its IP header; " \
	"compiled by libpcap and run in the kernel before counting, so counts honour it; " \
	"at most 4096 classic BPF instructions (the kernel's BPF_MAXINSNS; a chain of about " \
	"1000 hosts)"

static const struct cmd_doc docs[WD_NCMDS] = {
	[WD_CMD_TOP] = {
		"[OPTIONS] [EXPRESSION]",
		"whydrop top --counters-only [-d T] [--json] [--netns NS]\n",
		"live table of drops by reason and location (default)",
		"EXPRESSION", EXPRESSION_HELP,
		"Live table of drops by reason and location, refreshed every second: total "
		"count, rate per second, reason, location (function+offset) and what it means. "
		"Below it, the kernel's own drop counters that moved since the start, next to "
		"the traced reasons, with the drops no traced reason accounts for (see KERNEL "
		"COUNTERS in whydrop(8)). Expected drops are hidden and counted in a footer.\n"
		"On a terminal (its window size, else $COLUMNS, else 80 columns) every line of "
		"the live table is cut to its width, the hint first, then the location, so "
		"none wraps; piped, nothing is cut. Ctrl-C, SIGTERM or SIGHUP print a summary: "
		"the count table, whole.\n"
		"The default command: `whydrop`, `whydrop -d 5` and `whydrop EXPRESSION` (a "
		"first word that is no command) run top.\n",
		"sudo whydrop\n"
		"sudo whydrop 'udp port 53'\n"
		"sudo whydrop top --netns blue -i veth0\n"
		"whydrop top --counters-only\n",
	},
	[WD_CMD_WATCH] = {
		"[OPTIONS] [EXPRESSION]", NULL,
		"one line per dropped packet; --json for JSON Lines",
		"EXPRESSION", EXPRESSION_HELP,
		"One line per dropped packet: time, reason, location, flow, length, device, "
		"network namespace, socket, CPU. The length (len) is the IP packet's, from its "
		"header, as tcpdump and tshark show it and as pcap-filter's len means it; "
		"skb_len (JSON, and text where the IP length is unknown) is what was left of "
		"the buffer where the kernel dropped it.\n"
		"Counting stays exact; only the lines are rate-limited (--rate), and on exit "
		"stderr says how many drops were counted, shown and not shown, and why.\n",
		"sudo whydrop watch\n"
		"sudo whydrop watch --json -r TCP_CSUM,UDP_CSUM | jq .src\n"
		"sudo whydrop watch 'tcp port 443 and host 192.0.2.7'\n",
	},
	[WD_CMD_COUNT] = {
		"[OPTIONS] [EXPRESSION]",
		"whydrop count --counters-only [-d T] [--json] [--netns NS]\n",
		"count for a while, print a table; --json for one document",
		"EXPRESSION", EXPRESSION_HELP,
		"Count every dropped packet (exactly, in the kernel) for a while, then print "
		"the totals by reason and location; without -d, until Ctrl-C. Then the "
		"kernel's own drop counters that moved over the same interval, next to the "
		"traced reasons: drops a counter saw but the tracepoint did not (a full accept "
		"queue) are flagged. Expected drops are hidden and counted in a footer.\n"
		"Each row's hint is its cause at that place, told apart by the counters that "
		"moved with it and the sysctls of the namespace (--json: a cause object with "
		"its confidence and evidence). With --fail-on, the run is a check: exit status 3 "
		"when a threshold was crossed, and the report ends with what crossed and why.\n",
		"sudo whydrop count -d 10\n"
		"sudo whydrop count -d 5 --json --netns blue -r NO_SOCKET,TCP_CSUM\n"
		"sudo whydrop count -d 10 'tcp port 443 and host 192.0.2.7'\n"
		"sudo whydrop count -d 10 --group-by cgroup\n"
		"sudo whydrop count -d 10 --fail-on 'NO_SOCKET>100/s,NETFILTER_DROP>0' || alert\n"
		"whydrop count --counters-only -d 10\n"
		"sudo whydrop count -d 10 --stacks --svg drops.svg    # a flame graph, nothing to install\n"
		"sudo whydrop count -d 10 --stacks --folded | flamegraph.pl > drops.svg\n",
	},
	[WD_CMD_RECORD] = {
		"-w FILE [OPTIONS] [EXPRESSION]", NULL,
		"dropped packets to pcapng, reason and location as comments",
		"EXPRESSION", EXPRESSION_HELP,
		"Write every dropped packet that matches to a pcapng file for Wireshark or "
		"tshark: the packet from its IP header (LINKTYPE_RAW), the kernel's timestamp "
		"(ns), the original length from the IP header, and a packet comment\n"
		"  reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 netns=4026531840 code=3\n"
		"(fields the kernel did not give are left out). Drops that are not IP are "
		"written too, with no packet bytes (l3=arp, ...). Files are created mode 0600. "
		"On exit, stderr says how many drops were counted, written and not written. "
		"See docs/pcapng.md.\n",
		"sudo whydrop record -w drops.pcapng -d 30\n"
		"sudo whydrop record -w drops.pcapng -s 200 --netns blue -r NO_SOCKET -c 100\n"
		"sudo whydrop record -w drops.pcapng -C 100 -W 10   # <= 10 files of 100 MB\n"
		"sudo whydrop record -w drops-%Y%m%d-%H.pcapng -G 3600\n"
		"sudo whydrop record -w - | tshark -r - -T fields -e ip.src -e frame.comment\n"
		"whydrop read drops.pcapng\n",
	},
	[WD_CMD_SERVE] = {
		"[OPTIONS] [EXPRESSION]", NULL,
		"Prometheus metrics on http://127.0.0.1:9464/metrics",
		"EXPRESSION", EXPRESSION_HELP,
		"Serve the exact drop counts as Prometheus metrics on http://ADDR:PORT/metrics, "
		"read from the kernel at each scrape. Once the BPF program is attached and the "
		"socket bound, whydrop gives up root (switching to --user) and every "
		"capability. Only GET and HEAD are answered.\n"
		"Metrics: whydrop_drops_total{reason,layer,function}, "
		"whydrop_hidden_drops_total{reason,layer,function,rule} (the expected drops "
		"top and count hide; --show-all: none), "
		"whydrop_series_folded{metric}, whydrop_lost_events_total, "
		"whydrop_overflow_drops_total, whydrop_scrapes_total, "
		"whydrop_build_info{version,kernel,attach}; with --source dropmon, "
		"whydrop_dropmon_queue_dropped_total, whydrop_dropmon_socket_overruns_total, "
		"whydrop_dropmon_truncated_total and whydrop_dropmon_summary_full_total; "
		"opt-in: whydrop_interface_drops_total, whydrop_netns_drops_total, "
		"whydrop_cgroup_drops_total and whydrop_cgroup_drops_lost_total, and "
		"whydrop_series_retired_total{metric}: the series of a cgroup or namespace gone "
		"for --series-grace leave the page (docs/serve.md).\n"
		"A generic reason means different things at different functions (IP_INHDR "
		"at ip_forward is a TTL that ran out, at ip_rcv_core a broken header): the "
		"function label says which, `whydrop explain FUNCTION` gives the causes at "
		"that place, and `whydrop count` says which one the counters confirm.\n",
		"sudo whydrop serve\n"
		"curl -s http://127.0.0.1:9464/metrics | grep whydrop_drops_total\n"
		"sudo whydrop serve --listen [::1]:9464 --max-series 100 --per-interface\n"
		"sudo whydrop serve --listen 127.0.0.1:9500 --netns blue -r NO_SOCKET,TCP_CSUM\n"
		"sudo whydrop serve --per-cgroup --series-grace 10m\n",
	},
	[WD_CMD_REASONS] = {
		"[OPTIONS]", NULL,
		"the drop reasons this kernel knows; --json",
		NULL, NULL,
		"The drop reasons of the running kernel with their numbers here (they change "
		"between kernel versions), layer and a one-line summary, from BTF, or from "
		"tracefs without BTF. Subsystem reasons (openvswitch, mac80211) are listed when "
		"their module is loaded and has BTF. Reasons whydrop's catalogue does not "
		"describe are marked '?'; catalogue reasons this kernel lacks are listed last. "
		"Needs no root with BTF (/sys/kernel/btf/vmlinux).\n",
		"whydrop reasons\n"
		"whydrop reasons | grep -i tcp_\n"
		"whydrop reasons --json | jq '.reasons[] | select(.name == \"TCP_FLAGS\").code'\n"
		"whydrop reasons --json | jq '.missing_from_catalogue'\n",
	},
	[WD_CMD_EXPLAIN] = {
		"[OPTIONS] REASON|FUNCTION...",
		"whydrop explain --all [--json | --markdown | --man]\n"
		"whydrop explain --callsites [--json | --markdown]\n",
		"what a reason means, what to check, live counters",
		"REASON|FUNCTION",
		"a drop reason (any case, with or without SKB_DROP_REASON_, an old name, or its "
		"number on this kernel), rst:NAME for a TCP reset reason, or a kernel function "
		"of the call-site catalogue or of the causes by place",
		"What a drop reason means, where the kernel drops with it, what to check and "
		"what to do, with live values from this machine: the related sysctls, the MIB "
		"counters now and their rate over --interval, and the reason's number on this "
		"kernel. Needs neither root nor BPF; run it under ip netns exec NS for a "
		"namespace's counters. A reason's entry lists what it means at each place (By "
		"place): IP_INHDR at ip_forward is a TTL that ran out, at ip_rcv_core a broken "
		"header. A name that is no reason is looked up as a kernel function: its "
		"call-site entry (what a drop there means when it comes as NOT_SPECIFIED or with "
		"a generic reason) and the causes of each reason there. rst:NAME is why the "
		"kernel sent a TCP reset (tcp:tcp_send_reset's enum sk_rst_reason, 6.10+: "
		"rst:TCP_ABORT_ON_CLOSE, rst:NO_SOCKET), apart from the drop reason of the same "
		"name. An unknown name gets the closest one.\n",
		"whydrop explain TCP_ZEROWINDOW\n"
		"whydrop explain no_socket socket_rcvbuff --interval 5\n"
		"whydrop explain PROTO_MEM --json | jq '.reasons[0].counter_values'\n"
		"whydrop explain ip6_mc_input\n"
		"whydrop explain rst:TCP_ABORT_ON_CLOSE\n"
		"whydrop explain ip_forward\n"
		"whydrop explain --all --markdown > docs/reasons.md\n",
	},
	[WD_CMD_READ] = {
		"[OPTIONS] FILE... [EXPRESSION]", NULL,
		"summarise recordings like count does, or list their packets; --json",
		"FILE... [EXPRESSION]",
		"pcapng files written by whydrop record (- reads standard input), then an "
		"optional pcap-filter(7) expression run by libpcap (pcap_offline_filter) on "
		"each recorded packet, for the link type of its interface. A word is a file "
		"when it names one that exists, is -, or holds a / or .pcap without blanks; "
		"the expression starts at the first word that is none of these",
		"Summarise recordings made by `whydrop record` like `whydrop count` does: "
		"drops by reason and location, from the packet comments; the same table, or "
		"with --json the same JSON document as `count --json`. Several files are "
		"summed. The kernel is the recordings' (shb_os; several differing: each once, "
		"comma-separated), the duration the recordings' (else first to last packet), "
		"from the first start to the last end, cut to --since/--until. Reason names "
		"and numbers are those the recording kernel wrote. -r, --netns, -i and the "
		"expression keep the packets whose recorded reason, namespace, interface "
		"and bytes match; --lines prints them as watch does. TCP resets and "
		"retransmissions of record --tcp are counted apart, never as drops: "
		"\"resets\" and \"flows\" as count --tcp (--netns and the expression apply, "
		"-r and -i do not). Other pcapng files: "
		"what can be read is summarised, and stderr says what could not (packets "
		"without a whydrop comment, malformed blocks). No privileges needed. Exit "
		"status 2 when a file cannot be opened (nothing is printed), 1 when one is "
		"not pcapng (nothing is printed), is cut short or has malformed blocks (the "
		"summary then lacks what they held).\n",
		"whydrop read drops.pcapng\n"
		"whydrop read --json drops.pcapng | jq '.drops[] | {reason, count}'\n"
		"whydrop read --group-by cgroup drops.pcapng\n"
		"whydrop read host1.pcapng host2.pcapng -r NO_SOCKET --netns blue 'udp port 53'\n"
		"whydrop read --since 2026-12-06T09:30:00Z --until 10m drops.pcapng\n"
		"whydrop read --lines --json drops.pcapng 'tcp[tcpflags] & tcp-syn != 0'\n"
		"sudo whydrop record -w - -c 100 | whydrop read -\n",
	},
};

/* ------------------------------------------------------------- help */

/* The next line of *text (NULL at its end, or for a NULL text): its length in
 * *n; *text moves past the line and its newline. */
static const char *next_line(const char **text, size_t *n)
{
	const char *line = *text;

	if (!line || !*line)
		return NULL;
	*n = strcspn(line, "\n");
	*text = line + *n + (line[*n] ? 1 : 0);
	return line;
}

/* Words of text from column col, lines indented by indent; returns the column. */
static int wrap(FILE *f, const char *text, int col, int indent)
{
	while (*text) {
		size_t n = strcspn(text, " ");

		if (col > indent && col + 1 + (int)n > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, text);
		col += (int)n;
		text += n;
		text += strspn(text, " ");
	}
	return col;
}

/* Paragraphs wrapped, verbatim lines kept. */
static void print_text(FILE *f, const char *text)
{
	const char *s;
	size_t n;

	while ((s = next_line(&text, &n))) {
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		if (!strncmp(line, "  ", 2))
			fputs(line, f);
		else
			wrap(f, line, 0, 0);
		fputc('\n', f);
	}
}

static void option_head(const struct wd_option *o, char *buf, size_t len)
{
	snprintf(buf, len, "  %s%c%s--%s%s%s", o->letter ? "-" : " ", o->letter ? o->letter : ' ',
		 o->letter ? ", " : "  ", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

static void help_line(FILE *f, const char *head, const char *text)
{
	int col = fprintf(f, "%s", head);

	if (col < HELP_COL - 1) {
		fprintf(f, "%*s", HELP_COL - col, "");
		col = HELP_COL;
	} else {
		fputc(' ', f);	/* and wrap()'s: two spaces after a long head */
		col++;
	}
	wrap(f, text, col, HELP_COL);
	fputc('\n', f);
}

void wd_help_command(enum wd_cmd cmd, FILE *f)
{
	const struct cmd_doc *d = &docs[cmd];
	const char *text = d->more_usage, *line;
	const struct wd_option *o;
	char head[64];
	size_t n;

	fprintf(f, "Usage: whydrop %s %s\n", cmd == WD_CMD_TOP ? "[top]" : wd_cmd_name(cmd),
		d->usage);
	while ((line = next_line(&text, &n)))
		fprintf(f, "       %.*s\n", (int)n, line);
	print_text(f, d->description);
	fputs("\nOptions:\n", f);
	for (size_t i = 0; (o = wd_cmd_option_next(cmd, &i));) {
		option_head(o, head, sizeof(head));
		help_line(f, head, wd_option_help(o, cmd));
	}
	if (d->words) {
		snprintf(head, sizeof(head), "  %s", d->words);
		help_line(f, head, d->words_help);
	}
	fputs("\nExamples:\n", f);
	text = d->examples;
	while ((line = next_line(&text, &n)))
		fprintf(f, "  %.*s\n", (int)n, line);
}

void wd_help_main(FILE *f)
{
	char head[64];

	fputs("Usage: whydrop [COMMAND] [OPTIONS] [EXPRESSION]\n"
	      "Why the Linux kernel drops packets, live, from the skb:kfree_skb tracepoint.\n"
	      "\nCommands:\n", f);
	for (int i = 0; i < WD_NCMDS; i++) {
		snprintf(head, sizeof(head), "  %s", wd_cmd_name((enum wd_cmd)i));
		help_line(f, head, docs[i].summary);
	}
	help_line(f, "  help [COMMAND]", "this help, or a command's (as whydrop COMMAND -h)");
	fputc('\n', f);
	print_text(f, "Without a command, or when the first word is none (whydrop 'udp port 53'), "
		   "whydrop runs top. Every command takes -h/--help, -j/--json and "
		   "-v/--verbose; the tracing ones -r/--reason NAME[,NAME...], --netns "
		   "NAME|PATH, -i/--interface IFNAME, -d/--duration T and a trailing "
		   "pcap-filter expression. An option that does not apply to a command is "
		   "refused with the reason. `whydrop COMMAND -h` shows each command's "
		   "options and examples; whydrop(8) has them all.\n");
	fputs("\nExamples:\n"
	      "  sudo whydrop                          # live table\n"
	      "  sudo whydrop 'udp port 53'            # ... of DNS drops only\n"
	      "  sudo whydrop watch -r NO_SOCKET       # every packet dropped for lack of a socket\n"
	      "  sudo whydrop count -d 10 --json       # ten seconds of exact counts as JSON\n"
	      "  whydrop explain SOCKET_RCVBUFF        # what it means and what to do\n", f);
}

/* -------------------------------------------------------------- man */

/* Text as roff: backslashes and hyphens escaped, no control character first. */
static void man_text(FILE *f, const char *s, size_t n, bool line_start)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (line_start && (s[i] == '.' || s[i] == '\''))
			fputs("\\&", f);
		line_start = false;
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
}

static void man_str(FILE *f, const char *s)
{
	man_text(f, s, strlen(s), false);
}

/* A help text as a sentence: with its full stop. */
static void man_sentence(FILE *f, const char *s)
{
	size_t n = strlen(s);

	man_str(f, s);
	fputs(n && s[n - 1] == '.' ? "\n" : ".\n", f);
}

/* A description: paragraphs, verbatim lines as .nf blocks. */
static void man_paragraphs(FILE *f, const char *text)
{
	bool verbatim = false, first = true;
	const char *s;
	size_t n;

	while ((s = next_line(&text, &n))) {
		bool v = n >= 2 && !strncmp(s, "  ", 2);

		if (v && !verbatim)
			fputs(".nf\n", f);
		if (!v && verbatim)
			fputs(".fi\n", f);
		else if (!v && !first)
			fputs(".IP\n", f);
		verbatim = v;
		first = false;
		man_text(f, v ? s + 2 : s, v ? n - 2 : n, true);
		fputc('\n', f);
	}
	if (verbatim)
		fputs(".fi\n", f);
}

static void man_option_name(FILE *f, const struct wd_option *o)
{
	if (o->letter)
		fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
	fputs("\\fB\\-\\-", f);
	man_str(f, o->name);
	fputs("\\fR", f);
	if (o->arg) {
		fputs(" \\fI", f);
		man_str(f, o->arg);
		fputs("\\fR", f);
	}
}

/* "watch, record", or bold: "\fBwatch\fR, \fBrecord\fR" */
static void man_cmd_names(FILE *f, unsigned int cmds, bool bold)
{
	bool any = false;

	for (int c = 0; c < WD_NCMDS; c++) {
		if (!(cmds & WD_CMD_BIT(c)))
			continue;
		fprintf(f, "%s%s%s%s", any ? ", " : "", bold ? "\\fB" : "",
			wd_cmd_name((enum wd_cmd)c), bold ? "\\fR" : "");
		any = true;
	}
}

static void man_cmd_list(FILE *f, unsigned int cmds)
{
	if (cmds == WD_CMD_BIT(WD_NCMDS) - 1) {
		fputs("(every command)", f);
		return;
	}
	fputc('(', f);
	man_cmd_names(f, cmds, false);
	fputc(')', f);
}

static void man_commands(FILE *f)
{
	fputs(".SH COMMANDS\n", f);
	for (int i = 0; i < WD_NCMDS; i++) {
		const struct cmd_doc *d = &docs[i];
		const char *text = d->more_usage, *line;
		const struct wd_option *o;
		bool any = false;
		size_t n;

		fprintf(f, ".TP\n\\fBwhydrop %s\\fR ", wd_cmd_name((enum wd_cmd)i));
		man_str(f, d->usage);
		fputc('\n', f);
		while ((line = next_line(&text, &n))) {
			fputs(".br\n", f);
			man_text(f, line, n, true);
			fputc('\n', f);
		}
		fputs(".br\n", f);
		man_paragraphs(f, d->description);
		fputs(".IP\nOptions: ", f);
		for (size_t k = 0; (o = wd_cmd_option_next((enum wd_cmd)i, &k));) {
			fprintf(f, "%s\\fB", any ? ", " : "");
			if (o->letter)
				fprintf(f, "\\-%c\\fR/\\fB", o->letter);
			fputs("\\-\\-", f);
			man_str(f, o->name);
			fputs("\\fR", f);
			any = true;
		}
		if (d->words) {
			fputs(", \\fI", f);
			man_str(f, d->words);
			fputs("\\fR: ", f);
			man_str(f, d->words_help);
		}
		fputs(".\n.IP\nExamples:\n.nf\n", f);
		text = d->examples;
		while ((line = next_line(&text, &n))) {
			man_text(f, line, n, true);
			fputc('\n', f);
		}
		fputs(".fi\n", f);
	}
}

static void man_options(FILE *f)
{
	fputs(".SH OPTIONS\n"
	      "Every option of every command, once. A command refuses an option that does "
	      "not apply to it, with a message saying which commands it applies to (exit "
	      "status 2).\n", f);
	for (size_t i = 0; i < wd_n_options; i++) {
		const struct wd_option *o = &wd_options[i];

		fputs(".TP\n", f);
		man_option_name(f, o);
		fputc('\n', f);
		man_cmd_list(f, o->cmds);
		fputc(' ', f);
		man_sentence(f, o->help);
		for (size_t k = 0; k < sizeof(o->help_for) / sizeof(o->help_for[0]); k++) {
			if (!o->help_for[k].cmds)
				continue;
			fputs(".br\n", f);
			man_cmd_names(f, o->help_for[k].cmds, true);
			fputs(": ", f);
			man_sentence(f, o->help_for[k].text);
		}
		for (size_t k = 0; k < sizeof(o->hint_for) / sizeof(o->hint_for[0]); k++) {
			if (!o->hint_for[k].cmds || (o->hint_for[k].cmds & o->cmds))
				continue;
			fputs(".br\nNot for ", f);
			man_cmd_names(f, o->hint_for[k].cmds, true);
			fputs(": ", f);
			man_sentence(f, o->hint_for[k].text);
		}
		if (o->man) {
			fputs(".br\n", f);
			man_text(f, o->man, strlen(o->man), true);
			fputc('\n', f);
		}
	}
}

void wd_help_man(FILE *f)
{
	fputs(".\\\" BEGIN GENERATED OPTIONS (make docs: from src/cli/option_table.c and help.c)\n", f);
	man_commands(f);
	man_options(f);
	fputs(".\\\" END GENERATED OPTIONS\n", f);
}
