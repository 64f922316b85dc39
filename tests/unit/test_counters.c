// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* MIB counter and sysctl reader: parsers on fixed text, a fake /proc tree. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters.h"
#include "unit.h"

static const char snmp[] =
	"Ip: Forwarding DefaultTTL InReceives InHdrErrors\n"
	"Ip: 2 64 1520 7\n"
	"Tcp: RtoAlgorithm MaxConn InErrs InCsumErrors\n"
	"Tcp: 1 -1 3 2\n"
	"Udp: InDatagrams NoPorts InErrors RcvbufErrors\n"
	"Udp: 10 4 5 1\n";

static const char netstat[] =
	"TcpExt: SyncookiesSent TCPZeroWindowDrop TCPBacklogDrop\n"
	"TcpExt: 0 12 3\n"
	"IpExt: InNoRoutes InTruncatedPkts\n"
	"IpExt: 9 1\n";

static const char snmp6[] =
	"Ip6InReceives                   \t100\n"
	"Ip6InHdrErrors                  \t2\n"
	"Udp6NoPorts                     \t5\n";

static const char softnet[] =
	"00000014 00000002 00000001 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000003 00000004 00000000 00000000\n"
	"00000b04 00000010 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000001 00000000 00000001\n";

static uint64_t get(const struct wd_counters *c, const char *name)
{
	uint64_t v = 0xdead;

	UNIT_RECORD(wd_counters_get(c, name, &v), "counter %s missing", name);
	return v;
}

static void test_parsers(void)
{
	struct wd_counters c;

	wd_counters_init(&c);
	CHECK_INT(wd_counters_parse_table(&c, snmp), 0);
	CHECK_INT(wd_counters_parse_table(&c, netstat), 0);
	CHECK_INT(wd_counters_parse_flat(&c, snmp6), 0);
	CHECK_INT(wd_counters_parse_softnet(&c, softnet), 0);
	CHECK_INT(get(&c, "IpInHdrErrors"), 7);
	CHECK_INT(get(&c, "TcpInCsumErrors"), 2);
	CHECK(get(&c, "TcpMaxConn") == UINT64_MAX);
	CHECK_INT(get(&c, "UdpNoPorts"), 4);
	CHECK_INT(get(&c, "TcpExtTCPZeroWindowDrop"), 12);
	CHECK_INT(get(&c, "TcpExtTCPBacklogDrop"), 3);
	CHECK_INT(get(&c, "IpExtInNoRoutes"), 9);
	CHECK_INT(get(&c, "Ip6InHdrErrors"), 2);
	CHECK_INT(get(&c, "Udp6NoPorts"), 5);
	CHECK_INT(get(&c, "softnet:processed"), 0x14 + 0xb04);
	CHECK_INT(get(&c, "softnet:dropped"), 0x12);
	CHECK_INT(get(&c, "softnet:time_squeeze"), 1);
	CHECK_INT(get(&c, "softnet:flow_limit_count"), 5);
	CHECK(!wd_counters_get(&c, "TcpExtNoSuchCounter", NULL));
	CHECK_INT(wd_counters_set(&c, "UdpNoPorts", 40), 0);
	CHECK_INT(get(&c, "UdpNoPorts"), 40);
	wd_counters_free(&c);
	CHECK_INT(c.n, 0);
}

static void test_bad_input(void)
{
	struct wd_counters c;

	wd_counters_init(&c);
	CHECK_INT(wd_counters_parse_table(&c, ""), 0);
	CHECK_INT(wd_counters_parse_table(&c, "Ip: A B\n"), 0);
	CHECK_INT(wd_counters_parse_table(&c, "Ip: A B\nTcp: 1 2\n"), 0);
	CHECK_INT(wd_counters_parse_flat(&c, "garbage\n\n"), 0);
	CHECK_INT(c.n, 0);
	wd_counters_free(&c);
}

static int put(const char *root, const char *rel, const char *text)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	return 0;
}

struct seen {
	int n;
	char names[8][128];
	char values[8][64];
};

static void collect(const char *name, const char *value, int err, void *arg)
{
	struct seen *s = arg;

	if (s->n >= 8)
		return;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
	snprintf(s->values[s->n], sizeof(s->values[0]), "%s",
		 value ? value : (err == -ENOENT ? "ENOENT" : "ERR"));
	s->n++;
}

static void test_tree(void)
{
	char root[] = "/tmp/wd-counters-XXXXXX";
	struct wd_counters c;
	struct seen s = { 0 };
	char buf[128];

	CHECK(mkdtemp(root) != NULL);
	CHECK_INT(put(root, "proc/net/snmp", snmp), 0);
	CHECK_INT(put(root, "proc/net/netstat", netstat), 0);
	CHECK_INT(put(root, "proc/sys/net/core/rmem_max", "212992\n"), 0);
	CHECK_INT(put(root, "proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456\n"), 0);
	CHECK_INT(put(root, "proc/sys/net/ipv4/conf/all/rp_filter", "0\n"), 0);
	CHECK_INT(put(root, "proc/sys/net/ipv4/conf/eth0.100/rp_filter", "2\n"), 0);
	CHECK_INT(put(root, "sys/class/net/eth0/statistics/rx_nohandler", "3\n"), 0);
	CHECK_INT(put(root, "sys/class/net/lo/statistics/rx_nohandler", "4\n"), 0);

	wd_counters_init(&c);
	CHECK_INT(wd_counters_read(&c, root), 0);	/* snmp6 etc. missing: fine */
	CHECK_INT(get(&c, "TcpExtTCPZeroWindowDrop"), 12);
	CHECK_INT(wd_counters_add_netdev(&c, root, "rx_nohandler"), 0);
	CHECK_INT(get(&c, "netdev:rx_nohandler"), 7);
	wd_counters_free(&c);

	CHECK_INT(wd_sysctl_read(root, "net.core.rmem_max", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "212992");
	CHECK_INT(wd_sysctl_read(root, "net.ipv4.tcp_rmem", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "4096 131072 6291456");
	CHECK_INT(wd_sysctl_read(root, "net.core.nope", buf, sizeof(buf)), -ENOENT);

	CHECK_INT(wd_sysctl_each(root, "net.ipv4.conf.*.rp_filter", collect, &s), 2);
	CHECK_STR(s.names[0], "net.ipv4.conf.all.rp_filter");
	CHECK_STR(s.values[0], "0");
	CHECK_STR(s.names[1], "net.ipv4.conf.eth0/100.rp_filter");
	CHECK_STR(s.values[1], "2");
	s.n = 0;
	CHECK_INT(wd_sysctl_each(root, "net.core.nope", collect, &s), 1);
	CHECK_STR(s.values[0], "ENOENT");
	s.n = 0;
	CHECK_INT(wd_sysctl_each(root, "net.ipv6.conf.*.x", collect, &s), 0);

	snprintf(buf, sizeof(buf), "rm -rf '%s'", root);
	CHECK_INT(system(buf), 0);
}

static void test_live(void)
{
	struct wd_counters c;
	char buf[64];

	/* The running kernel: always has these (any netns, any user). */
	wd_counters_init(&c);
	CHECK_INT(wd_counters_read(&c, NULL), 0);
	CHECK(wd_counters_get(&c, "IpInReceives", NULL));
	CHECK(wd_counters_get(&c, "TcpExtListenDrops", NULL));
	CHECK(wd_counters_get(&c, "softnet:dropped", NULL));
	wd_counters_free(&c);
	CHECK_INT(wd_sysctl_read(NULL, "net.ipv4.ip_forward", buf, sizeof(buf)), 0);
}

UNIT_MAIN(test_parsers, test_bad_input, test_tree, test_live)
