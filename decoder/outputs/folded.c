// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's outputs: --folded output (see folded.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "output.h"
#include "tep_stack.h"

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The root frame of pair event @id: the event's name, or for the orphans
 * of an owner "[orphan system:event]".
 */
static const char *event_name(struct tep_handle *tep, int id, char *buf,
			      size_t len)
{
	struct tep_event *event;
	char name[80];

	if (SSET_IS_ORPHAN_ID(id)) {
		snprintf(buf, len, "[orphan %s]",
			 tepstack_owner_name(tep, SSET_ORPHAN_OWNER(id), name,
					     sizeof(name)));
		return buf;
	}
	event = tep_find_event(tep, id);
	return event ? event->name : "(unknown)";
}

/* "ROOT;FRAMES" (ROOT may be NULL or empty), malloc'ed. */
static char *join(const char *root, const char *frames)
{
	char *stack;

	if (asprintf(&stack, "%s%s%s", root ? root : "",
		     root && *root && *frames ? ";" : "", frames) < 0)
		return NULL;
	return stack;
}

int folded_foreach(const struct symbolizer *sz, struct stackset *set,
		   bool merge, folded_fn fn, void *ctx)
{
	const struct sset_pair *pairs = NULL;
	struct sset_entry *e;
	const char *frames, *own, *r;
	char root[112], *stack, *full;
	size_t i, n;
	int ret;

	if (merge)
		n = sset_size(set);
	else
		pairs = sset_pairs(set, &n);
	for (i = 0; i < n; i++) {
		e = sset_entry_at(set, merge ? i : pairs[i].stack_id);
		if (merge && !e->count)
			continue;
		/* Weighed, an orphan weighs nothing: no event carried it. */
		if (!merge && sset_weighted(set) &&
		    SSET_IS_ORPHAN_ID(pairs[i].event_id))
			continue;
		frames = folded_frames(sz, e);
		own = folded_root(sz, e);
		if (!frames || !own)
			return -ENOMEM;
		r = merge ? NULL : event_name(sz->tep, pairs[i].event_id, root,
					      sizeof(root));
		/* The entry's own root frames (folded_root()) inside. */
		full = *own ? join(r, own) : NULL;
		if (*own && !full)
			return -ENOMEM;
		stack = join(full ? full : r, frames);
		free(full);
		if (!stack)
			return -ENOMEM;
		ret = fn(ctx, stack, merge ? e->weight : pairs[i].weight);
		free(stack);
		if (ret)
			return ret;
	}
	return 0;
}

struct lines {
	char **line;
	size_t nr;
};

/* folded_fn of folded_print(): keep "STACK WEIGHT". */
static int add_line(void *ctx, const char *stack, sm_u64 weight)
{
	struct lines *l = ctx;

	if (asprintf(&l->line[l->nr], "%s %llu", stack,
		     (unsigned long long)weight) < 0)
		return -ENOMEM;
	l->nr++;
	return 0;
}

int folded_print(FILE *out, const struct symbolizer *sz,
		 struct stackset *set, bool merge)
{
	struct lines l = { NULL, 0 };
	size_t n, max, i;
	int ret;

	sset_pairs(set, &n);
	max = merge ? sset_size(set) : n;
	l.line = calloc(max ? max : 1, sizeof(*l.line));
	if (!l.line)
		return -ENOMEM;
	ret = folded_foreach(sz, set, merge, add_line, &l);
	if (!ret) {
		qsort(l.line, l.nr, sizeof(*l.line), cmp_lines);
		for (i = 0; i < l.nr; i++)
			fprintf(out, "%s\n", l.line[i]);
	}
	for (i = 0; i < l.nr; i++)
		free(l.line[i]);
	free(l.line);
	return ret;
}

/* fgdecode report --folded: the counted stacks, after the last event. */
static int folded_end(void *state, const struct output_env *env,
		      sm_u64 span_ns)
{
	(void)state;
	(void)span_ns;
	/* --off-cpu: no event root (sched_switch, always). */
	return folded_print(stdout, env->sz, env->set,
			    env->args->merge || env->analysis->off_cpu);
}

const struct output_ops folded_output = {
	.option = "folded",
	.help = "  --folded        folded stacks (flame graphs), one line per event and stack\n",
	.flags = OUTPUT_WEIGHS | OUTPUT_OFF_CPU | OUTPUT_MERGES |
		 OUTPUT_NAMES_ONLY | OUTPUT_STACKS_ONLY,
	.end = folded_end,
};
