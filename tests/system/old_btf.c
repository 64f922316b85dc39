// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * old_btf IN OUT: the kernel's BTF as a kernel before 5.17 would describe it:
 * struct trace_event_raw_kfree_skb without its reason and rx_sk fields, and
 * no enum skb_drop_reason (renamed, so nothing finds it). Every type keeps
 * its id, so the result is a drop-in for IN. With WHYDROP_BTF=OUT whydrop
 * relocates its program against it and takes names from it: the running
 * kernel then looks like one whose tracepoint has no reason, which is the
 * only way to run the location-only mode on a real kernel here.
 *
 * old_btf IN OUT STRUCT: IN as it is but for struct STRUCT, renamed: a
 * program that reads that struct cannot load against OUT (the loader's
 * failure message is tested with it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

static int copy_struct_without(struct btf *out, const struct btf *in, const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	int id = btf__add_struct(out, btf__name_by_offset(in, t->name_off), t->size);

	for (int i = 0; id > 0 && i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(in, m->name_off);
		int err;

		if (!strcmp(name, "reason") || !strcmp(name, "rx_sk"))
			continue;
		err = btf__add_field(out, name, m->type, btf_member_bit_offset(t, i),
				     btf_member_bitfield_size(t, i));
		if (err)
			return err;
	}
	return id;
}

/* Rename type id of out: nothing finds it by its name any more. */
static int hide(struct btf *out, int id, const char *as)
{
	int off = btf__add_str(out, as);

	if (off < 0)
		return off;
	/* the type is ours and writable until btf__raw_data() */
	((struct btf_type *)btf__type_by_id(out, id))->name_off = off;
	return id;
}

static int copy_types(struct btf *out, const struct btf *in, const char *hidden)
{
	for (__u32 i = 1; i < btf__type_cnt(in); i++) {
		const struct btf_type *t = btf__type_by_id(in, i);
		const char *name = btf__name_by_offset(in, t->name_off);
		int id;

		if (hidden) {
			id = btf__add_type(out, in, t);
			if (id > 0 && btf_is_struct(t) && !strcmp(name, hidden))
				id = hide(out, id, "old_btf_hidden_struct");
		} else if (btf_is_struct(t) && !strcmp(name, "trace_event_raw_kfree_skb")) {
			id = copy_struct_without(out, in, t);
		} else {
			id = btf__add_type(out, in, t);
			if (id > 0 && btf_is_enum(t) && !strcmp(name, "skb_drop_reason"))
				id = hide(out, id, "old_btf_hidden_drop_reason");
		}
		if (id < 0)
			return id;
		if ((__u32)id != i)
			return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct btf *in, *out = NULL;
	const void *raw;
	__u32 size;
	FILE *f;
	int err = 1;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: old_btf IN OUT [STRUCT]\n");
		return 2;
	}
	in = btf__parse(argv[1], NULL);
	if (!in) {
		fprintf(stderr, "old_btf: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	out = btf__new_empty();
	if (!out || copy_types(out, in, argc == 4 ? argv[3] : NULL)) {
		fprintf(stderr, "old_btf: cannot copy the types of %s\n", argv[1]);
		goto out;
	}
	raw = btf__raw_data(out, &size);
	f = raw ? fopen(argv[2], "w") : NULL;
	if (f && fwrite(raw, 1, size, f) == size)
		err = 0;
	if (!f || fclose(f) || err) {
		fprintf(stderr, "old_btf: cannot write %s\n", argv[2]);
		err = 1;
	}
out:
	btf__free(out);
	btf__free(in);
	return err;
}
