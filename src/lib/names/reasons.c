// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reason names come from the running kernel only: reason numbers move
 * between releases (TCP_FLAGS is 21 on 6.1, 29 on 6.12, 30 on 6.18).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <linux/types.h>

#include "reasons.h"
#include "suggest.h"
#include "tracefs.h"
#include "whydrop.h"

#define SUBSYS_PREFIX	"SKB_DROP_REASON_SUBSYS_"
#define BTF_DIR		"/sys/kernel/btf"

/* Keep real drop reasons only: not the sentinels around them. */
static const char *core_name(const char *enumerator)
{
	const char *s;

	if (strncmp(enumerator, WD_REASON_PREFIX, strlen(WD_REASON_PREFIX)))
		return NULL;	/* SKB_NOT_DROPPED_YET, SKB_CONSUMED */
	s = enumerator + strlen(WD_REASON_PREFIX);
	if (!strcmp(s, "MAX") || !strncmp(s, "SUBSYS_", 7))
		return NULL;
	return s;
}

static int btf_core_reasons(struct wd_reasons *r, const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;
	int i, err;

	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		const char *name = core_name(btf__name_by_offset(btf, e->name_off));

		if (!name)
			continue;
		err = wd_reason_list_add(&r->v, &r->n, (uint32_t)e->val, name);
		if (err)
			return err;
	}
	return 0;
}

static int btf_subsystems(struct wd_reasons *r, const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "skb_drop_reason_subsys", BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;
	int i;

	if (id < 0)
		return 0;	/* before 6.4: no subsystems */
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		const char *name = btf__name_by_offset(btf, e->name_off);
		struct wd_subsys *tmp;

		if (strncmp(name, SUBSYS_PREFIX, strlen(SUBSYS_PREFIX)))
			continue;
		name += strlen(SUBSYS_PREFIX);
		if (!strcmp(name, "CORE") || !strcmp(name, "NUM"))
			continue;
		tmp = realloc(r->subsys, (r->n_subsys + 1) * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		r->subsys = tmp;
		memset(&tmp[r->n_subsys], 0, sizeof(*tmp));
		tmp[r->n_subsys].id = (uint32_t)e->val;
		tmp[r->n_subsys].name = strdup(name);
		if (!tmp[r->n_subsys].name)
			return -ENOMEM;
		r->n_subsys++;
	}
	return 0;
}

/*
 * Module BTF lives next to a file named vmlinux (/sys/kernel/btf/vmlinux,
 * /sys/kernel/btf/openvswitch): that directory, else NULL (no module BTF).
 */
static char *module_btf_dir(const char *btf_path)
{
	const char *slash = strrchr(btf_path, '/');
	const char *base = slash ? slash + 1 : btf_path;

	if (strcmp(base, "vmlinux"))
		return NULL;
	if (!slash)
		return strdup(".");
	return strndup(btf_path, slash == btf_path ? 1 : (size_t)(slash - btf_path));
}

int wd_reasons_from_btf(struct wd_reasons *r, const char *btf_path)
{
	struct btf *btf;
	int err;

	memset(r, 0, sizeof(*r));
	/*
	 * The running kernel's own BTF, as the BPF side decides (not libbpf's
	 * search of /boot, and none of its warnings when there is none).
	 */
	if (!btf_path)
		btf_path = BTF_DIR "/vmlinux";
	if (access(btf_path, R_OK))
		return -errno;
	btf = btf__parse(btf_path, NULL);
	if (!btf)
		return -errno;
	r->source = WD_SRC_BTF;
	r->has_reason = wd_btf_has_member(btf, "trace_event_raw_kfree_skb", "reason");
	r->has_rx_sk = wd_btf_has_member(btf, "trace_event_raw_kfree_skb", "rx_sk");
	err = btf_core_reasons(r, btf);
	if (!err)
		err = btf_subsystems(r, btf);
	btf__free(btf);
	if (err == -ENOENT && !r->has_reason)
		err = 0;	/* pre-5.17 kernel: location-only */
	if (err) {
		wd_reasons_free(r);
		return err;
	}
	r->btf_dir = module_btf_dir(btf_path);
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), wd_reason_cmp_code);
	return 0;
}

int wd_reasons_from_format(struct wd_reasons *r, const char *text)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->source = WD_SRC_TRACEFS;
	r->has_reason = wd_format_has_field(text, "reason");
	r->has_rx_sk = wd_format_has_field(text, "rx_sk");
	err = wd_format_symbols(text, "reason", &r->v, &r->n);
	if (err == -ENOENT)
		return r->has_reason ? -EINVAL : 0;
	if (err)
		wd_reasons_free(r);
	return err;
}

static int parse(void *r, const char *btf, const char *text)
{
	return text ? wd_reasons_from_format(r, text) : wd_reasons_from_btf(r, btf);
}

int wd_reasons_load(struct wd_reasons *r, char *err, size_t errlen)
{
	static const struct wd_enum_source src = { "reasons", NULL, parse };

	return wd_enum_load(&src, r, err, errlen);
}

void wd_reasons_free(struct wd_reasons *r)
{
	wd_reason_list_free(r->v, r->n);
	for (size_t i = 0; i < r->n_subsys; i++) {
		free(r->subsys[i].name);
		wd_reason_list_free(r->subsys[i].codes, r->subsys[i].n_codes);
	}
	free(r->subsys);
	free(r->btf_dir);
	memset(r, 0, sizeof(*r));
}

const struct wd_reason *wd_reason_by_code(const struct wd_reasons *r, uint32_t code)
{
	struct wd_reason key = { .code = code };

	if (!r->n)
		return NULL;
	return bsearch(&key, r->v, r->n, sizeof(*r->v), wd_reason_cmp_code);
}

const struct wd_reason *wd_reason_by_name(const struct wd_reasons *r, const char *name)
{
	if (!strncasecmp(name, WD_REASON_PREFIX, strlen(WD_REASON_PREFIX)))
		name += strlen(WD_REASON_PREFIX);
	for (size_t i = 0; i < r->n; i++)
		if (!strcasecmp(r->v[i].name, name))
			return &r->v[i];
	return NULL;
}

const struct wd_reason *wd_reason_by_word(const struct wd_reasons *r, const char *word)
{
	unsigned long code;
	char *end;

	if (!isdigit((unsigned char)word[0]))
		return wd_reason_by_name(r, word);
	errno = 0;
	/* base 10 or 0x: "010" is ten, never octal */
	code = strtoul(word, &end, strncasecmp(word, "0x", 2) ? 10 : 16);
	if (*end || errno || code > UINT32_MAX)
		return NULL;
	return wd_reason_by_code(r, (uint32_t)code);
}

const char *wd_reason_suggest(const struct wd_reasons *r, const char *name)
{
	const char **names = calloc(r->n ? r->n : 1, sizeof(*names));
	const char *pick;

	if (!names)
		return NULL;
	for (size_t i = 0; i < r->n; i++)
		names[i] = r->v[i].name;
	if (!strncasecmp(name, WD_REASON_PREFIX, strlen(WD_REASON_PREFIX)))
		name += strlen(WD_REASON_PREFIX);
	pick = wd_suggest(name, names, r->n);
	free(names);
	return pick;
}

static struct wd_subsys *subsys_by_id(struct wd_reasons *r, uint32_t id)
{
	for (size_t i = 0; i < r->n_subsys; i++)
		if (r->subsys[i].id == id)
			return &r->subsys[i];
	return NULL;
}

/*
 * A module's drop-reason enum starts at its subsystem's base (id << 16) and
 * its first reason is base + 1. Other enums of the module may hold a value
 * with the same upper bits (mac80211's flag enums: NL80211_FEATURE_USERSPACE_MPM
 * is 1 << 16, IEEE80211_CHAN_8MHZ 1 << 17): they are not drop reasons.
 */
static bool is_reason_enum(const struct btf_type *t, uint32_t id)
{
	const struct btf_enum *e = btf_enum(t);

	for (int j = 0; j < btf_vlen(t); j++, e++)
		if ((uint32_t)e->val == (id << WD_SUBSYS_SHIFT | 1))
			return true;
	return false;
}

/*
 * Add one code of a subsystem; a code seen before keeps its first name, unless
 * that is an internal spelling ("___RX_DROP_U_DUP") and this one is not.
 */
static int add_subsys_code(struct wd_subsys *s, uint32_t code, const char *name)
{
	for (size_t i = 0; i < s->n_codes; i++) {
		char *dup;

		if (s->codes[i].code != code)
			continue;
		if (s->codes[i].name[0] != '_' || name[0] == '_')
			return 0;
		dup = strdup(name);
		if (!dup)
			return -ENOMEM;
		free(s->codes[i].name);
		s->codes[i].name = dup;
		return 0;
	}
	return wd_reason_list_add(&s->codes, &s->n_codes, code, name);
}

/* Collect the enumerators of a module's drop-reason enum for this subsystem. */
static void load_subsys_codes(struct wd_reasons *r, struct wd_subsys *s)
{
	char module[64], path[256];
	struct btf *base, *btf;
	size_t i;
	int id, n;

	s->codes_loaded = true;
	if (!r->btf_dir)
		return;
	for (i = 0; s->name[i] && s->name[i] != '_' && i + 1 < sizeof(module); i++)
		module[i] = tolower((unsigned char)s->name[i]);
	module[i] = '\0';
	snprintf(path, sizeof(path), "%s/%s", r->btf_dir, module);
	if (access(path, R_OK))
		return;
	snprintf(path, sizeof(path), "%s/vmlinux", r->btf_dir);
	base = btf__parse(path, NULL);
	if (!base)
		return;
	snprintf(path, sizeof(path), "%s/%s", r->btf_dir, module);
	btf = btf__parse_split(path, base);
	if (!btf)
		goto out;
	n = (int)btf__type_cnt(btf);
	for (id = (int)btf__type_cnt(base); id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;

		if (!btf_is_enum(t) || !is_reason_enum(t, s->id))
			continue;
		e = btf_enum(t);
		for (int j = 0; j < btf_vlen(t); j++, e++)
			if ((uint32_t)e->val >> WD_SUBSYS_SHIFT == s->id &&
			    add_subsys_code(s, (uint32_t)e->val,
					    btf__name_by_offset(btf, e->name_off)))
				goto out;
	}
out:
	btf__free(btf);
	btf__free(base);
}

const char *wd_reason_name(struct wd_reasons *r, uint32_t code, char *buf, size_t len)
{
	const struct wd_reason *c;
	struct wd_subsys *s;

	if (!(code & WD_SUBSYS_MASK)) {
		c = wd_reason_by_code(r, code);
		if (c)
			snprintf(buf, len, "%s", c->name);
		else
			snprintf(buf, len, "0x%x", code);
		return buf;
	}
	s = subsys_by_id(r, code >> WD_SUBSYS_SHIFT);
	if (!s) {
		snprintf(buf, len, "SUBSYS_%u:0x%x", code >> WD_SUBSYS_SHIFT,
			 code & ~WD_SUBSYS_MASK);
		return buf;
	}
	if (!s->codes_loaded)
		load_subsys_codes(r, s);
	for (size_t i = 0; i < s->n_codes; i++) {
		if (s->codes[i].code == code) {
			snprintf(buf, len, "%s:%s", s->name, s->codes[i].name);
			return buf;
		}
	}
	snprintf(buf, len, "%s:0x%x", s->name, code & ~WD_SUBSYS_MASK);
	return buf;
}

const char *wd_reason_subsys(struct wd_reasons *r, uint32_t code, char *buf, size_t len)
{
	struct wd_subsys *s = subsys_by_id(r, code >> WD_SUBSYS_SHIFT);
	size_t i;

	if (!(code & WD_SUBSYS_MASK) || !s) {
		snprintf(buf, len, "%s", code & WD_SUBSYS_MASK ? "unknown" : "core");
		return buf;
	}
	for (i = 0; s->name[i] && i + 1 < len; i++)
		buf[i] = tolower((unsigned char)s->name[i]);
	buf[i] = '\0';
	return buf;
}

/* A subsystem's reason by "SUBSYS:NAME", "NAME" or number (parsed: num, is_num). */
static const struct wd_reason *subsys_code(struct wd_reasons *r, struct wd_subsys *s,
					   const char *word, bool is_num, unsigned long num)
{
	size_t n = strlen(s->name);

	if (!s->codes_loaded)
		load_subsys_codes(r, s);
	if (!strncasecmp(word, s->name, n) && word[n] == ':')
		word += n + 1;
	for (size_t k = 0; k < s->n_codes; k++) {
		if (is_num ? s->codes[k].code == num : !strcasecmp(s->codes[k].name, word))
			return &s->codes[k];
	}
	return NULL;
}

int wd_reason_code(struct wd_reasons *r, const char *word, uint32_t *code)
{
	const struct wd_reason *c = wd_reason_by_word(r, word);
	unsigned long num = 0;
	bool is_num = isdigit((unsigned char)word[0]);
	char *end;

	if (c) {
		*code = c->code;
		return 0;
	}
	if (is_num) {
		errno = 0;
		num = strtoul(word, &end, strncasecmp(word, "0x", 2) ? 10 : 16);
		if (*end || errno || num > UINT32_MAX)
			return -1;
	}
	for (size_t i = 0; i < r->n_subsys; i++) {
		c = subsys_code(r, &r->subsys[i], word, is_num, num);
		if (c) {
			*code = c->code;
			return 0;
		}
	}
	return -1;
}

