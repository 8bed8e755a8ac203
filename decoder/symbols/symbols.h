/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symbols a command names addresses with: the kallsyms of the trace (or
 * of the listing's --kallsyms file), and DWARF (function+offset, file:line,
 * inlined frames) from --vmlinux and --modules or what --debuginfo finds for
 * the recorded release (debuginfo.h, dwsym.h), set up as one symbolizer
 * (symbolize.h).
 */
#ifndef FGDECODE_SYMBOLS_H
#define FGDECODE_SYMBOLS_H

#include <stdbool.h>

#include <event-parse.h>

#include "debuginfo.h"
#include "kallsyms.h"
#include "symbolize.h"

/**
 * struct symbol_options - what the command line said of symbols
 * @vmlinux: --vmlinux FILE, or NULL
 * @modules: --modules DIR, or NULL
 * @debuginfo: --debuginfo: find both for the recorded release
 * @debug_root: where --debuginfo looks (debuginfo_find()'s root); NULL: /
 *	(no option sets it: tests do)
 */
struct symbol_options {
	const char *vmlinux;
	const char *modules;
	bool debuginfo;
	const char *debug_root;
};

/**
 * struct symbols - one command's symbols
 * @sz: the symbolizer the outputs use
 * @kallsyms: the handle's kallsyms, listed for the module names
 * @vmlinux: the vmlinux in use (given, or found), NULL: none
 * @modules: the modules directory in use, NULL: none
 * @found: what --debuginfo found
 */
struct symbols {
	struct symbolizer sz;
	struct kallsyms kallsyms;
	const char *vmlinux;
	const char *modules;
	struct debuginfo found;
};

/**
 * symbols_open() - set @syms up for the kallsyms a handle holds
 * @syms: zeroed
 * @tep: the trace's (or fgdecode map's --kallsyms file's) handle
 * @opt: --vmlinux, --modules, --debuginfo
 * @uname: the uname the trace recorded (--debuginfo looks for its release,
 *	and a --vmlinux of another release is refused); NULL: none (a listing)
 * @names_only: the output prints function names only: without DWARF the
 *	kallsyms are not listed (they only name modules)
 * @name: the file errors are about
 *
 * With --debuginfo, a release whose modules but no vmlinux are found gets a
 * warning naming the package that has it (Debian's linux-image-R-dbg).
 *
 * Return: 0, or a negative errno after printing one line: -ENOENT when
 * --debuginfo found nothing or the trace has no release; kallsyms_load()'s
 * -errno when the kallsyms cannot be listed; dwsym_check_banner()'s or
 * dwsym_open()'s when the vmlinux is of another release or DWARF cannot be
 * read (-errno of a file, -EINVAL, -ENOMEM).
 */
int symbols_open(struct symbols *syms, struct tep_handle *tep,
		 const struct symbol_options *opt, const char *uname,
		 bool names_only, const char *name);

/**
 * symbols_close() - free what symbols_open() made
 * @syms: opened, or zeroed
 */
void symbols_close(struct symbols *syms);

#endif /* FGDECODE_SYMBOLS_H */
