// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the names of the kubelet's files and of cgroup paths: the input's
 * lines are a /var/log/containers file name, a /var/log/pods directory
 * name, a link target, a runtime's k8s_ name and a cgroup path. What is
 * accepted must hold only valid Kubernetes names, UIDs and ids.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"

#include "container_formats.h"

static void valid(const struct wd_ctr_name *c)
{
	if ((c->pod[0] && !wd_k8s_subdomain_ok(c->pod, strlen(c->pod))) ||
	    (c->k8s_namespace[0] && !wd_k8s_label_ok(c->k8s_namespace, strlen(c->k8s_namespace))) ||
	    (c->name[0] && !wd_k8s_label_ok(c->name, strlen(c->name))) ||
	    (c->pod_uid[0] && !wd_pod_uid_ok(c->pod_uid, strlen(c->pod_uid))) ||
	    (c->id[0] && !wd_ctr_id_ok(c->id, strlen(c->id))))
		abort();
}

static void fuzz_one(char *text, size_t size)
{
	char *line[5] = { "", "", "", "", "" }, *save = NULL;
	struct wd_ctr_name c;
	size_t k = 0;

	(void)size;
	for (char *l = strtok_r(text, "\n", &save); l && k < 5; l = strtok_r(NULL, "\n", &save))
		line[k++] = l;
	memset(&c, 0, sizeof(c));
	if (wd_k8s_log_name(line[0], &c))
		valid(&c);
	wd_k8s_log_target_ok(line[2], &c);
	memset(&c, 0, sizeof(c));
	if (wd_k8s_pod_dir(line[1], strlen(line[1]), &c))
		valid(&c);
	memset(&c, 0, sizeof(c));
	if (wd_k8s_runtime_name(line[3], &c))
		valid(&c);
	if (wd_ctr_key(line[4], &c) && !c.id[0] && !c.pod_uid[0])
		abort();
	if (c.id[0] && !wd_ctr_id_ok(c.id, strlen(c.id)))
		abort();
}

FUZZ_TEXT(fuzz_one)
