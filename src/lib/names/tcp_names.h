/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Names for the numbers of the TCP events, from the running kernel as drop
 * reasons are (reasons.h): enum sk_rst_reason (6.10+) from BTF, else from
 * the __print_symbolic list of tcp:tcp_send_reset's tracefs format; TCP
 * states from BTF (the enum of TCP_ESTABLISHED, which also has the kernel's
 * own NEW_SYN_RECV, BOUND_INACTIVE), else the fixed states 1..12 that
 * /proc/net/tcp and inet_diag show (wd_sock_state_name(), format.h).
 */
#ifndef WD_TCP_NAMES_H
#define WD_TCP_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reasons.h"

#define WD_RST_PREFIX		"SK_RST_REASON_"
#define WD_RST_SCHEME		"rst:"	/* explain rst:NAME */
#define WD_TCP_SEND_RESET_FORMAT "events/tcp/tcp_send_reset/format"

struct wd_tcp_names {
	enum wd_reason_source source;	/* of the reset reasons; NONE: no list */
	bool has_rst_reason;	/* tcp:tcp_send_reset carries a reason (6.10+) */
	struct wd_reason *rst;	/* names without SK_RST_REASON_, sorted by code */
	size_t n_rst;
	bool states_from_btf;
	struct wd_reason *states;	/* names without TCP_, sorted by code */
	size_t n_states;
};

/* From BTF at btf_path (NULL: the running kernel's). 0 or -errno. */
int wd_tcp_names_from_btf(struct wd_tcp_names *t, const char *btf_path);
/* From the text of events/tcp/tcp_send_reset/format; states fixed. 0 or -errno. */
int wd_tcp_names_from_format(struct wd_tcp_names *t, const char *text);
/*
 * BTF (WHYDROP_BTF if set, else the kernel's) unless WHYDROP_NO_BTF is set
 * or there is none, else tracefs. 0, or -1 with what to do in err.
 */
int wd_tcp_names_load(struct wd_tcp_names *t, char *err, size_t errlen);
void wd_tcp_names_free(struct wd_tcp_names *t);

/* "NO_SOCKET"; "unknown" for WD_TCP_REASON_NONE; "0x1c" when not in the list. */
const char *wd_tcp_rst_name(const struct wd_tcp_names *t, uint32_t code, char *buf, size_t len);
/* By name: any case, with or without rst: or SK_RST_REASON_. NULL if none. */
const struct wd_reason *wd_tcp_rst_by_name(const struct wd_tcp_names *t, const char *name);
/* "ESTABLISHED", "NEW_SYN_RECV"; "-" for 0 (no socket); "?" when unknown. */
const char *wd_tcp_state_name(const struct wd_tcp_names *t, uint32_t state);

/* name without the rst: scheme or the SK_RST_REASON_ prefix (any case). */
const char *wd_rst_strip(const char *name);

#endif /* WD_TCP_NAMES_H */
