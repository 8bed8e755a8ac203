/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: finding the vmlinux and modules that match a recording from the
 * kernel release it recorded (`fgdecode --debuginfo`).
 */
#ifndef FGDECODE_DEBUGINFO_H
#define FGDECODE_DEBUGINFO_H

#include <limits.h>
#include <stddef.h>

struct debuginfo {
	char release[128];
	char vmlinux[PATH_MAX];		/* "" when none was found */
	char modules[PATH_MAX];		/* "" when none was found */
};

/**
 * debuginfo_release() - the release field of a recorded uname
 * @uname: "Linux HOST RELEASE #VERSION ..." as trace-cmd records it, or NULL
 * @out: filled with RELEASE
 * @len: size of @out
 *
 * Return: 0; -ENOENT when @uname is NULL or has no third field;
 * -ENAMETOOLONG when it does not fit in @len.
 */
int debuginfo_release(const char *uname, char *out, size_t len);

/**
 * debuginfo_find() - the first existing vmlinux and module tree of a release
 * @d: @d->release set; vmlinux and modules are filled
 * @root: prefix of every path tried ("" for the live system; tests use a
 *	scratch directory)
 *
 * Tries, in order, the Debian/Fedora debug-info locations and then the
 * running system's: /usr/lib/debug/boot/vmlinux-R,
 * /usr/lib/debug/lib/modules/R/vmlinux, /boot/vmlinux-R,
 * /lib/modules/R/build/vmlinux; modules /usr/lib/debug/lib/modules/R, then
 * /lib/modules/R.  A vmlinux without readable DWARF (e.g. the BTF-only one
 * Debian 6.12's headers package puts in /lib/modules/R/build) is passed
 * over with one line on stderr ("fgdecode: --debuginfo: not using PATH:
 * WHY"); a module tree is taken as it is (dwsym_open() says which modules
 * give no file:line).
 *
 * Return: the number of the two found (0, 1 or 2).
 */
int debuginfo_find(struct debuginfo *d, const char *root);

#endif /* FGDECODE_DEBUGINFO_H */
