// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the flame graph's folded-text parser and its SVG writer: any bytes
 * as folded lines, then the document. Checks that no frame name can add
 * or end an element: as many <title> as frames, and the page ends in
 * </svg>.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"

static size_t occurrences(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wd_flame_opts o = { .title = "fuzz", .unit = "drops", .unit_one = "drop" };
	struct wd_flame fg;
	char *svg = NULL, total[64];
	size_t len = 0, line;
	FILE *f;

	if (wd_flame_init(&fg))
		return 0;
	wd_flame_parse(&fg, (const char *)data, size, &line);
	f = open_memstream(&svg, &len);
	if (!f || wd_flame_write_svg(f, &fg, &o))
		abort();
	fclose(f);
	snprintf(total, sizeof(total), "data-total=\"%" PRIu64 "\"", wd_flame_total(&fg));
	if (!strstr(svg, total) || len < 7 || strcmp(svg + len - 7, "</svg>\n"))
		abort();
	if (occurrences(svg, "<title>") != occurrences(svg, "<g class=\"fr\""))
		abort();
	if (occurrences(svg, "</svg>") != 1 || occurrences(svg, "]]>") != 1)
		abort();
	free(svg);
	wd_flame_free(&fg);
	return 0;
}
