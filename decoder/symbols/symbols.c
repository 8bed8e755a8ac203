// SPDX-License-Identifier: GPL-2.0
/*
 * A command's symbols (symbols.h): kallsyms, then DWARF when asked.
 */
#include "dwsym.h"
#include "message.h"
#include "symbols.h"

/*
 * --debuginfo: the vmlinux and modules of the release @uname names, where
 * --vmlinux and --modules do not name them.  Finding neither is an error
 * naming the release.
 */
static int find_debuginfo(struct symbols *syms, const char *uname,
			  const char *root, const char *name)
{
	struct debuginfo *d = &syms->found;

	if (debuginfo_release(uname, d->release, sizeof(d->release))) {
		fg_file_error(name, "--debuginfo: the trace records no kernel release");
		return -1;
	}
	if (!debuginfo_find(d, root ? root : "")) {
		fg_file_error(name, "--debuginfo: no vmlinux or modules of %s under /usr/lib/debug, /boot or /lib/modules",
			      d->release);
		return -1;
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

/* DWARF for the kallsyms listed: the file's own release first. */
static int open_dwarf(struct symbols *syms, const char *uname)
{
	char release[128];
	struct sm_err err;

	if (syms->vmlinux &&
	    !debuginfo_release(uname, release, sizeof(release)) &&
	    dwsym_check_banner(syms->vmlinux, release, &err)) {
		fg_error("%s", err.msg);
		return -1;
	}
	if (dwsym_open(&syms->sz.dw, &syms->kallsyms, syms->vmlinux,
		       syms->modules, &err)) {
		fg_error("%s", err.msg);
		return -1;
	}
	return 0;
}

int symbols_open(struct symbols *syms, struct tep_handle *tep,
		 const struct symbol_options *opt, const char *uname,
		 bool names_only, const char *name)
{
	syms->sz.tep = tep;
	syms->vmlinux = opt->vmlinux;
	syms->modules = opt->modules;
	if (opt->debuginfo &&
	    find_debuginfo(syms, uname, opt->debug_root, name))
		return -1;
	if (names_only && !syms->vmlinux && !syms->modules)
		return 0;
	if (kallsyms_load(&syms->kallsyms, tep)) {
		fg_file_error(name, "cannot list its kallsyms");
		return -1;
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
