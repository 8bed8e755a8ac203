// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's outputs: --top N (see top.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "folding.h"
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

/*
 * The frames of @e, innermost first (format_frames(): "sym+off/size
 * (addr)"), or its marker, then its root frames; an entry of --wakers then
 * "--" and its waker's frames the same way, or FOLDED_NO_WAKER.
 */
static void print_entry(FILE *out, const struct symbolizer *sz,
			const struct sset_entry *e)
{
	struct trace_seq s;

	if (!sset_has_frames(e->status)) {
		fprintf(out, FORMAT_INDENT "=> %s\n", marker_line[e->status]);
	} else {
		trace_seq_init(&s);
		format_frames(&s, sz, e->frames, e->depth);
		if (e->status == SSET_TRUNCATED)
			tepstack_print_truncated(&s, FORMAT_INDENT);
		trace_seq_terminate(&s);
		/* Each frame line starts with '\n': drop the first one. */
		if (s.len)
			fprintf(out, "%s\n", s.buffer + 1);
		trace_seq_destroy(&s);
	}
	print_root(out, e->root);
	if (!e->blocked)
		return;
	fputs(FORMAT_INDENT "=> --\n", out);
	if (e->waker)
		print_entry(out, sz, e->waker);
	else
		fputs(FORMAT_INDENT "=> " FOLDED_NO_WAKER "\n", out);
}

static double percent(sm_u64 part, sm_u64 whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* What printing the top stacks needs. */
struct top_print_ctx {
	FILE *out;
	const struct symbolizer *sz;
	struct tep_handle *tep;
	struct stackset *set;
	const struct sm_hashtab *tasks;	/* struct top_task, or NULL */
};

/*
 * " in NAME" or " in NAME (K), NAME (K)...": the events that carried @e,
 * in first-seen order.  Orphans carry nothing.
 */
static void print_events(const struct top_print_ctx *c,
			 const struct sset_entry *e)
{
	size_t n, i, named = 0;
	const struct sset_pair *p = sset_pairs(c->set, &n);
	struct tep_event *event;

	for (i = 0; i < n; i++) {
		if (p[i].stack_id != e->id || p[i].event_id < 0 ||
		    !p[i].count)
			continue;
		event = tep_find_event(c->tep, p[i].event_id);
		fputs(named++ ? ", " : " in ", c->out);
		if (event)
			fputs(event->name, c->out);
		else
			fprintf(c->out, "event id %d", p[i].event_id);
		if (p[i].count != e->count)
			fprintf(c->out, " (%zu)", p[i].count);
	}
}

/* Most events first, then the lower pid. */
static int cmp_task(const void *a, const void *b)
{
	const struct top_task *x = *(const struct top_task *const *)a;
	const struct top_task *y = *(const struct top_task *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/*
 * "; by COMM-PID (K), ... and N other tasks (K)": the tasks of the events
 * that carried @e, most first (TOP_TASKS of them named).  Nothing when the
 * tasks were not kept, or out of memory.
 */
static void print_tasks(const struct top_print_ctx *c,
			const struct sset_entry *e)
{
	struct top_task **mine, *t;
	size_t i, n = 0, rest = 0;
	int pid;

	if (!c->tasks || !(mine = calloc(c->tasks->cap, sizeof(*mine))))
		return;
	for (i = 0; i < c->tasks->cap; i++) {
		t = sm_hashtab_at(c->tasks, i);
		if (t && top_task_stack(t) == e->id)
			mine[n++] = t;
	}
	qsort(mine, n, sizeof(*mine), cmp_task);
	for (i = 0; i < n && i < TOP_TASKS; i++) {
		pid = top_task_pid(mine[i]);
		fprintf(c->out, "%s%s-%d", i ? ", " : "; by ",
			tep_data_comm_from_pid(c->tep, pid), pid);
		if (mine[i]->count != e->count)
			fprintf(c->out, " (%zu)", mine[i]->count);
	}
	for (; i < n; i++)
		rest += mine[i]->count;
	if (n > TOP_TASKS)
		fprintf(c->out, " and %zu other task%s (%zu)", n - TOP_TASKS,
			n - TOP_TASKS == 1 ? "" : "s", rest);
	free(mine);
}

/* A weight: "4096 bytes", or, in ns, "1.00 s (1004150420 ns)". */
static void print_weight(FILE *out, sm_u64 weight, const char *label)
{
	char w[FORMAT_WEIGHT_LEN];

	fputs(format_weight(w, weight, label), out);
}

/* Does @set count events (not the intervals of --off-cpu)? */
static bool counts_events(const struct stackset *set)
{
	return !strcmp(sset_count_name(set), "events");
}

/*
 * The rest of a stack's line: its events (not when it counts intervals:
 * those of --off-cpu are all sched_switch's), its tasks and with --wakers
 * who woke them; then its stack.
 */
static void print_carriers(const struct top_print_ctx *c,
			   struct sset_entry *e)
{
	if (counts_events(c->set))
		print_events(c, e);
	print_tasks(c, e);
	if (e->waker)
		fprintf(c->out, "; woken by %s", e->waker_comm);
	fputc('\n', c->out);
	print_entry(c->out, c->sz, e);
}

/* "fgdecode: top N of M distinct stacks[ by NAME] over K events": a header. */
static void print_header(const struct top_print_ctx *c, size_t n,
			 size_t shown, const char *by)
{
	fprintf(c->out, "fgdecode: top %zu of ", n);
	format_count(c->out, "", shown, "distinct stacks");
	if (by)
		fprintf(c->out, " by %s", by);
	format_count(c->out, " over ", sset_total(c->set),
		     sset_count_name(c->set));
	if (counts_events(c->set))
		fputs(" with a stack", c->out);
}

/* The header and the line of each stack when the set weighs events. */
static void print_counted(const struct top_print_ctx *c,
			  struct sset_entry **hot, size_t n, size_t shown)
{
	size_t total = sset_total(c->set), i;

	print_header(c, n, shown, NULL);
	fputc('\n', c->out);
	for (i = 0; i < n; i++) {
		fprintf(c->out, "#%zu ", i + 1);
		format_count(c->out, "", hot[i]->count, "events");
		fprintf(c->out, " %.2f%%", percent(hot[i]->count, total));
		print_carriers(c, hot[i]);
	}
}

/* The same with another weight (sset_set_weight()). */
static void print_weighed(const struct top_print_ctx *c,
			  struct sset_entry **hot, size_t n, size_t shown)
{
	const char *unit = sset_weight_unit(c->set);
	const char *label = *unit ? unit : sset_weight_name(c->set);
	sm_u64 total = sset_total_weight(c->set);
	size_t i;

	print_header(c, n, shown, sset_weight_name(c->set));
	fputs(", ", c->out);
	print_weight(c->out, total, label);
	fputs(" in all\n", c->out);
	for (i = 0; i < n; i++) {
		fprintf(c->out, "#%zu ", i + 1);
		print_weight(c->out, hot[i]->weight, label);
		fprintf(c->out, " %.2f%% (", percent(hot[i]->weight, total));
		format_count(c->out, "", hot[i]->count,
			     sset_count_name(c->set));
		fputc(')', c->out);
		print_carriers(c, hot[i]);
	}
}

int top_print(FILE *out, const struct symbolizer *sz, struct tep_handle *tep,
	      struct stackset *set, const struct sm_hashtab *tasks, size_t n)
{
	struct top_print_ctx c = { out, sz, tep, set, tasks };
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
	(sset_weighted(set) ? print_weighed : print_counted)(&c, hot, n,
							      shown);
	free(hot);
	return 0;
}

/* --top N: N, a positive number; -1 after printing why not. */
static int top_check(const char *arg)
{
	size_t n;

	return output_parse_count("top", arg, &n);
}

/* --top's state: the tasks of the events under each stack. */
struct top {
	const struct output_env *env;
	struct sm_hashtab tasks;	/* struct top_task */
};

static int top_begin(void *state, struct output_env *env)
{
	struct top *t = state;

	t->env = env;
	return sm_hashtab_init(&t->tasks, sizeof(struct top_task), 64);
}

/* One more event or interval of task @pid under the stack @stack_id. */
static int count_task(struct top *t, sm_u32 stack_id, int pid)
{
	struct top_task *task;

	if (sm_hashtab_reserve(&t->tasks))
		return -ENOMEM;
	task = sm_hashtab_insert(&t->tasks, top_task_key(stack_id, pid));
	task->count++;
	return 0;
}

/* Count the event's task under its stack (orphans are no event's). */
static int top_event(void *state, const struct fg_event *ev)
{
	struct top *t = state;

	if (ev->standalone || !ev->entry)
		return 0;
	return count_task(t, ev->entry->id,
			  tep_data_pid(t->env->tep, ev->record));
}

/* --off-cpu: count the interval's task under the stack it was charged to. */
static int top_interval(void *state, const struct offcpu_interval *iv)
{
	return count_task(state, iv->charged->id, iv->pid);
}

/* fgdecode report --top N: the N heaviest stacks, after the last event. */
static int top_end(void *state, const struct output_env *env,
		   sm_u64 span_ns)
{
	struct top *t = state;
	size_t n;

	(void)span_ns;
	output_parse_count("top", env->args->arg, &n);
	return top_print(stdout, env->sz, env->tep, env->set, &t->tasks, n);
}

static void top_fini(void *state)
{
	struct top *t = state;

	sm_hashtab_fini(&t->tasks);
}

const struct output_ops top_output = {
	.option = "top",
	.arg = "N",
	.help = "  --top N         the N stacks carried by the most events, with their events\n"
		"                  and tasks\n",
	.flags = OUTPUT_WEIGHS | OUTPUT_OFF_CPU | OUTPUT_STACKS_ONLY,
	.size = sizeof(struct top),
	.check = top_check,
	.begin = top_begin,
	.event = top_event,
	.interval = top_interval,
	.end = top_end,
	.fini = top_fini,
};
