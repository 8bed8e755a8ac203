// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's outputs: --top N (see top.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "format.h"
#include "output.h"
#include "top.h"

static const char *const marker_line[SSET_NR_STATUS] = {
	[SSET_STALE] = "<stale cookie>",
	[SSET_UNKNOWN] = "<unknown cookie>",
	[SSET_CONFLICT] = "<conflicting cookie>",
	[SSET_CORRUPT] = "<corrupt stack>",
};

/* Most weight first; equal weights in order of first appearance. */
static int cmp_hot(const void *a, const void *b)
{
	const struct sset_entry *x = *(struct sset_entry *const *)a;
	const struct sset_entry *y = *(struct sset_entry *const *)b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* An entry's root frames (sset_intern_root()), innermost first as frames are. */
static void print_root(FILE *out, const char *root)
{
	const char *end, *p;

	if (!root)
		return;
	for (end = root + strlen(root); end > root; end = p - (p > root)) {
		for (p = end; p > root && p[-1] != ';'; p--)
			;
		fprintf(out, FORMAT_INDENT "=> %.*s\n", (int)(end - p), p);
	}
}

static void print_entry(FILE *out, const struct symbolizer *sz,
			struct sset_entry *e)
{
	struct trace_seq s;

	if (!sset_has_frames(e->status)) {
		fprintf(out, FORMAT_INDENT "=> %s\n", marker_line[e->status]);
		print_root(out, e->root);
		return;
	}
	trace_seq_init(&s);
	format_frames(&s, sz, e->frames, e->depth);
	if (e->status == SSET_TRUNCATED)
		tepstack_print_truncated(&s, FORMAT_INDENT);
	trace_seq_terminate(&s);
	/* Each frame line starts with '\n': drop the first one. */
	if (s.len)
		fprintf(out, "%s\n", s.buffer + 1);
	trace_seq_destroy(&s);
	print_root(out, e->root);
}

static double percent(sm_u64 part, sm_u64 whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/*
 * " in NAME" or " in NAME (K), NAME (K)...": the events that carried @e,
 * in first-seen order, then the newline.  Orphans carry nothing.
 */
static void print_events(FILE *out, struct tep_handle *tep,
			 const struct stackset *set, const struct sset_entry *e)
{
	size_t n, i, named = 0;
	const struct sset_pair *p = sset_pairs(set, &n);
	struct tep_event *event;

	for (i = 0; i < n; i++) {
		if (p[i].stack_id != e->id || p[i].event_id < 0 ||
		    !p[i].count)
			continue;
		event = tep_find_event(tep, p[i].event_id);
		fprintf(out, "%s", named++ ? ", " : " in ");
		if (event)
			fputs(event->name, out);
		else
			fprintf(out, "event id %d", p[i].event_id);
		if (p[i].count != e->count)
			fprintf(out, " (%zu)", p[i].count);
	}
	fputc('\n', out);
}

/* "1 event", "2 events": @plural ends in 's'. */
static void print_count(FILE *out, size_t n, const char *plural)
{
	fprintf(out, "%zu %.*s", n, (int)strlen(plural) - (n == 1), plural);
}

/* A weight: "4096 bytes", or, in ns, "1.00 s (1004150420 ns)". */
static void print_weight(FILE *out, sm_u64 weight, const char *label)
{
	char d[SM_DURATION_LEN];

	if (!strcmp(label, "ns"))
		fprintf(out, "%s (%llu ns)", sm_duration(d, weight),
			(unsigned long long)weight);
	else
		fprintf(out, "%llu %s", (unsigned long long)weight, label);
}

/* The header and the line of each stack when the set weighs events. */
static void print_counted(FILE *out, const struct symbolizer *sz,
			  struct tep_handle *tep, struct stackset *set,
			  struct sset_entry **hot, size_t n, size_t shown)
{
	size_t total = sset_total(set), i;

	fprintf(out, "fgdecode: top %zu of %zu distinct stacks over %zu events with a stack\n",
		n, shown, total);
	for (i = 0; i < n; i++) {
		fprintf(out, "#%zu ", i + 1);
		print_count(out, hot[i]->count, "events");
		fprintf(out, " %.2f%%", percent(hot[i]->count, total));
		print_events(out, tep, set, hot[i]);
		print_entry(out, sz, hot[i]);
	}
}

/* The same with another weight (sset_set_weight()). */
static void print_weighed(FILE *out, const struct symbolizer *sz,
			  struct tep_handle *tep, struct stackset *set,
			  struct sset_entry **hot, size_t n, size_t shown)
{
	const char *unit = sset_weight_unit(set);
	const char *label = *unit ? unit : sset_weight_name(set);
	const char *counted = sset_count_name(set);
	sm_u64 total = sset_total_weight(set);
	size_t i;

	fprintf(out, "fgdecode: top %zu of %zu distinct stacks by %s over %zu %s%s, ",
		n, shown, sset_weight_name(set), sset_total(set), counted,
		strcmp(counted, "events") ? "" : " with a stack");
	print_weight(out, total, label);
	fputs(" in all\n", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "#%zu ", i + 1);
		print_weight(out, hot[i]->weight, label);
		fprintf(out, " %.2f%% (", percent(hot[i]->weight, total));
		print_count(out, hot[i]->count, counted);
		fputc(')', out);
		/* The intervals of --off-cpu are all sched_switch's. */
		if (strcmp(counted, "events"))
			fputc('\n', out);
		else
			print_events(out, tep, set, hot[i]);
		print_entry(out, sz, hot[i]);
	}
}

int top_print(FILE *out, const struct symbolizer *sz, struct tep_handle *tep,
	      struct stackset *set, size_t n)
{
	size_t nr = sset_size(set), i, shown = 0;
	struct sset_entry **hot;

	hot = calloc(nr ? nr : 1, sizeof(*hot));
	if (!hot)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (sset_entry_at(set, i)->count)
			hot[shown++] = sset_entry_at(set, i);
	qsort(hot, shown, sizeof(*hot), cmp_hot);
	if (n > shown)
		n = shown;
	(sset_weighted(set) ? print_weighed : print_counted)(out, sz, tep, set,
							      hot, n, shown);
	free(hot);
	return 0;
}

/* --top N: N, a positive number; -1 after printing why not. */
static int top_check(const char *arg)
{
	size_t n;

	return output_parse_count("top", arg, &n);
}

/* fgdecode report --top N: the N heaviest stacks, after the last event. */
static int top_end(void *state, const struct output_env *env,
		   sm_u64 span_ns)
{
	size_t n;

	(void)state;
	(void)span_ns;
	output_parse_count("top", env->args->arg, &n);
	return top_print(stdout, env->sz, env->tep, env->set, n);
}

const struct output_ops top_output = {
	.option = "top",
	.arg = "N",
	.help = "  --top N         the N stacks carried by the most events\n",
	.flags = OUTPUT_WEIGHS | OUTPUT_OFF_CPU,
	.check = top_check,
	.end = top_end,
};
