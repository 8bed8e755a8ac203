// SPDX-License-Identifier: GPL-2.0
/*
 * A command's symbols (symbols.h): kallsyms, then DWARF when asked.
 */
#include <errno.h>

#include "dwsym.h"
#include "message.h"
#include "symbols.h"

/*
 * --debuginfo: the vmlinux and modules of the release @uname names, where
 * --vmlinux and --modules do not name them.  Finding neither is an error
 * naming the release.  Return: 0, -ENOENT after printing.
 */
static int find_debuginfo(struct symbols *syms, const char *uname,
			  const char *root, const char *name)
{
	struct debuginfo *d = &syms->found;

	if (debuginfo_release(uname, d->release, sizeof(d->release))) {
		fg_file_error(name, "--debuginfo: the trace records no kernel release");
		return -ENOENT;
	}
	if (!debuginfo_find(d, root ? root : "")) {
		fg_file_error(name, "--debuginfo: no vmlinux or modules of %s under /usr/lib/debug, /boot or /lib/modules",
			      d->release);
		return -ENOENT;
	}
	if (!d->vmlinux[0] && !syms->vmlinux)
		fg_warn("--debuginfo: no vmlinux of %s with DWARF under /usr/lib/debug, /boot or /lib/modules/%s/build: install linux-image-%s-dbg (Debian; linux-image-%s-dbgsym on Ubuntu) or give --vmlinux; vmlinux frames keep their kallsyms symbols",
			d->release, d->release, d->release, d->release);
	if (!syms->vmlinux && d->vmlinux[0])
		syms->vmlinux = d->vmlinux;
	if (!syms->modules && d->modules[0])
		syms->modules = d->modules;
	return 0;
}

/*
 * DWARF for the kallsyms listed: the file's own release first.  Return: 0,
 * or dwsym_check_banner()'s or dwsym_open()'s error after printing it.
 */
static int open_dwarf(struct symbols *syms, const char *uname)
{
	char release[128];
	struct sm_err err;
	int ret = 0;

	if (syms->vmlinux &&
	    !debuginfo_release(uname, release, sizeof(release)))
		ret = dwsym_check_banner(syms->vmlinux, release, &err);
	if (!ret)
		ret = dwsym_open(&syms->sz.dw, &syms->kallsyms, syms->vmlinux,
				 syms->modules, &err);
	if (ret)
		fg_error("%s", err.msg);
	return ret;
}

int symbols_open(struct symbols *syms, struct tep_handle *tep,
		 const struct symbol_options *opt, const char *uname,
		 bool names_only, const char *name)
{
	int ret;

	syms->sz.tep = tep;
	syms->vmlinux = opt->vmlinux;
	syms->modules = opt->modules;
	if (opt->debuginfo) {
		ret = find_debuginfo(syms, uname, opt->debug_root, name);
		if (ret)
			return ret;
	}
	if (names_only && !syms->vmlinux && !syms->modules)
		return 0;
	ret = kallsyms_load(&syms->kallsyms, tep);
	if (ret) {
		fg_file_error(name, "cannot list its kallsyms");
		return ret;
	}
	syms->sz.ks = &syms->kallsyms;
	if (!syms->vmlinux && !syms->modules)
		return 0;
	return open_dwarf(syms, uname);
}

void symbols_close(struct symbols *syms)
{
	dwsym_free(syms->sz.dw);
	syms->sz.dw = NULL;
	kallsyms_free(&syms->kallsyms);
}
