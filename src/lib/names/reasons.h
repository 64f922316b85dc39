/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Drop-reason numbers to names, learnt from the running kernel: BTF
 * (enum skb_drop_reason, module BTF for subsystem reasons) or, without BTF,
 * the print fmt of the tracepoint's tracefs format file. Nothing compiled in.
 */
#ifndef WD_REASONS_H
#define WD_REASONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WD_REASON_PREFIX	"SKB_DROP_REASON_"
#define WD_SUBSYS_MASK		0xffff0000u	/* the subsystem: code >> WD_SUBSYS_SHIFT */

enum wd_reason_source {
	WD_SRC_NONE,
	WD_SRC_BTF,
	WD_SRC_TRACEFS,
};

struct wd_reason {
	uint32_t code;
	char *name;		/* without the SKB_DROP_REASON_ prefix */
};

struct wd_subsys {
	uint32_t id;
	char *name;		/* e.g. "OPENVSWITCH", "MAC80211_UNUSABLE" */
	struct wd_reason *codes; /* from the subsystem's module BTF, may be empty */
	size_t n_codes;
	bool codes_loaded;
};

struct wd_reasons {
	enum wd_reason_source source;
	bool has_reason;	/* tracepoint carries a reason (5.17+) */
	bool has_rx_sk;		/* tracepoint carries rx_sk (6.11+) */
	struct wd_reason *v;	/* core reasons, sorted by code */
	size_t n;
	struct wd_subsys *subsys;
	size_t n_subsys;
	char *btf_dir;		/* where module BTF lives: the directory of a
				 * BTF file named vmlinux, else NULL */
};

/*
 * Fill from BTF at btf_path (NULL: the running kernel's vmlinux BTF). When the
 * file is named vmlinux, subsystem reasons come from the module BTF files
 * beside it (DIR/openvswitch, DIR/mac80211), read on first use.
 */
int wd_reasons_from_btf(struct wd_reasons *r, const char *btf_path);
/* Fill from the text of an events/skb/kfree_skb/format file. */
int wd_reasons_from_format(struct wd_reasons *r, const char *text);
/* BTF (WHYDROP_BTF, which must be readable, else the kernel's) unless
 * WHYDROP_NO_BTF is set or BTF is missing, else tracefs. */
int wd_reasons_load(struct wd_reasons *r, char *err, size_t errlen);
void wd_reasons_free(struct wd_reasons *r);

/* Core reason by code, NULL if unknown. */
const struct wd_reason *wd_reason_by_code(const struct wd_reasons *r, uint32_t code);
/* Core reason by name: any case, with or without the SKB_DROP_REASON_ prefix. */
const struct wd_reason *wd_reason_by_name(const struct wd_reasons *r, const char *name);
/*
 * Core reason as a user gives it: a name, or this kernel's number as
 * `whydrop reasons` and the JSON print it (decimal, or 0x hex). NULL if
 * this kernel has no such reason.
 */
const struct wd_reason *wd_reason_by_word(const struct wd_reasons *r, const char *word);
/*
 * Any reason as a user gives it: a core one as wd_reason_by_word takes it;
 * a subsystem's as count prints it ("OPENVSWITCH:OVS_DROP_LAST_ACTION"), as
 * `whydrop reasons` lists it ("OVS_DROP_LAST_ACTION") or by its number
 * ("0x30001"); any case. A subsystem's reasons are those of its module's
 * BTF (the module loaded). 0 with *code set, or -1 if this kernel has none.
 */
int wd_reason_code(struct wd_reasons *r, const char *word, uint32_t *code);
/* Closest known name for a misspelt one, NULL when nothing is close. */
const char *wd_reason_suggest(const struct wd_reasons *r, const char *name);

/*
 * Printable name of any code: "NO_SOCKET", "OPENVSWITCH:OVS_DROP_LAST_ACTION",
 * "OPENVSWITCH:0x3", or "0x1c" when nothing is known. Returns buf.
 */
const char *wd_reason_name(struct wd_reasons *r, uint32_t code, char *buf, size_t len);
/* "core" or the lower-case subsystem name for a code. */
const char *wd_reason_subsys(struct wd_reasons *r, uint32_t code, char *buf, size_t len);

/*
 * enum_names.c: the readers of a kernel enum's names, for the drop reasons
 * above and for other enums the kernel names (TCP reset reasons):
 * whether a BTF struct has a member; the enumerators of the BTF enum of
 * type id whose names start with prefix (prefix dropped, MAX left out);
 * whether a tracefs format declares a field; the { N, "NAME" } list of its
 * __print_symbolic(REC->field, ...) (MAX left out). Lists come sorted by
 * code. 0, -ENOENT (no such enum or list), -EINVAL (an empty list), -ENOMEM.
 */
struct btf;
/* The BTF file WHYDROP_BTF names (btf), readable or NULL: 0; else -1, why in err. */
int wd_btf_asked(const char *btf, char *err, size_t errlen);
bool wd_btf_has_member(const struct btf *btf, const char *sname, const char *member);
int wd_btf_enum_names(const struct btf *btf, int id, const char *prefix,
		      struct wd_reason **v, size_t *n);
bool wd_format_has_field(const char *text, const char *field);
int wd_format_symbols(const char *text, const char *field, struct wd_reason **v, size_t *n);
/*
 * An enum's names into dst: from BTF (the file WHYDROP_BTF names, else the
 * kernel's) unless WHYDROP_NO_BTF is set or that fails, then from a tracefs
 * format file. 0, or -1 with why in err.
 */
struct wd_enum_source {
	const char *what;	/* "reasons", as in "cannot parse the reasons in PATH" */
	const char *format;	/* "events/.../format"; NULL: kfree_skb's (wd_tracefs_format_path) */
	/* from BTF (btf: its file, NULL the kernel's) or, text not NULL, a format file's text */
	int (*parse)(void *dst, const char *btf, const char *text);
};
int wd_enum_load(const struct wd_enum_source *s, void *dst, char *err, size_t errlen);
/* A name appended to a list (not sorted); their order by code; the list freed. */
int wd_reason_list_add(struct wd_reason **v, size_t *n, uint32_t code, const char *name);
int wd_reason_cmp_code(const void *a, const void *b);
void wd_reason_list_free(struct wd_reason *v, size_t n);

#endif /* WD_REASONS_H */
