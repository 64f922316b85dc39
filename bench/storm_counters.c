// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * storm_counters: how storm reads the kernel's count of its drops in its
 * network namespace (/proc/net/udp and udp6, /proc/net/snmp, /proc/net/snmp6),
 * and waits after a storm until that count stops moving.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "storm_counters.h"

static void sleep_s(double s)
{
	struct timespec ts = {
		.tv_sec = (time_t)s,
		.tv_nsec = (long)((s - (time_t)s) * 1e9),
	};

	nanosleep(&ts, NULL);
}

/* What @scan finds in the file at @path for @key; -1 if unreadable or absent. */
static long long read_proc(const char *path, long long (*scan)(FILE *f, const void *key),
			   const void *key)
{
	long long v;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	v = scan(f, key);
	fclose(f);
	return v;
}

/* Drops column of the socket with inode *@key in /proc/net/udp or udp6. */
static long long scan_socket_drops(FILE *f, const void *key)
{
	unsigned long ino = *(const unsigned long *)key;
	char line[512];

	if (!fgets(line, sizeof(line), f))	/* header */
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tok[16], *save = NULL, *p = line;
		int n = 0;

		while (n < 16 && (tok[n] = strtok_r(p, " \t\n", &save))) {
			p = NULL;
			n++;
		}
		/* sl local rem st tx:rx tr:when retr uid timeout inode ref ptr drops */
		if (n < 13)
			continue;
		if (strtoul(tok[9], NULL, 10) == ino)
			return strtoll(tok[12], NULL, 10);
	}
	return -1;
}

static long long socket_drops(bool v6, unsigned long ino)
{
	return read_proc(v6 ? "/proc/net/udp6" : "/proc/net/udp", scan_socket_drops, &ino);
}

/* Field @key of the "Udp:" lines of /proc/net/snmp (a header line, a value line). */
static long long scan_snmp_udp(FILE *f, const void *key)
{
	char hdr[2048], val[2048];
	char *hs = NULL, *vs = NULL, *h, *v;

	do {
		if (!fgets(hdr, sizeof(hdr), f))
			return -1;
	} while (strncmp(hdr, "Udp: ", 5));
	if (!fgets(val, sizeof(val), f))
		return -1;
	h = strtok_r(hdr, " \n", &hs);
	v = strtok_r(val, " \n", &vs);
	while (h && v) {
		if (!strcmp(h, key))
			return strtoll(v, NULL, 10);
		h = strtok_r(NULL, " \n", &hs);
		v = strtok_r(NULL, " \n", &vs);
	}
	return -1;
}

static long long snmp_udp(const char *field)
{
	return read_proc("/proc/net/snmp", scan_snmp_udp, field);
}

/* Counter @key of /proc/net/snmp6 (one "name value" a line). */
static long long scan_snmp6(FILE *f, const void *key)
{
	char line[256];

	while (fgets(line, sizeof(line), f)) {
		char name[128];
		long long v;

		if (sscanf(line, "%127s %lld", name, &v) == 2 && !strcmp(name, key))
			return v;
	}
	return -1;
}

static long long snmp6(const char *field)
{
	return read_proc("/proc/net/snmp6", scan_snmp6, field);
}

void read_counters(struct counters *c, const struct receiver *r, int nr)
{
	int i;

	c->sock[0] = c->sock[1] = -1;
	for (i = 0; i < nr; i++)
		c->sock[r[i].v6] = socket_drops(r[i].v6, r[i].ino);
	c->rcvbuf[0] = snmp_udp("RcvbufErrors");
	c->rcvbuf[1] = snmp6("Udp6RcvbufErrors");
	c->noports[0] = snmp_udp("NoPorts");
	c->noports[1] = snmp6("Udp6NoPorts");
}

long long counter_delta(long long a, long long b)
{
	return a < 0 || b < 0 ? -1 : b - a;
}

long long family_drops(const struct counters *a, const struct counters *b,
		       int fam, bool closed)
{
	if (closed)
		return counter_delta(a->noports[fam], b->noports[fam]);
	return counter_delta(a->sock[fam], b->sock[fam]);
}

/*
 * Wait until the kernel's count stops moving: a datagram left on a CPU's
 * backlog when its sender stopped (softirq deferred to ksoftirqd) is still
 * dropped after the senders are gone.
 */
void settle_counters(struct counters *c, const struct counters *c0,
		     const struct receiver *r, int nr, bool closed)
{
	struct counters next;
	int i;

	read_counters(c, r, nr);
	for (i = 0; i < 100; i++) {
		sleep_s(0.01);
		read_counters(&next, r, nr);
		if (family_drops(c0, &next, 0, closed) ==
		    family_drops(c0, c, 0, closed) &&
		    family_drops(c0, &next, 1, closed) ==
		    family_drops(c0, c, 1, closed))
			break;
		*c = next;
	}
}
