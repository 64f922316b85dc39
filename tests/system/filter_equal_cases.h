/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* filter_equal.c's expressions and hand-written programs (filter_equal_cases.c). */
#ifndef FILTER_EQUAL_CASES_H
#define FILTER_EQUAL_CASES_H

#include <stddef.h>

#include "cbpf_ebpf.h"

/* EQUAL or REFUSED by the translator; ANY: equal if libpcap compiles it. */
enum expect { EQUAL, REFUSED, ANY };

struct fe_expr {
	const char *expr;
	enum expect expect;
};

struct fe_prog {
	const struct wd_cbpf_insn *insns;
	size_t n;
	const char *name;
};

extern const struct fe_expr fe_exprs[];
extern const size_t fe_nexprs;
extern const struct fe_prog fe_progs[];
extern const size_t fe_nprogs;

#endif /* FILTER_EQUAL_CASES_H */
