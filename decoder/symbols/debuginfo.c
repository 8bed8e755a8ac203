// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: vmlinux and modules from the recorded release (see debuginfo.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debuginfo.h"
#include "dwmod.h"
#include "message.h"

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
		return -ENOENT;
	if (strlen(rel) >= len)
		return -ENAMETOOLONG;
	strcpy(out, rel);
	return 0;
}

/*
 * Why the vmlinux at @path cannot give file:line (not an ELF, no DWARF,
 * unreadable DWARF), or NULL when it can.
 */
static const char *vmlinux_problem(const char *path)
{
	const char *why = "cannot be read";
	int fd = open(path, O_RDONLY);
	Elf *elf;

	if (fd < 0)
		return why;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	why = elf && elf_kind(elf) == ELF_K_ELF ? dwmod_dwarf_problem(elf) :
						   "not an ELF file";
	if (elf)
		elf_end(elf);
	close(fd);
	return why;
}

/*
 * First of @fmts (with the release) under @root whose type matches @dir; a
 * vmlinux (!@dir) also needs DWARF: one without (the BTF-only vmlinux of a
 * headers package) is skipped, saying so on stderr.
 */
static int first_existing(char *out, const char *root,
			  const char *const *fmts, size_t n,
			  const char *release, int dir)
{
	const char *why;
	struct stat st;
	char rel[PATH_MAX];

	for (size_t i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), fmts[i], release);
		if (snprintf(out, PATH_MAX, "%s%s", root, rel) >= PATH_MAX)
			continue;
		if (stat(out, &st) || !(dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)))
			continue;
		if (!dir && (why = vmlinux_problem(out))) {
			fg_error("--debuginfo: not using %s: %s",
				 out, why);
			continue;
		}
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
