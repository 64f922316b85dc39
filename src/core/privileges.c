// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Capabilities: whether BPF may be used at all, and what is left after
 * attach. The BPF link, maps and ring buffer are file descriptors: using
 * them needs no capability on kernels since 6.5, and CAP_BPF alone on
 * older ones with unprivileged BPF disabled (Debian's default), which is
 * probed rather than guessed from the version.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>

#include "privileges.h"

#define NOBODY_NAME	"nobody"
#define NOBODY_ID	65534
#define LAST_CAP	63

static int capget_bits(uint64_t *permitted, uint64_t *effective)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return -1;
	*permitted = d[0].permitted | (uint64_t)d[1].permitted << 32;
	*effective = d[0].effective | (uint64_t)d[1].effective << 32;
	return 0;
}

static int capset_bits(uint64_t permitted, uint64_t effective)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	for (int i = 0; i < 2; i++) {
		d[i].permitted = (uint32_t)(permitted >> (32 * i));
		d[i].effective = (uint32_t)(effective >> (32 * i));
	}
	return (int)syscall(SYS_capset, &h, d);
}

bool wd_privileges_bpf(bool *net_admin)
{
	uint64_t permitted, effective;

	*net_admin = false;
	if (capget_bits(&permitted, &effective))
		return true;	/* cannot tell: let the kernel decide */
	*net_admin = effective & WD_CAP(WD_CAP_NET_ADMIN);
	if (effective & WD_CAP(WD_CAP_SYS_ADMIN))
		return true;
	return (effective & WD_CAP(WD_CAP_BPF)) && (effective & WD_CAP(WD_CAP_PERFMON));
}

/* What wd_privileges_reduce left: in effect (CAP_BPF or nothing), permitted. */
static uint64_t base_effective, kept_permitted;

int wd_privileges_seal(void)
{
	uint64_t permitted, effective;

	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	for (int cap = 0; cap <= LAST_CAP; cap++) {
		if (!prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
			continue;
		if (errno == EINVAL)
			break;	/* past the kernel's last capability */
		/*
		 * EPERM: no CAP_SETPCAP (started with file capabilities, say).
		 * no_new_privs, set next, still keeps execve from granting any.
		 */
		if (errno == EPERM && !capget_bits(&permitted, &effective) &&
		    !(effective & WD_CAP(WD_CAP_SETPCAP)))
			return 0;
		return -1;
	}
	return 0;
}

static bool map_readable(int map_fd)
{
	__u32 key;

	return !bpf_map_get_next_key(map_fd, NULL, &key) || errno == ENOENT;
}

static int keep_only(const char *who, uint64_t keep, int map_fd, bool *kept_bpf)
{
	uint64_t with_bpf = keep | WD_CAP(WD_CAP_BPF);

	*kept_bpf = false;
	base_effective = 0;
	kept_permitted = keep;
	/* Try with nothing in effect, CAP_BPF still permitted so it can come back. */
	if (capset_bits(with_bpf, 0))
		capset_bits(keep, 0);
	if (map_fd < 0 || map_readable(map_fd))
		return capset_bits(keep, 0);
	if (capset_bits(with_bpf, WD_CAP(WD_CAP_BPF)) || !map_readable(map_fd)) {
		fprintf(stderr, "%s: this kernel lets only CAP_BPF read BPF maps, "
				"and it could not be kept\n", who);
		return -1;
	}
	*kept_bpf = true;
	base_effective = WD_CAP(WD_CAP_BPF);
	kept_permitted = with_bpf;
	return 0;
}

int wd_privileges_reduce(const char *who, uint64_t keep, int map_fd, bool *kept_bpf)
{
	uint64_t permitted, effective;

	if (capget_bits(&permitted, &effective)) {
		fprintf(stderr, "%s: cannot read capabilities: %s\n", who, strerror(errno));
		return -1;
	}
	keep &= permitted;
	if (wd_privileges_seal()) {
		fprintf(stderr, "%s: cannot empty the capability bounding set: %s\n", who,
			strerror(errno));
		return -1;
	}
	if (keep_only(who, keep, map_fd, kept_bpf))
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "%s: cannot set no_new_privs: %s\n", who, strerror(errno));
		return -1;
	}
	return 0;
}

int wd_privileges_raise(uint64_t caps)
{
	if ((caps & kept_permitted) != caps) {
		errno = EPERM;
		return -1;
	}
	return capset_bits(kept_permitted, base_effective | caps);
}

void wd_privileges_lower(void)
{
	capset_bits(kept_permitted, base_effective);
}

int wd_privileges_user(const char *who, const char *name, uid_t *uid, gid_t *gid)
{
	struct passwd *pw = getpwnam(name);

	if (pw) {
		*uid = pw->pw_uid;
		*gid = pw->pw_gid;
		return 0;
	}
	if (!strcmp(name, NOBODY_NAME)) {
		*uid = NOBODY_ID;
		*gid = NOBODY_ID;
		return 0;
	}
	fprintf(stderr, "%s: no user '%s' to switch to (--user)\n", who, name);
	return -1;
}

int wd_privileges_switch_user(const char *who, uid_t uid, gid_t gid)
{
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setresgid(gid, gid, gid) || setresuid(uid, uid, uid) ||
	    prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0)) {
		fprintf(stderr, "%s: cannot switch to uid %u gid %u: %s\n", who,
			(unsigned int)uid, (unsigned int)gid, strerror(errno));
		return -1;
	}
	return 0;
}

const char *wd_privileges_describe(char *buf, size_t len)
{
	static const struct { int cap; const char *name; } names[] = {
		{ WD_CAP_SYS_ADMIN, "CAP_SYS_ADMIN" },
		{ WD_CAP_BPF, "CAP_BPF" },
		{ WD_CAP_DAC_READ_SEARCH, "CAP_DAC_READ_SEARCH" },
		{ WD_CAP_SYS_PTRACE, "CAP_SYS_PTRACE" },
	};
	uint64_t permitted, effective;
	size_t used = 0;

	if (capget_bits(&permitted, &effective)) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(effective & WD_CAP(names[i].cap)) || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
					 names[i].name);
	}
	if (!buf[0])
		snprintf(buf, len, effective ? "other capabilities" : "no capabilities");
	return buf;
}
