// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz podman's containers.json parser (containers/storage). The input is
 * handed over without a terminating NUL, as read from a file: nothing may
 * be read past it. Every name reported must be one podman allows, and
 * every id 64 lower-case hex digits: a malformed element is skipped, never
 * half-named.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "container_formats.h"

static void each(void *ctx, const char *id, const char *name)
{
	(void)ctx;
	if (!wd_ctr_id_ok(id, strlen(id)) || !wd_ctr_runtime_name_ok(name, strlen(name)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	wd_podman_parse(text, size, each, NULL);
	free(text);
	return 0;
}
