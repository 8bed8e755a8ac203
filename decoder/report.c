// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's pass 2: every record of the trace in time order.  For each
 * event, which stack record that follows it is its own (events.h, "Which
 * event a stack belongs to"); that stack is counted into the stack set
 * (per event, by --weight or by --off-cpu) and the event printed with it in
 * the chosen output.  A stack record no event took is shown on its own (an
 * orphan when it names an owner).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"
#include "fgdecode.h"
#include "filter.h"
#include "folded.h"
#include "format.h"
#include "json.h"
#include "offcpu.h"
#include "pprof.h"
#include "read.h"
#include "resolve.h"
#include "stackset.h"
#include "top.h"
#include "weight.h"

/* What the stack set calls @res. */
static enum sset_status status_of(const struct resolved *res)
{
	if (res->what == RESOLVED_CORRUPT)
		return SSET_CORRUPT;
	if (res->what == RESOLVED_MARKER)
		return res->result == STACKTAB_STALE ? SSET_STALE :
		       res->result == STACKTAB_CONFLICT ? SSET_CONFLICT :
		       SSET_UNKNOWN;
	return res->flags & STACKMAP_FLAG_TRUNCATED ? SSET_TRUNCATED :
	       SSET_FRAMES;
}

/*
 * The set entry that stands for @res.  A cookie's stack keeps its entry in
 * its table's slot (res->memo), so it is hashed once, not per event.
 */
static struct sset_entry *intern(struct fgdecode *fg,
				 const struct resolved *res)
{
	enum sset_status status = status_of(res);
	struct sset_entry *entry;

	if (!sset_has_frames(status))
		return sset_intern(fg->set, status, NULL, 0);
	if (res->memo && *res->memo)
		return *res->memo;
	entry = sset_intern(fg->set, status, res->frames, res->depth);
	if (res->memo)
		*res->memo = entry;
	return entry;
}

/*
 * --off-cpu: the selected event @record, with its stack @res (NULL: none),
 * is a switch-out when it is a sched_switch; any other event, and a stack
 * record on its own, is not counted.  Return: false when out of memory.
 */
static bool off_cpu_out(struct fgdecode *fg, struct tep_record *record,
			struct tep_record *stack, const struct resolved *res)
{
	struct tep_handle *tep = fg->reader.tep;
	enum sset_status status = res ? status_of(res) : SSET_FRAMES;
	bool frames = res && sset_has_frames(status);

	if (record == stack || !offcpu_is_switch(&fg->offcpu, tep, record))
		return true;
	return !offcpu_switch_out(&fg->offcpu, tep, record, status,
				  frames ? res->frames : NULL,
				  frames ? res->depth : 0);
}

/*
 * --wakers: a wakeup, selected or not, with its stack record @stack (NULL:
 * none) of kind @kind, which emit() resolved when it was @selected.
 * Return: false when out of memory.
 */
static bool off_cpu_waking(struct fgdecode *fg, struct tep_record *record,
			   struct tep_record *stack, enum reader_kind kind,
			   bool selected)
{
	struct tep_handle *tep = fg->reader.tep;
	struct resolved *res = &fg->resolved;
	enum sset_status status;
	bool frames;

	if (!offcpu_is_waking(&fg->offcpu, tep, record))
		return true;
	if (!stack)
		return !offcpu_waking(&fg->offcpu, tep, record, SSET_FRAMES,
				      NULL, 0);
	if (!selected)
		resolve_record(&fg->res, kind, stack, res);
	status = status_of(res);
	frames = sset_has_frames(status);
	return !offcpu_waking(&fg->offcpu, tep, record, status,
			      frames ? res->frames : NULL,
			      frames ? res->depth : 0);
}

/*
 * --off-cpu: every sched_switch, selected or not, brings its next task
 * back; an unselected one takes its prev task off uncharged.
 * Return: false when out of memory.
 */
static bool off_cpu_in(struct fgdecode *fg, struct tep_record *record,
		       bool selected)
{
	struct tep_handle *tep = fg->reader.tep;

	if (!offcpu_is_switch(&fg->offcpu, tep, record))
		return true;
	if (offcpu_switch_in(&fg->offcpu, tep, record))
		return false;
	return selected ||
	       !offcpu_switch_out_uncharged(&fg->offcpu, tep, record);
}

/*
 * Count the stack @res of an event (weighing @weight with --weight), or of
 * an orphan; false when out of memory.
 */
static bool count_stack(struct fgdecode *fg, const struct resolved *res,
			struct sset_entry *entry, struct tep_record *record,
			bool orphan, sm_u64 weight)
{
	int id = reader_type(&fg->reader, record);

	if (!entry)
		return false;
	if (orphan)
		return !sset_count_orphan(fg->set, entry, res->owner);
	if (fg->opt.weight)
		return !sset_count_weighted(fg->set, entry, id, weight);
	return !sset_count(fg->set, entry, id);
}

/*
 * --weight: what the event @record weighs (0 for a stack record shown on
 * its own: no event carried it).  Return: false after printing why not.
 */
static bool read_weight(struct fgdecode *fg, struct tep_record *record,
			struct tep_record *stack, sm_u64 *weight)
{
	struct sm_err err;

	*weight = 0;
	if (!fg->opt.weight || record == stack)
		return true;
	if (!weight_read(&fg->weight, fg->reader.tep, record, weight, &err))
		return true;
	fg_file_error(fg->opt.path, "%s", err.msg);
	fg->failed = true;
	return false;
}

/*
 * Resolve the stack record @stack (NULL: none) of the selected event
 * @record, count it, and print the event with it in the chosen output.
 * With @orphan, @record is @stack itself, a stack record that belongs to no
 * event before it: it is printed as such and charged to no event.
 */
static void emit(struct fgdecode *fg, struct tep_record *record, int stream,
		 struct tep_record *stack, enum reader_kind kind,
		 bool orphan)
{
	struct tep_handle *tep = fg->reader.tep;
	const char *buffer = reader_buffer_name(&fg->reader, stream);
	struct resolved *res = stack ? &fg->resolved : NULL;
	struct sset_entry *entry = NULL;
	sm_u64 weight;

	if (!read_weight(fg, record, stack, &weight))
		return;
	fg->matched++;
	if (res) {
		resolve_record(&fg->res, kind, stack, res);
		if (res->what == RESOLVED_STACK &&
		    (res->flags & STACKMAP_FLAG_TRUNCATED))
			fg->res.stats.truncated++;
		/* Given to an event with no owner to check (stackmap 0.1). */
		if (stack != record && kind != READER_KSTACK &&
		    res->what == RESOLVED_STACK &&
		    res->owner == STACKMAP_OWNER_NONE)
			fg->res.stats.unverified++;
	}
	if (fg->opt.off_cpu) {
		if (!off_cpu_out(fg, record, stack, res))
			fg->nomem = true;
	} else if (res) {
		entry = intern(fg, res);
		if (!count_stack(fg, res, entry, record, orphan, weight))
			fg->nomem = true;
	}
	switch (fg->opt.mode) {
	case OUT_TEXT:
		format_event(&fg->line, tep, &fg->comms, record, buffer,
			     reader_buffer_width(&fg->reader));
		if (orphan)
			format_orphan(&fg->line, tep, res->owner);
		if (res && format_stack(&fg->line, &fg->sz, res, entry,
					fg->opt.cookies))
			fg->nomem = true;
		else if (!res && fg->cut)
			format_cut(&fg->line);
		break;
	case OUT_JSON:
		/* --off-cpu: intervals, printed as they end (fgdecode.c). */
		if (fg->opt.off_cpu)
			break;
		if (json_event(stdout, &fg->sz, record, buffer, res, entry,
			       orphan, fg->opt.weight && stack != record ?
			       &weight : NULL))
			fg->nomem = true;
		break;
	case OUT_PPROF:
		if (entry && !orphan &&
		    pprof_add(fg->pprof, tep, record, entry, weight))
			fg->nomem = true;
		break;
	case OUT_FOLDED:
	case OUT_TOP:
	case OUT_FLAMEGRAPH:
		break;
	}
}

/* A stack_define line (with its stack) into @s, after what @s holds. */
static void print_define(struct fgdecode *fg, struct tep_record *record,
			 int stream, struct trace_seq *s)
{
	if (s->len)
		trace_seq_putc(s, '\n');
	format_event(s, fg->reader.tep, &fg->comms, record,
		     reader_buffer_name(&fg->reader, stream),
		     reader_buffer_width(&fg->reader));
	resolve_record(&fg->res, READER_DEFINE, record, &fg->resolved);
	format_stack(s, &fg->sz, &fg->resolved, NULL, false);
}

/* Are stack_define records printed, in the text output? */
static bool show_defines(struct fgdecode *fg)
{
	return fg->opt.show_defines && fg->opt.mode == OUT_TEXT;
}

static bool is_stack_kind(enum reader_kind kind)
{
	return kind == READER_COOKIE || kind == READER_FALLBACK ||
	       kind == READER_KSTACK;
}

/*
 * The kind of the next record of @stream, if it continues the event just
 * read; READER_NONE when there is none, or events were lost in between (a
 * stack there would belong to a lost event).
 */
static enum reader_kind next_kind(struct fgdecode *fg, int stream)
{
	struct tep_record *next = reader_peek(&fg->reader, stream);

	if (!next || next->missed_events)
		return READER_NONE;
	return reader_kind(&fg->reader, next);
}

/*
 * Was the stack record @next, of kind @k, written after its ring buffer
 * refused one on its CPU (STACKMAP_COOKIE_AFTER_LOSS)?  Whatever its owner,
 * the refused one may have been @event's, and a later record of @event's
 * type may be that of an event the buffer refused: the scan ends there.
 */
static bool after_loss(struct fgdecode *fg, struct tep_record *next,
		       enum reader_kind k)
{
	return k == READER_COOKIE &&
	       tepstack_after_loss(reader_fields(&fg->reader, READER_COOKIE),
				   next);
}

/* Did @event's task write the stack record @next (events.h)? */
static bool same_task(struct fgdecode *fg, struct tep_record *event,
		      struct tep_record *next)
{
	return tep_data_pid(fg->reader.tep, next) ==
	       tep_data_pid(fg->reader.tep, event);
}

/*
 * May the scan for the stack of an event of @type pass the event @next of
 * the same context?  Only when @type owns stacks and @next is of another
 * type: on PREEMPT_RT an interrupt that arrives between an event and its
 * stack record wakes its threads on the way out, after its hard-IRQ count
 * is gone, so a sched_waking with the interrupted task's context is written
 * in between (seen on 6.12-rt: kmem:kmalloc, sched_waking, stack_cookie).
 * The next event of @type itself ends the scan: a stack after it can be
 * that event's (or of one of its kind the filter dropped), never @event's;
 * in task context only the next one of @event's own task does.
 */
static bool passes_event(struct fgdecode *fg, struct tep_record *event,
			 sm_u32 type, unsigned int ctx, struct tep_record *next)
{
	if (!resolve_is_owner(&fg->res, type))
		return false;
	if ((sm_u32)reader_type(&fg->reader, next) != type)
		return true;
	/*
	 * Another task's event of @type, in task context: @event's task was
	 * preempted between its event and its stack record (probes run
	 * preemptible on 7.x; the module pins the task to its CPU, so its
	 * stack record comes later on this one).
	 */
	return !stackmap_context_level(ctx) && !same_task(fg, event, next);
}

/*
 * Which record of @stream's lookahead is the stack of @event (events.h,
 * "Which event a stack belongs to"): the first stack record of @event's
 * context that names @event's type as its owner.  The scan passes
 * stack_define records, other stack records of that context (orphans),
 * whatever an interrupt nested in between recorded (records of a deeper
 * context) and, for a type that owns stacks, events of other types in its
 * context (passes_event()); it stops at lost events, at the next event of
 * @event's type in its context, at any other event of its context when its
 * type owns no stack, at a record of a shallower context (@event's
 * context has ended), at a stack record written after a loss (after_loss())
 * and at a stack of @event's type that another task wrote (same_task()).
 * When no stack names @event, the first stack record of its context whose
 * owner is not known (an unresolved cookie, a stackmap 0.1 definition,
 * ftrace's kernel_stack) is taken, as the stack that follows it.
 *
 * Return: the record's position for reader_take_at(), with its kind in
 * @kind; -1 (and READER_NONE) when @event carries no stack, with @at_end set when the scan
 * met the end of @stream (nothing of @event's context was written after
 * it: tracing stopped, or trace-cmd stopped reading; not when the scan
 * passed an event of that context on its way).
 */
static int find_stack(struct fgdecode *fg, struct tep_record *event,
		      int stream, enum reader_kind *kind, bool *at_end)
{
	sm_u32 type = (sm_u32)reader_type(&fg->reader, event);
	unsigned int ctx = reader_context(&fg->reader, event), c;
	enum reader_kind k, ownerless_kind = READER_NONE;
	int i, ownerless = -1;
	bool first = true, passed = false;
	struct tep_record *next;
	sm_u32 owner;

	*at_end = false;
	for (i = 0; i < READER_LOOKAHEAD; i++) {
		next = reader_peek_at(&fg->reader, stream, i);
		if (!next) {
			*at_end = ownerless < 0 && !passed;
			break;
		}
		if (next->missed_events)
			break;
		k = reader_kind(&fg->reader, next);
		if (k == READER_DEFINE)
			continue;
		/* Whatever its context: the refusal may have come before it. */
		if (after_loss(fg, next, k))
			break;
		c = reader_context(&fg->reader, next);
		if (c != ctx) {
			if (stackmap_context_level(c) > stackmap_context_level(ctx))
				continue;	/* an interrupt nested in */
			break;
		}
		if (!is_stack_kind(k)) {
			if (!passes_event(fg, event, type, ctx, next))
				break;
			first = false;
			passed = true;
			continue;
		}
		if (resolve_owner(&fg->res, k, next, &owner)) {
			if (owner == type && same_task(fg, event, next)) {
				*kind = k;
				return i;
			}
			/* Another task's, after its own event (passes_event()). */
			if (owner == type && stackmap_context_level(ctx))
				break;
			passed |= owner == type;
		} else if (first && same_task(fg, event, next)) {
			ownerless = i;
			ownerless_kind = k;
		}
		first = false;
	}
	*kind = ownerless_kind;
	return ownerless;
}

/*
 * The event @event just read came from @stream: skip the definitions that
 * follow it there (printing them into fg->after when asked and @selected),
 * then take its stack record (find_stack()).
 *
 * Return: that record (release with reader_put()) with its kind in @kind,
 * or NULL when the event carries no stack.  An event of a type that owns
 * stacks (resolve_is_owner()) and carries none is counted, and marked in
 * fg->cut when its stream ended before a stack could follow it.
 */
static struct tep_record *take_stack(struct fgdecode *fg,
				     struct tep_record *event, int stream,
				     bool selected,
				     enum reader_kind *kind)
{
	struct tep_record *next;
	bool at_end;
	int i;

	while ((*kind = next_kind(fg, stream)) == READER_DEFINE) {
		next = reader_take(&fg->reader, stream);
		fg->events++;
		if (selected && show_defines(fg))
			print_define(fg, next, stream, &fg->after);
		reader_put(next);
	}
	i = find_stack(fg, event, stream, kind, &at_end);
	if (i < 0) {
		if (resolve_is_owner(&fg->res,
				     reader_type(&fg->reader, event))) {
			fg->res.stats.stackless++;
			fg->res.stats.stackless_at_end += at_end;
			fg->cut = at_end;
		}
		return NULL;
	}
	fg->events++;
	return reader_take_at(&fg->reader, stream, i);
}

/* A stack_define met on its own: printed (or its lost-events line kept). */
static void decode_define(struct fgdecode *fg, struct tep_record *record,
			  int stream)
{
	if (fg->opt.mode != OUT_TEXT ||
	    !filter_match(&fg->opt.filter, fg->reader.tep, record))
		return;
	/* Hidden, but not the news that events were lost before it. */
	if (show_defines(fg))
		print_define(fg, record, stream, &fg->line);
	else
		format_dropped(&fg->line, record);
	format_flush(&fg->line, stdout);
}

static void decode_record(struct fgdecode *fg, struct tep_record *record,
			  int stream)
{
	enum reader_kind kind = reader_kind(&fg->reader, record);
	struct tep_record *stack = NULL;
	bool selected, orphan;
	sm_u32 owner;

	fg->events++;
	if (kind == READER_DEFINE) {
		decode_define(fg, record, stream);
		return;
	}
	selected = filter_match(&fg->opt.filter, fg->reader.tep, record);
	if (is_stack_kind(kind)) {
		/* No event before it took it: an orphan if it names one. */
		orphan = resolve_owner(&fg->res, kind, record, &owner);
		if (orphan)
			fg->res.stats.orphans++;
		if (selected)
			emit(fg, record, stream, record, kind, orphan);
	} else {
		stack = take_stack(fg, record, stream, selected, &kind);
		if (fg->opt.off_cpu && !off_cpu_in(fg, record, selected))
			fg->nomem = true;
		if (selected)
			emit(fg, record, stream, stack, kind, false);
		if (fg->opt.wakers &&
		    !off_cpu_waking(fg, record, stack, kind, selected))
			fg->nomem = true;
	}
	if (stack)
		reader_put(stack);
	fg->cut = false;
	format_flush(&fg->line, stdout);
	format_flush(&fg->after, stdout);
}

/* Files from this size on get a progress line when stderr is a terminal. */
#define PROGRESS_MIN_BYTES	(64ULL << 20)

struct progress {
	unsigned long long size;	/* 0: no progress shown */
	time_t last;
	int shown;
};

static void progress_init(struct progress *p, const char *path)
{
	struct stat st;

	memset(p, 0, sizeof(*p));
	if (isatty(STDERR_FILENO) && !stat(path, &st) &&
	    (unsigned long long)st.st_size >= PROGRESS_MIN_BYTES)
		p->size = st.st_size;
}

/* At most once a second: how far into the file the records are. */
static void progress_update(struct progress *p, const struct tep_record *r)
{
	time_t now;

	if (!p->size || (now = time(NULL)) == p->last)
		return;
	p->last = now;
	p->shown = 1;
	fprintf(stderr, "\rfgdecode: %3llu%%", r->offset * 100 / p->size);
}

static void progress_done(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r              \r");
}

/* folded_fn: fgdecode diff collects the stacks of this side. */
static int add_to_diff(void *ctx, const char *stack, sm_u64 weight)
{
	struct fgdecode *fg = ctx;

	return fgdiff_add(fg->diff, fg->diff_side, stack, weight);
}

int fg_decode(struct fgdecode *fg)
{
	struct tep_record *record;
	struct progress progress;
	int stream;

	progress_init(&progress, fg->opt.path);
	if (fg->opt.mode == OUT_TEXT)
		format_header(stdout, fg->reader.nr_cpus);
	while (!fg->nomem && !fg->failed &&
	       (record = reader_next(&fg->reader, &stream))) {
		progress_update(&progress, record);
		if (!fg->events)
			fg->first_ts = record->ts;
		fg->last_ts = record->ts;
		decode_record(fg, record, stream);
		reader_put(record);
	}
	progress_done(&progress);
	if (fg->opt.off_cpu)
		offcpu_finish(&fg->offcpu);
	if (fg->failed)
		return -EINVAL;
	if (fg->nomem)
		return -ENOMEM;
	if (fg->diff)
		return folded_foreach(&fg->sz, fg->set, fg->opt.merge,
				      add_to_diff, fg);
	if (fg->opt.mode == OUT_FOLDED)
		return folded_print(stdout, &fg->sz, fg->set, fg->opt.merge);
	if (fg->opt.mode == OUT_TOP)
		return top_print(stdout, &fg->sz, fg->set, fg->opt.top);
	return 0;
}
