// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callsites.h"
#include "grow.h"
#include "noise.h"

static bool name_char(char c, bool function)
{
	return isalnum((unsigned char)c) || c == '_' || (function && c == '.');
}

int wd_noise_spec(const char *spec, char *reason, size_t rlen, char *function, size_t flen)
{
	const char *at = strchr(spec, '@');
	size_t n = at ? (size_t)(at - spec) : strlen(spec);

	if (!strncasecmp(spec, "SKB_DROP_REASON_", 16) && n > 16) {
		spec += 16;
		n -= 16;
	}
	if (!n || n >= rlen)
		return -1;
	if (!(n == 1 && spec[0] == '*'))
		for (size_t i = 0; i < n; i++)
			if (!name_char(spec[i], false) && spec[i] != ':')
				return -1;
	memcpy(reason, spec, n);
	reason[n] = '\0';
	for (char *p = reason; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	function[0] = '\0';
	if (!at)
		return 0;
	n = strlen(at + 1);
	if (!n || n >= flen)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!name_char(at[1 + i], true))
			return -1;
	memcpy(function, at + 1, n + 1);
	return 0;
}

int wd_noise_add(struct wd_noise *nz, const char *spec, bool show, const char *source,
		 const char *why)
{
	struct wd_noise_rule r = { .show = show };

	if (wd_noise_spec(spec, r.reason, sizeof(r.reason), r.function, sizeof(r.function)))
		return -1;
	snprintf(r.source, sizeof(r.source), "%s", source);
	snprintf(r.why, sizeof(r.why), "%s", why ? why : "");
	if (wd_grow(&nz->v, &nz->cap, nz->n, sizeof(*nz->v), 32))
		return -ENOMEM;
	nz->v[nz->n++] = r;
	return 0;
}

void wd_noise_defaults(struct wd_noise *nz)
{
	char spec[256];

	for (size_t i = 0; i < wd_callsite_count(); i++) {
		const struct wd_callsite *c = wd_callsite_at(i);

		if (!c->noise)
			continue;
		for (const char *const *r = c->reasons; *r; r++) {
			snprintf(spec, sizeof(spec), "%s@%s", *r, c->function);
			wd_noise_add(nz, spec, false, "built-in list", c->summary);
		}
	}
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One line, without its newline; 0 or -1 with err set. */
static int parse_line(struct wd_noise *nz, char *line, const char *where, bool *no_defaults,
		      char *err, size_t errlen)
{
	char *hash = strchr(line, '#'), *word, *spec, *why = NULL;
	bool show;

	if (hash) {
		*hash = '\0';
		why = trim(hash + 1);
	}
	line = trim(line);
	if (!*line)
		return 0;
	if (!strcmp(line, "no-defaults")) {
		*no_defaults = true;
		return 0;
	}
	word = line;
	spec = word + strcspn(word, " \t");
	if (*spec)
		*spec++ = '\0';
	spec = trim(spec);
	if (strcmp(word, "hide") && strcmp(word, "show")) {
		snprintf(err, errlen, "%s: '%s' is no rule: write hide REASON[@FUNCTION], "
			 "show REASON[@FUNCTION] or no-defaults", where, word);
		return -1;
	}
	show = !strcmp(word, "show");
	if (!*spec || strpbrk(spec, " \t")) {
		snprintf(err, errlen, "%s: %s takes one REASON[@FUNCTION]", where, word);
		return -1;
	}
	if (wd_noise_add(nz, spec, show, where, why && *why ? why : NULL)) {
		snprintf(err, errlen, "%s: bad rule '%s': REASON[@FUNCTION], e.g. "
			 "NOT_SPECIFIED@unix_release_sock (REASON may be '*')", where, spec);
		return -1;
	}
	return 0;
}

int wd_noise_parse(struct wd_noise *nz, const char *text, const char *name,
		   bool *no_defaults, char *err, size_t errlen)
{
	char line[1024], where[256];
	unsigned int lineno = 0;

	*no_defaults = false;
	while (*text) {
		size_t n = strcspn(text, "\n");

		lineno++;
		snprintf(where, sizeof(where), "%s:%u", name, lineno);
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "%s: line longer than %zu bytes", where,
				 sizeof(line) - 1);
			return -1;
		}
		if (memchr(text, '\0', n)) {
			snprintf(err, errlen, "%s: not a text file", where);
			return -1;
		}
		memcpy(line, text, n);
		line[n] = '\0';
		if (parse_line(nz, line, where, no_defaults, err, errlen))
			return -1;
		text += n;
		if (*text)
			text++;
	}
	return 0;
}

int wd_noise_read(const char *path, bool must_exist, char **text, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t got = 0, r;
	char *buf;

	if (fd < 0) {
		if (errno == ENOENT && !must_exist)
			return 1;
		snprintf(err, errlen, "cannot open noise file %s: %s", path,
			 errno == ELOOP ? "it is a symbolic link (give the real file)" :
			 strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > WD_NOISE_MAX_BYTES) {
		snprintf(err, errlen, "noise file %s: %s", path, !S_ISREG(st.st_mode) ?
			 "not a regular file" : "larger than 1 MiB");
		close(fd);
		return -1;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "noise file %s: out of memory", path);
		return -1;
	}
	while (got < st.st_size && (r = read(fd, buf + got, (size_t)(st.st_size - got))) > 0)
		got += r;
	close(fd);
	buf[got] = '\0';
	*text = buf;
	return 0;
}

static bool rule_matches(const struct wd_noise_rule *r, const char *reason, const char *function)
{
	if (strcmp(r->reason, "*") && (!reason || strcasecmp(r->reason, reason)))
		return false;
	if (r->function[0] && (!function || strcmp(r->function, function)))
		return false;
	return true;
}

const struct wd_noise_rule *wd_noise_hide(struct wd_noise *nz, const char *reason,
					  const char *function, uint64_t count)
{
	struct wd_noise_rule *hit = NULL;

	if (nz->off)
		return NULL;
	if (reason && !strncasecmp(reason, "SKB_DROP_REASON_", 16))
		reason += 16;
	for (size_t i = 0; i < nz->n; i++) {
		if (!rule_matches(&nz->v[i], reason, function))
			continue;
		if (nz->v[i].show)
			return NULL;
		if (!hit)
			hit = &nz->v[i];
	}
	if (hit)
		hit->hidden += count;
	return hit;
}

void wd_noise_reset_counts(struct wd_noise *nz)
{
	for (size_t i = 0; i < nz->n; i++)
		nz->v[i].hidden = 0;
}

void wd_noise_free(struct wd_noise *nz)
{
	free(nz->v);
	memset(nz, 0, sizeof(*nz));
}
