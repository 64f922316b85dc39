// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz filter compilation and the error-position search around libpcap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pcapfilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wd_cbpf_insn *prog = NULL;
	char *expr, err[1024];
	size_t n = 0;

	if (size > 200 || memchr(data, '\0', size))
		return 0;	/* libpcap's own limits are not what we test */
	expr = malloc(size + 1);
	if (!expr)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	/* Names would be resolved through DNS: keep the fuzzer offline. */
	if (!strstr(expr, "host") && !strstr(expr, "net") && !strstr(expr, "gateway") &&
	    !strstr(expr, "ether") &&
	    !wd_filter_compile(expr, &prog, &n, err, sizeof(err)))
		free(prog);
	free(expr);
	return 0;
}
