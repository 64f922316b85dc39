/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The runtimes' file formats, parsed from memory (no file access: the unit
 * tests and the fuzzers call these directly). Every name is checked against
 * what its runtime allows; a name that does not fit is no name.
 */
#ifndef WD_CONTAINER_FORMATS_H
#define WD_CONTAINER_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

#include "containers.h"

#define WD_CTR_JSON_DEPTH	64

/* Name rules: docker/podman [a-zA-Z0-9][a-zA-Z0-9_.-]*; Kubernetes DNS names. */
bool wd_ctr_runtime_name_ok(const char *s, size_t n);
bool wd_k8s_subdomain_ok(const char *s, size_t n);	/* pod names, <= 253 */
bool wd_k8s_label_ok(const char *s, size_t n);		/* namespaces, containers, <= 63 */
bool wd_ctr_id_ok(const char *s, size_t n);		/* 64 lower-case hex */
bool wd_pod_uid_ok(const char *s, size_t n);		/* 8-4-4-4-12 lower-case hex */

/*
 * What the path says: runtime, container id, pod UID (the shapes of
 * cgroup.c, and podman's cgroupfs "libpod-<id>" without ".scope"). False
 * when it names no container and no pod.
 */
bool wd_ctr_key(const char *cgroup_path, struct wd_ctr_name *out);

/*
 * podman's containers.json: an array of {"id": ..., "names": [...], ...}.
 * fn(ctx, id, name) for every element with a valid id and first name.
 * Returns how many elements were malformed, or -1 when the document is not
 * a JSON array.
 */
typedef void (*wd_ctr_each_fn)(void *ctx, const char *id, const char *name);
int wd_podman_parse(const char *text, size_t len, wd_ctr_each_fn fn, void *ctx);

/*
 * docker's config.v2.json of container id: out->name from "Name" (without
 * its '/'); *k8s from the io.kubernetes.* labels of "Config" (pod,
 * namespace, pod UID, container name; "" for the pod's sandbox) when all
 * four are valid, else left empty. 0, or -1 when malformed or "ID" is not id.
 */
int wd_docker_parse(const char *text, size_t len, const char *id, struct wd_ctr_name *out,
		    struct wd_ctr_name *k8s);

/* "<pod>_<namespace>_<container>-<id>.log": pod, namespace, name, id. */
bool wd_k8s_log_name(const char *fname, struct wd_ctr_name *out);
/* "<namespace>_<pod>_<uid>": namespace, pod, pod_uid. */
bool wd_k8s_pod_dir(const char *dname, size_t n, struct wd_ctr_name *out);
/*
 * A log link's target, ".../<namespace>_<pod>_<uid>/<container>/<N>.log":
 * true when it names the same pod and container as *c (and the UID, when
 * c->pod_uid is set).
 */
bool wd_k8s_log_target_ok(const char *target, const struct wd_ctr_name *c);
/* dockershim and CRI-O names: "k8s_<container>_<pod>_<namespace>_<uid>_<attempt>". */
bool wd_k8s_runtime_name(const char *name, struct wd_ctr_name *out);

#endif /* WD_CONTAINER_FORMATS_H */
