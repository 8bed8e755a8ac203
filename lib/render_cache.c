// SPDX-License-Identifier: GPL-2.0
/*
 * render_cache: print a text once rendered, copied afterwards (see
 * render_cache.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "render_cache.h"

int sm_render_once(struct trace_seq *s, char **cache, sm_render_fn render,
		   const void *ctx)
{
	struct trace_seq tmp;
	int ret = 0;

	if (cache && *cache) {
		trace_seq_puts(s, *cache);
		return 0;
	}
	trace_seq_init(&tmp);
	render(&tmp, ctx);
	trace_seq_terminate(&tmp);
	trace_seq_puts(s, tmp.buffer);
	if (cache && tmp.state == TRACE_SEQ__GOOD) {
		*cache = strdup(tmp.buffer);
		ret = *cache ? 0 : -ENOMEM;
	}
	trace_seq_destroy(&tmp);
	return ret;
}
