// SPDX-License-Identifier: GPL-2.0
/*
 * tgids: the saved_tgids text of a trace.dat as a pid -> tgid table.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "stackmap/snapshot.h"
#include "tgids.h"
#include "tracedat_options.h"

struct sm_tgid {
	sm_u64 key;	/* pid + 1: pid 0 is a task too */
	int tgid;
};

/* A decimal number in 0..INT_MAX at *p; -EINVAL when there is none. */
static int parse_num(const char **p, const char *end, int *out)
{
	long long v = 0;
	const char *s = *p;

	if (s == end || *s < '0' || *s > '9')
		return -EINVAL;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return -EINVAL;
	}
	*p = s;
	*out = (int)v;
	return 0;
}

/* Set the tgid of @pid, added if absent (a later line for a pid wins). */
static int tgids_set(struct sm_tgids *tg, int pid, int tgid)
{
	struct sm_tgid *e;

	if (sm_hashtab_reserve(&tg->t))
		return -ENOMEM;
	e = sm_hashtab_insert(&tg->t, (sm_u64)pid + 1);
	e->tgid = tgid;
	return 0;
}

int sm_tgids_parse(struct sm_tgids *tg, const char *text, size_t len,
		   struct sm_err *err)
{
	const char *p = text, *end = text + len, *nl;
	size_t line = 0;
	int pid, tgid;

	if (!tg->t.cap && sm_hashtab_init(&tg->t, sizeof(struct sm_tgid), 64))
		return sm_err_code(err, -ENOMEM, "out of memory");
	while (p < end) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (parse_num(&p, nl, &pid) || p == nl || *p++ != ' ' ||
		    parse_num(&p, nl, &tgid) || p != nl) {
			sm_err_set(err, "line %zu: not \"PID TGID\" (two decimal numbers)",
				   line);
			return -EBADMSG;
		}
		if (tgids_set(tg, pid, tgid))
			return sm_err_code(err, -ENOMEM, "out of memory");
		p = nl + 1;
	}
	return 0;
}

int sm_tgids_read_tracedat(struct sm_tgids *tg, const char *path,
			   struct sm_err *err)
{
	struct sm_err e2;
	char *buf;
	size_t len;
	int ret;

	ret = stackmap_tracedat_read_option(path, STACKMAP_TGIDS_OPTION,
					    STACKMAP_TGIDS_MAX_SIZE, &buf,
					    &len, err);
	if (ret)
		return ret;
	if (memchr(buf, '\0', len)) {
		sm_err_set(err, "%s: tgids option: a NUL byte in its text", path);
		ret = -EBADMSG;
	} else {
		ret = sm_tgids_parse(tg, buf, len, &e2);
		if (ret)
			sm_err_set(err, "%s: tgids option: %s", path, e2.msg);
	}
	free(buf);
	return ret;
}

int sm_tgids_lookup(const struct sm_tgids *tg, int pid)
{
	const struct sm_tgid *e;

	if (!tg->t.cap || pid < 0)
		return -1;
	e = sm_hashtab_find(&tg->t, (sm_u64)pid + 1);
	return e ? e->tgid : -1;
}

void sm_tgids_fini(struct sm_tgids *tg)
{
	if (tg->t.cap)
		sm_hashtab_fini(&tg->t);
	memset(tg, 0, sizeof(*tg));
}
