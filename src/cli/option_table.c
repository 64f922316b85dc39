// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The one option table of whydrop: which options exist, which commands take
 * them, their help. The parser (options.c), -h, the man page and the bash
 * completion (help.c, completion.c) are all read from it.
 */
#include <stddef.h>

#include "noise.h"
#include "options.h"

#define C_TOP		WD_CMD_BIT(WD_CMD_TOP)
#define C_WATCH		WD_CMD_BIT(WD_CMD_WATCH)
#define C_COUNT		WD_CMD_BIT(WD_CMD_COUNT)
#define C_RECORD	WD_CMD_BIT(WD_CMD_RECORD)
#define C_SERVE		WD_CMD_BIT(WD_CMD_SERVE)
#define C_REASONS	WD_CMD_BIT(WD_CMD_REASONS)
#define C_EXPLAIN	WD_CMD_BIT(WD_CMD_EXPLAIN)
#define C_READ		WD_CMD_BIT(WD_CMD_READ)
#define C_LIVE		(C_TOP | C_WATCH | C_COUNT | C_RECORD | C_SERVE)
#define C_ALL		(WD_CMD_BIT(WD_NCMDS) - 1)

#define TRACING		"applies to commands that trace drops"

/*
 * Every option once, in the order help lists them. Keep the texts plain:
 * help wraps them, the man page escapes them.
 */
const struct wd_option wd_options[] = {
	/* record */
	{ "write", 'w', "FILE", C_RECORD,
	  "the pcapng file; - for standard output (a pipe)",
	  .why = "applies to the command that writes pcapng", .complete = "@files",
	  .man = "Files are created with mode 0600; a symbolic link, a file with other hard "
		 "links or of another user, a directory or a socket is refused." },
	{ "count", 'c', "N", C_RECORD, "stop after N packets",
	  .why = "applies to the command that writes pcapng" },
	{ "snaplen", 's', "SNAPLEN", C_RECORD,
	  "bytes kept per packet: 0 (the default) for the whole packet, or 1 to 262144. "
	  "The kernel side copies the packet's linear data, at most 65536 bytes; bytes in "
	  "paged data cannot be read: such packets are cut short (counted)",
	  .why = "applies to the command that writes pcapng",
	  .complete = "0 128 1500 65535 262144",
	  .man = "The exit summary says how many packets were cut short (cut_paged= in the "
		 "statistics block). With -s beyond 128 (or 0) the ring buffer is 16 MiB, "
		 "else 2 MiB." },
	{ "file-size", 'C', "FILE_SIZE", C_RECORD,
	  "start a new file before one would grow past FILE_SIZE millions of bytes (k, m, "
	  "g: KiB, MiB, GiB), as tcpdump: FILE, then FILE1, FILE2, ...",
	  .why = "applies to the command that writes pcapng",
	  .man = "A file holds at least one packet. Every file of a rotation is a whole "
		 "pcapng (section header, interface description, packets, a statistics "
		 "block), opened with the checks of -w; one that is refused or cannot be "
		 "created stops the recording (exit 1). -C and -G do not go with -w -. Once "
		 "attached whydrop has no capability left: new files are created with the "
		 "plain permissions of its user id, and a directory in which that user "
		 "cannot create files is refused before tracing starts." },
	{ "rotate-seconds", 'G', "SECONDS", C_RECORD,
	  "start a new file every SECONDS (whole seconds, or 10m, 1h as -d takes them); FILE "
	  "may hold strftime(3) conversions (drops-%H%M%S.pcapng)",
	  .why = "applies to the command that writes pcapng",
	  .man = "New files come on time, whether drops come or not, named from the local "
		 "time the file starts; without conversions each file overwrites the "
		 "previous." },
	{ "file-count", 'W', "FILECOUNT", C_RECORD,
	  "with -C: a ring of FILECOUNT files, FILE0, FILE1, ... (zero-padded), the oldest "
	  "overwritten; with -G alone: stop after FILECOUNT files",
	  .why = "applies to the command that writes pcapng",
	  .man = "The numbers are padded to the digits of FILECOUNT-1 (-W 10: FILE0 ... "
		 "FILE9); -W needs -C or -G." },
	/* serve */
	{ "listen", 0, "ADDR:PORT", C_SERVE,
	  "address and port (" WD_SERVE_LISTEN "); [::1]:9464 for IPv6, :9464 for every "
	  "address (IPv4 and IPv6: said with a warning, the metrics are then open to the "
	  "network); port 0 picks one",
	  .why = "applies to the Prometheus exporter" },
	{ "max-series", 0, "N", C_SERVE,
	  "series per metric, the reason=\"other\" fold included (500)",
	  .why = "applies to the Prometheus exporter",
	  .man = "The series beyond it are folded into reason=\"other\" and counted in "
		 "whydrop_series_folded{metric}." },
	{ "per-interface", 0, NULL, C_SERVE,
	  "also whydrop_interface_drops_total{netns,netns_cookie,interface,reason}",
	  .why = "applies to the Prometheus exporter" },
	{ "per-netns", 0, NULL, C_SERVE,
	  "also whydrop_netns_drops_total{netns,netns_cookie,reason} (inode, cookie)",
	  .why = "applies to the Prometheus exporter" },
	{ "netns-names", 0, NULL, C_SERVE,
	  "a netns_name label beside netns on the two above: --netns as given, else the ip "
	  "netns name, \"host\", the container or pod in it, or COMM[PID] of a process in it",
	  .why = "applies to the Prometheus exporter" },
	{ "per-cgroup", 0, NULL, C_SERVE,
	  "also whydrop_cgroup_drops_total{cgroup,reason}: the socket's unit, container or "
	  "pod (\"none\": no socket); costs a lookup per drop; at most --max-series series; "
	  "the kernel counts at most 4096 new sockets between two scrapes: the drops of "
	  "more are in whydrop_cgroup_drops_lost_total",
	  .why = "applies to the Prometheus exporter" },
	{ "per-container", 0, NULL, C_SERVE,
	  "--per-cgroup with three more labels: container, pod, k8s_namespace, the names "
	  "the container runtime or the kubelet gives the socket's cgroup (empty where they "
	  "give none); see --host-root",
	  .why = "applies to the Prometheus exporter",
	  .man = "Names are read from the runtimes' files (docs/who.md) at the scrape after a "
		 "cgroup's first drop and kept with its series, which retire with the cgroup. "
		 "serve keeps CAP_DAC_READ_SEARCH permitted to read them (root's files), raised "
		 "only around those reads." },
	{ "series-grace", 0, "T", C_SERVE,
	  "how long the series of a removed cgroup or a deleted network namespace stay after "
	  "it is gone and has stopped dropping (5m); then they leave the page and make room",
	  .why = "applies to the Prometheus exporter",
	  .man = "T is seconds or a duration (90s, 5m). A cgroup is gone once removed (the "
		 "kernel says so at once; else a walk of the hierarchy finds it missing), a "
		 "namespace once no scan of /run/netns and /proc/*/ns/net finds it (serving "
		 "unprivileged, only namespaces of its own user's processes are found in "
		 "/proc). A retired series's drops stay in whydrop_drops_total; a namespace "
		 "that drops again gets its series back, counting from 0." },
	{ "user", 0, "NAME", C_SERVE, "user to switch to when started as root (" WD_SERVE_USER ")",
	  .why = "applies to the Prometheus exporter" },
	/* explain */
	{ "interval", 0, "SECS", C_EXPLAIN,
	  "sample the counters for SECS seconds, or a span as -d takes it (500ms, 1m), at "
	  "most an hour (1; 0: no rate, just the values now)",
	  .why = "applies to the catalogue's command",
	  .hint_for = { { C_LIVE, "stop after a time with -d T" } } },
	{ "all", 'a', NULL, C_EXPLAIN, "every drop and reset reason in the catalogue (no live values)",
	  .why = "applies to the catalogue's command" },
	{ "markdown", 0, NULL, C_EXPLAIN,
	  "with --all or --callsites: the reference in Markdown (docs/reasons.md, "
	  "docs/callsites.md)",
	  .why = "applies to the catalogue's command" },
	{ "man", 0, NULL, C_EXPLAIN, "with --all: the DROP REASONS section of whydrop(8)",
	  .why = "applies to the catalogue's command" },
	{ "callsites", 0, NULL, C_EXPLAIN,
	  "every call site in the catalogue: what a NOT_SPECIFIED or generic drop at that "
	  "function means",
	  .why = "applies to the catalogue's command" },
	/* what is traced, and for how long */
	{ "duration", 'd', "T", C_LIVE,
	  "stop after T: seconds (5, 2.5) or numbers with units (500ms, 90s, 1.5m, 1h30m, "
	  "1d), 1 ms to 365 days (default: until Ctrl-C, SIGTERM or SIGHUP)",
	  .why = TRACING,
	  .hint_for = { { C_EXPLAIN, "explain samples its counters for --interval SECS" } } },
	{ "reason", 'r', "LIST", C_LIVE | C_READ,
	  "only these reasons: names as `whydrop reasons` prints them (any case, with or "
	  "without SKB_DROP_REASON_; a subsystem's also as SUBSYSTEM:NAME) or their numbers, "
	  "comma-separated",
	  .help_for = { { C_READ, "only these reasons, as recorded: names (any case, with or "
				  "without SKB_DROP_REASON_, old names too) or the recording "
				  "kernel's numbers, comma-separated (drops only: record --tcp's "
				  "TCP events are kept)" } },
	  .why = TRACING, .complete = "@reasons",
	  .man = "An unknown name is refused with the closest known one." },
	{ "netns", 0, "NS", C_LIVE | C_READ,
	  "only drops in this network namespace: an ip netns name or a path such as "
	  "/proc/PID/ns/net",
	  .help_for = { { C_READ, "only drops (and TCP events) in this network namespace, as "
				  "recorded: its name (netns_name), cookie or inode" } },
	  .why = TRACING, .complete = "@netns",
	  .man = "Kernel counters are then read in that namespace." },
	{ "interface", 'i', "IF", C_LIVE | C_READ,
	  "only drops on this interface (looked up in --netns when given)",
	  .help_for = { { C_READ, "only drops on this interface, by its recorded name (TCP "
				  "events have none: kept)" } },
	  .why = TRACING, .complete = "@ifaces",
	  .hint_for = { { C_EXPLAIN, "explain's sampling interval is --interval SECS" } } },
	/* read: which recorded packets, and how they are printed */
	{ "since", 0, "TIME", C_READ,
	  "only packets from TIME on: RFC 3339 (2026-12-06T09:30:00Z, "
	  "2026-12-06T10:30:00.5+01:00) or a span before now (10m, 1h30m, as -d takes it)",
	  .why = "applies to the command that reads recordings",
	  .hint_for = { { C_LIVE, "live commands start now; -d T stops them" } },
	  .man = "Packets are kept by their timestamp in the file (the kernel's, at the "
		 "drop); TIME is included, --until's TIME is not. The duration reported is "
		 "the recordings' own, cut to the range." },
	{ "until", 0, "TIME", C_READ,
	  "only packets before TIME (as --since takes it)",
	  .why = "applies to the command that reads recordings",
	  .hint_for = { { C_LIVE, "live commands start now; -d T stops them" } } },
	{ "lines", 0, NULL, C_READ,
	  "a line per packet as watch prints it (--json: watch's JSON Lines, the fields the "
	  "recording holds) instead of the summary",
	  .why = "applies to the command that reads recordings",
	  .hint_for = { { C_WATCH, "watch prints a line per packet already" } },
	  .man = "Not recorded, so left out: skb_len (but for drops that are not IP), cpu, "
		 "ifindex beside the interface's name, the socket's uid and cgroup_id. Packets "
		 "without a whydrop comment are left out (said on stderr)." },
	{ "rate", 0, "N", C_WATCH | C_RECORD,
	  "at most N records per second across all CPUs; 0: no limit",
	  .help_for = {
		{ C_WATCH, "at most N records per second across all CPUs (10000; 0: no "
			   "limit); drops over it are counted, not shown" },
		{ C_RECORD, "at most N packets per second across all CPUs (default and 0: no "
			    "limit); drops over it are counted, not written" } },
	  .why = "applies to commands that print records",
	  .hint_for = { { C_TOP | C_COUNT | C_SERVE, "counting is never rate-limited" } },
	  .man = "Records over the limit are counted and reported on exit, never the "
		 "counts themselves." },
	{ "map-size", 0, "N", C_LIVE,
	  "distinct keys counted in the kernel before the overflow bucket (10240)",
	  .why = TRACING,
	  .man = "Beyond it, counts go to a per-reason overflow bucket, shown as location "
		 "(overflow: counting map full), and are never lost." },
	{ "counters-only", 0, NULL, C_TOP | C_COUNT,
	  "no BPF: only the kernel's drop counters (works without root); only --netns, -d "
	  "and --json go with it",
	  .why = "applies to commands that show the kernel's counters" },
	/* who */
	{ "group-by", 0, "WHO", C_TOP | C_COUNT | C_READ,
	  "also count by netns, interface, cgroup (the socket's unit, container or pod), "
	  "process (the socket's, as ss -p), container or pod (the socket's, by name), "
	  "flow, src or dst (the packet's protocol, addresses and ports: the top talkers)",
	  .help_for = { { C_READ, "also count by netns, interface, cgroup (the socket's unit, "
				  "container or pod), process (the socket's, with record -p), "
				  "container or pod (the socket's, by name), from the packet "
				  "comments; or flow, src, dst (the packet's protocol, addresses "
				  "and ports: the top talkers); or host (the one that recorded "
				  "it)" } },
	  .why = "applies to commands that print a count table",
	  .hint_for = { { C_SERVE, "serve has --per-interface, --per-netns and "
				   "--per-cgroup" } },
	  .complete = "netns interface cgroup process container pod flow src dst host",
	  .man = "Exact counts by who the drops hurt; see docs/who.md." },
	{ "max-groups", 0, "N", C_TOP | C_COUNT | C_READ,
	  "with --group-by: the N largest groups, the rest as \"(other)\" (10)",
	  .why = "applies to commands that print a count table" },
	{ "host-root", 0, "DIR", C_LIVE,
	  "the container runtimes' files (podman's, docker's, the kubelet's pod logs) are "
	  "below DIR, e.g. /host where a container mounts the host's /var there (default /)",
	  .why = "applies to commands that name containers and pods", .complete = "@files",
	  .man = "Names of containers and pods come from these files only (no API server, "
		 "no runtime socket); see docs/who.md." },
	{ "docker-root", 0, "DIR", C_LIVE,
	  "dockerd's --data-root, where its containers' names are (/var/lib/docker)",
	  .why = "applies to commands that name containers and pods", .complete = "@files" },
	{ "processes", 'p', NULL, C_TOP | C_WATCH | C_COUNT | C_RECORD,
	  "name the process of each drop's socket (as ss -p); keeps CAP_SYS_PTRACE and "
	  "CAP_DAC_READ_SEARCH to read /proc/PID/fd",
	  .why = "applies to commands that name the sockets of drops" },
	/* stacks */
	{ "stacks", 0, NULL, C_TOP | C_WATCH | C_COUNT | C_RECORD | C_READ,
	  "the kernel stack of each drop",
	  .help_for = {
		{ C_TOP, "the kernel stacks of the drops: the five most frequent live, all "
			 "on exit" },
		{ C_WATCH, "the kernel stack of each drop, indented under its line (--json: "
			   "\"stack\": [frames], innermost first)" },
		{ C_COUNT | C_READ, "the kernel stack of each drop (read: as record --stacks "
				    "recorded it), counted per (reason, location, stack)" },
		{ C_RECORD, "the kernel stack of each drop in its packet comment "
			    "(stack=frame;frame;..., innermost first)" } },
	  .why = "applies to commands that trace each drop",
	  .man = "Taken in the tracepoint by bpf_get_stackid(2) into a stack map and "
		 "counted exactly per (reason, location, stack). Frames are function+offset "
		 "from /proc/kallsyms, module frames as func+0xoff [module], innermost "
		 "first. A stack that cannot be kept (its hash bucket holds another stack, "
		 "the map is full, or the per-stack counts are over --map-size) is counted "
		 "under a [stack lost: ...] pseudo-frame and in stacks_lost, never merged "
		 "into another stack. Costs about 2 us per drop; nothing without it." },
	{ "stack-map-size", 0, "N", C_TOP | C_WATCH | C_COUNT | C_RECORD,
	  "with --stacks: distinct stacks the kernel keeps (16384); drops whose stack does "
	  "not fit are counted as [stack lost: ...]",
	  .why = "applies to commands that trace each drop",
	  .man = "Stacks are never replaced (no BPF_F_REUSE_STACKID), so an id always names "
		 "one stack." },
	{ "folded", 0, NULL, C_COUNT | C_READ,
	  "with --stacks: only flame-graph folded lines, the reason as root frame "
	  "(flamegraph.pl, inferno, speedscope read them)",
	  .why = "applies to count and read --stacks",
	  .man = "Frames are function names (offsets left out); equal lines are added up." },
	{ "svg", 0, "FILE", C_COUNT | C_READ,
	  "with --stacks: also write the stacks as an interactive flame graph to FILE, one "
	  "SVG without anything to install or fetch: the reason as root frame, widths of "
	  "the exact counts, hover for a frame's count and share, click to zoom",
	  .why = "applies to count and read --stacks", .complete = "@files",
	  .man = "The frames are those of --folded: drops the noise list hides are left out "
		 "(--show-all keeps them). read: the frames recorded by record --stacks, "
		 "widths of the exact count of recorded drops. FILE is opened before tracing "
		 "(read: before reading) with the checks of "
		 "record -w (no symbolic link is followed; a directory, a file of another "
		 "user or with other hard links is refused), created mode 0600, and an "
		 "existing file is rewritten only once the counts are read. Search (Ctrl-F) "
		 "marks the frames a regular expression matches; the URL fragment "
		 "#f=ID&s=REGEX zooms and searches on opening." },
	/* nftables rules */
	{ "rules", 0, NULL, C_LIVE,
	  "split NETFILTER_DROP by the nftables rule or chain policy that dropped the packet "
	  "(traces the namespaces watched: adds a marking table while it runs; with "
	  "-i, only packets that came in on it; with an expression, only its drops are "
	  "split; docs/firewall.md)",
	  .help_for = {
		{ C_WATCH | C_RECORD, "name the nftables rule of each NETFILTER_DROP (rule "
				      "inet/fw/input/2, rule= in pcapng comments; unknown where "
				      "no trace names it exactly; docs/firewall.md)" },
		{ C_SERVE, "whydrop_netfilter_drops_total: NETFILTER_DROP by namespace and "
			   "nftables rule (rule=\"inet/fw/input/2\", capped by --max-series; "
			   "adds a marking table to the namespaces watched while it runs; "
			   "docs/firewall.md)" } },
	  .why = TRACING,
	  .man = "In each network namespace watched (--netns, else ours and every one that "
		 "exists at start or appears while it runs, looked for each second) whydrop adds "
		 "a table of its own, inet "
		 "whydrop_PIDNS_PID_START, whose chains mark every packet for nftables tracing "
		 "at the earliest priority of each hook; the table is removed on exit (the "
		 "kernel removes it if whydrop is killed). Each traced drop is named by its "
		 "rule (family, table, chain, handle, text, comment) or chain policy; drops "
		 "no trace names are said as such (trace lost, or dropped outside nftables: "
		 "legacy iptables, conntrack), and NETFILTER_DROPs of packets not marked as "
		 "not traced: the parts add up to NETFILTER_DROP exactly. Needs CAP_NET_ADMIN "
		 "and nf_tables; not with --source dropmon. With -i only packets that came in "
		 "through that interface are marked; with a filter expression only the drops it "
		 "matches are claimed (docs/firewall.md). Costs per packet marked, not per "
		 "drop." },
	/* TCP */
	{ "tcp", 0, NULL, C_LIVE,
	  "also TCP resets, sent (with the kernel's reason) and received, and retransmitted "
	  "segments per flow, each placed here or beyond (docs/tcp.md)",
	  .help_for = {
		{ C_COUNT, "also TCP resets by reason and direction, and the most retransmitting "
			   "flows with the drops of this host that explain them (--json: \"resets\", "
			   "\"flows\")" },
		{ C_SERVE, "also whydrop_tcp_resets_total{reason,direction}" },
		{ C_RECORD, "also TCP resets and retransmissions, as packets of a second "
			    "interface (whydrop-tcp) whose headers are synthesized from the event, "
			    "comment event=tcp_... (docs/pcapng.md); read counts them apart" } },
	  .why = TRACING,
	  .man = "Programs of their own on tcp:tcp_send_reset, tcp:tcp_receive_reset and "
		 "tcp:tcp_retransmit_skb, loaded only with --tcp. Resets sent are counted with "
		 "the reason the kernel gives (enum sk_rst_reason, Linux 6.10 and later; "
		 "\"unknown\" before), resets received with the socket's state (a reset "
		 "carries no reason: \"none\"). Exact: resets sent equal the namespace's "
		 "TcpOutRsts where every reset goes through the tracepoint. Retransmitted "
		 "segments are counted per flow as TcpRetransSegs counts them and joined, by "
		 "addresses and ports in either direction, with the TCP drops the drop "
		 "program counts (a program of its own beside it): each flow is placed "
		 "\"here\", \"beyond\" or \"here and beyond\" the view (this host, or "
		 "--netns). record writes each reset and retransmission as a packet of a "
		 "second interface, whydrop-tcp: the flow's IP and TCP headers synthesized "
		 "from the event (RST for resets), comment event=tcp_reset_sent, "
		 "tcp_reset_received, tcp_retransmit or tcp_synack_retransmit; read counts "
		 "them apart from drops. Needs the BPF source: it does not go with --source "
		 "dropmon." },
	/* noise */
	{ "hide", 0, "R[@F]", C_TOP | C_COUNT | C_SERVE,
	  "hide drops of reason R (at function F) as expected; repeatable, comma-separated, "
	  "R may be *",
	  .why = "applies to commands that hide expected drops", .complete = "@reasons" },
	{ "noise-file", 0, "PATH", C_TOP | C_COUNT | C_SERVE,
	  "rules of expected drops (default " WD_NOISE_FILE ", read when it exists)",
	  .why = "applies to commands that hide expected drops", .complete = "@files" },
	{ "show-all", 0, NULL, C_TOP | C_COUNT | C_SERVE,
	  "hide nothing, not even the built-in expected drops",
	  .why = "applies to commands that hide expected drops" },
	/* a check for cron, CI and monitoring */
	{ "fail-on", 0, "SPEC", C_COUNT,
	  "exit with status 3 when a threshold is crossed, and say why: REASON>N (drops) or "
	  "REASON>N/s (per second), >= too, comma-separated; REASON may be unexpected (each "
	  "reason the noise list does not hide) or any (every drop)",
	  .why = "applies to the command that counts for a while",
	  .hint_for = { { C_TOP, "`whydrop count -d T --fail-on SPEC` checks one run" },
			{ C_SERVE, "serve's alerts are in contrib/prometheus/whydrop-rules.yml" } },
	  .complete = "@reasons",
	  .man = "Example: --fail-on 'NO_SOCKET>100/s,NETFILTER_DROP>0'. A named reason counts "
		 "all its drops, expected ones too; unexpected checks each reason the noise "
		 "list does not hide on its own; any is the sum of every drop. Rates are over "
		 "the run's duration (-d). The report then ends with the check: each "
		 "threshold, and for those crossed the rows of the reasons that crossed with "
		 "their cause (the \"check\" object of --json); stderr says which were "
		 "crossed. Exit status 3 when one was, 0 when none was, 1 and 2 as always." },
	/* what is printed */
	{ "explain", 0, NULL, C_TOP | C_WATCH | C_COUNT,
	  "on exit, the catalogue entry of each reason seen",
	  .why = "applies to commands that print a summary on exit",
	  .hint_for = { { C_RECORD | C_SERVE, "`whydrop explain REASON` explains one" } } },
	/* where drops come from */
	{ "source", 0, "S", C_LIVE,
	  "bpf, dropmon (the kernel's drop_monitor, no BPF; docs/dropmon.md), or auto: BPF, "
	  "else drop_monitor (the default)",
	  .why = TRACING, .complete = "auto bpf dropmon",
	  .man = "drop_monitor (generic netlink family NET_DM, module drop_monitor) also "
		 "reports hardware drops (devlink traps) with their trap group and name. "
		 "auto falls back to it, said once on stderr, where the BPF program cannot "
		 "load. It does not say in which network namespace a drop happened, so "
		 "--netns and -i are refused with it; records carry no netns and no cpu; "
		 "drops its per-CPU queue could not hold are counted from its statistics "
		 "and reported as losses (lost_events, and the dropmon object of count "
		 "--json), the counts then being lower bounds. It serves one listener at a "
		 "time, only in the initial network namespace, and needs CAP_NET_ADMIN and "
		 "CAP_SYS_ADMIN." },
	{ "dropmon-mode", 0, "M", C_LIVE,
	  "with --source dropmon: packet (reasons, packets; the default) or summary (counts "
	  "by location only, once a second)",
	  .why = TRACING, .complete = "packet summary" },
	{ "dropmon-queue", 0, "N", C_LIVE,
	  "with --source dropmon: drop_monitor's per-CPU queue, in packets (1000); drops "
	  "beyond it are counted as losses",
	  .why = TRACING },
	/* every command */
	{ "json", 'j', NULL, C_ALL & ~(C_RECORD | C_SERVE), "one JSON document",
	  .help_for = {
		{ C_TOP, "on exit, the summary as the `count --json` document on stdout (the "
			 "live table then goes to stderr)" },
		{ C_WATCH, "JSON Lines, one object per packet" },
		{ C_COUNT | C_READ, "one JSON document (its fields: docs/design.md)" } },
	  .why = "applies to commands with JSON output",
	  .hint_for = {
		{ C_RECORD, "record writes pcapng: `whydrop read --json FILE` summarises a "
			    "recording as JSON" },
		{ C_SERVE, "serve answers in the Prometheus text format" } } },
	{ "verbose", 'v', NULL, C_ALL,
	  "libbpf's diagnostics, and the capabilities kept once attached",
	  .help_for = {
		{ C_SERVE, "libbpf's and HTTP diagnostics" },
		{ C_REASONS | C_EXPLAIN, "on stderr, where the reason names come from (BTF or "
					 "tracefs) and libbpf's messages reading them" },
		{ C_READ, "on stderr, what the file holds: sections, interfaces, packets, "
			  "statistics blocks, blocks skipped, and what wrote it" } },
	  .why = "applies to every command" },
	{ "help", 'h', NULL, C_ALL, "this help", .why = "applies to every command" },
};

const size_t wd_n_options = sizeof(wd_options) / sizeof(wd_options[0]);
_Static_assert(sizeof(wd_options) / sizeof(wd_options[0]) <= WD_MAX_OPTIONS,
	       "raise WD_MAX_OPTIONS: the parser builds its getopt table on the stack");

