// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Container and pod names from a node's files: podman's containers.json and
 * docker's config.v2.json copied from real runs, the kubelet's log layout,
 * broken files, and the cache (refresh, bound, age, names kept).
 * tests/unit/fixtures/containers/README.md says where each file comes from.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container_formats.h"
#include "containers.h"
#include "unit.h"

#define FIX "tests/unit/fixtures/containers"
/* podman (real) */
#define WEB "47507b3e4c36c21c51201bae259945636ec9be2e82a17df6ec8948742debaa63"
#define DB "7b024864b861679e3c6a044cffdef13678b7036a76e9fac362ce57ddf4a1ba3c"
#define APP "5f055dbbef5281bf8d7d5d856d34e19af5fd6c1433d978b5455cbaded4c64508"
/* docker (real) */
#define DWEB "33cd96bb9c5925e2ca9ba8d2508b61ab4bdbac7841b85e47404cc83c7de4a83c"
#define DNGINX "5de588600668df83321777fe0dc5f3f785abcb701320e9d64daad0cef2788b51"
#define DPAUSE "c4a54ee32b13e8824e974133a8e173f63aa1d332b49eb83fd0337936850d2089"
#define U1 "3f2c8a1e-5b4d-4e6a-9c8b-7d6e5f4a3b21"
#define U1_ "3f2c8a1e_5b4d_4e6a_9c8b_7d6e5f4a3b21"
/* containerd under the kubelet, CRI-O */
#define SERVER "4f1d6a0b2c3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c"
#define SHIPPER "0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b"
#define SANDBOX "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
#define U2 "8a3c2b1e-5f4d-4e6a-9b8c-7d6e5f4a3b2c"
#define U2_ "8a3c2b1e_5f4d_4e6a_9b8c_7d6e5f4a3b2c"
#define CRIO "9c1e5a7b3d2f4e6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6"
#define CRIOPAUSE "1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d2c"
#define U3 "6b1f0c2d-9e8a-4b7c-a6d5-e4f3a2b1c0d9"
#define U3_ "6b1f0c2d_9e8a_4b7c_a6d5_e4f3a2b1c0d9"
#define BURSTABLE "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
/* broken/ */
#define HEX64(c) c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c \
		 c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c

static double fake_now = 100.0;
static int warnings;
static char last_warning[4300];

static double fake_clock(void)
{
	return fake_now;
}

static void count_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

static struct wd_ctr_names *names_at(const char *root, unsigned int max)
{
	struct wd_ctr_config cfg;

	wd_ctr_config_default(&cfg);
	cfg.root = root;
	cfg.clock = fake_clock;
	cfg.warn = count_warning;
	if (max)
		cfg.max_entries = max;
	warnings = 0;
	return wd_ctr_names_new(&cfg);
}

/* lookup PATH: its label, and the kind of answer in *found. */
static const char *label_of(struct wd_ctr_names *n, const char *path, enum wd_ctr_found *found)
{
	static char buf[600];
	struct wd_ctr_name c;

	*found = wd_ctr_lookup(n, path, &c);
	return wd_ctr_label(&c, buf, sizeof(buf));
}

static void expect(struct wd_ctr_names *n, const char *path, enum wd_ctr_found want,
		   const char *label)
{
	enum wd_ctr_found got;
	const char *l = label_of(n, path, &got);

	CHECK_INT(got, want);
	CHECK_STR(l, label);
	if (got != want || strcmp(l, label))
		fprintf(stderr, "  path %s\n", path);
}

/* The fields of a parsed name that @want gives (the others are not looked at). */
struct want_name {
	const char *id, *pod_uid, *name, *pod, *k8s_namespace;
};

static void check_name(const struct wd_ctr_name *c, struct want_name want)
{
	const char *got[] = { c->id, c->pod_uid, c->name, c->pod, c->k8s_namespace };
	const char *w[] = { want.id, want.pod_uid, want.name, want.pod, want.k8s_namespace };

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (w[i])
			CHECK_STR(got[i], w[i]);
}

static void test_keys(void)
{
	static const struct { const char *path, *runtime, *id, *uid; bool ok; } k[] = {
		{ "/libpod_parent/libpod-" WEB, "podman", WEB, "", true },
		{ "/machine.slice/libpod-" WEB ".scope", "podman", WEB, "", true },
		{ "/machine.slice/libpod-" WEB ".scope/container", "podman", WEB, "", true },
		{ "/docker/" DWEB, "docker", DWEB, "", true },
		{ "/system.slice/docker-" DWEB ".scope", "docker", DWEB, "", true },
		{ "/kubepods/besteffort/pod" U2 "/" SERVER, "", SERVER, U2, true },
		{ BURSTABLE U2_ ".slice/cri-containerd-" SERVER ".scope", "containerd", SERVER,
		  U2, true },
		{ BURSTABLE U2_ ".slice", "", "", U2, true },
		/* not containers this can name */
		{ "/machine.slice/libpod-conmon-" WEB ".scope", "", "", "", false },
		{ "/libpod_parent/conmon", "", "", "", false },
		{ "/libpod_parent/xlibpod-" WEB, "", "", "", false },
		{ "/system.slice/nginx.service", "", "", "", false },
		{ "/lxc.payload.web1/init.scope", "", "", "", false },
		{ "/docker/4f1d6a0b2c3e", "", "", "", false },	/* a short id */
		{ "/", "", "", "", false },
		{ "", "", "", "", false },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct wd_ctr_name c;

		CHECK_INT(wd_ctr_key(k[i].path, &c), k[i].ok);
		CHECK_STR(c.runtime, k[i].runtime);
		CHECK_STR(c.id, k[i].id);
		CHECK_STR(c.pod_uid, k[i].uid);
	}
}

static void test_podman(void)
{
	struct wd_ctr_names *n = names_at(FIX "/node", 0);

	/* cgroupfs manager (as on this host) and the systemd manager's shape */
	expect(n, "/libpod_parent/libpod-" WEB, WD_CTR_NAMED, "podman:wd-fixture-web");
	expect(n, "/machine.slice/libpod-" DB ".scope", WD_CTR_NAMED, "podman:wd-fixture-db.1");
	expect(n, "/machine.slice/machine-libpod_pod_0123.slice/libpod-" APP ".scope",
	       WD_CTR_NAMED, "podman:wd-fixture-app");
	expect(n, "/machine.slice/libpod-conmon-" WEB ".scope", WD_CTR_NONE, "");
	/* not in the file: the bare id, as cgroup.c labels it */
	expect(n, "/libpod_parent/libpod-" SERVER, WD_CTR_BARE, "podman:4f1d6a0b2c3e");
	/* a docker id is not looked up in podman's storage, nor the reverse */
	expect(n, "/docker/" WEB, WD_CTR_BARE, "docker:47507b3e4c36");
	expect(n, "/libpod_parent/libpod-" DWEB, WD_CTR_BARE, "podman:33cd96bb9c59");
	CHECK_INT(warnings, 0);
	wd_ctr_names_free(n);
}

static void test_docker(void)
{
	struct wd_ctr_names *n = names_at(FIX "/node", 0);

	expect(n, "/docker/" DWEB, WD_CTR_NAMED, "docker:wd-fixture-web");
	expect(n, "/system.slice/docker-" DWEB ".scope", WD_CTR_NAMED, "docker:wd-fixture-web");
	/* outside kubepods, labels that say "pod" are not believed: docker's name */
	expect(n, "/docker/" DNGINX, WD_CTR_NAMED,
	       "docker:k8s_nginx_web-0_default_" U1 "_0");
	/* under kubepods with the labels' UID: the pod, the container */
	expect(n, "/kubepods/besteffort/pod" U1 "/" DNGINX, WD_CTR_NAMED,
	       "pod default/web-0/nginx");
	expect(n, "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" U1_
	       ".slice/docker-" DPAUSE ".scope", WD_CTR_NAMED, "pod default/web-0");
	/* another pod's UID in the path: the labels are not this pod's */
	expect(n, "/kubepods/besteffort/pod" U3 "/" DNGINX, WD_CTR_BARE,
	       "pod " U3 "/5de588600668");
	CHECK_INT(warnings, 0);
	wd_ctr_names_free(n);
}

static void test_kubernetes(void)
{
	struct wd_ctr_names *n = names_at(FIX "/node", 0);
	struct wd_ctr_name c;

	/* containerd, both cgroup drivers: link -> pod, namespace, container */
	expect(n, BURSTABLE U2_ ".slice/cri-containerd-" SERVER ".scope", WD_CTR_NAMED,
	       "pod prod/api-7c9d/server");
	expect(n, "/kubepods/burstable/pod" U2 "/" SHIPPER, WD_CTR_NAMED,
	       "pod prod/api-7c9d/log-shipper");
	expect(n, "/system.slice/containerd.service/kubepods-burstable-pod" U2_
	       ".slice:cri-containerd:" SERVER, WD_CTR_NAMED, "pod prod/api-7c9d/server");
	/* the sandbox has no log: the pod from /var/log/pods, no container name */
	expect(n, "/kubepods/burstable/pod" U2 "/" SANDBOX, WD_CTR_NAMED, "pod prod/api-7c9d");
	CHECK_INT(wd_ctr_lookup(n, "/kubepods/burstable/pod" U2 "/" SANDBOX, &c), WD_CTR_NAMED);
	check_name(&c, (struct want_name){ .pod = "api-7c9d", .k8s_namespace = "prod",
					   .name = "", .id = SANDBOX, .pod_uid = U2 });
	/* the pod's own cgroup */
	expect(n, BURSTABLE U2_ ".slice", WD_CTR_NAMED, "pod prod/api-7c9d");
	/* CRI-O: no link here, its k8s_ names in containers/storage */
	expect(n, BURSTABLE U3_ ".slice/crio-" CRIO ".scope", WD_CTR_NAMED,
	       "pod prod/web-1/app");
	expect(n, BURSTABLE U3_ ".slice/crio-" CRIOPAUSE ".scope", WD_CTR_NAMED,
	       "pod prod/web-1");
	/* a pod nobody knows */
	expect(n, "/kubepods/pod00000000-1111-2222-3333-444444444444/" SANDBOX, WD_CTR_BARE,
	       "pod 00000000-1111-2222-3333-444444444444/e0e1e2e3e4e5");
	CHECK_INT(warnings, 0);
	wd_ctr_names_free(n);
}

/* Broken files: the bare id and one warning per file, however often asked. */
static void test_broken(void)
{
	static const char *const paths[] = {
		"/libpod_parent/libpod-" WEB,
		"/libpod_parent/libpod-" HEX64("b"),
		"/docker/d1dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd" "dd",
		"/docker/d2eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" "ee",
		"/kubepods/pod" U1 "/c0cccccccccccccccccccccccccccccc"
		"cccccccccccccccccccccccccccccccc",
		"/kubepods/pod" U1 "/c1ffffffffffffffffffffffffffffff"
		"ffffffffffffffffffffffffffffffff",
	};
	static const char *const labels[] = {
		"podman:47507b3e4c36", "podman:bbbbbbbbbbbb", "docker:d1dddddddddd",
		"docker:d2eeeeeeeeee", "pod default/web-0", "pod default/web-0",
	};
	struct wd_ctr_names *n = names_at(FIX "/broken/", 0);
	int after_first;

	/* the good element next to malformed ones is still named */
	expect(n, "/libpod_parent/libpod-" HEX64("a"), WD_CTR_NAMED, "podman:good-one");
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		enum wd_ctr_found want = strncmp(labels[i], "pod ", 4) ? WD_CTR_BARE :
					 WD_CTR_NAMED;

		expect(n, paths[i], want, labels[i]);
	}
	/* cut-short and malformed containers.json, 2 docker files, 2 links */
	CHECK_INT(warnings, 6);
	after_first = warnings;
	for (int round = 0; round < 3; round++) {
		fake_now += 5;
		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
			enum wd_ctr_found got;

			label_of(n, paths[i], &got);
		}
	}
	CHECK_INT(warnings, after_first);
	wd_ctr_names_free(n);
}

/* ------------------------------------------------------------ a tree that changes */

static void put(const char *root, const char *rel, const char *fmt, ...)
{
	char path[4096], tmp[4200];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	/* written aside and renamed, as containers/storage writes it */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
	rename(tmp, path);
}

#define PODMAN_FILE "var/lib/containers/storage/overlay-containers/containers.json"
#define ELEM(id, name) "{\"id\":\"" id "\",\"names\":[\"" name "\"],\"flags\":{}}"

static void rm_tree(const char *root)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
}

static void test_refresh(void)
{
	char root[] = "/tmp/wd-ctr-XXXXXX";
	struct wd_ctr_names *n;
	struct wd_ctr_stats st;
	unsigned long reads;

	CHECK(mkdtemp(root) != NULL);
	put(root, PODMAN_FILE, "[" ELEM(WEB, "web") "]");
	n = names_at(root, 0);
	expect(n, "/libpod_parent/libpod-" WEB, WD_CTR_NAMED, "podman:web");
	/* a container the file does not have yet */
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_BARE, "podman:7b024864b861");
	wd_ctr_get_stats(n, &st);
	reads = st.files_read;
	CHECK_INT(reads, 2);
	/* asked again: within the interval no read; after it, the file has not changed */
	fake_now += 0.5;
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_BARE, "podman:7b024864b861");
	fake_now += 1.0;
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_BARE, "podman:7b024864b861");
	wd_ctr_get_stats(n, &st);
	CHECK_INT(st.files_read, reads);
	/* it appears: read again once the interval has passed */
	put(root, PODMAN_FILE, "[" ELEM(WEB, "web") "," ELEM(DB, "db") "]");
	fake_now += 0.5;
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_BARE, "podman:7b024864b861");
	fake_now += 1.0;
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_NAMED, "podman:db");
	wd_ctr_get_stats(n, &st);
	CHECK_INT(st.files_read, reads + 1);
	/* gone from the file, and renamed: the name learned at first sight stays */
	put(root, PODMAN_FILE, "[" ELEM(WEB, "web-renamed") "]");
	fake_now += 5;
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_NAMED, "podman:db");
	expect(n, "/libpod_parent/libpod-" WEB, WD_CTR_NAMED, "podman:web");
	wd_ctr_get_stats(n, &st);
	CHECK_INT(st.files_read, reads + 1);
	/* a file broken later: no warning needed for names already known */
	put(root, PODMAN_FILE, "[{\"id\":");
	fake_now += 5;
	expect(n, "/libpod_parent/libpod-" WEB, WD_CTR_NAMED, "podman:web");
	expect(n, "/libpod_parent/libpod-" APP, WD_CTR_BARE, "podman:5f055dbbef52");
	CHECK_INT(warnings, 1);
	CHECK(strstr(last_warning, PODMAN_FILE) && strstr(last_warning, "not a JSON array"));
	wd_ctr_names_free(n);
	rm_tree(root);
}

/* One read names every container waiting for a name in that file. */
static void test_one_read_names_all(void)
{
	char root[] = "/tmp/wd-ctr-XXXXXX";
	struct wd_ctr_names *n;
	struct wd_ctr_stats st;

	CHECK(mkdtemp(root) != NULL);
	put(root, PODMAN_FILE, "[]");
	n = names_at(root, 0);
	expect(n, "/libpod_parent/libpod-" WEB, WD_CTR_BARE, "podman:47507b3e4c36");
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_BARE, "podman:7b024864b861");
	put(root, PODMAN_FILE, "[" ELEM(WEB, "web") "," ELEM(DB, "db") "]");
	fake_now += 2;
	expect(n, "/libpod_parent/libpod-" WEB, WD_CTR_NAMED, "podman:web");
	expect(n, "/libpod_parent/libpod-" DB, WD_CTR_NAMED, "podman:db");
	wd_ctr_get_stats(n, &st);
	CHECK_INT(st.files_read, 3);
	CHECK_INT(st.resolves, 3);
	wd_ctr_names_free(n);
	rm_tree(root);
}

/* Kubernetes: a link made after the first look names the container later. */
static void test_k8s_late_link(void)
{
	char root[] = "/tmp/wd-ctr-XXXXXX", link[4200];
	const char *path = BURSTABLE U2_ ".slice/cri-containerd-" SERVER ".scope";
	struct wd_ctr_names *n;

	CHECK(mkdtemp(root) != NULL);
	put(root, "var/log/pods/prod_api-7c9d_" U2 "/server/0.log", "%s", "");
	put(root, "var/log/containers/.keep", "%s", "");
	n = names_at(root, 0);
	expect(n, path, WD_CTR_NAMED, "pod prod/api-7c9d");
	snprintf(link, sizeof(link), "%s/var/log/containers/api-7c9d_prod_server-%s.log", root,
		 SERVER);
	CHECK_INT(symlink("/var/log/pods/prod_api-7c9d_" U2 "/server/0.log", link), 0);
	fake_now += 0.2;
	expect(n, path, WD_CTR_NAMED, "pod prod/api-7c9d");
	fake_now += 1.0;
	expect(n, path, WD_CTR_NAMED, "pod prod/api-7c9d/server");
	/* gone: the names stay */
	unlink(link);
	fake_now += 5;
	expect(n, path, WD_CTR_NAMED, "pod prod/api-7c9d/server");
	CHECK_INT(warnings, 0);
	wd_ctr_names_free(n);
	rm_tree(root);
}

/* A directory or a FIFO where a file should be: a warning, no hang. */
static void test_not_files(void)
{
	char root[] = "/tmp/wd-ctr-XXXXXX", path[4200];
	struct wd_ctr_names *n;

	CHECK(mkdtemp(root) != NULL);
	put(root, "var/lib/containers/storage/overlay-containers/.keep", "%s", "");
	snprintf(path, sizeof(path), "%s/%s", root, PODMAN_FILE);
	CHECK_INT(mkdir(path, 0755), 0);
	put(root, "var/lib/docker/containers/" DWEB "/.keep", "%s", "");
	snprintf(path, sizeof(path), "%s/var/lib/docker/containers/" DWEB "/config.v2.json", root);
	CHECK_INT(mkfifo(path, 0600), 0);
	n = names_at(root, 0);
	expect(n, "/libpod_parent/libpod-" WEB, WD_CTR_BARE, "podman:47507b3e4c36");
	CHECK(strstr(last_warning, "containers.json: not a regular file") != NULL);
	expect(n, "/docker/" DWEB, WD_CTR_BARE, "docker:33cd96bb9c59");
	CHECK(strstr(last_warning, "config.v2.json: not a regular file") != NULL);
	CHECK_INT(warnings, 2);
	wd_ctr_names_free(n);
	rm_tree(root);
}

/* At most max_entries; entries not looked up for max_idle_s go. */
static void test_bounded(void)
{
	struct wd_ctr_names *n = names_at(FIX "/node", 4);
	struct wd_ctr_stats st;
	char path[200];

	for (int i = 0; i < 10; i++) {
		enum wd_ctr_found f;

		snprintf(path, sizeof(path), "/docker/%064x", i);
		label_of(n, path, &f);
		CHECK_INT(f, WD_CTR_BARE);
	}
	wd_ctr_get_stats(n, &st);
	CHECK_INT(st.entries, 4);
	CHECK_INT(st.evicted, 6);
	/* the most recent four are still there: no read for them */
	expect(n, "/docker/0000000000000000000000000000000000000000000000000000000000000009",
	       WD_CTR_BARE, "docker:000000000000");
	wd_ctr_get_stats(n, &st);
	CHECK_INT(st.hits, 1);
	expect(n, "/docker/" DWEB, WD_CTR_NAMED, "docker:wd-fixture-web");
	fake_now += 599;
	expect(n, "/docker/" DWEB, WD_CTR_NAMED, "docker:wd-fixture-web");
	fake_now += 2;
	/* the sweep on this lookup ages out the other three (idle 601 s) */
	expect(n, "/docker/" DWEB, WD_CTR_NAMED, "docker:wd-fixture-web");
	wd_ctr_get_stats(n, &st);
	CHECK_INT(st.entries, 1);
	CHECK_INT(st.aged, 3);
	wd_ctr_names_free(n);
}

/* ------------------------------------------------------------ the parsers alone */

static int each_count;
static char each_last[300];

static void each(void *ctx, const char *id, const char *name)
{
	(void)ctx;
	each_count++;
	snprintf(each_last, sizeof(each_last), "%.12s=%s", id, name);
}

static int podman(const char *text)
{
	each_count = 0;
	return wd_podman_parse(text, strlen(text), each, NULL);
}

static void test_podman_parse(void)
{
	CHECK_INT(podman("[]"), 0);
	CHECK_INT(podman(" [ ] \n"), 0);
	CHECK_INT(podman("[" ELEM(WEB, "web") "]"), 0);
	CHECK_INT(each_count, 1);
	CHECK_STR(each_last, "47507b3e4c36=web");
	CHECK_INT(podman("{}"), -1);
	CHECK_INT(podman(""), -1);
	CHECK_INT(podman("[" ELEM(WEB, "web") "] x"), -1);
	CHECK_INT(podman("[" ELEM(WEB, "web") "][]"), -1);
	CHECK_INT(podman("[" ELEM(WEB, "web")), -1);
	/* elements: no names, empty names, a name podman would refuse, upper-case id */
	CHECK_INT(podman("[{\"id\":\"" WEB "\"},{\"id\":\"" WEB "\",\"names\":[]},"
			 ELEM(WEB, "a b") "," ELEM(WEB, "-x") ","
			 "{\"id\":\"47507B3E4C36C21C51201BAE259945636EC9BE2E82A17DF6EC89487"
			 "42DEBAA63\",\"names\":[\"web\"]},"
			 "{\"id\":\"" WEB "\",\"names\":[\"w\\u0000b\"]},"
			 "[],null," ELEM(DB, "db") "]"), 8);
	CHECK_INT(each_count, 1);
	CHECK_STR(each_last, "7b024864b861=db");
	/* deeper than json-c is let go */
	{
		char deep[400];

		memset(deep, '[', sizeof(deep) - 1);
		deep[sizeof(deep) - 1] = '\0';
		CHECK_INT(podman(deep), -1);
	}
}

static int docker(const char *text, struct wd_ctr_name *d, struct wd_ctr_name *k)
{
	return wd_docker_parse(text, strlen(text), DWEB, d, k);
}

static void test_docker_parse(void)
{
	char *text = unit_slurp(FIX "/node/var/lib/docker/containers/" DNGINX "/config.v2.json");
	struct wd_ctr_name d = { 0 }, k = { 0 };

	CHECK(text != NULL);
	if (!text)
		return;
	CHECK_INT(wd_docker_parse(text, strlen(text), DNGINX, &d, &k), 0);
	CHECK_STR(d.name, "k8s_nginx_web-0_default_" U1 "_0");
	check_name(&k, (struct want_name){ .pod = "web-0", .k8s_namespace = "default",
					   .pod_uid = U1, .name = "nginx" });
	/* another id, a cut-short file */
	CHECK_INT(wd_docker_parse(text, strlen(text), DWEB, &d, &k), -1);
	CHECK_INT(wd_docker_parse(text, strlen(text) / 2, DNGINX, &d, &k), -1);
	free(text);
	memset(&d, 0, sizeof(d));
	memset(&k, 0, sizeof(k));
	/* three of four labels: no pod; names docker would refuse: malformed */
	CHECK_INT(docker("{\"ID\":\"" DWEB "\",\"Name\":\"/x\",\"Config\":{\"Labels\":"
			 "{\"io.kubernetes.pod.name\":\"p\",\"io.kubernetes.pod.namespace\":"
			 "\"n\",\"io.kubernetes.pod.uid\":\"" U1 "\"}}}", &d, &k), 0);
	CHECK_STR(d.name, "x");
	CHECK_STR(k.pod, "");
	CHECK_INT(docker("{\"ID\":\"" DWEB "\",\"Name\":\"x\"}", &d, &k), -1);
	CHECK_INT(docker("{\"ID\":\"" DWEB "\",\"Name\":\"/\"}", &d, &k), -1);
	CHECK_INT(docker("{\"ID\":\"" DWEB "\",\"Name\":\"/a/b\"}", &d, &k), -1);
	CHECK_INT(docker("{\"ID\":\"" DWEB "\"}", &d, &k), -1);
	CHECK_INT(docker("[]", &d, &k), -1);
}

typedef bool (*name_parser)(const char *s, struct wd_ctr_name *out);

/* @parse takes @s, with the fields @want gives (it must write them: "?" before). */
static void parses(name_parser parse, const char *s, struct want_name want)
{
	struct wd_ctr_name c = { .id = "?", .pod_uid = "?", .name = "?", .pod = "?",
				 .k8s_namespace = "?" };

	UNIT_RECORD(parse(s, &c), "'%s' refused", s);
	check_name(&c, want);
}

/* @parse refuses each name of the NULL-terminated @bad. */
static void refuses(name_parser parse, const char *const *bad)
{
	struct wd_ctr_name c;

	for (; *bad; bad++)
		UNIT_RECORD(!parse(*bad, &c), "'%s' taken", *bad);
}

static void test_k8s_names(void)
{
	struct wd_ctr_name c = { 0 };

	parses(wd_k8s_log_name, "api-7c9d_prod_server-" SERVER ".log",
	       (struct want_name){ .pod = "api-7c9d", .k8s_namespace = "prod", .name = "server",
				   .id = SERVER });
	parses(wd_k8s_log_name, "a.b.c_kube-system_coredns-" SERVER ".log",
	       (struct want_name){ .pod = "a.b.c" });
	refuses(wd_k8s_log_name, (const char *const[]){
		"api_x_prod_server-" SERVER ".log", "Api_prod_server-" SERVER ".log",
		"api_prod_server-" SERVER, "api_prod_server" SERVER ".log",
		"api_prod_-" SERVER ".log", "api_prod_server-" U2 ".log", "", NULL });

	memset(&c, 0, sizeof(c));
	CHECK(wd_k8s_pod_dir("prod_api-7c9d_" U2, strlen("prod_api-7c9d_" U2), &c));
	CHECK_STR(c.pod_uid, U2);
	CHECK(!wd_k8s_pod_dir("prod_api-7c9d_" U2 "x", strlen("prod_api-7c9d_" U2 "x"), &c));
	CHECK(!wd_k8s_pod_dir("prod_api_7c9d_" U2, strlen("prod_api_7c9d_" U2), &c));

	c = (struct wd_ctr_name){ .pod = "api-7c9d", .k8s_namespace = "prod", .name = "server",
				  .pod_uid = U2 };
	CHECK(wd_k8s_log_target_ok("/var/log/pods/prod_api-7c9d_" U2 "/server/3.log", &c));
	CHECK(!wd_k8s_log_target_ok("/var/log/pods/prod_api-7c9d_" U1 "/server/3.log", &c));
	CHECK(!wd_k8s_log_target_ok("/var/log/pods/prod_api-7c9d_" U2 "/serve/3.log", &c));
	CHECK(!wd_k8s_log_target_ok("/var/log/pods/prod_api-7c9d_" U2 "/server/x.log", &c));
	CHECK(!wd_k8s_log_target_ok("prod_api-7c9d_" U2 "/server/3.log", &c));
	CHECK(!wd_k8s_log_target_ok("", &c));

	parses(wd_k8s_runtime_name, "k8s_app_web-1_prod_" U3 "_0",
	       (struct want_name){ .name = "app", .pod = "web-1", .k8s_namespace = "prod",
				   .pod_uid = U3 });
	parses(wd_k8s_runtime_name, "k8s_POD_web-1_prod_" U3 "_12", (struct want_name){ .name = "" });
	refuses(wd_k8s_runtime_name, (const char *const[]){
		"k8s_app_web-1_prod_" U3 "_", "k8s_app_web-1_prod_" U3 "_0_1",
		"k8s_App_web-1_prod_" U3 "_0", "web", NULL });

	CHECK(wd_k8s_subdomain_ok("a.b-c.d", 7));
	CHECK(!wd_k8s_subdomain_ok("a..b", 4));
	CHECK(!wd_k8s_subdomain_ok("a.-b", 4));
	CHECK(!wd_k8s_label_ok("a.b", 3));
	CHECK(!wd_k8s_label_ok("-a", 2));
	CHECK(!wd_k8s_label_ok(HEX64("a"), 64));
	CHECK(wd_k8s_label_ok(HEX64("a"), 63));
}

static void test_labels(void)
{
	struct wd_ctr_name c = { .runtime = "podman", .id = WEB };
	char buf[300];

	CHECK_STR(wd_ctr_label(&c, buf, sizeof(buf)), "podman:47507b3e4c36");
	snprintf(c.name, sizeof(c.name), "web");
	CHECK_STR(wd_ctr_label(&c, buf, sizeof(buf)), "podman:web");
	c = (struct wd_ctr_name){ .pod_uid = U2, .id = SERVER, .runtime = "containerd" };
	CHECK_STR(wd_ctr_label(&c, buf, sizeof(buf)), "pod " U2 "/containerd:4f1d6a0b2c3e");
	c.id[0] = '\0';
	CHECK_STR(wd_ctr_label(&c, buf, sizeof(buf)), "pod " U2);
}

UNIT_MAIN(test_keys, test_podman, test_docker, test_kubernetes, test_broken, test_refresh,
	  test_one_read_names_all, test_k8s_late_link, test_not_files, test_bounded,
	  test_podman_parse, test_docker_parse, test_k8s_names, test_labels)
