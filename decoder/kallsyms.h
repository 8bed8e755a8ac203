/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: the kallsyms stored in the trace, as a list.
 *
 * libtraceevent keeps the trace's kallsyms for address -> symbol lookups but
 * has no API to list them; tep_print_funcs() is the only way to see them
 * all, so kallsyms_load() runs it with standard output redirected to a
 * temporary file and parses that ("ADDR NAME" or "ADDR NAME [MODULE]").
 * Used to place a vmlinux at its KASLR-shifted address.
 */
#ifndef FGDECODE_KALLSYMS_H
#define FGDECODE_KALLSYMS_H

#include <stddef.h>

#include <event-parse.h>

#include "stackmap/types.h"

struct ksym {
	sm_u64 addr;
	char *name;
	char *mod;		/* NULL for vmlinux */
};

struct kallsyms {
	struct ksym *syms;	/* [nr], in the order listed (by address) */
	size_t nr;
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

/** kallsyms_free() - free what kallsyms_load() allocated. */
void kallsyms_free(struct kallsyms *ks);

#endif /* FGDECODE_KALLSYMS_H */
