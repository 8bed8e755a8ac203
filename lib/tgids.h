/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tgids: which process (thread group id) each task of a trace belongs to,
 * from the saved_tgids text the front end stores in a trace.dat
 * (include/stackmap/snapshot.h, STACKMAP_TGIDS_OPTION).  trace-cmd itself
 * stores no tgids: without the option every task's process is unknown.
 */
#ifndef LIBSTACKMAP_TGIDS_H
#define LIBSTACKMAP_TGIDS_H

#include <stddef.h>

#include "hashtab.h"
#include "sm_err.h"

/* pid -> tgid; empty (zeroed) when the trace holds none. */
struct sm_tgids {
	struct sm_hashtab t;	/* struct sm_tgid, keyed by pid + 1 */
};

/**
 * sm_tgids_parse() - read saved_tgids text
 * @tg: zeroed, or filled by an earlier call (lines are added; a later line
 *	for a pid wins)
 * @text: "PID TGID\n" lines, decimal, both in 0..INT_MAX (kernel/trace/
 *	trace.c saved_tgids_show()); NUL-terminated
 * @len: bytes of @text before its NUL
 * @err: set on failure: "line N: ..." naming what is wrong
 *
 * Return: 0; -EBADMSG for a line that is not two such numbers; -ENOMEM.
 */
int sm_tgids_parse(struct sm_tgids *tg, const char *text, size_t len,
		   struct sm_err *err);

/**
 * sm_tgids_read_tracedat() - the tgids a trace.dat stores
 * @tg: zeroed; filled on success (sm_tgids_fini() it either way)
 * @path: a trace.dat
 * @err: set on failure: "PATH: ..." with the offset or line
 *
 * Return: 0; -ENOENT when the file holds no tgids option (not an error for
 * a trace recorded without the front end); -ENOTSUP for a version 6 file;
 * -EBADMSG for a malformed file or payload; -ENOMEM; -errno.
 */
int sm_tgids_read_tracedat(struct sm_tgids *tg, const char *path,
			   struct sm_err *err);

/**
 * sm_tgids_lookup() - the tgid of task @pid
 * @tg: the table
 * @pid: a task id
 *
 * Return: the tgid, or -1 when unknown (a "none", not an error: no errno).
 */
int sm_tgids_lookup(const struct sm_tgids *tg, int pid);

/** sm_tgids_count() - the number of tasks with a known tgid */
static inline size_t sm_tgids_count(const struct sm_tgids *tg)
{
	return tg->t.used;
}

/** sm_tgids_fini() - free what sm_tgids_parse() allocated */
void sm_tgids_fini(struct sm_tgids *tg);

#endif /* LIBSTACKMAP_TGIDS_H */
