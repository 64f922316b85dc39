// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ctr_name: what src/lib/who/containers.c names a cgroup path, for the tests
 * that run real containers (tests/integration/containers.sh builds it
 * against the libwhydrop.a of the build under test).
 *
 *   ctr_name [--root DIR] [--podman-roots DIRS] [--docker-root DIR] PATH...
 *
 * One line per PATH, tab-separated: named|bare|none, the label, the
 * container's name, the pod, the Kubernetes namespace, the id. Warnings go
 * to stderr. Exit 2 on a usage error.
 */
#include <stdio.h>
#include <string.h>

#include "containers.h"

static const char *const found_names[] = { "none", "bare", "named" };

static int usage(void)
{
	fprintf(stderr, "usage: ctr_name [--root DIR] [--podman-roots DIRS] "
		"[--docker-root DIR] CGROUP_PATH...\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct wd_ctr_config cfg;
	struct wd_ctr_names *n;
	int i = 1;

	wd_ctr_config_default(&cfg);
	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--root"))
			cfg.root = argv[i + 1];
		else if (!strcmp(argv[i], "--podman-roots"))
			cfg.podman_roots = argv[i + 1];
		else if (!strcmp(argv[i], "--docker-root"))
			cfg.docker_root = argv[i + 1];
		else
			return usage();
	}
	if (i >= argc)
		return usage();
	n = wd_ctr_names_new(&cfg);
	if (!n) {
		fprintf(stderr, "ctr_name: out of memory\n");
		return 1;
	}
	for (; i < argc; i++) {
		struct wd_ctr_name c;
		enum wd_ctr_found f = wd_ctr_lookup(n, argv[i], &c);
		char label[600];

		printf("%s\t%s\t%s\t%s\t%s\t%s\n", found_names[f],
		       wd_ctr_label(&c, label, sizeof(label)), c.name, c.pod, c.k8s_namespace, c.id);
	}
	wd_ctr_names_free(n);
	return 0;
}
