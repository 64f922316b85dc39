/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * For the fuzzers of text parsers: FUZZ_TEXT(fn) defines the libFuzzer entry
 * point, which hands fn(text, size) the input as a writable NUL-terminated
 * copy (a NUL inside the input stays where it is).
 */
#ifndef WD_FUZZ_TEXT_H
#define WD_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_TEXT(fn)								\
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)			\
{										\
	char *text = malloc(size + 1);						\
										\
	if (!text)								\
		return 0;							\
	memcpy(text, data, size);						\
	text[size] = '\0';							\
	fn(text, size);								\
	free(text);								\
	return 0;								\
}

#endif /* WD_FUZZ_TEXT_H */
