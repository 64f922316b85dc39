// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reader of network MIB counters and sysctls; see counters.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"
#include "grow.h"

#define PATH_LEN	4096
#define NAME_LEN	256
#define LINE_MAX_LEN	65536

void wd_counters_init(struct wd_counters *c)
{
	memset(c, 0, sizeof(*c));
}

void wd_counters_free(struct wd_counters *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	wd_counters_init(c);
}

static struct wd_counter *lookup(const struct wd_counters *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

int wd_counters_set(struct wd_counters *c, const char *name, uint64_t value)
{
	struct wd_counter *e = lookup(c, name);
	char *dup;

	if (e) {
		e->value = value;
		return 0;
	}
	if (wd_grow(&c->v, &c->cap, c->n, sizeof(*c->v), 256))
		return -ENOMEM;
	dup = strdup(name);
	if (!dup)
		return -ENOMEM;
	c->v[c->n].name = dup;
	c->v[c->n].value = value;
	c->n++;
	return 0;
}

/* The next space-separated word of *s into buf; 0, or -EINVAL if none or too long. */
static int word(const char **s, char *buf, size_t len)
{
	size_t n = strcspn(*s, " ");

	if (!n || n >= len)
		return -EINVAL;
	memcpy(buf, *s, n);
	buf[n] = '\0';
	*s += n + ((*s)[n] == ' ');
	return 0;
}

int wd_counter_part_parse(const char *label, struct wd_counter_part *p)
{
	memset(p, 0, sizeof(*p));
	if (word(&label, p->device, sizeof(p->device)) ||
	    word(&label, p->kind, sizeof(p->kind)) ||
	    word(&label, p->handle, sizeof(p->handle)) || *label)
		return -EINVAL;
	return 0;
}

bool wd_counters_get(const struct wd_counters *c, const char *name, uint64_t *value)
{
	const struct wd_counter *e = lookup(c, name);

	if (!e)
		return false;
	if (value)
		*value = e->value;
	return true;
}

/* Next line of text into buf (without newline); NULL at the end. */
static const char *next_line(const char *p, char *buf, size_t len)
{
	size_t n;

	if (!p || !*p)
		return NULL;
	n = strcspn(p, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
	p += n;
	return *p ? p + 1 : p;
}

/* "Tcp: A B C" + "Tcp: 1 2 3" -> TcpA=1, TcpB=2, TcpC=3. */
static int parse_pair(struct wd_counters *c, char *names, char *values)
{
	char *sn, *sv, *n, *v, *prefix;
	char name[NAME_LEN];
	int err = 0;

	prefix = strtok_r(names, " \t", &sn);
	v = strtok_r(values, " \t", &sv);
	if (!prefix || !v || strcmp(prefix, v))
		return 0;
	prefix[strlen(prefix) - 1] = '\0';	/* the ':' */
	while (!err && (n = strtok_r(NULL, " \t", &sn)) &&
	       (v = strtok_r(NULL, " \t", &sv))) {
		snprintf(name, sizeof(name), "%s%s", prefix, n);
		err = wd_counters_set(c, name, strtoull(v, NULL, 10));
	}
	return err;
}

int wd_counters_parse_table(struct wd_counters *c, const char *text)
{
	char *names = malloc(LINE_MAX_LEN), *values = malloc(LINE_MAX_LEN);
	const char *p = text;
	int err = -ENOMEM;

	if (!names || !values)
		goto cleanup;
	err = 0;
	while (!err && (p = next_line(p, names, LINE_MAX_LEN))) {
		p = next_line(p, values, LINE_MAX_LEN);
		if (!p)
			break;
		if (strchr(names, ':'))
			err = parse_pair(c, names, values);
	}
cleanup:
	free(names);
	free(values);
	return err;
}

int wd_counters_parse_flat(struct wd_counters *c, const char *text)
{
	char line[512], name[NAME_LEN];
	unsigned long long v;
	const char *p = text;
	int err = 0;

	while (!err && (p = next_line(p, line, sizeof(line))))
		if (sscanf(line, "%255s %llu", name, &v) == 2)
			err = wd_counters_set(c, name, v);
	return err;
}

int wd_counters_parse_softnet(struct wd_counters *c, const char *text)
{
	static const struct { int col; const char *name; } cols[] = {
		{ 0, "softnet:processed" },
		{ 1, "softnet:dropped" },
		{ 2, "softnet:time_squeeze" },
		{ 9, "softnet:received_rps" },
		{ 10, "softnet:flow_limit_count" },
	};
	uint64_t sum[sizeof(cols) / sizeof(cols[0])] = { 0 };
	const char *p = text;
	char line[512];
	int err = 0;

	while ((p = next_line(p, line, sizeof(line)))) {
		unsigned long v[16];
		int n = 0, used;
		char *q = line;

		while (n < 16 && sscanf(q, "%lx%n", &v[n], &used) == 1) {
			q += used;
			n++;
		}
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
			if (cols[i].col < n)
				sum[i] += v[cols[i].col];
	}
	for (size_t i = 0; !err && i < sizeof(cols) / sizeof(cols[0]); i++)
		err = wd_counters_set(c, cols[i].name, sum[i]);
	return err;
}

char *wd_slurp_fd(int fd)
{
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap + 1), *tmp;
	ssize_t r;

	/* pread from 0: a /proc seq_file kept open is generated afresh */
	while (buf && (r = pread(fd, buf + n, cap - n, (off_t)n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		n += (size_t)r;
		if (n < cap)
			continue;
		cap *= 2;
		tmp = realloc(buf, cap + 1);
		if (!tmp)
			free(buf);
		buf = tmp;
	}
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* The files of /proc/net wd_counters_read() takes, and their shapes. */
const char *const wd_counters_proc_files[] = {
	"snmp", "netstat", "snmp6", "xfrm_stat", "softnet_stat", NULL,
};

int wd_counters_add_text(struct wd_counters *c, const char *file, const char *text)
{
	if (!strcmp(file, "snmp") || !strcmp(file, "netstat"))
		return wd_counters_parse_table(c, text);
	if (!strcmp(file, "softnet_stat"))
		return wd_counters_parse_softnet(c, text);
	return wd_counters_parse_flat(c, text);
}

int wd_counters_read(struct wd_counters *c, const char *root)
{
	char path[PATH_LEN];
	char *text;
	int err = 0, fd;

	for (size_t i = 0; !err && wd_counters_proc_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/proc/net/%s", root ? root : "",
			 wd_counters_proc_files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;	/* no IPv6, no xfrm: nothing to add */
		text = wd_slurp_fd(fd);
		close(fd);
		if (!text) {
			err = errno == ENOMEM ? -ENOMEM : 0;
			continue;
		}
		err = wd_counters_add_text(c, wd_counters_proc_files[i], text);
		free(text);
	}
	return err;
}

int wd_counters_add_netdev(struct wd_counters *c, const char *root, const char *stat)
{
	char dir[PATH_LEN], path[PATH_LEN + NAME_LEN * 2], name[NAME_LEN];
	struct dirent *d;
	uint64_t sum = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/sys/class/net", root ? root : "");
	dp = opendir(dir);
	while (dp && (d = readdir(dp))) {
		unsigned long long v;
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/statistics/%s", dir,
			 d->d_name, stat);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &v) == 1)
			sum += v;
		fclose(f);
	}
	if (dp)
		closedir(dp);
	snprintf(name, sizeof(name), "netdev:%s", stat);
	return wd_counters_set(c, name, sum);
}

/* ------------------------------------------------------------- sysctls */

/* "net.ipv4.conf.eth0/100.rp_filter" <-> "net/ipv4/conf/eth0.100/rp_filter" */
static void swap_seps(char *s)
{
	for (; *s; s++) {
		if (*s == '.')
			*s = '/';
		else if (*s == '/')
			*s = '.';
	}
}

int wd_sysctl_read(const char *root, const char *name, char *buf, size_t len)
{
	char rel[PATH_LEN], path[PATH_LEN + 16];
	size_t n;
	FILE *f;

	snprintf(rel, sizeof(rel), "%s", name);
	swap_seps(rel);
	snprintf(path, sizeof(path), "%s/proc/sys/%s", root ? root : "", rel);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		int err = errno ? -errno : -EIO;

		fclose(f);
		return err;
	}
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	return 0;
}

static int each_plain(const char *root, const char *name, wd_sysctl_cb cb, void *arg)
{
	char val[1024];
	int err = wd_sysctl_read(root, name, val, sizeof(val));

	cb(name, err ? NULL : val, err, arg);
	return 1;
}

int wd_sysctl_each(const char *root, const char *pattern, wd_sysctl_cb cb, void *arg)
{
	char rel[PATH_LEN], pat[PATH_LEN + 16], name[PATH_LEN], val[1024];
	size_t skip;
	glob_t g;
	int n = 0;

	if (!strchr(pattern, '*'))
		return each_plain(root, pattern, cb, arg);
	snprintf(rel, sizeof(rel), "%s", pattern);
	swap_seps(rel);
	skip = (size_t)snprintf(pat, sizeof(pat), "%s/proc/sys/", root ? root : "");
	snprintf(pat + skip, sizeof(pat) - skip, "%s", rel);
	if (glob(pat, 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		int err;

		snprintf(name, sizeof(name), "%s", g.gl_pathv[i] + skip);
		swap_seps(name);
		err = wd_sysctl_read(root, name, val, sizeof(val));
		cb(name, err ? NULL : val, err, arg);
		n++;
	}
	globfree(&g);
	return n;
}
