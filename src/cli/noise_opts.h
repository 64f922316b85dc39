/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef WD_NOISE_OPTS_H
#define WD_NOISE_OPTS_H

#include "noise.h"
#include "options.h"

/*
 * The rules of this run: the built-in list (unless the noise file says
 * no-defaults), the noise file (WD_NOISE_FILE if it exists, or --noise-file),
 * then --hide; --show-all turns hiding off. 0, or an exit status after one
 * message.
 */
int wd_noise_setup(struct wd_noise *nz, const struct wd_opts *o);

#endif /* WD_NOISE_OPTS_H */
