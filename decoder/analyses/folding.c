// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: a stack of the stack set as folded frames (see folding.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "folding.h"

static const char *const marker_frame[SSET_NR_STATUS] = {
	[SSET_STALE] = "[stale cookie]",
	[SSET_UNKNOWN] = "[unknown cookie]",
	[SSET_CONFLICT] = "[conflicting cookie]",
	[SSET_CORRUPT] = "[corrupt stack]",
};

const char *folded_marker(enum sset_status status)
{
	return status == SSET_TRUNCATED ? "[truncated]" : marker_frame[status];
}

void folded_put_addr(struct trace_seq *s, const struct symbolizer *sz,
		     sm_u64 addr, bool is_return)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	int n = symbolize_addr(sz, addr, is_return, f);

	while (n-- > 0) {
		if (s->len)
			trace_seq_putc(s, ';');
		if (f[n].name)
			trace_seq_puts(s, f[n].name);
		else
			trace_seq_printf(s, "0x%llx", (unsigned long long)addr);
	}
}

const char *folded_frames(const struct symbolizer *sz, struct sset_entry *e)
{
	struct trace_seq s;
	sm_u32 i;

	if (e->render[SSET_R_FOLDED])
		return e->render[SSET_R_FOLDED];
	trace_seq_init(&s);
	if (e->status != SSET_FRAMES)
		trace_seq_puts(&s, folded_marker(e->status));
	for (i = e->depth; i-- > 0;)
		folded_put_addr(&s, sz, e->frames[i], true);
	trace_seq_terminate(&s);
	e->render[SSET_R_FOLDED] = strdup(s.buffer);
	trace_seq_destroy(&s);
	return e->render[SSET_R_FOLDED];
}

const char *folded_root(const struct symbolizer *sz, struct sset_entry *e)
{
	const char *frames;
	size_t comm, i;
	char *root;

	if (!e->blocked)
		return e->root ? e->root : "";
	if (e->render[SSET_R_ROOT])
		return e->render[SSET_R_ROOT];
	frames = e->waker ? folded_frames(sz, e->waker) : "";
	if (!frames ||
	    asprintf(&root, "%s%s%s;--;%s",
		     e->waker ? e->waker_comm : FOLDED_NO_WAKER,
		     *frames ? ";" : "", frames, e->root ? e->root : "") < 0)
		return NULL;
	/* A ';' in the comm would split its frame. */
	comm = e->waker ? strlen(e->waker_comm) : 0;
	for (i = 0; i < comm; i++)
		if (root[i] == ';')
			root[i] = '_';
	e->render[SSET_R_ROOT] = root;
	return root;
}
