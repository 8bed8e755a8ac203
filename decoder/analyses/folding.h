/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: a stack of the stack set as folded frames, the names a folded
 * line gives it (outputs/folded.h describes the line), shared by --folded,
 * the flame graph, pprof, the map listing and --wakers, whose intervals are
 * charged under the waker's frames (offcpu.c).
 */
#ifndef FGDECODE_FOLDING_H
#define FGDECODE_FOLDING_H

#include <stdbool.h>

#include <event-parse.h>

#include "stackset.h"
#include "symbolize.h"

/**
 * folded_put_addr() - append the folded frames of one address
 * @s: the line being built; a ';' goes before each frame but the line's first
 * @sz: symbolizer
 * @addr: kernel address
 * @is_return: a return address (looked up at @addr - 1 for DWARF)
 *
 * Appends the frames of @addr outermost first (an inlined chain gives
 * several), each its function name, or 0xADDR when no symbol covers it.
 */
void folded_put_addr(struct trace_seq *s, const struct symbolizer *sz,
		     sm_u64 addr, bool is_return);

/**
 * folded_marker() - the frame that stands for a stack of @status
 * @status: not SSET_FRAMES
 *
 * Return: "[truncated]" (the root frame of a truncated stack, before its
 * frames), or the only frame of a marker: "[stale cookie]",
 * "[unknown cookie]", "[conflicting cookie]", "[corrupt stack]".
 */
const char *folded_marker(enum sset_status status);

/**
 * folded_frames() - the frames of @e as a folded line has them
 * @sz: symbolizer
 * @e: an entry
 *
 * "[truncated];outermost;...;innermost", or the marker frame, without the
 * entry's root frames; rendered once and cached in
 * @e->render[SSET_R_FOLDED].
 *
 * Return: the string (owned by @e), or NULL when out of memory.
 */
const char *folded_frames(const struct symbolizer *sz, struct sset_entry *e);

/* The waker frame of an interval no wakeup in the trace ended (--wakers). */
#define FOLDED_NO_WAKER	"[no wakeup in the trace]"

/**
 * folded_root() - the root frames of @e as a folded line has them
 * @sz: symbolizer
 * @e: an entry
 *
 * @e->root ("" when NULL); for an entry of sset_intern_woken() (--wakers),
 * offwaketime's one line: "WAKER_COMM;waker frames;--;ROOT" (a ';' in the
 * comm made '_'), or FOLDED_NO_WAKER ";--;ROOT", rendered once and cached
 * in @e->render[SSET_R_ROOT].  A folded line or a flame graph has no other
 * place for the waker: the outputs that have one (--top, --pprof) print
 * the waker's frames as they print @e's and its comm apart.
 *
 * Return: the string (owned by @e), or NULL when out of memory.
 */
const char *folded_root(const struct symbolizer *sz, struct sset_entry *e);

#endif /* FGDECODE_FOLDING_H */
