/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The Prometheus text exposition format (version 0.0.4): label escaping,
 * metric families of labelled samples, and a bound on their cardinality.
 * Pure functions on memory: no I/O, no kernel, unit-tested on fixed text.
 */
#ifndef WD_PROM_H
#define WD_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WD_PROM_MAX_LABELS	5
#define WD_PROM_OTHER		"other"	/* every label of the folded series */
#define WD_PROM_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

/* A growing text buffer; after a failed allocation it stays failed. */
struct wd_prom_buf {
	char *data;
	size_t len, cap;
	bool failed;
};

void wd_prom_printf(struct wd_prom_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A label value: \ " and newline escaped as \\ \" \n. */
void wd_prom_escape(struct wd_prom_buf *b, const char *value);
void wd_prom_buf_free(struct wd_prom_buf *b);

struct wd_prom_sample {
	char *v[WD_PROM_MAX_LABELS];	/* label values, owned */
	uint64_t value;
	bool retired;			/* its object is gone: not exported (see the cap) */
};

/* A family of samples with the same labels, filled anew for each scrape. */
struct wd_prom_family {
	const char *name;
	const char *type;		/* "counter", "gauge" */
	const char *help;
	const char *labels[WD_PROM_MAX_LABELS];
	size_t nlabels;
	struct wd_prom_sample *s;
	size_t n, cap;
};

/* Add a sample (values copied); 0 or -ENOMEM. */
int wd_prom_add(struct wd_prom_family *f, const char *const *values, uint64_t value);
/* The same for a retired object's counts (wd_prom_cap_apply). */
int wd_prom_add_retired(struct wd_prom_family *f, const char *const *values, uint64_t value,
			bool retired);
/* Sum the samples with equal labels (retired only when all are); sort them by labels. */
void wd_prom_merge(struct wd_prom_family *f);
/* Free the samples, keep the description. */
void wd_prom_family_clear(struct wd_prom_family *f);

/*
 * Bounded cardinality: at most max series per family, the last one being
 * the fold, every label "other", always present (0 when nothing is folded)
 * so that a rate over it is right from the first scrape. Label sets get a
 * series of their own while there is room, largest first, up to max - 1;
 * the others are summed into the fold.
 *
 * Every exported value only grows, so counters stay counters:
 * - a label set whose input shrinks (a contributor forgotten) keeps its
 *   value, the difference carried;
 * - a retired label set (every sample of it retired, or gone from the
 *   input) leaves the page: its series vanishes, or, folded, its value
 *   stays in the fold; it is kept as a tombstone while it is in the input
 *   and comes back, counting from 0, once its input grows again;
 * - a folded label set that gets room leaves its value in the fold and its
 *   series counts from there.
 */
struct wd_prom_key;

struct wd_prom_cap {
	size_t max;			/* series per family, the fold included, >= 1 */
	struct wd_prom_key *keys;	/* label sets seen, sorted by hash */
	size_t n, cap;
	uint64_t folded;		/* label sets in the fold at the last apply */
	uint64_t fold_base;		/* in the fold from label sets no longer in it */
	uint64_t retired;		/* label sets retired so far */
};

/* Apply the cap to a merged family: the series, then the fold. */
int wd_prom_cap_apply(struct wd_prom_cap *c, struct wd_prom_family *f);
void wd_prom_cap_free(struct wd_prom_cap *c);

/* "# HELP", "# TYPE" and one line per sample. */
void wd_prom_render_family(struct wd_prom_buf *b, const struct wd_prom_family *f);
/* A family of one sample without labels. */
void wd_prom_render_value(struct wd_prom_buf *b, const char *name, const char *type,
			  const char *help, uint64_t value);
void wd_prom_render_header(struct wd_prom_buf *b, const char *name, const char *type,
			   const char *help);

#endif /* WD_PROM_H */
