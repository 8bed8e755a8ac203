// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's pass: every record of the trace in time order, each through the
 * stages of the pipeline:
 *
 *   read (read.c) -> pair with its stack record (pair.c) -> resolve the
 *   stack (resolve.c) -> weigh it into the stack set (analyses.c) -> the
 *   output (output.h: whichever the command line chose)
 *
 * A stack record no event took is shown on its own (an orphan when it names
 * an owner); a stack_define is given to the output when it wants them.  The
 * pass names no output and no analysis: both are behind their tables
 * (output.h, analyses.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyses.h"
#include "fgdecode.h"
#include "filter.h"
#include "pair.h"
#include "read.h"
#include "resolve.h"

/* The record @record of @stream as an event for the output. */
static struct fg_event event_of(struct fgdecode *fg,
				struct tep_record *record, int stream)
{
	return (struct fg_event){
		.record = record,
		.buffer = reader_buffer_name(&fg->reader, stream),
		.buffer_width = reader_buffer_width(&fg->reader),
	};
}

/* Stop the pass on an error (-ENOMEM; other errors were printed). */
static void stop(struct fgdecode *fg, int err)
{
	if (err && !fg->err)
		fg->err = err;
}

/*
 * Give the output the stack_define @record of @stream, met on its own or
 * (@after_event) while pairing the selected event just read.
 */
static void give_define(struct fgdecode *fg, struct tep_record *record,
			int stream, bool after_event)
{
	struct fg_event ev = event_of(fg, record, stream);
	struct fg_define def = {
		.record = record,
		.buffer = ev.buffer,
		.buffer_width = ev.buffer_width,
		.after_event = after_event,
	};

	if (!fg->out.ops->define)
		return;
	if (fg->env.define_stacks) {
		resolve_record(&fg->res, READER_DEFINE, record, &fg->resolved);
		def.stack = &fg->resolved;
	}
	stop(fg, fg->out.ops->define(fg->out.state, &def));
}

/*
 * Resolve the stack record @stack (of kind @kind) of @ev, counting what the
 * resolver's summary reports of it.
 */
static void resolve_stack(struct fgdecode *fg, struct fg_event *ev,
			  struct tep_record *stack, enum reader_kind kind)
{
	struct resolved *res = &fg->resolved;

	resolve_record(&fg->res, kind, stack, res);
	ev->stack = res;
	if (res->what != RESOLVED_STACK)
		return;
	if (res->flags & STACKMAP_FLAG_TRUNCATED)
		fg->res.stats.truncated++;
	/* Given to an event with no owner to check (stackmap 0.1). */
	if (!ev->standalone && kind != READER_KSTACK &&
	    res->owner == STACKMAP_OWNER_NONE)
		fg->res.stats.unverified++;
}

/*
 * The selected @ev with its stack record @stack (NULL: none) of kind @kind:
 * weighed, resolved, counted, then given to the output.
 */
static void emit(struct fgdecode *fg, struct fg_event *ev,
		 struct tep_record *stack, enum reader_kind kind)
{
	struct sm_err err;
	sm_u64 weight;

	if (analyses_weigh(&fg->an, fg->reader.tep, ev, &weight, &err)) {
		fg_file_error(fg->opt.path, "%s", err.msg);
		stop(fg, -EINVAL);
		return;
	}
	fg->matched++;
	if (stack)
		resolve_stack(fg, ev, stack, kind);
	stop(fg, analyses_count(&fg->an, fg->reader.tep, ev,
				reader_type(&fg->reader, ev->record)));
	if (fg->out.ops->event)
		stop(fg, fg->out.ops->event(fg->out.state, ev));
}

/*
 * An event, selected or not, whose stack an analysis reads (--wakers: a
 * wakeup joins the interval it ends) gets it (emit() resolved it when it
 * was @selected).
 */
static void analysed_stack(struct fgdecode *fg, struct fg_event *ev,
			   struct tep_record *stack, enum reader_kind kind,
			   bool selected)
{
	if (!analyses_wants_stack(&fg->an, fg->reader.tep, ev->record))
		return;
	if (stack && !selected) {
		resolve_record(&fg->res, kind, stack, &fg->resolved);
		ev->stack = &fg->resolved;
	}
	stop(fg, analyses_stack(&fg->an, fg->reader.tep, ev->record,
				stack ? ev->stack : NULL));
}

/* A stack record no event before it took: an orphan if it names one. */
static void decode_stack(struct fgdecode *fg, struct tep_record *record,
			 int stream, enum reader_kind kind, bool selected)
{
	struct fg_event ev = event_of(fg, record, stream);
	sm_u32 owner;

	ev.standalone = true;
	ev.orphan = resolve_owner(&fg->res, kind, record, &owner);
	if (ev.orphan)
		fg->res.stats.orphans++;
	if (selected)
		emit(fg, &ev, record, kind);
}

/* An event of @type had a stack record (fg->stack_types). */
static void note_stack_type(struct fgdecode *fg, int type)
{
	const int bits = 8 * sizeof(fg->stack_types[0]);

	fg->records++;
	if (type >= 0 && type < (1 << 16))
		fg->stack_types[type / bits] |= 1UL << (type % bits);
}

/*
 * An event: the definitions that follow it (given to the output after it
 * when it is selected), its stack record (pair.h), then the analyses and
 * the output.
 */
static void decode_event(struct fgdecode *fg, struct tep_record *record,
			 int stream, bool selected)
{
	struct fg_event ev = event_of(fg, record, stream);
	struct tep_record *stack, *def;
	enum reader_kind kind;

	fg->events++;
	while ((def = pair_take_define(&fg->reader, stream))) {
		fg->records++;
		if (selected)
			give_define(fg, def, stream, true);
		reader_put(def);
	}
	stack = pair_take_stack(&fg->reader, &fg->res, record, stream, &kind,
				&ev.cut);
	if (stack)
		note_stack_type(fg, reader_type(&fg->reader, record));
	stop(fg, analyses_event(&fg->an, fg->reader.tep, record, selected));
	if (selected) {
		fg->selected++;
		emit(fg, &ev, stack, kind);
	}
	analysed_stack(fg, &ev, stack, kind, selected);
	if (stack)
		reader_put(stack);
}

static void decode_record(struct fgdecode *fg, struct tep_record *record,
			  int stream)
{
	enum reader_kind kind = reader_kind(&fg->reader, record);
	bool selected = filter_match(&fg->opt.filter, fg->reader.tep, record);

	fg->records++;
	if (kind == READER_DEFINE) {
		if (selected)
			give_define(fg, record, stream, false);
	} else if (pair_is_stack(kind)) {
		decode_stack(fg, record, stream, kind, selected);
	} else {
		decode_event(fg, record, stream, selected);
	}
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

int fg_decode(struct fgdecode *fg)
{
	struct tep_record *record;
	struct progress progress;
	int stream;

	progress_init(&progress, fg->opt.path);
	while (!fg->err && (record = reader_next(&fg->reader, &stream))) {
		progress_update(&progress, record);
		if (!fg->records) {
			fg->first_ts = record->ts;
			filter_set_origin(&fg->opt.filter, record->ts);
		}
		fg->last_ts = record->ts;
		decode_record(fg, record, stream);
		reader_put(record);
	}
	progress_done(&progress);
	analyses_finish(&fg->an);
	return fg->err;
}
