/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode --modules: place kernel modules (.ko, ET_REL) where the recording
 * had them, from their symbols in the recorded kallsyms alone.
 *
 * For each module named in the kallsyms whose NAME.ko (with '-' and '_'
 * equivalent) is found under the modules directory, every section gets the
 * address most of its symbols agree on: recorded address - st_value over
 * the symbols whose name is unique in the .ko.  A section none of whose
 * symbols was recorded stays unplaced (-1).  A module whose sections do not
 * have a majority is refused.  libdwfl then relocates the module's DWARF
 * through a section_address callback that returns these addresses (see
 * dwsym.c).
 */
#ifndef FGDECODE_DWMOD_H
#define FGDECODE_DWMOD_H

#include <stdbool.h>
#include <stddef.h>

#include <gelf.h>

#include "kallsyms.h"
#include "sm_err.h"
#include "stackmap/types.h"

#define DWMOD_UNPLACED	((sm_u64)-1)

/* One placed module. */
struct dwmod {
	char *name;		/* as in kallsyms */
	char *path;		/* the .ko */
	size_t nr_sections;
	sm_u64 *base;		/* [nr_sections]: address, or DWMOD_UNPLACED */
	sm_u64 low, high;	/* range of its placed SHF_ALLOC sections */
	const char *dwarf_problem;	/* why it gives no file:line, or NULL */
};

/**
 * dwmod_find() - find and place the recorded modules found under @dir
 * @dir: directory searched recursively, symbolic links followed, for
 *	NAME.ko files, or NAME.ko.xz, .ko.gz, .ko.zst (Debian 6.12 ships
 *	every module as .ko.xz; read through dwelf_elf_begin())
 * @ks: the recorded kallsyms
 * @mods: set to the placed modules (free with dwmod_free())
 * @nr: set to their number (0 is fine: no module found)
 * @recorded: set to the number of modules @ks names
 * @err: on failure, one line (no newline)
 *
 * A module whose name several files under @dir bear (another build in
 * another tree) is placed from the first of them that matches the
 * recording, in the order the search met them.
 *
 * Return: 0, or with @err set and *@mods NULL, *@nr 0: the -errno of @dir
 * or of a .ko that cannot be read (-EIO when nftw() gives none); -EINVAL
 * for a .ko that is not ET_REL or has no section headers or symbol table,
 * or when no file of a module's name matches the recording; -ENOMEM.
 */
int dwmod_find(const char *dir, const struct kallsyms *ks,
	       struct dwmod **mods, size_t *nr, size_t *recorded,
	       struct sm_err *err);

/** dwmod_is_module_file() - does file name @name end in .ko, .ko.xz, .ko.gz or .ko.zst? */
bool dwmod_is_module_file(const char *name);

/**
 * dwmod_dwarf_problem() - why @elf gives no file:line or inlined frames
 * @elf: a vmlinux or module
 *
 * Return: NULL when it has readable DWARF (.debug_info), else a static
 * phrase: no DWARF (stripped), or zstd-compressed DWARF this libdw (before
 * elfutils 0.189) cannot read.
 */
const char *dwmod_dwarf_problem(Elf *elf);

/** dwmod_is_compressed() - does @name end in .ko.xz, .ko.gz or .ko.zst? */
bool dwmod_is_compressed(const char *name);

/** dwmod_free() - free @nr modules from dwmod_find(). */
void dwmod_free(struct dwmod *mods, size_t nr);

#endif /* FGDECODE_DWMOD_H */
