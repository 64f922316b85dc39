// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The cgroup events of --group-by cgroup and serve --per-cgroup
 * (src/bpf/cgroup_events.bpf.c): each mkdir, rename, rmdir and release of
 * a cgroup v2 directory, read from their ring buffer into the session's
 * cgroup table (src/lib/who/cgroup.c). Attached before the table's first walk,
 * so that every cgroup is named: those that exist by the walk, those made
 * later by their mkdir, even if they are gone before anyone asks.
 *
 * Where the program cannot load (no BTF, an old kernel), or once a record
 * was lost to a full ring, the table learns what goes by walking the
 * hierarchy instead, and says so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "cgroup_events.h"
#include "cgroup_events.skel.h"
#include "core.h"
#include "session.h"

struct wd_cgroup_events {
	struct cgroup_events_bpf *skel;
	struct ring_buffer *rb;
	struct wd_cgroups *cgroups;
	bool said_lost;
};

static int on_event(void *ctx, void *data, size_t len)
{
	struct wd_cgroup_events *e = ctx;
	const struct wd_cgev *ev = data;
	const char *path = NULL;

	if (len < sizeof(*ev))
		return 0;
	if (ev->path_len && ev->path_len <= len - sizeof(*ev) &&
	    ev->path[ev->path_len - 1] == '\0')
		path = ev->path;
	wd_cgroups_event(e->cgroups, (enum wd_cgroup_event)ev->kind, ev->id, path,
			 (double)ev->ts / 1e9);
	return 0;
}

static void events_free(struct wd_cgroup_events *e)
{
	ring_buffer__free(e->rb);
	cgroup_events_bpf__destroy(e->skel);
	free(e);
}

/* Load and attach; NULL (said with -v) where it cannot. */
static struct wd_cgroup_events *events_open(struct wd_cgroups *c, bool verbose)
{
	struct wd_cgroup_events *e = calloc(1, sizeof(*e));
	int err = -ENOMEM;

	if (!e)
		goto fail;
	e->cgroups = c;
	e->skel = cgroup_events_bpf__open_and_load();
	err = e->skel ? cgroup_events_bpf__attach(e->skel) : -errno;
	if (err)
		goto fail;
	e->rb = ring_buffer__new(bpf_map__fd(e->skel->maps.cgroup_events), on_event, e, NULL);
	if (!e->rb) {
		err = -errno;
		goto fail;
	}
	c->events = true;
	return e;
fail:
	if (verbose)
		fprintf(stderr, "whydrop: cannot trace cgroup mkdir/rmdir (%s): cgroups are "
				"named by walking the hierarchy, and one gone before a walk "
				"stays unnamed\n", strerror(err < 0 ? -err : EINVAL));
	if (e)
		events_free(e);
	return NULL;
}

int wd_session_cgroups_open(struct wd_session *s)
{
	s->cgev = events_open(&s->who.cgroups, s->verbose);
	/* after the attach: a cgroup is either walked or told */
	wd_cgroups_walk(&s->who.cgroups, 0);
	return s->cgev ? 0 : -1;
}

void wd_session_cgroups_read(struct wd_session *s)
{
	struct wd_cgroup_events *e = s->cgev;
	uint64_t lost;

	if (!e)
		return;
	ring_buffer__consume(e->rb);
	lost = e->skel->bss->lost;
	if (!lost || e->said_lost)
		return;
	/* some mkdir or rmdir may be missing: walks tell what is gone from now on */
	e->cgroups->events = false;
	e->said_lost = true;
	fprintf(stderr, "whydrop: %" PRIu64 " cgroup %s lost (their ring buffer was full): "
			"cgroups are now also found by walking the hierarchy\n", lost,
		lost == 1 ? "event" : "events");
}

void wd_session_cgroups_close(struct wd_session *s)
{
	if (s->cgev)
		events_free(s->cgev);
	s->cgev = NULL;
}
