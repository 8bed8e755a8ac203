/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: the kallsyms stored in the trace, as a list.
 *
 * libtraceevent keeps the trace's kallsyms for address -> symbol lookups but
 * has no API to list them; tep_print_funcs() is the only way to see them
 * all, so kallsyms_load() runs it with standard output redirected to a
 * temporary file and parses that ("ADDR NAME" or "ADDR NAME [MODULE]").
 * Used to place a vmlinux at its KASLR-shifted address, and to name the
 * module of a frame.
 */
#ifndef FGDECODE_KALLSYMS_H
#define FGDECODE_KALLSYMS_H

#include <stddef.h>

#include <event-parse.h>

#include "stackmap/types.h"

/*
 * At most 1 in DW_MATCH_TOLERANCE of the symbols a file and the recorded
 * kallsyms both name uniquely may disagree with the others on where the
 * file is placed (the vmlinux's bias, each module section's base).
 */
#define DW_MATCH_TOLERANCE	1000

/**
 * kallsyms_vote() - the most common value among placement votes
 * @sorted: @n votes (recorded address - file address, one per symbol both
 *	name uniquely), sorted ascending
 * @n: their number
 * @value: set to the most common value (the first such when tied); left
 *	alone when @n is 0
 *
 * The one placement vote of fgdecode: the vmlinux's KASLR bias (dwsym.c)
 * and each module section's base (dwmod.c) are the value it returns, and
 * the file is refused when more than 1 in DW_MATCH_TOLERANCE votes differ.
 *
 * Return: how many votes have that value (0 when @n is 0).
 */
size_t kallsyms_vote(const sm_u64 *sorted, size_t n, sm_u64 *value);

/** kallsyms_vote_accepts() - at most 1 in DW_MATCH_TOLERANCE of @n votes differ from the @agree that won. */
static inline int kallsyms_vote_accepts(size_t agree, size_t n)
{
	return n && (n - agree) * DW_MATCH_TOLERANCE <= n;
}

struct ksym {
	sm_u64 addr;
	const char *name;	/* points into kallsyms.text */
	const char *mod;	/* NULL for vmlinux */
};

struct kallsyms {
	struct ksym *syms;	/* [nr], in the order listed (by address) */
	size_t nr;
	char *text;		/* the listing, cut into the names */
};

/**
 * kallsyms_load() - list the kallsyms stored in the trace
 * @ks: filled in
 * @tep: the trace's handle
 *
 * Must be called before anything is written to standard output (it flushes
 * it and briefly redirects it).
 *
 * Return: 0, or -errno (nothing to free).
 */
int kallsyms_load(struct kallsyms *ks, struct tep_handle *tep);

/**
 * kallsyms_find() - the symbol covering an address, and where it ends
 * @ks: the list, or NULL
 * @addr: kernel address
 * @end: set to the address of the first symbol above the covering one (its
 *	end, as the kernel's kallsyms_lookup_size_offset() finds it for
 *	"%pS"), or 0 when no symbol follows
 *
 * The symbol covering @addr is the last one at or below it, as for
 * tep_find_function().
 *
 * Return: the symbol (valid until kallsyms_free()), or NULL for an address
 * below every symbol or no list (then @end is 0).
 */
const struct ksym *kallsyms_find(const struct kallsyms *ks, sm_u64 addr,
				 sm_u64 *end);

/** kallsyms_free() - free what kallsyms_load() allocated. */
void kallsyms_free(struct kallsyms *ks);

#endif /* FGDECODE_KALLSYMS_H */
