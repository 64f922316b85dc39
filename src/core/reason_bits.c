// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * -r LIST: the reason filter of every source, as a bitmap of reason slots
 * (src/bpf/whydrop.h): the BPF programs test it in the kernel
 * (src/bpf/counting.h), drop_monitor's alerts in user space
 * (wd_reason_selected(), src/lib/counting/sampling.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int wd_reason_bits(struct wd_reasons *r, const char *list, volatile __u64 *bits,
		   volatile bool *enabled)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int status = 0;

	if (!copy)
		return 1;
	if (!r->has_reason) {
		fprintf(stderr, "whydrop: this kernel's skb:kfree_skb has no drop reason "
				"(before 5.17), so -r cannot select any: leave it out, "
				"drops are counted by location\n");
		free(copy);
		return WD_EXIT_USAGE;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t code, slot;
		const char *hint;

		if (!wd_reason_code(r, tok, &code)) {
			slot = wd_reason_slot(code);
			if (slot < WD_REASON_SLOTS) {
				bits[slot / 64] |= 1ULL << (slot % 64);
				continue;
			}
			fprintf(stderr, "whydrop: -r %s: reason %#x is beyond what whydrop can "
					"select (%u core reasons, %u subsystems of %u): leave "
					"it out and read it in the whole count\n", tok, code,
				WD_CORE_SLOTS, WD_SUBSYS_MAX, WD_SUBSYS_SLOTS);
			status = WD_EXIT_USAGE;
			break;
		}
		hint = wd_reason_suggest(r, tok);
		fprintf(stderr, "whydrop: unknown drop reason '%s' on this kernel", tok);
		if (hint)
			fprintf(stderr, "; did you mean %s?", hint);
		fprintf(stderr, " (`whydrop reasons` lists them)\n");
		status = WD_EXIT_USAGE;
		break;
	}
	*enabled = true;
	free(copy);
	return status;
}
