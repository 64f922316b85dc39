// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz docker's config.v2.json parser: any bytes (no terminating NUL) for
 * the container of one id. A name is only ever one docker allows; the pod
 * from the io.kubernetes.* labels is all there (valid names and UID) or not
 * there at all.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "container_formats.h"

#define ID "5de588600668df83321777fe0dc5f3f785abcb701320e9d64daad0cef2788b51"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wd_ctr_name d = { 0 }, k = { 0 };
	char *text = malloc(size ? size : 1);
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	rc = wd_docker_parse(text, size, ID, &d, &k);
	free(text);
	if (rc && d.name[0])
		abort();
	if (!rc && !wd_ctr_runtime_name_ok(d.name, strlen(d.name)))
		abort();
	if (k.pod[0] && (!wd_k8s_subdomain_ok(k.pod, strlen(k.pod)) ||
			 !wd_k8s_label_ok(k.k8s_namespace, strlen(k.k8s_namespace)) ||
			 !wd_pod_uid_ok(k.pod_uid, strlen(k.pod_uid)) ||
			 (k.name[0] && !wd_k8s_label_ok(k.name, strlen(k.name)))))
		abort();
	if (!k.pod[0] && (k.k8s_namespace[0] || k.pod_uid[0] || k.name[0]))
		abort();
	return 0;
}
