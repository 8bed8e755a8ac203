// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: vmlinux and modules from the recorded release (see debuginfo.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "debuginfo.h"

static const char *const vmlinux_paths[] = {
	"/usr/lib/debug/boot/vmlinux-%s",
	"/usr/lib/debug/lib/modules/%s/vmlinux",
	"/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux",
};

static const char *const modules_paths[] = {
	"/usr/lib/debug/lib/modules/%s",
	"/lib/modules/%s",
};

int debuginfo_release(const char *uname, char *out, size_t len)
{
	char sys[64], host[256], rel[256];

	if (!uname || sscanf(uname, "%63s %255s %255s", sys, host, rel) != 3)
		return -1;
	if (strlen(rel) >= len)
		return -1;
	strcpy(out, rel);
	return 0;
}

/* First of @fmts (with the release) under @root whose type matches @dir. */
static int first_existing(char *out, const char *root,
			  const char *const *fmts, size_t n,
			  const char *release, int dir)
{
	struct stat st;
	char rel[PATH_MAX];

	for (size_t i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), fmts[i], release);
		if (snprintf(out, PATH_MAX, "%s%s", root, rel) >= PATH_MAX)
			continue;
		if (!stat(out, &st) && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)))
			return 1;
	}
	out[0] = '\0';
	return 0;
}

int debuginfo_find(struct debuginfo *d, const char *root)
{
	return first_existing(d->vmlinux, root, vmlinux_paths,
			      sizeof(vmlinux_paths) / sizeof(*vmlinux_paths),
			      d->release, 0) +
	       first_existing(d->modules, root, modules_paths,
			      sizeof(modules_paths) / sizeof(*modules_paths),
			      d->release, 1);
}
