// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcap/pcap.h>

#include "pcapfilter.h"

#define SNAPLEN 65535

static int try_compile(pcap_t *p, const char *expr, struct bpf_program *prog)
{
	return pcap_compile(p, prog, expr, 1, PCAP_NETMASK_UNKNOWN);
}

/*
 * libpcap says "syntax error" without a position: find the longest prefix
 * of whole words that still compiles, the error is at or after it.
 */
static size_t error_position(pcap_t *p, const char *expr)
{
	size_t len = strlen(expr), best = 0, i;
	char *prefix = malloc(len + 1);
	struct bpf_program prog;

	if (!prefix)
		return 0;
	for (i = 1; i <= len; i++) {
		if (i < len && expr[i] != ' ')
			continue;
		memcpy(prefix, expr, i);
		prefix[i] = '\0';
		if (!try_compile(p, prefix, &prog)) {
			pcap_freecode(&prog);
			best = i;
		}
	}
	free(prefix);
	while (best < len && expr[best] == ' ')
		best++;
	return best;
}

/* "unknown host 'foo'": point at foo. */
static size_t quoted_position(const char *msg, const char *expr)
{
	const char *q = strchr(msg, '\''), *end, *hit;
	char token[256];

	if (!q || !(end = strchr(q + 1, '\'')) || end - q - 1 <= 0 ||
	    (size_t)(end - q - 1) >= sizeof(token))
		return (size_t)-1;
	memcpy(token, q + 1, (size_t)(end - q - 1));
	token[end - q - 1] = '\0';
	hit = strstr(expr, token);
	return hit ? (size_t)(hit - expr) : (size_t)-1;
}

int wd_filter_compile(const char *expr, struct wd_cbpf_insn **out, size_t *n,
		      char *err, size_t errlen)
{
	pcap_t *p = pcap_open_dead(DLT_RAW, SNAPLEN);
	struct bpf_program prog;
	size_t pos, i;
	int ret = -1;

	if (!p) {
		snprintf(err, errlen, "cannot initialise libpcap");
		return -1;
	}
	if (try_compile(p, expr, &prog)) {
		char msg[PCAP_ERRBUF_SIZE];

		snprintf(msg, sizeof(msg), "%s", pcap_geterr(p));
		pos = quoted_position(msg, expr);
		if (pos == (size_t)-1)
			pos = error_position(p, expr);
		snprintf(err, errlen, "bad filter expression: %s\n  %s\n  %*s^ here (column %zu)",
			 msg, expr, (int)pos, "", pos + 1);
		goto out;
	}
	if (prog.bf_len > WD_CBPF_MAX_INSNS) {
		snprintf(err, errlen, "filter expression too long: libpcap compiles it to %u "
			 "classic BPF instructions, over the kernel's limit for classic BPF "
			 "(BPF_MAXINSNS, %d); shorten it, e.g. a net or a portrange instead of a "
			 "long 'or' chain of hosts or ports", prog.bf_len, WD_CBPF_MAX_INSNS);
		goto free_prog;
	}
	*out = calloc(prog.bf_len, sizeof(**out));
	if (!*out) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		goto free_prog;
	}
	for (i = 0; i < prog.bf_len; i++) {
		(*out)[i].code = prog.bf_insns[i].code;
		(*out)[i].jt = prog.bf_insns[i].jt;
		(*out)[i].jf = prog.bf_insns[i].jf;
		(*out)[i].k = prog.bf_insns[i].k;
	}
	*n = prog.bf_len;
	ret = 0;
free_prog:
	pcap_freecode(&prog);
out:
	pcap_close(p);
	return ret;
}
