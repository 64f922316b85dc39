/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Expected drops that `top` and `count` hide (and count as hidden): the
 * default list (call sites flagged expected in callsites_data.h), then the
 * noise file, then --hide. A rule is REASON[@FUNCTION]; "show" rules are
 * exceptions that keep matching drops visible.
 *
 * Noise file (/etc/whydrop/noise.conf or --noise-file), one rule a line:
 *   hide REASON[@FUNCTION]   # text after '#' is the reason shown for hiding
 *   show REASON[@FUNCTION]   # never hide these, whatever another rule says
 *   no-defaults              # forget the built-in list
 * REASON may be '*' (any reason); blank lines and lines starting '#' are skipped.
 */
#ifndef WD_NOISE_H
#define WD_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WD_NOISE_FILE		"/etc/whydrop/noise.conf"
#define WD_NOISE_MAX_BYTES	(1u << 20)

struct wd_noise_rule {
	char reason[64];	/* without SKB_DROP_REASON_; "*": any */
	char function[128];	/* "": any function */
	char source[192];	/* "built-in list", "FILE:LINE", "--hide" */
	char why[160];		/* "" if none given */
	bool show;		/* an exception, not a hide rule */
	uint64_t hidden;	/* drops it hid (filled by wd_noise_hide) */
};

struct wd_noise {
	struct wd_noise_rule *v;
	size_t n, cap;
	bool off;		/* --show-all */
};

/* "REASON[@FUNCTION]" into its parts; 0, or -1 when malformed. */
int wd_noise_spec(const char *spec, char *reason, size_t rlen, char *function, size_t flen);
/* Add one rule; 0, -1 malformed spec, -ENOMEM. */
int wd_noise_add(struct wd_noise *nz, const char *spec, bool show, const char *source,
		 const char *why);
void wd_noise_defaults(struct wd_noise *nz);
/*
 * Parse a noise file's text (name for messages). Returns 0; or -1 with a
 * "FILE:LINE: ..." message in err. *no_defaults is set by "no-defaults".
 */
int wd_noise_parse(struct wd_noise *nz, const char *text, const char *name,
		   bool *no_defaults, char *err, size_t errlen);
/*
 * Read a noise file safely (no symlink, a regular file, bounded size).
 * Returns 0, 1 when it does not exist and !must_exist, -1 with err set.
 */
int wd_noise_read(const char *path, bool must_exist, char **text, char *err, size_t errlen);
/*
 * The rule that hides a drop of reason at function, NULL to show it. A
 * match adds count to that rule's hidden.
 */
const struct wd_noise_rule *wd_noise_hide(struct wd_noise *nz, const char *reason,
					  const char *function, uint64_t count);
void wd_noise_reset_counts(struct wd_noise *nz);
void wd_noise_free(struct wd_noise *nz);

#endif /* WD_NOISE_H */
