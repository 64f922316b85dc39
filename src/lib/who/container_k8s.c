// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Names the kubelet writes on the node, and the checks every name passes.
 * Kubernetes names cannot hold '_' (DNS labels and subdomains), which is
 * why the kubelet and the runtimes join them with '_': splitting on it is
 * exact.
 *   /var/log/containers/<pod>_<namespace>_<container>-<id>.log -> the pod's log
 *   /var/log/pods/<namespace>_<pod>_<uid>/<container>/<restarts>.log
 *   k8s_<container>_<pod>_<namespace>_<uid>_<attempt>  (dockershim, CRI-O)
 */
#include <ctype.h>
#include <string.h>

#include "cgroup.h"
#include "container_formats.h"

#define ID_HEX	64

static void copy(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static bool lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool wd_ctr_id_ok(const char *s, size_t n)
{
	if (n != ID_HEX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

bool wd_pod_uid_ok(const char *s, size_t n)
{
	if (n != WD_CTR_UID_LEN - 1)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]) ||
					 isupper((unsigned char)s[i]))
			return false;
	}
	return true;
}

/* docker's and podman's rule: [a-zA-Z0-9][a-zA-Z0-9_.-]* */
bool wd_ctr_runtime_name_ok(const char *s, size_t n)
{
	if (!n || n >= WD_CTR_NAME_LEN || !isalnum((unsigned char)s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return false;
	return true;
}

/* RFC 1123 label: lower-case alphanumerics and '-', alphanumeric at both ends. */
static bool dns_label(const char *s, size_t n, size_t max)
{
	if (!n || n > max || !lower_alnum(s[0]) || !lower_alnum(s[n - 1]))
		return false;
	for (size_t i = 1; i < n - 1; i++)
		if (!lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

bool wd_k8s_label_ok(const char *s, size_t n)
{
	return dns_label(s, n, WD_CTR_NS_LEN - 1);
}

/* RFC 1123 subdomain: labels joined by '.', 253 at most. */
bool wd_k8s_subdomain_ok(const char *s, size_t n)
{
	size_t start = 0;

	if (!n || n > WD_CTR_NAME_LEN - 1)
		return false;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '.')
			continue;
		if (!dns_label(s + start, i - start, WD_CTR_NS_LEN - 1))
			return false;
		start = i + 1;
	}
	return true;
}

/* The n-th '_'-separated field of s (len n), at most want fields; how many there are. */
static size_t split(const char *s, size_t n, const char **f, size_t *fl, size_t want)
{
	size_t k = 0, start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '_')
			continue;
		if (k < want) {
			f[k] = s + start;
			fl[k] = i - start;
		}
		k++;
		start = i + 1;
	}
	return k;
}

bool wd_k8s_log_name(const char *fname, struct wd_ctr_name *out)
{
	const char *f[3];
	size_t fl[3], n = strlen(fname), clen;
	const char *id;

	if (n < 4 || strcmp(fname + n - 4, ".log"))
		return false;
	n -= 4;
	if (split(fname, n, f, fl, 3) != 3 || fl[2] < ID_HEX + 2)
		return false;
	id = f[2] + fl[2] - ID_HEX;
	clen = fl[2] - ID_HEX - 1;
	if (id[-1] != '-' || !wd_ctr_id_ok(id, ID_HEX) ||
	    !wd_k8s_subdomain_ok(f[0], fl[0]) || !wd_k8s_label_ok(f[1], fl[1]) ||
	    !wd_k8s_label_ok(f[2], clen))
		return false;
	copy(out->pod, sizeof(out->pod), f[0], fl[0]);
	copy(out->k8s_namespace, sizeof(out->k8s_namespace), f[1], fl[1]);
	copy(out->name, sizeof(out->name), f[2], clen);
	copy(out->id, sizeof(out->id), id, ID_HEX);
	return true;
}

bool wd_k8s_pod_dir(const char *dname, size_t n, struct wd_ctr_name *out)
{
	const char *f[3];
	size_t fl[3];

	if (split(dname, n, f, fl, 3) != 3 || !wd_k8s_label_ok(f[0], fl[0]) ||
	    !wd_k8s_subdomain_ok(f[1], fl[1]) || !wd_pod_uid_ok(f[2], fl[2]))
		return false;
	copy(out->k8s_namespace, sizeof(out->k8s_namespace), f[0], fl[0]);
	copy(out->pod, sizeof(out->pod), f[1], fl[1]);
	copy(out->pod_uid, sizeof(out->pod_uid), f[2], fl[2]);
	return true;
}

/* ".../<ns>_<pod>_<uid>/<container>/<N>.log" */
bool wd_k8s_log_target_ok(const char *target, const struct wd_ctr_name *c)
{
	const char *end = target + strlen(target), *p[3] = { end, end, end };
	struct wd_ctr_name d = { 0 };
	size_t k = 0;

	/* the starts of the last three components */
	for (const char *s = end; s > target && k < 3; s--)
		if (s[-1] == '/')
			p[k++] = s;
	if (k < 3 || !wd_k8s_pod_dir(p[2], (size_t)(p[1] - 1 - p[2]), &d))
		return false;
	/* "<restarts>.log" */
	if (!strspn(p[0], "0123456789") || strcmp(p[0] + strspn(p[0], "0123456789"), ".log"))
		return false;
	if (strlen(c->name) != (size_t)(p[0] - 1 - p[1]) ||
	    memcmp(p[1], c->name, strlen(c->name)))
		return false;
	if (strcmp(d.pod, c->pod) || strcmp(d.k8s_namespace, c->k8s_namespace))
		return false;
	return !c->pod_uid[0] || !strcmp(d.pod_uid, c->pod_uid);
}

/* "POD" is the sandbox (pause) container: the pod, no container name. */
bool wd_k8s_runtime_name(const char *name, struct wd_ctr_name *out)
{
	const char *f[6];
	size_t fl[6];
	bool sandbox;

	if (strncmp(name, "k8s_", 4) ||
	    split(name + 4, strlen(name + 4), f, fl, 5) != 5)
		return false;
	sandbox = fl[0] == 3 && !memcmp(f[0], "POD", 3);
	if ((!sandbox && !wd_k8s_label_ok(f[0], fl[0])) || !wd_k8s_subdomain_ok(f[1], fl[1]) ||
	    !wd_k8s_label_ok(f[2], fl[2]) || !wd_pod_uid_ok(f[3], fl[3]) || !fl[4] ||
	    strspn(f[4], "0123456789") != fl[4])
		return false;
	copy(out->name, sizeof(out->name), sandbox ? "" : f[0], sandbox ? 0 : fl[0]);
	copy(out->pod, sizeof(out->pod), f[1], fl[1]);
	copy(out->k8s_namespace, sizeof(out->k8s_namespace), f[2], fl[2]);
	copy(out->pod_uid, sizeof(out->pod_uid), f[3], fl[3]);
	return true;
}

/* podman's cgroupfs manager: ".../libpod-<id>" (no ".scope"; not libpod-conmon-). */
static bool libpod_cgroupfs(const char *path, struct wd_ctr_name *out)
{
	const char *c = path;

	while ((c = strstr(c, "libpod-"))) {
		const char *id = c + 7;
		size_t n = strcspn(id, "/");

		if ((c == path || c[-1] == '/') && wd_ctr_id_ok(id, n)) {
			copy(out->id, sizeof(out->id), id, n);
			copy(out->runtime, sizeof(out->runtime), "podman", 6);
			return true;
		}
		c = id;
	}
	return false;
}

bool wd_ctr_key(const char *cgroup_path, struct wd_ctr_name *out)
{
	struct wd_cgroup_info ci;

	memset(out, 0, sizeof(*out));
	wd_cgroup_parse(cgroup_path, &ci);
	if (!ci.container[0] && !ci.pod_uid[0])
		return libpod_cgroupfs(cgroup_path, out);
	/* LXC names itself; 12-hex short ids cannot be looked up */
	if (!strcmp(ci.runtime, "lxc") || (ci.container[0] &&
	    !wd_ctr_id_ok(ci.container, strlen(ci.container)) && !ci.pod_uid[0]))
		return false;
	copy(out->runtime, sizeof(out->runtime), ci.runtime, strlen(ci.runtime));
	if (wd_ctr_id_ok(ci.container, strlen(ci.container)))
		copy(out->id, sizeof(out->id), ci.container, strlen(ci.container));
	copy(out->pod_uid, sizeof(out->pod_uid), ci.pod_uid, strlen(ci.pod_uid));
	return true;
}
