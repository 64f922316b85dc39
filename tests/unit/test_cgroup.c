// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgroup paths as systemd, docker, podman, containerd, CRI-O and kubelet write them. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "unit.h"

#define ID "4f1d6a0b2c3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c"
#define UID "8a3c2b1e-5f4d-4e6a-9b8c-7d6e5f4a3b2c"
#define UID_ "8a3c2b1e_5f4d_4e6a_9b8c_7d6e5f4a3b2c"

struct shape {
	const char *path, *runtime, *container, *pod, *qos, *unit, *label;
};

static const struct shape shapes[] = {
	{ "/system.slice/nginx.service", "", "", "", "", "nginx.service", "nginx.service" },
	{ "/user.slice/user-1000.slice/session-3.scope", "", "", "", "", "session-3.scope",
	  "session-3.scope" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-2345.scope",
	  "", "", "", "", "app-gnome-firefox-2345.scope", "app-gnome-firefox-2345.scope" },
	{ "/system.slice/docker-" ID ".scope", "docker", ID, "", "", "", "docker:4f1d6a0b2c3e" },
	{ "/docker/" ID, "docker", ID, "", "", "", "docker:4f1d6a0b2c3e" },
	{ "/machine.slice/libpod-" ID ".scope", "podman", ID, "", "", "", "podman:4f1d6a0b2c3e" },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID ".scope",
	  "podman", ID, "", "", "user@1000.service", "podman:4f1d6a0b2c3e" },
	/* podman's cgroupfs manager; its conmon beside it is no container */
	{ "/libpod_parent/libpod-" ID, "podman", ID, "", "", "", "podman:4f1d6a0b2c3e" },
	{ "/libpod_parent/conmon", "", "", "", "", "", "/libpod_parent/conmon" },
	{ "/libpod_parent/libpod-conmon-" ID, "", "", "", "", "", "/libpod_parent/libpod-conmon-" ID },
	/* conmon watches a podman container: it is not the container */
	{ "/machine.slice/libpod-conmon-" ID ".scope", "", "", "", "",
	  "libpod-conmon-" ID ".scope", "libpod-conmon-" ID ".scope" },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/cri-containerd-" ID ".scope",
	  "containerd", ID, UID, "burstable", "", "pod " UID "/containerd:4f1d6a0b2c3e" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	  "containerd", ID, UID, "guaranteed", "", "pod " UID "/containerd:4f1d6a0b2c3e" },
	{ "/system.slice/containerd.service/kubepods-besteffort-pod" UID_
	  ".slice:cri-containerd:" ID,
	  "containerd", ID, UID, "besteffort", "containerd.service",
	  "pod " UID "/containerd:4f1d6a0b2c3e" },
	{ "/kubepods/besteffort/pod" UID "/" ID, "", ID, UID, "besteffort", "",
	  "pod " UID "/4f1d6a0b2c3e" },
	{ "/kubepods/pod" UID "/" ID, "", ID, UID, "guaranteed", "", "pod " UID "/4f1d6a0b2c3e" },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/crio-" ID ".scope",
	  "cri-o", ID, UID, "burstable", "", "pod " UID "/cri-o:4f1d6a0b2c3e" },
	/* the pod's own slice, before any container */
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice",
	  "", "", UID, "burstable", "", "pod " UID },
	{ "/lxc.payload.web1/init.scope", "lxc", "web1", "", "", "init.scope", "lxc:web1" },
	{ "/", "", "", "", "", "", "/" },
	/* too short to be an id, and upper case is no docker id */
	{ "/docker/abc", "", "", "", "", "", "/docker/abc" },
	{ "/system.slice/docker-4F1D6A0B2C3E.scope", "", "", "", "",
	  "docker-4F1D6A0B2C3E.scope", "docker-4F1D6A0B2C3E.scope" },
};

static void test_shapes(void)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *s = &shapes[i];
		struct wd_cgroup_info ci;
		char label[200];

		wd_cgroup_parse(s->path, &ci);
		CHECK_STR(ci.runtime, s->runtime);
		CHECK_STR(ci.container, s->container);
		CHECK_STR(ci.pod_uid, s->pod);
		CHECK_STR(ci.qos, s->qos);
		CHECK_STR(ci.unit, s->unit);
		CHECK_STR(wd_cgroup_label(s->path, label, sizeof(label)), s->label);
	}
}

/* What a namespace is named by: the container, or the pod its containers share. */
static void test_workload(void)
{
	static const struct { const char *path, *want; } cases[] = {
		{ "/system.slice/docker-" ID ".scope", "docker:4f1d6a0b2c3e" },
		{ "/docker/" ID, "docker:4f1d6a0b2c3e" },
		{ "/machine.slice/libpod-" ID ".scope", "podman:4f1d6a0b2c3e" },
		{ "/libpod_parent/libpod-" ID, "podman:4f1d6a0b2c3e" },
		{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
		  ".slice/cri-containerd-" ID ".scope", "pod " UID },
		{ "/system.slice/containerd.service/kubepods-besteffort-pod" UID_
		  ".slice:cri-containerd:" ID, "pod " UID },
		{ "/kubepods/besteffort/pod" UID "/" ID, "pod " UID },
		{ "/lxc.payload.web1/init.scope", "lxc:web1" },
		/* a unit, a monitor, the root: no workload */
		{ "/system.slice/nginx.service", NULL },
		{ "/machine.slice/libpod-conmon-" ID ".scope", NULL },
		{ "/", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[200] = "x";
		const char *got = wd_cgroup_workload(cases[i].path, buf, sizeof(buf));

		if (cases[i].want) {
			CHECK_STR(got, cases[i].want);
		} else {
			CHECK(got == NULL);
			CHECK_STR(buf, "");
		}
	}
}

static void test_mountinfo(void)
{
	char path[] = "/tmp/wd-mountinfo-XXXXXX";
	struct wd_cgroups c;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("25 30 0:23 / /sys rw,nosuid shared:7 - sysfs sysfs rw\n"
	      "35 25 0:30 / /sys/fs/cgroup ro shared:9 - tmpfs tmpfs ro,mode=755\n"
	      "36 35 0:31 / /sys/fs/cgroup/unified rw shared:10 - cgroup2 cgroup2 rw\n"
	      "37 35 0:32 / /sys/fs/cgroup/systemd rw shared:11 - cgroup cgroup rw,name=systemd\n",
	      f);
	fclose(f);
	CHECK_INT(wd_cgroups_init(&c, path), 0);
	CHECK_STR(c.root, "/sys/fs/cgroup/unified");
	CHECK_STR(c.mnt_root, "/");
	wd_cgroups_free(&c);
	f = fopen(path, "w");
	fputs("37 35 0:32 / /sys/fs/cgroup/systemd rw shared:11 - cgroup cgroup rw\n", f);
	fclose(f);
	CHECK(wd_cgroups_init(&c, path) < 0);
	CHECK_STR(c.root, "");
	unlink(path);
}

/* ids are directory inodes: a tree in /tmp stands in for the hierarchy. */
static void test_id_to_path(void)
{
	char root[] = "/tmp/wd-cgroup-XXXXXX", dir[256];
	struct wd_cgroups c = {};
	struct stat st;

	CHECK(mkdtemp(root) != NULL);
	snprintf(c.root, sizeof(c.root), "%s", root);
	snprintf(dir, sizeof(dir), "%s/system.slice", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/system.slice/docker-%s.scope", root, ID);
	mkdir(dir, 0755);
	CHECK_INT(stat(dir, &st), 0);
	CHECK_STR(wd_cgroup_path(&c, st.st_ino), "/system.slice/docker-" ID ".scope");
	CHECK(wd_cgroup_path(&c, 0) == NULL);
	stat(root, &st);
	CHECK_STR(wd_cgroup_path(&c, st.st_ino), "/");
	/* a cgroup made after the walk is found at the next walk, not sooner */
	snprintf(dir, sizeof(dir), "%s/late.service", root);
	mkdir(dir, 0755);
	stat(dir, &st);
	CHECK(wd_cgroup_path(&c, st.st_ino) == NULL);
	c.last_walk -= 2;
	CHECK_STR(wd_cgroup_path(&c, st.st_ino), "/late.service");
	wd_cgroups_free(&c);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/system.slice/docker-%s.scope", root, ID);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/system.slice", root);
	rmdir(dir);
	rmdir(root);
}

/* A whole walk that misses a cgroup says since when it is gone. */
static void test_vanish(void)
{
	char root[] = "/tmp/wd-cgroup-XXXXXX", dir[256];
	struct wd_cgroups c = {};
	struct stat st;
	bool known;

	CHECK(mkdtemp(root) != NULL);
	snprintf(c.root, sizeof(c.root), "%s", root);
	snprintf(dir, sizeof(dir), "%s/pod.slice", root);
	mkdir(dir, 0755);
	stat(dir, &st);
	wd_cgroups_walk(&c, 0);
	CHECK_STR(wd_cgroup_path(&c, st.st_ino), "/pod.slice");
	CHECK(wd_cgroup_gone(&c, st.st_ino, &known) == 0 && known);
	rmdir(dir);
	/* within min_age: no walk, nothing learned */
	wd_cgroups_walk(&c, 60);
	CHECK(wd_cgroup_gone(&c, st.st_ino, &known) == 0);
	wd_cgroups_walk(&c, 0);
	CHECK(wd_cgroup_gone(&c, st.st_ino, &known) > 0 && known);
	/* the name stays: drops of its sockets may still be counted */
	CHECK_STR(wd_cgroup_path(&c, st.st_ino), "/pod.slice");
	/* without events, a gone cgroup is forgotten keep seconds later */
	c.keep = 5;
	wd_cgroups_prune(&c, wd_cgroup_gone(&c, st.st_ino, &known) + 4);
	CHECK(known);
	wd_cgroups_prune(&c, wd_cgroup_gone(&c, st.st_ino, &known) + 5);
	wd_cgroup_gone(&c, st.st_ino, &known);
	CHECK(!known);
	wd_cgroups_free(&c);
	rmdir(root);
}

static bool named_720(void *ctx, uint64_t id)
{
	(void)ctx;
	return id == 720;
}

/* What the kernel tells (cgroup_events.c), seen through a mount of /ns. */
static void test_events(void)
{
	struct wd_cgroups c = { .root = "/nonexistent", .mnt_root = "/ns", .events = true,
				.keep = 10 };
	bool known;

	wd_cgroups_event(&c, WD_CGROUP_MKDIR, 700, "/ns/web.slice/c1", 1.0);
	wd_cgroups_event(&c, WD_CGROUP_MKDIR, 600, "/ns", 1.0);
	wd_cgroups_event(&c, WD_CGROUP_MKDIR, 800, "/other/c2", 1.0);	/* not below our mount */
	wd_cgroups_event(&c, WD_CGROUP_MKDIR, 900, "/nsx", 1.0);
	CHECK_STR(wd_cgroup_path(&c, 700), "/web.slice/c1");
	CHECK_STR(wd_cgroup_path(&c, 600), "/");
	CHECK(wd_cgroup_path(&c, 800) == NULL);
	CHECK(wd_cgroup_path(&c, 900) == NULL);
	wd_cgroups_event(&c, WD_CGROUP_RENAME, 700, "/ns/web.slice/c1.scope", 2.0);
	CHECK_STR(wd_cgroup_path(&c, 700), "/web.slice/c1.scope");
	wd_cgroups_event(&c, WD_CGROUP_RMDIR, 700, NULL, 3.0);
	CHECK(wd_cgroup_gone(&c, 700, &known) == 3.0 && known);
	/* removed but not released (a socket holds it): still named */
	wd_cgroups_prune(&c, 100.0);
	CHECK_STR(wd_cgroup_path(&c, 700), "/web.slice/c1.scope");
	wd_cgroups_event(&c, WD_CGROUP_RELEASE, 700, NULL, 50.0);
	CHECK(wd_cgroup_gone(&c, 700, &known) == 3.0);
	wd_cgroups_prune(&c, 59.0);
	CHECK(wd_cgroup_gone(&c, 700, &known) == 3.0 && known);
	wd_cgroups_prune(&c, 60.0);
	wd_cgroup_gone(&c, 700, &known);
	CHECK(!known);
	CHECK_STR(wd_cgroup_path(&c, 600), "/");
	/* top and count: a released cgroup a count still names keeps its name */
	wd_cgroups_event(&c, WD_CGROUP_MKDIR, 710, "/ns/a", 1.0);
	wd_cgroups_event(&c, WD_CGROUP_MKDIR, 720, "/ns/b", 1.0);
	wd_cgroups_event(&c, WD_CGROUP_RELEASE, 710, NULL, 2.0);
	wd_cgroups_event(&c, WD_CGROUP_RELEASE, 720, NULL, 2.0);
	wd_cgroups_prune_unused(&c, 100.0, 60, named_720, NULL);
	CHECK(wd_cgroup_path(&c, 710) == NULL);
	CHECK_STR(wd_cgroup_path(&c, 720), "/b");
	CHECK_STR(wd_cgroup_path(&c, 600), "/");	/* never released */
	wd_cgroups_free(&c);
}

/*
 * A walk of many cgroups sorts what it found once (it was a move per new
 * cgroup: quadratic); every one is found under its path, a second walk adds
 * none, an event between walks still inserts in order.
 */
static void test_many(void)
{
	char root[] = "/tmp/wd-cgroup-XXXXXX", dir[256];
	struct wd_cgroups c = {};
	static uint64_t ids[3000];
	struct stat st;
	bool all = true, sorted = true;
	size_t n;

	CHECK(mkdtemp(root) != NULL);
	snprintf(c.root, sizeof(c.root), "%s", root);
	for (int i = 0; i < 3000; i++) {
		snprintf(dir, sizeof(dir), "%s/c%d", root, (i * 7919) % 3000);
		mkdir(dir, 0755);
		ids[i] = stat(dir, &st) ? 0 : st.st_ino;
	}
	wd_cgroups_walk(&c, 0);
	n = c.n;
	CHECK_INT(n, 3001);	/* and the root */
	CHECK_INT(c.n_sorted, c.n);
	for (size_t i = 1; i < c.n; i++)
		sorted &= c.v[i - 1].id < c.v[i].id;
	CHECK(sorted);
	for (int i = 0; i < 3000; i++) {
		const char *p = wd_cgroup_path(&c, ids[i]);
		char want[32];

		snprintf(want, sizeof(want), "/c%d", (i * 7919) % 3000);
		all &= p && !strcmp(p, want);
	}
	CHECK(all);
	wd_cgroups_event(&c, WD_CGROUP_MKDIR, 1, "/first", 1.0);
	CHECK_STR(wd_cgroup_path(&c, 1), "/first");
	CHECK(c.v[0].id == 1);
	wd_cgroups_walk(&c, 0);
	CHECK_INT(c.n, n + 1);
	CHECK_INT(c.n_sorted, c.n);
	wd_cgroups_free(&c);
	for (int i = 0; i < 3000; i++) {
		snprintf(dir, sizeof(dir), "%s/c%d", root, i);
		rmdir(dir);
	}
	rmdir(root);
}

UNIT_MAIN(test_shapes, test_workload, test_mountinfo, test_id_to_path, test_vanish,
	  test_events, test_many)
