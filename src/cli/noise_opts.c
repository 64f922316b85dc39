// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The noise list of a run: built-in list, noise file, --hide, --show-all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "noise_opts.h"

static int append(struct wd_noise *to, const struct wd_noise *from)
{
	for (size_t i = 0; i < from->n; i++) {
		const struct wd_noise_rule *r = &from->v[i];
		char spec[256];

		snprintf(spec, sizeof(spec), "%s%s%s", r->reason, r->function[0] ? "@" : "",
			 r->function);
		if (wd_noise_add(to, spec, r->show, r->source, r->why))
			return -1;
	}
	return 0;
}

static int read_file(const struct wd_opts *o, struct wd_noise *file, bool *no_defaults)
{
	const char *path = o->noise_file ? o->noise_file : WD_NOISE_FILE;
	char err[512], *text = NULL;
	int r = wd_noise_read(path, o->noise_file != NULL, &text, err, sizeof(err));

	*no_defaults = false;
	if (r > 0)
		return 0;
	if (r < 0 || wd_noise_parse(file, text, path, no_defaults, err, sizeof(err))) {
		fprintf(stderr, "whydrop %s: %s\n", o->cmd, err);
		free(text);
		return WD_EXIT_USAGE;
	}
	free(text);
	return 0;
}

int wd_noise_setup(struct wd_noise *nz, const struct wd_opts *o)
{
	struct wd_noise file = { 0 };
	bool no_defaults;
	int status;

	memset(nz, 0, sizeof(*nz));
	nz->off = o->show_all;
	status = read_file(o, &file, &no_defaults);
	if (status)
		goto out;
	if (!no_defaults)
		wd_noise_defaults(nz);
	status = 1;
	if (append(nz, &file))
		goto out;
	status = WD_EXIT_USAGE;
	for (size_t i = 0; i < o->n_hide; i++) {
		char copy[512], *tok, *save = NULL;

		snprintf(copy, sizeof(copy), "%s", o->hide[i]);
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (!wd_noise_add(nz, tok, false, "--hide", NULL))
				continue;
			fprintf(stderr, "whydrop %s: bad --hide '%s': REASON[@FUNCTION], e.g. "
				"--hide NOT_SPECIFIED@unix_release_sock (REASON may be '*')\n",
				o->cmd, tok);
			goto out;
		}
	}
	status = 0;
out:
	wd_noise_free(&file);
	if (status)
		wd_noise_free(nz);
	return status;
}
