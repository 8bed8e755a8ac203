// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --map, output (see mapout.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "format.h"
#include "json.h"
#include "mapout.h"
#include "stackmap/cookie.h"
#include "tep_stack.h"

static unsigned long long total_hits(const struct stackmap_snapshot *snap)
{
	unsigned long long total = 0;
	sm_u32 i;

	for (i = 0; i < snap->nr; i++)
		total += snap->entries[i].hits;
	return total;
}

/* The listing's name of @e's owner ("?" when the module had none). */
static const char *owner_of(const struct stackmap_snap_entry *e)
{
	return e->owner_name[0] ? e->owner_name : "?";
}

/* The "=> " lines of @e, each ending in a newline. */
static void print_frames(FILE *out, const struct symbolizer *sz,
			 const struct stackmap_snap_entry *e)
{
	struct trace_seq s;

	trace_seq_init(&s);
	format_frames(&s, sz, e->ips, e->depth);
	if (e->flags & STACKMAP_FLAG_TRUNCATED)
		tepstack_print_truncated(&s, FORMAT_INDENT);
	trace_seq_terminate(&s);
	/* Each frame line starts with '\n': drop the first one. */
	if (s.len)
		fprintf(out, "%s\n", s.buffer + 1);
	trace_seq_destroy(&s);
}

static void print_text(FILE *out, const struct symbolizer *sz,
		       const struct stackmap_snapshot *snap)
{
	const struct stackmap_snap_entry *e;
	sm_u32 i;

	fprintf(out, "# generation %u: %u stacks, %llu hits\n",
		snap->generation, snap->nr, total_hits(snap));
	for (i = 0; i < snap->nr; i++) {
		e = &snap->entries[i];
		fprintf(out, "hits %u cookie 0x%llx gen %u slot %u owner %s\n",
			e->hits,
			(unsigned long long)stackmap_cookie_make(snap->generation,
								 e->slot),
			snap->generation, e->slot, owner_of(e));
		print_frames(out, sz, e);
	}
}

/* Most hits first; equal counts in listing order. */
static int cmp_hits(const void *a, const void *b)
{
	const struct stackmap_snap_entry *x = *(const struct stackmap_snap_entry *const *)a;
	const struct stackmap_snap_entry *y = *(const struct stackmap_snap_entry *const *)b;

	if (x->hits != y->hits)
		return x->hits < y->hits ? 1 : -1;
	return x < y ? -1 : x > y;
}

static int print_top(FILE *out, const struct symbolizer *sz,
		     const struct stackmap_snapshot *snap, size_t n)
{
	const struct stackmap_snap_entry **hot;
	unsigned long long total = total_hits(snap);
	size_t i;

	hot = calloc(snap->nr ? snap->nr : 1, sizeof(*hot));
	if (!hot)
		return -ENOMEM;
	for (i = 0; i < snap->nr; i++)
		hot[i] = &snap->entries[i];
	qsort(hot, snap->nr, sizeof(*hot), cmp_hits);
	if (n > snap->nr)
		n = snap->nr;
	fprintf(out, "fgdecode: top %zu of %u stacks over %llu hits, generation %u\n",
		n, snap->nr, total, snap->generation);
	for (i = 0; i < n; i++) {
		fprintf(out, "#%zu %u hits %.2f%% gen %u slot %u owner %s\n",
			i + 1, hot[i]->hits,
			total ? 100.0 * hot[i]->hits / total : 0.0,
			snap->generation, hot[i]->slot, owner_of(hot[i]));
		print_frames(out, sz, hot[i]);
	}
	free(hot);
	return 0;
}

/* ---- folded ---- */

/* One folded stack and its hits. */
struct fold {
	char *frames;
	unsigned long long hits;
};

static int cmp_fold(const void *a, const void *b)
{
	return strcmp(((const struct fold *)a)->frames,
		      ((const struct fold *)b)->frames);
}

/* Fill @folds with the folded frames of every stack that has hits. */
static int make_folds(const struct symbolizer *sz,
		      const struct stackmap_snapshot *snap, struct fold *folds,
		      size_t *nr)
{
	const struct stackmap_snap_entry *e;
	struct trace_seq s;
	sm_u32 i, j;

	*nr = 0;
	for (i = 0; i < snap->nr; i++) {
		e = &snap->entries[i];
		if (!e->hits)
			continue;
		trace_seq_init(&s);
		if (e->flags & STACKMAP_FLAG_TRUNCATED)
			trace_seq_puts(&s, "[truncated]");
		for (j = e->depth; j-- > 0;)
			folded_put_addr(&s, sz, e->ips[j], true);
		trace_seq_terminate(&s);
		folds[*nr].frames = strdup(s.len ? s.buffer : "[empty stack]");
		trace_seq_destroy(&s);
		if (!folds[*nr].frames)
			return -ENOMEM;
		folds[(*nr)++].hits = e->hits;
	}
	return 0;
}

static int print_folded(FILE *out, const struct symbolizer *sz,
			const struct stackmap_snapshot *snap)
{
	struct fold *folds = calloc(snap->nr ? snap->nr : 1, sizeof(*folds));
	unsigned long long hits;
	size_t nr = 0, i, j;
	int ret;

	if (!folds)
		return -ENOMEM;
	ret = make_folds(sz, snap, folds, &nr);
	if (!ret) {
		qsort(folds, nr, sizeof(*folds), cmp_fold);
		for (i = 0; i < nr; i = j) {
			hits = 0;
			for (j = i; j < nr && !strcmp(folds[j].frames,
						      folds[i].frames); j++)
				hits += folds[j].hits;
			fprintf(out, "%s %llu\n", folds[i].frames, hits);
		}
	}
	for (i = 0; i < nr; i++)
		free(folds[i].frames);
	free(folds);
	return ret;
}

/* ---- JSON ---- */

static void print_json(FILE *out, const struct symbolizer *sz,
		       const struct stackmap_snapshot *snap)
{
	const struct stackmap_snap_entry *e;
	struct trace_seq s;
	sm_u32 i;

	trace_seq_init(&s);
	for (i = 0; i < snap->nr; i++) {
		e = &snap->entries[i];
		/* Owner names need no escaping (the listing parser checks them). */
		fprintf(out, "{\"gen\":%u,\"slot\":%u,\"cookie\":\"0x%llx\",\"hits\":%u,\"owner\":\"%s\",\"owner_id\":%u,%s\"stack\":",
			snap->generation, e->slot,
			(unsigned long long)stackmap_cookie_make(snap->generation,
								 e->slot),
			e->hits, owner_of(e), e->owner,
			e->flags & STACKMAP_FLAG_TRUNCATED ?
			"\"truncated\":true," : "");
		trace_seq_reset(&s);
		json_put_frames(&s, sz, e->ips, e->depth);
		trace_seq_terminate(&s);
		fputs(s.buffer, out);
		fputs("}\n", out);
	}
	trace_seq_destroy(&s);
}

int mapout_print(FILE *out, const struct symbolizer *sz,
		 const struct stackmap_snapshot *snap, enum mapout_mode mode,
		 size_t top)
{
	switch (mode) {
	case MAPOUT_TEXT:
		print_text(out, sz, snap);
		return 0;
	case MAPOUT_JSON:
		print_json(out, sz, snap);
		return 0;
	case MAPOUT_FOLDED:
		return print_folded(out, sz, snap);
	case MAPOUT_TOP:
		return print_top(out, sz, snap, top);
	}
	return 0;
}

int mapout_interval(FILE *out, const struct symbolizer *sz, unsigned long n,
		    const struct stackmap_snapshot *prev,
		    const struct stackmap_snapshot *cur, double seconds,
		    size_t top)
{
	struct maplist_change *ch;
	unsigned long long hits = 0;
	size_t nr, i;
	bool reset;

	ch = maplist_delta(prev, cur, seconds, &reset, &nr);
	if (!ch)
		return -ENOMEM;
	if (reset)
		fprintf(out, "fgdecode: map reset: generation %u -> %u (hits counted from 0)\n",
			prev->generation, cur->generation);
	for (i = 0; i < nr; i++)
		hits += ch[i].hits;
	fprintf(out, "fgdecode: interval %lu: %.2f s, generation %u, ", n,
		seconds, cur->generation);
	format_count(out, "", nr, "stacks");
	fprintf(out, " changed, %llu hits\n", hits);
	if (top && nr > top)
		nr = top;
	for (i = 0; i < nr; i++) {
		fprintf(out, "#%zu %.2f hits/s (%u hits) gen %u slot %u owner %s\n",
			i + 1, ch[i].rate, ch[i].hits, cur->generation,
			ch[i].entry->slot, owner_of(ch[i].entry));
		print_frames(out, sz, ch[i].entry);
	}
	free(ch);
	return 0;
}
