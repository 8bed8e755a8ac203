/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: the index behind dwsym.c's lookups.  Per libdwfl module, its
 * symbol table sorted (what dwfl_module_addrinfo() scans); per compile unit,
 * the PC ranges of its scopes (what dwarf_getscopes() walks).  Both give
 * exactly the answers of those calls, or say that only the call can tell.
 * Private to dwsym.c.
 */
#ifndef FGDECODE_DWINDEX_H
#define FGDECODE_DWINDEX_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>

#include "dwsym.h"
#include "hashtab.h"
#include "stackmap/types.h"

struct symx;
struct srange;

/* The sized symbols of one scan of libdwfl (globals or locals), by lo. */
struct symtab_part {
	struct symx *s;
	size_t nr;
};

/* One DIE of a unit that has PC ranges, on the path dwarf_getscopes walks. */
struct scope {
	Dwarf_Die die;
	int parent;		/* index in cuidx.nodes; 0 is the unit */
	int tag;
	int origin;		/* inlined: ORIGIN_* (dwindex.c) */
	bool memo;		/* @name, @call_* read (on first use) */
	const char *name;	/* dwarf_diename() */
	const char *call_file;	/* inlined: its call site */
	int call_line;
	unsigned int kid, nkid;	/* its children's ranges: cuidx.r[kid..] */
};

/* The scope index of one compile unit. */
struct cuidx {
	const void *key;	/* Dwarf_Die.addr of the unit's DIE */
	const void *cu;		/* its Dwarf_Die.cu */
	bool naive;		/* not indexable: use dwarf_getscopes */
	struct scope *nodes;	/* [nr]; [0] is the unit */
	size_t nr, cap;
	struct srange *r;	/* [nr_r] */
	size_t nr_r, cap_r;
	const void **seen;	/* while building: the unit's children */
	size_t nr_seen, cap_seen;
};

struct modidx {
	Dwfl_Module *mod;
	bool sym_naive;		/* symbol index unusable: addrinfo always */
	struct symtab_part glob, loc;
	sm_u64 *labels;		/* values of sizeless global symbols, sorted */
	size_t nr_labels;
	sm_u64 *loc_labels;	/* values of sizeless local symbols, sorted */
	size_t nr_loc_labels;
	struct sm_hashtab cus;	/* of unit indexes, by DIE address;
				 * from the first one on */
};

/**
 * cmp_u64() - qsort()/bsearch() comparator of two sm_u64
 * @a: pointer to an sm_u64
 * @b: pointer to an sm_u64
 *
 * Return: -1, 0 or 1 as *@a is below, equal to or above *@b.
 */
int cmp_u64(const void *a, const void *b);

/**
 * build_symbols() - index the symbol table of a module
 * @st: its build time is added to @st->build_ns
 * @mi: zeroed but for @mi->mod; receives the sized symbols of libdwfl's
 *	global and local scans (by address) and the sizeless ones' values
 *
 * A table the index cannot mirror (no symbol table, ppc64 function
 * descriptors, a symbol whose end wraps) sets @mi->sym_naive.
 *
 * Return: 0, or -ENOMEM (@mi then holds what was built so far: free it
 * with free_modidx()).
 */
int build_symbols(struct dwsym_stats *st, struct modidx *mi);

/**
 * index_addrinfo() - dwfl_module_addrinfo() from the index
 * @mi: the module's index, from build_symbols()
 * @addr: address in the module's address space (as given to libdwfl)
 * @name: set to the symbol's name, NULL when no symbol holds @addr
 * @value: set to the symbol's start address (same space as @addr), 0 with
 *	no symbol
 *
 * Return: true with *@name and *@value set; false, with neither touched,
 * when only dwfl_module_addrinfo() can tell (@mi->sym_naive, a sizeless
 * symbol may win, or too many symbols cover @addr).
 */
bool index_addrinfo(const struct modidx *mi, sm_u64 addr,
		    const char **name, sm_u64 *value);

/**
 * cu_index() - the scope index of a compile unit, built on first use
 * @st: build_ns always, and units and scopes for a unit indexed, added to
 * @mi: the index of the module holding the unit; keeps the unit's index
 * @cu: the unit's DIE (from dwfl_module_addrdie())
 *
 * Return: the unit's index, with ->naive set when the unit cannot be
 * indexed (then use dwarf_getscopes()); NULL when out of memory.  Owned by
 * @mi.
 */
struct cuidx *cu_index(struct dwsym_stats *st, struct modidx *mi,
		       Dwarf_Die *cu);

/**
 * innermost() - the innermost scope of a PC, as scopes[0] of
 *	dwarf_getscopes()
 * @cx: a unit's index, not ->naive
 * @pc: address relative to the module's DWARF (address - the bias from
 *	dwfl_module_addrdie())
 *
 * Return: an index into @cx->nodes, whose ->parent links lead out to the
 * unit (node 0); 0 when dwarf_getscopes() would return no scope; -1 when
 * only dwarf_getscopes() can tell (an inlined instance's abstract origin
 * deeper in the unit, or in another unit with elfutils 0.189 and later).
 */
int innermost(const struct cuidx *cx, Dwarf_Addr pc);

/**
 * free_modidx() - release a module's index and its units' indexes
 * @mi: from build_symbols() (NULL is fine)
 */
void free_modidx(struct modidx *mi);

#endif /* FGDECODE_DWINDEX_H */
