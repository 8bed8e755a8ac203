/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's symbols with --vmlinux: kernel addresses to DWARF functions,
 * file:line and inlined frames, through libdwfl.
 *
 * The vmlinux is placed at its KASLR-shifted address: the bias is the
 * majority, over function symbols whose name is unique both in the ELF
 * symbol table and in the kallsyms recorded in the trace, of (recorded
 * address - st_value); _text and _stext, when both files have them, must
 * agree with it.  A vmlinux whose symbols do not agree with the recording is
 * refused: more than 1 in DW_MATCH_TOLERANCE of those symbols at another
 * bias (the vmlinux of Debian's 6.1.0-57-amd64-dbg puts all 87,075 of a
 * recording of that kernel at one bias; one with 10 % of its functions
 * moved was accepted by a bare majority and changed 16 frame lines).  It is then reported to libdwfl with dwfl_report_module() over
 * its shifted load range and a find_elf callback that opens the file (so
 * libdwfl treats the shifted ET_EXEC like ET_DYN).
 *
 * With a modules directory, the modules recorded in the kallsyms are placed
 * from their own symbols there (dwmod.h) and reported to the same Dwfl.
 *
 * Each address is looked up once (cache).  Lookups go through an index of
 * each module, built on the module's first lookup (its symbol table,
 * sorted) and on the first lookup in each compile unit (the PC ranges of
 * its scopes): microseconds per address instead of libdw's linear symbol
 * scan and DIE tree walk per call, with the very same answers as
 * dwfl_module_addrinfo() and dwarf_getscopes().  A return address (every
 * frame of a stack, frame 0 included: events.h) is looked up at address - 1,
 * so the line is that of the call; the offset is still that of the address
 * itself.
 */
#ifndef FGDECODE_DWSYM_H
#define FGDECODE_DWSYM_H

#include <stdbool.h>
#include <stddef.h>

#include "kallsyms.h"
#include "sm_err.h"
#include "stackmap/types.h"

/* One source-level frame of an address, innermost first. */
struct dw_frame {
	const char *name;	/* function name, or NULL */
	const char *file;	/* source file, or NULL */
	int line;		/* 0 when unknown */
	bool inlined;		/* inlined into the next frame */
};

/* What one address is: its physical function and its inline chain. */
struct dw_loc {
	const char *func;	/* ELF symbol containing it, or NULL */
	sm_u64 offset;		/* address - start of @func */
	int nr;			/* entries of @chain (0: no DWARF for it) */
	struct dw_frame *chain;	/* inlined frames first, then the function */
};

struct dwsym;

/* What the index did so far (dwsym_get_stats()). */
struct dwsym_stats {
	size_t lookups;		/* addresses resolved (cache misses) */
	size_t modules;		/* modules whose symbol table is indexed */
	size_t symbols;		/* sized symbols in those indexes */
	size_t units;		/* compile units whose scopes are indexed */
	size_t scopes;		/* DIEs with PC ranges in those indexes */
	size_t naive_symbols;	/* symbols that took dwfl_module_addrinfo()
				 * (a sizeless label may win) */
	size_t naive_scopes;	/* chains that took dwarf_getscopes() (a
				 * unit or origin the index cannot mirror) */
	sm_u64 build_ns;	/* time spent building indexes, ns */
};

/**
 * dwsym_open() - load a vmlinux and modules, placed where the recording had
 * them
 * @out: set to the symbolizer
 * @ks: the kallsyms recorded in the trace
 * @vmlinux: path of the vmlinux (ELF with symbols, ideally DWARF), or NULL
 * @modules: directory searched for the recorded modules' .ko files, or NULL
 * @err: on failure, one line (no newline) saying what is wrong
 *
 * A @modules directory where none of the recorded modules is found (or a
 * recording that names none) is one warning on stderr, not an error.
 *
 * Return: 0, or with @err set: the -errno of a file that cannot be read;
 * -EINVAL for a file that is not a vmlinux ("FILE: not a vmlinux: ET_DYN
 * with no symbol table": an ELF without a loadable segment or a symbol
 * table) or a module, or whose symbols do not match the recorded kallsyms;
 * -ENOMEM.
 */
int dwsym_open(struct dwsym **out, const struct kallsyms *ks,
	       const char *vmlinux, const char *modules, struct sm_err *err);

/**
 * dwsym_bias() - the KASLR bias found for the vmlinux (runtime - link
 * address); 0 without one
 */
sm_u64 dwsym_bias(const struct dwsym *d);

/**
 * dwsym_lookup() - the function, line and inline chain of an address
 * @d: the symbolizer
 * @addr: runtime address
 * @is_return: @addr is a return address (looked up at @addr - 1)
 *
 * Return: the result (owned by @d, valid until dwsym_free()), or NULL when
 * the address is outside the vmlinux and the placed modules (or out of
 * memory).
 */
const struct dw_loc *dwsym_lookup(struct dwsym *d, sm_u64 addr,
				  bool is_return);

/**
 * dwsym_set_naive() - resolve with the straightforward libdw calls only
 * @d: the symbolizer
 * @naive: true: dwfl_module_addrinfo() and dwarf_getscopes() per address,
 *	no index (the reference the index is checked against); false: the
 *	default
 *
 * Affects lookups not cached yet.
 */
void dwsym_set_naive(struct dwsym *d, bool naive);

/**
 * dwsym_get_stats() - what the index did so far
 * @d: the symbolizer
 * @st: filled in (all zero before the first lookup; with naive set, only
 *	@lookups counts)
 */
void dwsym_get_stats(const struct dwsym *d, struct dwsym_stats *st);

/**
 * dwsym_check_banner() - does a vmlinux say it is the recorded release?
 * @vmlinux: path of the ELF file
 * @release: the recorded kernel release (uname -r, from the trace)
 * @err: on a mismatch, one line naming both releases
 *
 * Reads the string at the symbol linux_banner ("Linux version RELEASE
 * (builder) ..."; init/version.c) from the file's bytes, without loading
 * its sections.  A file without that symbol or string has nothing to
 * compare and passes; so does a NULL or empty @release.
 *
 * Return: 0, or with @err set: the -errno of a file that cannot be opened;
 * -EINVAL when it is not an ELF file or its banner names another release.
 */
int dwsym_check_banner(const char *vmlinux, const char *release,
		       struct sm_err *err);

/** dwsym_free() - release everything (NULL is fine). */
void dwsym_free(struct dwsym *d);

#endif /* FGDECODE_DWSYM_H */
