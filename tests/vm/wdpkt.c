// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wdpkt: tiny packet forger for the whydrop VM tests (built static, runs in
 * a busybox initramfs). It sends exactly COUNT crafted IPv4/IPv6 packets
 * through raw sockets, or holds a socket open as the drop target.
 *
 *   wdpkt tcp SRC DST SPORT DPORT FLAGS COUNT [badsum]   FLAGS: any of SFRPAU
 *   wdpkt udp SRC DST SPORT DPORT COUNT [PAYLOAD_LEN]
 *   wdpkt listen ADDR PORT          TCP listener; "ready" on stdout, then waits
 *   wdpkt udpsink ADDR PORT RCVBUF  UDP socket with SO_RCVBUF=RCVBUF (-N:
 *                                   SO_RCVBUFFORCE=N, past rmem_max), never read
 *                                   until SIGTERM/SIGINT, then drains it and
 *                                   prints "received N"
 *   wdpkt tcpsink ADDR PORT         accept one TCP connection, read it to its
 *                                   end; "ready", then "received N"
 *   wdpkt tcpsend ADDR PORT BYTES   a TCP transfer of BYTES to a tcpsink
 *   wdpkt refused ADDR PORT N       N TCP connections to a closed port
 *                                   (the peer's RSTs); "refused N"
 *   wdpkt sigdfl CMD [ARG...]       exec CMD with SIGINT/SIGQUIT back to default
 *                                   (a non-interactive shell starts background
 *                                   jobs with SIGINT ignored)
 *   wdpkt sockmix ADDR PORT         everyday socket life that frees packets
 *                                   unread (Unix, UDP and packet sockets closed
 *                                   with queued data, a Unix datagram socket
 *                                   reconnected, a listener closed with an
 *                                   unaccepted connection holding data, data
 *                                   to a closed TCP peer, ordinary TCP
 *                                   connections), on ADDR ports PORT..PORT+5
 *                                   and lo; one line per step on stdout
 *
 * Only for use inside the network namespaces the tests create.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct addr {
	int family;
	union {
		struct in_addr v4;
		struct in6_addr v6;
	};
};

static void die(const char *what)
{
	fprintf(stderr, "wdpkt: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: wdpkt tcp SRC DST SPORT DPORT FLAGS COUNT [badsum]\n"
		"       wdpkt udp SRC DST SPORT DPORT COUNT [PAYLOAD_LEN]\n"
		"       wdpkt listen ADDR PORT\n"
		"       wdpkt udpsink ADDR PORT RCVBUF\n"
		"       wdpkt sigdfl CMD [ARG...]\n"
		"       wdpkt sockmix ADDR PORT\n"
		"       wdpkt tcpsink ADDR PORT | tcpsend ADDR PORT BYTES | refused ADDR PORT N\n");
	exit(2);
}

static void parse_addr(const char *s, struct addr *a)
{
	if (inet_pton(AF_INET, s, &a->v4) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, s, &a->v6) == 1)
		a->family = AF_INET6;
	else {
		fprintf(stderr, "wdpkt: bad address '%s'\n", s);
		exit(2);
	}
}

static uint32_t sum16(const void *data, size_t len, uint32_t sum)
{
	const uint8_t *p = data;

	for (; len > 1; len -= 2, p += 2)
		sum += (uint32_t)p[0] << 8 | p[1];
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Checksum of an L4 segment with the IPv4/IPv6 pseudo-header, network order. */
static uint16_t l4_csum(const struct addr *src, const struct addr *dst,
			uint8_t proto, const void *l4, size_t len)
{
	uint32_t sum = 0;

	if (src->family == AF_INET) {
		sum = sum16(&src->v4, 4, sum);
		sum = sum16(&dst->v4, 4, sum);
	} else {
		sum = sum16(&src->v6, 16, sum);
		sum = sum16(&dst->v6, 16, sum);
	}
	sum += proto;
	sum += (uint32_t)len;
	sum = sum16(l4, len, sum);
	uint16_t c = fold(sum);
	if (proto == IPPROTO_UDP && c == 0)
		c = 0xffff;
	return htons(c);
}

/* Prepend the IP header for l4[0..len) into pkt; return the packet length. */
static size_t build_ip(uint8_t *pkt, const struct addr *src,
		       const struct addr *dst, uint8_t proto, size_t len)
{
	if (src->family == AF_INET) {
		uint8_t *ip = pkt;

		memset(ip, 0, 20);
		ip[0] = 0x45;
		ip[2] = (uint8_t)((20 + len) >> 8);
		ip[3] = (uint8_t)(20 + len);
		ip[6] = 0x40;		/* DF */
		ip[8] = 64;		/* TTL */
		ip[9] = proto;
		memcpy(ip + 12, &src->v4, 4);
		memcpy(ip + 16, &dst->v4, 4);
		uint16_t c = htons(fold(sum16(ip, 20, 0)));
		memcpy(ip + 10, &c, 2);
		return 20 + len;
	}
	uint8_t *ip6 = pkt;

	memset(ip6, 0, 40);
	ip6[0] = 0x60;
	ip6[4] = (uint8_t)(len >> 8);
	ip6[5] = (uint8_t)len;
	ip6[6] = proto;
	ip6[7] = 64;
	memcpy(ip6 + 8, &src->v6, 16);
	memcpy(ip6 + 24, &dst->v6, 16);
	return 40 + len;
}

static int raw_socket(int family)
{
	/* IPPROTO_RAW implies IP_HDRINCL (IPv4) / IPV6_HDRINCL (IPv6). */
	int fd = socket(family, SOCK_RAW, IPPROTO_RAW);

	if (fd < 0)
		die("raw socket (are you root?)");
	return fd;
}

/* addr and port (host order) as a socket address; its length. */
static socklen_t sockaddr_of(const struct addr *addr, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (addr->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_addr = addr->v4;
		sin->sin_port = htons((uint16_t)port);
		return sizeof(*sin);
	}
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = addr->v6;
	sin6->sin6_port = htons((uint16_t)port);
	return sizeof(*sin6);
}

static void send_n(const struct addr *dst, const uint8_t *pkt, size_t len,
		   long count)
{
	struct sockaddr_storage ss;
	socklen_t sl = sockaddr_of(dst, 0, &ss);
	int fd = raw_socket(dst->family);

	for (long i = 0; i < count; i++) {
		if (sendto(fd, pkt, len, 0, (struct sockaddr *)&ss, sl) != (ssize_t)len)
			die("sendto");
	}
	close(fd);
	printf("sent %ld\n", count);
}

/* The L4 segment l4[0..len) behind an IP header from src to dst, sent count times. */
static void send_l4(const struct addr *src, const struct addr *dst, uint8_t proto,
		    const uint8_t *l4, size_t len, long count)
{
	uint8_t pkt[1600];
	size_t hl = src->family == AF_INET ? 20 : 40;

	memcpy(pkt + hl, l4, len);
	send_n(dst, pkt, build_ip(pkt, src, dst, proto, len), count);
}

/* argv[1..4]: SRC DST SPORT DPORT, both addresses of one family; ports in network order. */
static void parse_flow(char **argv, struct addr *src, struct addr *dst, uint16_t *sport,
		       uint16_t *dport)
{
	parse_addr(argv[1], src);
	parse_addr(argv[2], dst);
	if (src->family != dst->family)
		usage();
	*sport = htons((uint16_t)atoi(argv[3]));
	*dport = htons((uint16_t)atoi(argv[4]));
}

static uint8_t tcp_flags(const char *s)
{
	uint8_t f = 0;

	for (; *s; s++) {
		switch (*s) {
		case 'F': f |= 0x01; break;
		case 'S': f |= 0x02; break;
		case 'R': f |= 0x04; break;
		case 'P': f |= 0x08; break;
		case 'A': f |= 0x10; break;
		case 'U': f |= 0x20; break;
		case '.': break;
		default:
			fprintf(stderr, "wdpkt: bad TCP flag '%c'\n", *s);
			exit(2);
		}
	}
	return f;
}

static int cmd_tcp(int argc, char **argv)
{
	struct addr src, dst;
	uint8_t tcp[20];
	uint16_t sport, dport;

	if (argc < 7)
		usage();
	parse_flow(argv, &src, &dst, &sport, &dport);
	uint8_t flags = tcp_flags(argv[5]);
	long count = atol(argv[6]);
	int badsum = argc > 7 && !strcmp(argv[7], "badsum");
	uint32_t seq = htonl(0x1000);
	uint32_t ack = htonl((flags & 0x10) ? 0x2000 : 0);

	memset(tcp, 0, sizeof(tcp));
	memcpy(tcp, &sport, 2);
	memcpy(tcp + 2, &dport, 2);
	memcpy(tcp + 4, &seq, 4);
	memcpy(tcp + 8, &ack, 4);
	tcp[12] = 5 << 4;
	tcp[13] = flags;
	tcp[14] = 0xfa;			/* window 64000 */
	tcp[15] = 0x00;
	uint16_t c = l4_csum(&src, &dst, IPPROTO_TCP, tcp, sizeof(tcp));
	if (badsum)
		c ^= htons(0x5a5a);
	memcpy(tcp + 16, &c, 2);
	send_l4(&src, &dst, IPPROTO_TCP, tcp, sizeof(tcp), count);
	return 0;
}

static int cmd_udp(int argc, char **argv)
{
	struct addr src, dst;
	uint8_t udp[1500];
	uint16_t sport, dport;

	if (argc < 6)
		usage();
	parse_flow(argv, &src, &dst, &sport, &dport);
	long count = atol(argv[5]);
	size_t plen = argc > 6 ? (size_t)atol(argv[6]) : 32;
	if (plen > 1400)
		plen = 1400;
	size_t len = 8 + plen;
	uint16_t ulen = htons((uint16_t)len);

	memset(udp, 0, len);
	memcpy(udp, &sport, 2);
	memcpy(udp + 2, &dport, 2);
	memcpy(udp + 4, &ulen, 2);
	for (size_t i = 0; i < plen; i++)
		udp[8 + i] = (uint8_t)('a' + i % 26);
	uint16_t c = l4_csum(&src, &dst, IPPROTO_UDP, udp, len);
	memcpy(udp + 6, &c, 2);
	send_l4(&src, &dst, IPPROTO_UDP, udp, len, count);
	return 0;
}

static int bound_socket(const char *a, const char *p, int type)
{
	struct addr addr;
	struct sockaddr_storage ss;
	socklen_t sl;
	int one = 1;

	parse_addr(a, &addr);
	sl = sockaddr_of(&addr, atoi(p), &ss);
	int fd = socket(addr.family, type, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0)
		die("bind");
	return fd;
}

static sigset_t stop_set(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return set;
}

static int cmd_listen(int argc, char **argv)
{
	int sig;

	if (argc < 3)
		usage();
	sigset_t set = stop_set();
	int fd = bound_socket(argv[1], argv[2], SOCK_STREAM);
	if (listen(fd, 16) < 0)
		die("listen");
	printf("ready\n");
	fflush(stdout);
	sigwait(&set, &sig);
	close(fd);
	return 0;
}

static int cmd_udpsink(int argc, char **argv)
{
	char buf[2048];
	int sig, rcvbuf;
	socklen_t sl = sizeof(rcvbuf);
	long n = 0;

	if (argc < 4)
		usage();
	sigset_t set = stop_set();
	int fd = bound_socket(argv[1], argv[2], SOCK_DGRAM);
	rcvbuf = atoi(argv[3]);
	if (rcvbuf < 0) {
		rcvbuf = -rcvbuf;
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
			die("SO_RCVBUFFORCE");
	} else if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)) < 0) {
		die("SO_RCVBUF");
	}
	getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &sl);
	printf("ready rcvbuf=%d\n", rcvbuf);
	fflush(stdout);
	sigwait(&set, &sig);
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	printf("received %ld\n", n);
	fflush(stdout);
	close(fd);
	return 0;
}

/* ---------------------------------------------------------------- sockmix */

static void pause_ms(long ms)
{
	usleep((useconds_t)ms * 1000);
}

static void sock_name(const char *a, int port, struct sockaddr_storage *ss, socklen_t *sl)
{
	struct addr addr;

	parse_addr(a, &addr);
	*sl = sockaddr_of(&addr, port, ss);
}

static int mix_listener(const char *a, int port)
{
	char p[16];
	int fd;

	snprintf(p, sizeof(p), "%d", port);
	fd = bound_socket(a, p, SOCK_STREAM);
	if (listen(fd, 4) < 0)
		die("listen");
	return fd;
}

static int mix_connect(const char *a, int port)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd;

	sock_name(a, port, &ss, &sl);
	fd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&ss, sl) < 0)
		die("connect");
	return fd;
}

/* A listener on PORT (*l), a client connected to it (*c); returns the accepted end. */
static int mix_accepted(const char *a, int port, int *l, int *c)
{
	int fd;

	*l = mix_listener(a, port);
	*c = mix_connect(a, port);
	fd = accept(*l, NULL, NULL);
	if (fd < 0)
		die("accept");
	return fd;
}

static void mix_send(int fd, size_t len)
{
	char buf[1000];

	memset(buf, 'w', sizeof(buf));
	if (send(fd, buf, len < sizeof(buf) ? len : sizeof(buf), MSG_NOSIGNAL) < 0)
		printf("  send: %s\n", strerror(errno));
}

static int cmd_sockmix(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char buf[2048];
	int sv[2], l, c, a, r, s, port;

	if (argc < 3)
		usage();
	port = atoi(argv[2]);

	/* Unix datagrams and stream data never read, receiver closed first. */
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		die("socketpair");
	for (int i = 0; i < 3; i++)
		mix_send(sv[0], 10);
	close(sv[1]);
	close(sv[0]);
	printf("unix dgram: 3 unread, receiver closed\n");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		die("socketpair");
	for (int i = 0; i < 3; i++)
		mix_send(sv[0], 10);
	close(sv[1]);
	close(sv[0]);
	printf("unix stream: 3 unread, receiver closed\n");

	/* A connected Unix datagram socket reconnected with data queued. */
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		die("socketpair");
	{
		/* abstract name: '\0' then the text */
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		socklen_t ul;
		int u = socket(AF_UNIX, SOCK_DGRAM, 0);

		ul = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			snprintf(un.sun_path + 1, sizeof(un.sun_path) - 1, "wdpkt-%d",
				 (int)getpid()));
		if (u < 0 || bind(u, (struct sockaddr *)&un, ul) < 0)
			die("bind unix");
		for (int i = 0; i < 3; i++)
			mix_send(sv[1], 10);
		if (connect(sv[0], (struct sockaddr *)&un, ul) < 0)
			die("connect unix");
		close(u);
	}
	close(sv[1]);
	close(sv[0]);
	printf("unix dgram: reconnected with 3 unread\n");

	/* A packet socket (tcpdump, DHCP client) closed with captures unread. */
	{
		struct sockaddr_ll ll = { .sll_family = AF_PACKET,
					  .sll_protocol = htons(ETH_P_ALL) };

		ll.sll_ifindex = (int)if_nametoindex("lo");
		r = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
		if (r < 0 || bind(r, (struct sockaddr *)&ll, sizeof(ll)) < 0)
			die("packet socket on lo");
		sock_name(argv[1], port + 5, &ss, &sl);
		s = socket(ss.ss_family, SOCK_DGRAM, 0);
		if (s < 0)
			die("socket");
		for (int i = 0; i < 3; i++)
			if (sendto(s, "captured", 8, 0, (struct sockaddr *)&ss, sl) < 0)
				die("sendto");
		pause_ms(100);
		close(s);
		close(r);
	}
	printf("packet socket on lo: closed with captures unread\n");

	/* UDP datagrams queued on a socket that closes without reading. */
	snprintf(buf, sizeof(buf), "%d", port);
	r = bound_socket(argv[1], buf, SOCK_DGRAM);
	sock_name(argv[1], port, &ss, &sl);
	s = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (s < 0)
		die("socket");
	for (int i = 0; i < 4; i++)
		if (sendto(s, "datagram", 8, 0, (struct sockaddr *)&ss, sl) < 0)
			die("sendto");
	pause_ms(100);
	close(r);
	close(s);
	printf("udp: 4 unread, socket closed\n");

	/* A listener closed with a connection it never accepted, data queued. */
	l = mix_listener(argv[1], port + 1);
	c = mix_connect(argv[1], port + 1);
	mix_send(c, 100);
	pause_ms(100);
	close(l);
	pause_ms(100);
	close(c);
	printf("tcp: listener closed, unaccepted connection with 100 bytes\n");

	/* The server closes first; the client sends afterwards (reset). */
	a = mix_accepted(argv[1], port + 2, &l, &c);
	close(a);
	pause_ms(100);
	mix_send(c, 50);
	pause_ms(100);
	mix_send(c, 50);
	close(c);
	close(l);
	printf("tcp: data sent to a peer that had closed\n");

	/* Ordinary connection: request, reply, close from both sides. */
	a = mix_accepted(argv[1], port + 3, &l, &c);
	mix_send(c, 10);
	if (recv(a, buf, sizeof(buf), 0) < 0)
		die("recv");
	mix_send(a, 10);
	if (recv(c, buf, sizeof(buf), 0) < 0)
		die("recv");
	close(c);
	pause_ms(50);
	close(a);
	close(l);
	printf("tcp: ordinary request/reply/close\n");

	/* The client closes with a reply it did not read (reset). */
	a = mix_accepted(argv[1], port + 4, &l, &c);
	mix_send(a, 100);
	pause_ms(100);
	close(c);
	pause_ms(100);
	close(a);
	close(l);
	printf("tcp: client closed with 100 bytes unread\n");
	return 0;
}

/* --tcp in the VM: a transfer for retransmissions, connections for resets. */
static int cmd_tcpsink(int argc, char **argv)
{
	char buf[65536];
	long long n = 0;
	ssize_t r;
	int l, a;

	if (argc < 3)
		usage();
	l = bound_socket(argv[1], argv[2], SOCK_STREAM);
	if (listen(l, 4) < 0)
		die("listen");
	printf("ready\n");
	a = accept(l, NULL, NULL);
	if (a < 0)
		die("accept");
	while ((r = read(a, buf, sizeof(buf))) > 0)
		n += r;
	printf("received %lld\n", n);
	close(a);
	close(l);
	return 0;
}

static int tcp_connect(const char *addr, int port)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd;

	sock_name(addr, port, &ss, &sl);
	fd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (connect(fd, (struct sockaddr *)&ss, sl) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int cmd_tcpsend(int argc, char **argv)
{
	static char buf[65536];
	long long left;
	char c;
	int fd;

	if (argc < 4)
		usage();
	left = atoll(argv[3]);
	fd = tcp_connect(argv[1], atoi(argv[2]));
	if (fd < 0)
		die("connect");
	while (left > 0) {
		ssize_t w = write(fd, buf, left < (long long)sizeof(buf) ? (size_t)left : sizeof(buf));

		if (w <= 0)
			die("write");
		left -= w;
	}
	shutdown(fd, SHUT_WR);
	while (read(fd, &c, 1) > 0)
		;
	close(fd);
	printf("sent %s\n", argv[3]);
	return 0;
}

static int cmd_refused(int argc, char **argv)
{
	int n, refused = 0;

	if (argc < 4)
		usage();
	n = atoi(argv[3]);
	for (int i = 0; i < n; i++) {
		int fd = tcp_connect(argv[1], atoi(argv[2]));

		if (fd >= 0)
			close(fd);
		else if (errno == ECONNREFUSED)
			refused++;
	}
	printf("refused %d\n", refused);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "tcp"))
		return cmd_tcp(argc - 1, argv + 1);
	if (!strcmp(argv[1], "udp"))
		return cmd_udp(argc - 1, argv + 1);
	if (!strcmp(argv[1], "listen"))
		return cmd_listen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "udpsink"))
		return cmd_udpsink(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sockmix"))
		return cmd_sockmix(argc - 1, argv + 1);
	if (!strcmp(argv[1], "tcpsink"))
		return cmd_tcpsink(argc - 1, argv + 1);
	if (!strcmp(argv[1], "tcpsend"))
		return cmd_tcpsend(argc - 1, argv + 1);
	if (!strcmp(argv[1], "refused"))
		return cmd_refused(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sigdfl") && argc > 2) {
		sigset_t none;

		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(argv[2], argv + 2);
		die(argv[2]);
	}
	usage();
	return 2;
}
