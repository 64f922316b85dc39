/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Kernel addresses to function+offset, from /proc/kallsyms (modules too). */
#ifndef WD_KSYM_H
#define WD_KSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wd_ksym {
	uint64_t addr;
	char *name;
	char *module;		/* NULL for vmlinux */
};

struct wd_ksyms {
	struct wd_ksym *v;	/* sorted by address */
	size_t n;
};

/* Parse kallsyms text; text symbols only. Returns 0 or -errno. */
int wd_ksyms_parse(struct wd_ksyms *k, const char *text);
/* Load /proc/kallsyms (path NULL) or a given file. */
int wd_ksyms_load(struct wd_ksyms *k, const char *path);
void wd_ksyms_free(struct wd_ksyms *k);
/* The symbol containing addr, NULL if none; *off gets addr - symbol. */
const struct wd_ksym *wd_ksym_find(const struct wd_ksyms *k, uint64_t addr, uint64_t *off);
/*
 * addr as "tcp_v4_rcv+0x99" into buf ("veth_xmit+0x10 [veth]" for a
 * module's symbol when with_module), or "0xffffffff81..." when no symbol
 * holds it. Returns the symbol (for its name), NULL if none.
 */
const struct wd_ksym *wd_ksym_format(const struct wd_ksyms *k, uint64_t addr, bool with_module,
				     char *buf, size_t len);

#endif /* WD_KSYM_H */
