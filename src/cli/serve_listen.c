// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the listening socket (--listen, a warning for the any
 * address), and least privilege once it is bound and the program attached.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "privileges.h"
#include "serve.h"

/* "127.0.0.1:9464", "[::1]:9464", ":9464", "localhost:9464" to an address. */
static int parse_listen(const char *arg, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	const char *colon = strrchr(arg, ':'), *port, *h = arg;
	struct addrinfo *ai = NULL;
	size_t hlen;

	if (!colon || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -1;
	port = colon + 1;
	hlen = (size_t)(colon - arg);
	if (hlen >= 2 && arg[0] == '[' && arg[hlen - 1] == ']') {
		h = arg + 1;
		hlen -= 2;
	} else if (memchr(arg, ':', hlen)) {
		return -1;	/* IPv6 without brackets */
	}
	if (hlen >= sizeof(host) || strtoul(port, NULL, 10) > 65535)
		return -1;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	if (!strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	if (getaddrinfo(hlen ? host : "::", port, &hints, &ai) || !ai)
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static void format_addr(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2] = "?";
	char port[8] = "?";

	getnameinfo((const struct sockaddr *)ss, sizeof(*ss), host, sizeof(host), port,
		    sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(buf, len, ss->ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

static const char *bind_hint(int err)
{
	switch (err) {
	case EADDRINUSE:
		return " (another program listens there: choose another port with --listen)";
	case EADDRNOTAVAIL:
		return " (no interface of this machine has that address)";
	case EACCES:
		return " (ports below 1024 need root or CAP_NET_BIND_SERVICE)";
	}
	return "";
}

/* The any address (0.0.0.0, ::, ::ffff:0.0.0.0): every interface of the machine. */
static bool is_wildcard(const struct sockaddr_storage *ss)
{
	const struct in6_addr *a6 = &((const struct sockaddr_in6 *)ss)->sin6_addr;

	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(a6) ||
	       (IN6_IS_ADDR_V4MAPPED(a6) && !memcmp(&a6->s6_addr[12], "\0\0\0\0", 4));
}

int wd_serve_listen(const char *arg, bool *v6)
{
	struct sockaddr_storage ss = {};
	socklen_t len = 0;
	int fd, one = 1, zero = 0, err;

	fd = parse_listen(arg, &ss, &len);
	if (fd)
		return -2;
	*v6 = ss.ss_family == AF_INET6;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* ":PORT" (the any address) serves IPv4 too; a given IPv6 address only IPv6. */
	if (*v6 && IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&ss)->sin6_addr))
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	else if (*v6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64))
		goto fail;
	if (is_wildcard(&ss))
		fprintf(stderr, "whydrop serve: warning: --listen %s listens on every address of "
			"this machine: whoever can reach it reads the metrics (kernel version, "
			"drop reasons, network namespaces, interfaces, cgroups); give 127.0.0.1 "
			"or [::1], or filter the port\n", arg);
	return fd;
fail:
	err = errno;
	fprintf(stderr, "whydrop serve: cannot listen on %s: %s%s\n", arg, strerror(err),
		bind_hint(err));
	if (fd >= 0)
		close(fd);
	return -1;
}

int wd_serve_drop_privileges(struct serve *sv, uid_t uid, gid_t gid)
{
	uint64_t keep;
	const char *why;
	int map_fd;

	if (wd_privileges_seal()) {
		fprintf(stderr, "whydrop serve: cannot empty the capability bounding set: %s\n",
			strerror(errno));
		return -1;
	}
	if (geteuid() == 0 && wd_privileges_switch_user("whydrop serve", uid, gid))
		return -1;
	/* What the sources need once attached (drop_monitor: CAP_NET_ADMIN, its STOP on exit). */
	wd_session_keep_caps(&sv->s, &keep, &map_fd, &why);
	/* --per-container: the runtimes' files are root's (raised around reading them) */
	if (sv->so.per_container)
		keep |= WD_CAP(WD_CAP_DAC_READ_SEARCH);
	if (wd_privileges_reduce("whydrop serve", keep, map_fd, &sv->keep_cap_bpf))
		return -1;
	if (sv->keep_cap_bpf)
		fprintf(stderr, "whydrop serve: this kernel needs CAP_BPF to read BPF maps "
				"(kernel.unprivileged_bpf_disabled): keeping CAP_BPF alone\n");
	return 0;
}

void wd_serve_announce(const struct serve *sv, int fd)
{
	struct sockaddr_storage ss = {};
	socklen_t len = sizeof(ss);
	char addr[INET6_ADDRSTRLEN + IF_NAMESIZE + 16] = "?";
	const char *why;
	uint64_t keep;
	int map_fd;

	wd_session_keep_caps(&sv->s, &keep, &map_fd, &why);
	if (!getsockname(fd, (struct sockaddr *)&ss, &len))
		format_addr(&ss, addr, sizeof(addr));
	/* --per-container: said too, it is a capability kept */
	if (!why && sv->so.per_container)
		why = "CAP_DAC_READ_SEARCH permitted, raised only to read the container runtimes' "
		      "files";
	fprintf(stderr, "whydrop serve: listening on http://%s/metrics (uid %u, %s)\n", addr,
		(unsigned int)getuid(),
		why ? why : sv->keep_cap_bpf ? "CAP_BPF only" : "no capabilities");
}
