// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The runtimes' JSON files, read with json-c. Shapes, as Debian 12's podman
 * 4.3 and docker.io 20.10 write them:
 *   containers.json   [{"id": "<64 hex>", "names": ["web"], "image": ..., "layer": ...,
 *                       "metadata": "{...}", "created": ..., "flags": {...}}, ...]
 *   config.v2.json    {"State": {...}, "ID": "<64 hex>", "Name": "/web",
 *                      "Config": {"Labels": {"io.kubernetes.pod.name": ..., ...}}, ...}
 */
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "container_formats.h"

/* The whole text as one JSON value of the given type (trailing blanks only), or NULL. */
static struct json_object *parse(const char *text, size_t len, enum json_type type)
{
	struct json_tokener *tok = json_tokener_new_ex(WD_CTR_JSON_DEPTH);
	struct json_object *o = NULL;
	size_t end;

	if (!tok || len > INT32_MAX)
		goto out;
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success)
		goto bad;
	end = json_tokener_get_parse_end(tok);
	while (end < len && strchr(" \t\r\n", text[end]) && text[end])
		end++;
	if (end != len || !json_object_is_type(o, type))
		goto bad;
	goto out;
bad:
	json_object_put(o);
	o = NULL;
out:
	if (tok)
		json_tokener_free(tok);
	return o;
}

/* A member that is a string without NUL bytes; its length in *n. */
static const char *member_str(struct json_object *o, const char *key, size_t *n)
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	s = json_object_get_string(v);
	*n = (size_t)json_object_get_string_len(v);
	return s && strlen(s) == *n ? s : NULL;
}

static const char *first_name(struct json_object *c, size_t *n)
{
	struct json_object *names, *v;
	const char *s;

	if (!json_object_object_get_ex(c, "names", &names) ||
	    !json_object_is_type(names, json_type_array) || !json_object_array_length(names))
		return NULL;
	v = json_object_array_get_idx(names, 0);
	if (!json_object_is_type(v, json_type_string))
		return NULL;
	s = json_object_get_string(v);
	*n = (size_t)json_object_get_string_len(v);
	return s && strlen(s) == *n ? s : NULL;
}

int wd_podman_parse(const char *text, size_t len, wd_ctr_each_fn fn, void *ctx)
{
	struct json_object *a = parse(text, len, json_type_array);
	int bad = 0;
	size_t n;

	if (!a)
		return -1;
	n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(a, i);
		const char *id = NULL, *name = NULL;
		size_t idn = 0, nn = 0;

		if (json_object_is_type(c, json_type_object)) {
			id = member_str(c, "id", &idn);
			name = first_name(c, &nn);
		}
		if (!id || !name || !wd_ctr_id_ok(id, idn) || !wd_ctr_runtime_name_ok(name, nn)) {
			bad++;
			continue;
		}
		fn(ctx, id, name);
	}
	json_object_put(a);
	return bad;
}

static bool label(struct json_object *labels, const char *key, char *dst, size_t cap,
		  bool (*ok)(const char *, size_t))
{
	size_t n = 0;
	const char *s = member_str(labels, key, &n);

	if (!s || !ok(s, n) || n >= cap)
		return false;
	memcpy(dst, s, n + 1);
	return true;
}

static bool container_label_ok(const char *s, size_t n)
{
	return (n == 3 && !memcmp(s, "POD", 3)) || wd_k8s_label_ok(s, n);
}

/* dockershim's labels: all four valid, or none is used. */
static void k8s_labels(struct json_object *root, struct wd_ctr_name *out)
{
	struct json_object *config, *labels;
	struct wd_ctr_name k = { 0 };

	if (!json_object_object_get_ex(root, "Config", &config) ||
	    !json_object_object_get_ex(config, "Labels", &labels) ||
	    !json_object_is_type(labels, json_type_object))
		return;
	if (!label(labels, "io.kubernetes.pod.name", k.pod, sizeof(k.pod), wd_k8s_subdomain_ok) ||
	    !label(labels, "io.kubernetes.pod.namespace", k.k8s_namespace,
		   sizeof(k.k8s_namespace), wd_k8s_label_ok) ||
	    !label(labels, "io.kubernetes.pod.uid", k.pod_uid, sizeof(k.pod_uid), wd_pod_uid_ok) ||
	    !label(labels, "io.kubernetes.container.name", k.name, sizeof(k.name),
		   container_label_ok))
		return;
	if (!strcmp(k.name, "POD"))	/* the sandbox: the pod, no container */
		k.name[0] = '\0';
	memcpy(out->pod, k.pod, sizeof(k.pod));
	memcpy(out->k8s_namespace, k.k8s_namespace, sizeof(k.k8s_namespace));
	memcpy(out->pod_uid, k.pod_uid, sizeof(k.pod_uid));
	memcpy(out->name, k.name, sizeof(k.name));
}

int wd_docker_parse(const char *text, size_t len, const char *id, struct wd_ctr_name *out,
		    struct wd_ctr_name *k8s)
{
	struct json_object *root = parse(text, len, json_type_object);
	const char *fid, *name;
	size_t fn = 0, nn = 0;
	int ret = -1;

	if (!root)
		return -1;
	fid = member_str(root, "ID", &fn);
	name = member_str(root, "Name", &nn);
	/* "/web": docker keeps the leading '/' of its old links */
	if (!fid || strlen(id) != fn || memcmp(fid, id, fn) || !name || nn < 2 ||
	    name[0] != '/' || !wd_ctr_runtime_name_ok(name + 1, nn - 1))
		goto out;
	memcpy(out->name, name + 1, nn);
	if (k8s)
		k8s_labels(root, k8s);
	ret = 0;
out:
	json_object_put(root);
	return ret;
}
