// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: print a trace.dat like `trace-cmd report`, with the stack of each
 * event that a stackmap stack_cookie (or stack_fallback), or an ftrace
 * kernel_stack, follows on the same CPU of the same buffer expanded under it.
 * A stackmap stack goes only to the event it names as its owner, in the
 * same context (events.h, "Which event a stack belongs to"); any other is an
 * orphan, shown on its own.
 *
 * The pipeline, one file per stage: read.c (libtracecmd, all buffers) ->
 * resolve.c (cookie -> stack) -> symbolize.c (address -> symbol) -> one
 * formatter per output: format.c (text), json.c, folded.c, top.c; filter.c
 * selects events and stackset.c interns stacks so that each distinct stack
 * is formatted once.  This file holds the options and the loop that decides
 * which record a stack belongs to.
 *
 * What a stack weighs is decided on the way into the stack set: one per
 * event by default, a field of the event with --weight (weight.c), the
 * time its task then spent off the CPU with --off-cpu (offcpu.c, which also
 * joins wakers).  fgdecode diff reads two traces into one diff.c table by
 * their folded stacks and prints what changed.
 *
 * With --map it prints the module's stack_map listing instead (maplist.c
 * reads it, mapout.c prints it), once or every --interval seconds.
 *
 * Exit status: 0 success; 1 the trace (with --map: the listing or the
 * kallsyms) cannot be read, out of memory, or the output cannot be written;
 * 2 bad usage; 3 (--strict only) the trace holds stale, unknown or
 * conflicting cookies, orphan stacks or corrupt records.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "debuginfo.h"
#include "filter.h"
#include "dwsym.h"
#include "flamegraph.h"
#include "folded.h"
#include "fault.h"
#include "format.h"
#include "json.h"
#include "kallsyms.h"
#include "maplist.h"
#include "mapout.h"
#include "pprof.h"
#include "read.h"
#include "resolve.h"
#include "stackset.h"
#include "top.h"
#include "tracedat_options.h"
#include "weight.h"
#include "offcpu.h"
#include "diff.h"
#include "stackmap/version.h"

/* Per-record warnings printed before the rest are only counted. */
#define MAX_WARNINGS		20

#define EXIT_ERROR		1
#define EXIT_USAGE		2
#define EXIT_STRICT		3

/* Reads of a live listing retried when a reset made one inconsistent. */
#define MAP_READ_TRIES		3

enum output_mode {
	OUT_TEXT = 0,
	OUT_JSON,
	OUT_FOLDED,
	OUT_TOP,
	OUT_PPROF,
	OUT_FLAMEGRAPH,
};

struct options {
	bool show_defines;
	bool cookies;
	bool summary;
	bool strict;
	bool merge;
	enum output_mode mode;
	size_t top;
	const char *view;	/* --pprof or --flamegraph FILE */
	bool no_plugins;	/* -N */
	struct filter filter;
	const char *vmlinux;
	const char *modules;
	bool debuginfo;
	const char *path;	/* NULL with --map: the live listing */
	bool map;
	const char *kallsyms;	/* --kallsyms, with --map */
	const char *stack_map;	/* --stack-map FILE or "live" */
	const char *weight;	/* --weight FIELD, NULL: count events */
	bool off_cpu;		/* --off-cpu */
	bool task_root;		/* --task-root, with --off-cpu */
	bool wakers;		/* --wakers, with --off-cpu */
	bool diff;		/* fgdecode diff */
	const char *new_path;	/* diff: the second trace (path: the base) */
	bool normalize;		/* diff --normalize */
	bool any_kernel;	/* diff --any-kernel */
	enum output_mode diff_mode;	/* diff: OUT_TEXT (table), OUT_FOLDED
					 * or OUT_TOP */
	double interval;	/* --interval seconds, 0: read once */
	unsigned long count;	/* --count, 0: until interrupted */
};

struct fgdecode {
	struct options opt;
	struct reader reader;
	struct resolver res;
	struct stackset *set;
	struct pprof *pprof;		/* with --pprof */
	struct kallsyms kallsyms;	/* with --vmlinux */
	struct symbolizer sz;
	struct resolved resolved;	/* the stack being printed */
	struct trace_seq line;		/* the event and its stack */
	struct trace_seq after;		/* definitions met while attaching */
	struct weight weight;		/* with --weight */
	struct offcpu offcpu;		/* with --off-cpu */
	struct fgdiff *diff;		/* fgdecode diff: where stacks go */
	int diff_side;			/* DIFF_BASE or DIFF_NEW */
	char release[128];		/* kernel release, for diff */
	size_t events;
	size_t matched;
	size_t warnings;
	bool cut;			/* the event printed lost its stack
					 * to the end of its stream */
	bool nomem;
	bool failed;			/* an error was printed: stop */
};

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: fgdecode [options] trace.dat\n"
		"       fgdecode report [options] trace.dat\n"
		"       fgdecode map [options] [LISTING]   (fgdecode map --help)\n"
		"\n"
		"Print the events of trace.dat in time order, like trace-cmd report, with the\n"
		"stack each stackmap stack_cookie or stack_fallback event, or ftrace kernel_stack\n"
		"event, carries printed as '=> ' lines under the event it follows on the same CPU.\n"
		"\n"
		"Output (default: text):\n"
		"  --json          one JSON object per event per line\n"
		"  --folded        folded stacks (flame graphs), one line per event and stack\n"
		"  --merge         with --folded: merge all events, no event root frame\n"
		"  --top N         the N stacks carried by the most events\n"
		"  --pprof FILE    a gzip-compressed pprof profile (go tool pprof, Pyroscope,\n"
		"                  Parca) of the stacks, labelled by event, comm, pid, cpu;\n"
		"                  FILE - is standard output\n"
		"  --flamegraph FILE  an interactive SVG flame graph of the stacks (zoom on\n"
		"                  click, search); FILE - is standard output\n"
		"  --cookies       head each cookie's stack with <cookie 0xC gen G slot S>\n"
		"                  and each fallback stack with <fallback REASON>\n"
		"  --show-defines  also print the stack_define events\n"
		"  --weight FIELD  weigh each stack by the sum of the numeric FIELD of its\n"
		"                  events (e.g. bytes_alloc) instead of their number, in\n"
		"                  --top, --folded and --json; every selected event must\n"
		"                  have FIELD\n"
		"  --off-cpu       with --top N, --folded, --pprof or --flamegraph: weigh\n"
		"                  each sched_switch stack by the ns its task then spent\n"
		"                  off the CPU, under the state it left in ([S], [D],\n"
		"                  [R+], ...)\n"
		"  --task-root     with --off-cpu: the task's comm as the root frame\n"
		"  --wakers        with --off-cpu: each interval under the stack of the\n"
		"                  wakeup that ended it (sched_waking with stacks), as\n"
		"                  'WAKER;waker stack;--;[STATE];blocked stack'\n"
		"Symbols (default: the kallsyms stored in the trace):\n"
		"  --vmlinux FILE  DWARF function names, file:line and inlined frames from\n"
		"                  FILE, placed at the recorded (KASLR) address; refused\n"
		"                  when its symbols do not match the recording\n"
		"  --modules DIR   the same for the recorded modules' NAME.ko files\n"
		"                  found under DIR\n"
		"  --debuginfo     find the vmlinux and modules of the recorded kernel\n"
		"                  release under /usr/lib/debug, /boot and /lib/modules\n"
		"Definitions (after the trace's own and its map snapshot):\n"
		"  --stack-map FILE|live  also resolve cookies from a saved stack_map\n"
		"                  listing (live: the module's), for its generation only\n"
		"Filters (repeatable ones accept comma-separated lists):\n"
		"  --event NAME    only events NAME or SYSTEM:NAME (repeatable)\n"
		"  --pid PID       only events of PID (repeatable)\n"
		"  --cpu CPU       only events on CPU (repeatable)\n"
		"  --from SEC      only events at or after SEC (seconds, as printed)\n"
		"  --to SEC        only events at or before SEC\n"
		"Event text (default: as trace-cmd report, with its libtraceevent plugins):\n"
		"  -N, --no-plugins  load no plugin, as trace-cmd report -N\n"
		"Other:\n"
		"  --strict        exit 3 if any cookie is stale, unknown or conflicting,\n"
		"                  any stack is an orphan or any record is corrupt\n"
		"  --no-summary    do not print the summary line on stderr\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}

static void map_usage(FILE *out)
{
	fprintf(out,
		"usage: fgdecode map [options] [LISTING]\n"
		"       fgdecode --map [options] [LISTING]\n"
		"\n"
		"Print the stacks of the module's stack_map (live, or LISTING, a saved copy)\n"
		"with their hit counts, as a stack profile.\n"
		"\n"
		"Output (default: text):\n"
		"  --json          one JSON object per stack per line\n"
		"  --folded        folded stacks (flame graphs) weighted by hits\n"
		"  --top N         the N stacks with the most hits\n"
		"Symbols:\n"
		"  --kallsyms FILE symbols from FILE, a saved /proc/kallsyms (default:\n"
		"                  /proc/kallsyms for the live map, none for a LISTING)\n"
		"  --vmlinux FILE, --modules DIR  DWARF symbols, as for fgdecode report\n"
		"Over time:\n"
		"  --interval SEC  read the map every SEC seconds and print the hits per\n"
		"                  second of the stacks that changed (text or --top N)\n"
		"  --count N       with --interval: stop after N intervals\n"
		"Other:\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}

__attribute__((format(printf, 2, 3)))
static void fatal(const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fgdecode: %s: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* resolve_warn_fn: one line per bad record, up to MAX_WARNINGS. */
static void warn_record(void *ctx, const struct tep_record *record,
			const char *msg)
{
	struct fgdecode *fg = ctx;

	if (fg->warnings++ >= MAX_WARNINGS)
		return;
	fprintf(stderr, "fgdecode: %s: CPU %d ts %llu: %s\n", fg->opt.path,
		record->cpu, record->ts, msg);
	if (fg->warnings == MAX_WARNINGS)
		fprintf(stderr, "fgdecode: %s: further warnings suppressed\n",
			fg->opt.path);
}

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

/* The set entry that stands for @res. */
static struct sset_entry *intern(struct fgdecode *fg,
				 const struct resolved *res)
{
	enum sset_status status = status_of(res);

	if (!sset_has_frames(status))
		return sset_intern(fg->set, status, NULL, 0);
	return sset_intern(fg->set, status, res->frames, res->depth);
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
			   struct tep_record *stack, int kind, bool selected)
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
	int id = tep_data_type(fg->reader.tep, record);

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
	fatal(fg->opt.path, "%s", err.msg);
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
		 struct tep_record *stack, int kind, bool orphan)
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
		format_event(&fg->line, tep, record, buffer);
		if (orphan)
			format_orphan(&fg->line, tep, res->owner);
		if (res && format_stack(&fg->line, &fg->sz, res, entry,
					fg->opt.cookies))
			fg->nomem = true;
		else if (!res && fg->cut)
			format_cut(&fg->line);
		break;
	case OUT_JSON:
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
	format_event(s, fg->reader.tep, record,
		     reader_buffer_name(&fg->reader, stream));
	resolve_record(&fg->res, TEPSTACK_DEFINE, record, &fg->resolved);
	format_stack(s, &fg->sz, &fg->resolved, NULL, false);
}

/* Are stack_define records printed, in the text output? */
static bool show_defines(struct fgdecode *fg)
{
	return fg->opt.show_defines && fg->opt.mode == OUT_TEXT;
}

static bool is_stack_kind(int kind)
{
	return kind == TEPSTACK_COOKIE || kind == TEPSTACK_FALLBACK ||
	       kind == READER_KSTACK;
}

/*
 * Does the next record of @stream continue the event just read?  Not when
 * events were lost in between: the stack would then belong to a lost event.
 */
static int next_kind(struct fgdecode *fg, int stream)
{
	struct tep_record *next = reader_peek(&fg->reader, stream);

	if (!next || next->missed_events)
		return -1;
	return reader_kind(&fg->reader, next);
}

/*
 * Which record of @stream's lookahead is the stack of @event (events.h,
 * "Which event a stack belongs to"): the first stack record of @event's
 * context that names @event's type as its owner.  The scan passes
 * stack_define records, other stack records of that context (orphans) and
 * whatever an interrupt nested in between recorded (records of a deeper
 * context); it stops at lost events, at the next event of @event's context
 * and at a record of a shallower context (@event's context has ended).
 * When no stack names @event, the first stack record of its context whose
 * owner is not known (an unresolved cookie, a stackmap 0.1 definition,
 * ftrace's kernel_stack) is taken, as the stack that follows it.
 *
 * Return: the record's position for reader_take_at(), with its kind in
 * @kind; -1 when @event carries no stack, with @at_end set when the scan
 * met the end of @stream (nothing of @event's context was written after
 * it: tracing stopped, or trace-cmd stopped reading).
 */
static int find_stack(struct fgdecode *fg, struct tep_record *event,
		      int stream, int *kind, bool *at_end)
{
	struct tep_handle *tep = fg->reader.tep;
	sm_u32 type = (sm_u32)tep_data_type(tep, event);
	unsigned int ctx = tepstack_context(tep, event), c;
	int i, k, ownerless = -1, ownerless_kind = -1;
	bool first = true;
	struct tep_record *next;
	sm_u32 owner;

	*at_end = false;
	for (i = 0; i < READER_LOOKAHEAD; i++) {
		next = reader_peek_at(&fg->reader, stream, i);
		if (!next) {
			*at_end = ownerless < 0;
			break;
		}
		if (next->missed_events)
			break;
		k = reader_kind(&fg->reader, next);
		if (k == TEPSTACK_DEFINE)
			continue;
		c = tepstack_context(tep, next);
		if (c != ctx) {
			if (stackmap_context_level(c) > stackmap_context_level(ctx))
				continue;	/* an interrupt nested in */
			break;
		}
		if (!is_stack_kind(k))
			break;
		if (resolve_owner(&fg->res, k, next, &owner)) {
			if (owner == type) {
				*kind = k;
				return i;
			}
		} else if (first) {
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
				     bool selected, int *kind)
{
	struct tep_record *next;
	bool at_end;
	int i;

	while ((*kind = next_kind(fg, stream)) == TEPSTACK_DEFINE) {
		next = reader_take(&fg->reader, stream);
		fg->events++;
		if (selected && show_defines(fg))
			print_define(fg, next, stream, &fg->after);
		reader_put(next);
	}
	i = find_stack(fg, event, stream, kind, &at_end);
	if (i < 0) {
		if (resolve_is_owner(&fg->res,
				     tep_data_type(fg->reader.tep, event))) {
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
	int kind = reader_kind(&fg->reader, record);
	struct tep_record *stack = NULL;
	bool selected, orphan;
	sm_u32 owner;

	fg->events++;
	if (kind == TEPSTACK_DEFINE) {
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

/* Pass 2: every record in time order, then the aggregated outputs. */
static int decode(struct fgdecode *fg)
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

enum {
	OPT_SHOW_DEFINES = 256, OPT_NO_SUMMARY, OPT_VERSION, OPT_COOKIES,
	OPT_STRICT, OPT_JSON, OPT_FOLDED, OPT_MERGE, OPT_TOP, OPT_EVENT,
	OPT_PID, OPT_CPU, OPT_FROM, OPT_TO, OPT_VMLINUX, OPT_MODULES, OPT_DEBUGINFO,
	OPT_OFF_CPU, OPT_TASK_ROOT, OPT_NORMALIZE, OPT_ANY_KERNEL,
	OPT_WAKERS,
	OPT_KALLSYMS, OPT_INTERVAL, OPT_COUNT, OPT_STACK_MAP,
	OPT_WEIGHT, OPT_PPROF, OPT_FLAMEGRAPH,
};

/* fgdecode report: the trace decoder's options. */
static const struct option report_longopts[] = {
	{ "cookies", no_argument, NULL, OPT_COOKIES },
	{ "show-defines", no_argument, NULL, OPT_SHOW_DEFINES },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "pprof", required_argument, NULL, OPT_PPROF },
	{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "debuginfo", no_argument, NULL, OPT_DEBUGINFO },
	{ "stack-map", required_argument, NULL, OPT_STACK_MAP },
	{ "no-plugins", no_argument, NULL, 'N' },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "task-root", no_argument, NULL, OPT_TASK_ROOT },
	{ "wakers", no_argument, NULL, OPT_WAKERS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/*
 * fgdecode map: the map profiler's options (--no-summary is accepted, as
 * it always was, and changes nothing: map prints no summary).
 */
static const struct option map_longopts[] = {
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* fgdecode diff: the options of the stacks compared, and how to print. */
static const struct option diff_longopts[] = {
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "normalize", no_argument, NULL, OPT_NORMALIZE },
	{ "any-kernel", no_argument, NULL, OPT_ANY_KERNEL },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "task-root", no_argument, NULL, OPT_TASK_ROOT },
	{ "wakers", no_argument, NULL, OPT_WAKERS },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* Select output @mode; only one of --json, --folded, --top. */
static int set_mode(struct options *opt, enum output_mode mode)
{
	if (opt->mode != OUT_TEXT && opt->mode != mode) {
		fprintf(stderr, "fgdecode: --json, --folded, --top, --pprof and --flamegraph exclude each other\n");
		return -1;
	}
	opt->mode = mode;
	return 0;
}

static int parse_top(struct options *opt, const char *arg)
{
	char *end;

	errno = 0;
	opt->top = strtoul(arg, &end, 10);
	if (errno || *end || !*arg || arg[0] == '-' || !opt->top) {
		fprintf(stderr, "fgdecode: --top: '%s' is not a positive number\n",
			arg);
		return -1;
	}
	return set_mode(opt, OUT_TOP);
}

/* --interval SECONDS: a positive number of seconds, at most a day. */
static int parse_interval(struct options *opt, const char *arg)
{
	char *end;

	errno = 0;
	opt->interval = strtod(arg, &end);
	if (errno || *end || !*arg || !(opt->interval >= 0.001) ||
	    opt->interval > 86400) {
		fprintf(stderr, "fgdecode: --interval: '%s' is not a number of seconds from 0.001 to 86400\n",
			arg);
		return -1;
	}
	return 0;
}

static int parse_count(struct options *opt, const char *arg)
{
	char *end;

	errno = 0;
	opt->count = strtoul(arg, &end, 10);
	if (errno || *end || !*arg || arg[0] == '-' || !opt->count) {
		fprintf(stderr, "fgdecode: --count: '%s' is not a positive number\n",
			arg);
		return -1;
	}
	return 0;
}

/* A filter option: --event, --pid, --cpu, --from, --to. */
static int parse_filter(struct options *opt, const char *name,
			const char *arg)
{
	if (!filter_add(&opt->filter, name, arg))
		return 0;
	fprintf(stderr, "fgdecode: --%s: invalid value '%s'\n", name, arg);
	return -1;
}

static void diff_usage(FILE *out)
{
	fprintf(out,
		"usage: fgdecode diff [options] BASE.dat NEW.dat\n"
		"\n"
		"Compare the stacks of two traces: each stack's weight in BASE and in NEW,\n"
		"stacks matched by their symbolized frames (as --folded prints them), not by\n"
		"cookie.  By default a table of the stacks that changed, most change first.\n"
		"\n"
		"Output:\n"
		"  --folded        every stack as 'STACK BASE NEW' (differential flame graphs)\n"
		"  --top N         the table's N stacks of most change\n"
		"  --flamegraph FILE  a differential SVG flame graph: NEW's stacks, red where\n"
		"                  they grew, blue where they shrank\n"
		"  --normalize     scale BASE's weights to NEW's total first\n"
		"  --merge         no event root frame\n"
		"What is compared (as for fgdecode report):\n"
		"  --weight FIELD, --off-cpu, --task-root, --wakers, --event, --pid, --cpu,\n"
		"  --from, --to, --vmlinux FILE, --modules DIR\n"
		"Other:\n"
		"  --any-kernel    compare traces of two kernel releases (refused by default)\n"
		"  --no-summary    no summary lines on stderr\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}

/* The help of the command @opt was parsed for. */
static void command_usage(const struct options *opt, FILE *out)
{
	(opt->map ? map_usage : opt->diff ? diff_usage : report_usage)(out);
}

/* One option; -1 on a usage error. */
static int parse_one(struct options *opt, int c, const char *arg)
{
	switch (c) {
	case OPT_COOKIES:
		opt->cookies = true;
		return 0;
	case OPT_SHOW_DEFINES:
		opt->show_defines = true;
		return 0;
	case OPT_NO_SUMMARY:
		opt->summary = false;
		return 0;
	case OPT_STRICT:
		opt->strict = true;
		return 0;
	case OPT_JSON:
		return set_mode(opt, OUT_JSON);
	case OPT_FOLDED:
		return set_mode(opt, OUT_FOLDED);
	case OPT_MERGE:
		opt->merge = true;
		return 0;
	case OPT_TOP:
		return parse_top(opt, arg);
	case OPT_PPROF:
		opt->view = arg;
		return set_mode(opt, OUT_PPROF);
	case OPT_FLAMEGRAPH:
		opt->view = arg;
		return set_mode(opt, OUT_FLAMEGRAPH);
	case OPT_EVENT:
		return parse_filter(opt, "event", arg);
	case OPT_PID:
		return parse_filter(opt, "pid", arg);
	case OPT_CPU:
		return parse_filter(opt, "cpu", arg);
	case OPT_FROM:
		return parse_filter(opt, "from", arg);
	case OPT_TO:
		return parse_filter(opt, "to", arg);
	case OPT_VMLINUX:
		opt->vmlinux = arg;
		return 0;
	case OPT_MODULES:
		opt->modules = arg;
		return 0;
	case OPT_DEBUGINFO:
		opt->debuginfo = true;
		return 0;
	case OPT_KALLSYMS:
		opt->kallsyms = arg;
		return 0;
	case OPT_INTERVAL:
		return parse_interval(opt, arg);
	case OPT_COUNT:
		return parse_count(opt, arg);
	case OPT_STACK_MAP:
		opt->stack_map = arg;
		return 0;
	case OPT_WEIGHT:
		opt->weight = arg;
		return 0;
	case OPT_OFF_CPU:
		opt->off_cpu = true;
		return 0;
	case OPT_TASK_ROOT:
		opt->task_root = true;
		return 0;
	case OPT_WAKERS:
		opt->wakers = true;
		return 0;
	case OPT_NORMALIZE:
		opt->normalize = true;
		return 0;
	case OPT_ANY_KERNEL:
		opt->any_kernel = true;
		return 0;
	case 'N':
		opt->no_plugins = true;
		return 0;
	case 'h':
		command_usage(opt, stdout);
		exit(0);
	case OPT_VERSION:
		printf("fgdecode %s\n", STACKMAP_VERSION);
		exit(0);
	}
	command_usage(opt, stderr);
	return -1;
}

/*
 * --off-cpu sums intervals, not events: an aggregate output only, not with
 * --weight; its folded stacks have no event root (sched_switch, always).
 */
static int parse_off_cpu(struct options *opt)
{
	if ((opt->task_root || opt->wakers) && !opt->off_cpu) {
		fprintf(stderr, "fgdecode: --%s needs --off-cpu\n",
			opt->wakers ? "wakers" : "task-root");
		return -1;
	}
	if (!opt->off_cpu)
		return 0;
	if (!opt->diff && (opt->mode == OUT_TEXT || opt->mode == OUT_JSON)) {
		fprintf(stderr, "fgdecode: --off-cpu sums time per stack: not with the text or --json output\n");
		return -1;
	}
	if (opt->weight) {
		fprintf(stderr, "fgdecode: --off-cpu weighs by time: not with --weight\n");
		return -1;
	}
	opt->merge = true;
	return 0;
}

/* Parse @longopts; -1 on a usage error (printed). */
static int parse_options(struct options *opt, int argc, char **argv,
			 const struct option *longopts)
{
	int c;

	opt->summary = true;
	while ((c = getopt_long(argc, argv, opt->map ? "h" : "hN", longopts,
				NULL)) != -1)
		if (parse_one(opt, c, optarg))
			return -1;
	if (opt->merge && opt->mode != OUT_FOLDED && !opt->diff) {
		fprintf(stderr, "fgdecode: --merge needs --folded\n");
		return -1;
	}
	if (parse_off_cpu(opt))
		return -1;
	return 0;
}

/* fgdecode report: exactly one trace.dat. */
static int parse_report_options(struct options *opt, int argc, char **argv)
{
	if (parse_options(opt, argc, argv, report_longopts))
		return -1;
	if (optind != argc - 1) {
		fprintf(stderr, "fgdecode: expected one trace.dat file\n");
		report_usage(stderr);
		return -1;
	}
	opt->path = argv[optind];
	return 0;
}

/*
 * fgdecode diff: exactly two traces.  The table, --folded or --top N is
 * printed after both are read: while reading, the mode is OUT_FOLDED (no
 * per-event output, folded stacks).
 */
static int parse_diff_options(struct options *opt, int argc, char **argv)
{
	opt->diff = true;
	if (parse_options(opt, argc, argv, diff_longopts))
		return -1;
	if (optind != argc - 2) {
		fprintf(stderr, "fgdecode diff: expected two trace.dat files, BASE and NEW\n");
		diff_usage(stderr);
		return -1;
	}
	opt->path = argv[optind];
	opt->new_path = argv[optind + 1];
	opt->diff_mode = opt->mode;
	opt->mode = OUT_FOLDED;
	return 0;
}

/* fgdecode map: at most one LISTING; --count and --interval go together. */
static int parse_map_options(struct options *opt, int argc, char **argv)
{
	opt->map = true;
	if (parse_options(opt, argc, argv, map_longopts))
		return -1;
	if (optind < argc - 1) {
		fprintf(stderr, "fgdecode: --map: expected at most one listing file\n");
		return -1;
	}
	opt->path = optind < argc ? argv[optind] : NULL;
	if (opt->count && !opt->interval) {
		fprintf(stderr, "fgdecode: --count needs --interval\n");
		return -1;
	}
	if (opt->interval && (opt->mode == OUT_JSON || opt->mode == OUT_FOLDED)) {
		fprintf(stderr, "fgdecode: --interval prints text (or --top N), not --json or --folded\n");
		return -1;
	}
	return 0;
}

/* Under --strict: say why the exit status is EXIT_STRICT, or return 0. */
static int check_strict(struct fgdecode *fg)
{
	const struct resolve_stats *st = &fg->res.stats;

	if (!fg->opt.strict ||
	    !(st->stale + st->unknown + st->conflicting + st->corrupt +
	      st->orphans))
		return 0;
	if (st->orphans)
		fatal(fg->opt.path, "--strict: %zu stale, %zu unknown, %zu conflicting cookies, %zu corrupt records, %zu orphan stacks",
		      st->stale, st->unknown, st->conflicting, st->corrupt,
		      st->orphans);
	else
		fatal(fg->opt.path, "--strict: %zu stale, %zu unknown, %zu conflicting cookies, %zu corrupt records",
		      st->stale, st->unknown, st->conflicting, st->corrupt);
	return EXIT_STRICT;
}

/*
 * --debuginfo: the vmlinux and modules of the release the trace recorded,
 * where --vmlinux and --modules do not name them.  Finding neither is an
 * error naming the release.
 */
static int find_debuginfo(struct fgdecode *fg, struct debuginfo *d)
{
	if (debuginfo_release(reader_uname(&fg->reader), d->release,
			      sizeof(d->release))) {
		fatal(fg->opt.path, "--debuginfo: the trace records no kernel release");
		return -1;
	}
	if (!debuginfo_find(d, "")) {
		fatal(fg->opt.path, "--debuginfo: no vmlinux or modules of %s under /usr/lib/debug, /boot or /lib/modules",
		      d->release);
		return -1;
	}
	if (!fg->opt.vmlinux && d->vmlinux[0])
		fg->opt.vmlinux = d->vmlinux;
	if (!fg->opt.modules && d->modules[0])
		fg->opt.modules = d->modules;
	return 0;
}

/*
 * Symbolize with the kallsyms @tep holds, listed once for the module names;
 * with --vmlinux or --modules, place the vmlinux and modules by them too.
 */
static int open_symbols(struct fgdecode *fg, struct tep_handle *tep,
			const char *name)
{
	static struct debuginfo found;
	char release[128];
	struct sm_err err;

	fg->sz.tep = tep;
	if (fg->opt.debuginfo && !fg->opt.map && find_debuginfo(fg, &found))
		return -1;
	/* Folded stacks print names only: no module, no listing needed. */
	if (fg->opt.mode == OUT_FOLDED && !fg->opt.vmlinux && !fg->opt.modules)
		return 0;
	if (kallsyms_load(&fg->kallsyms, tep)) {
		fatal(name, "cannot list its kallsyms");
		return -1;
	}
	fg->sz.ks = &fg->kallsyms;
	if (!fg->opt.vmlinux && !fg->opt.modules)
		return 0;
	/* The file's own word on its release first, then its symbols. */
	if (fg->opt.vmlinux &&
	    !debuginfo_release(reader_uname(&fg->reader), release,
			       sizeof(release)) &&
	    dwsym_check_banner(fg->opt.vmlinux, release, &err)) {
		fprintf(stderr, "fgdecode: %s\n", err.msg);
		return -1;
	}
	if (dwsym_open(&fg->sz.dw, &fg->kallsyms, fg->opt.vmlinux,
		       fg->opt.modules, &err)) {
		fprintf(stderr, "fgdecode: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/*
 * Resolve cookies from the map snapshot the trace carries, after its
 * definitions.  None (or a version 6 file, which cannot hold one): silent.
 * An unreadable or unusable snapshot: one warning, decoding goes on without.
 *
 * Return: 0, or -ENOMEM.
 */
static int load_snapshot(struct fgdecode *fg)
{
	struct stackmap_snapshot snap;
	struct sm_err err;
	int ret;

	ret = stackmap_snapshot_read_tracedat(fg->opt.path, &snap, &err);
	if (ret == -ENOENT ||
	    (ret == -ENOTSUP && fg->reader.file_version < 7))
		return 0;
	if (ret) {
		fprintf(stderr, "fgdecode: warning: %s (map snapshot not used)\n",
			err.msg);
		return 0;
	}
	ret = resolve_add_snapshot(&fg->res, &snap);
	stackmap_snapshot_free(&snap);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		fprintf(stderr, "fgdecode: warning: %s: map snapshot lists a slot twice with different stacks (not used)\n",
			fg->opt.path);
	return 0;
}

/*
 * --stack-map: resolve cookies from a saved (or the live) stack_map listing
 * too, after the trace's definitions and snapshot.  Unreadable or malformed:
 * an error (the user asked for it).
 *
 * Return: 0; -1 after printing why.
 */
static int load_listing(struct fgdecode *fg)
{
	const char *path = fg->opt.stack_map;
	struct stackmap_snapshot snap;
	struct sm_err err;
	sm_u32 announced;
	int ret;

	if (!path)
		return 0;
	if (!strcmp(path, "live"))
		path = MAPLIST_LIVE_PATH;
	ret = maplist_read(path, &snap, &announced, &err);
	if (ret) {
		fprintf(stderr, "fgdecode: --stack-map: %s\n", err.msg);
		return -1;
	}
	ret = resolve_add_listing(&fg->res, &snap);
	stackmap_snapshot_free(&snap);
	if (ret == -ENOMEM)
		fatal(fg->opt.path, "out of memory");
	else if (ret)
		fprintf(stderr, "fgdecode: --stack-map: %s: lists a slot twice with different stacks\n",
			path);
	return ret ? -1 : 0;
}

/*
 * The view written to a file after decoding, if one was asked for: --pprof
 * (its vmlinux mapping named after --vmlinux when given) or --flamegraph
 * (titled with the trace's name).
 *
 * Return: 0, or -1 after printing why not.
 */
static int write_view(struct fgdecode *fg)
{
	struct sm_err err;
	int ret = 0;

	/* --off-cpu counts at switch-in, not per event: its pairs. */
	if (fg->opt.mode == OUT_PPROF && fg->opt.off_cpu &&
	    pprof_add_pairs(fg->pprof, fg->set))
		ret = -ENOMEM;
	if (!ret && fg->opt.mode == OUT_PPROF)
		ret = pprof_write(fg->pprof, &fg->sz, fg->set, fg->opt.view,
				  fg->opt.vmlinux, &err);
	else if (fg->opt.mode == OUT_FLAMEGRAPH)
		ret = flamegraph_write(fg->opt.view, &fg->sz, fg->set,
				       fg->opt.path, &err);
	if (!ret)
		return 0;
	if (ret == -ENOMEM)
		sm_err_set(&err, "%s: out of memory", fg->opt.view);
	fprintf(stderr, "fgdecode: %s\n", err.msg);
	return -1;
}

static int run_guarded(struct fgdecode *fg)
{
	struct sm_err err;
	int ret = EXIT_ERROR;

	if (reader_open(&fg->reader, fg->opt.path,
			fg->opt.no_plugins ? READER_NO_PLUGINS : 0, &err)) {
		fatal(fg->opt.path, "%s", err.msg);
		return EXIT_ERROR;
	}
	if (fg->diff && debuginfo_release(reader_uname(&fg->reader),
					  fg->release, sizeof(fg->release)))
		snprintf(fg->release, sizeof(fg->release), "(not recorded)");
	if (open_symbols(fg, fg->reader.tep, fg->opt.path))
		goto out;
	fg->set = sset_new();
	if (fg->set && fg->opt.weight) {
		weight_init(&fg->weight, fg->opt.weight);
		sset_set_weight(fg->set, fg->opt.weight, fg->weight.unit);
	}
	if (fg->set && fg->opt.off_cpu &&
	    offcpu_init(&fg->offcpu, fg->reader.tep, fg->set,
			fg->opt.task_root, &err)) {
		fatal(fg->opt.path, "%s", err.msg);
		goto out;
	}
	if (fg->set && fg->opt.wakers &&
	    offcpu_wakers(&fg->offcpu, fg->reader.tep, &fg->sz, &err)) {
		fatal(fg->opt.path, "%s", err.msg);
		goto out;
	}
	if (fg->set && fg->opt.mode == OUT_PPROF)
		fg->pprof = pprof_new(sset_weighted(fg->set) ?
				      sset_weight_name(fg->set) : NULL,
				      sset_weighted(fg->set) ?
				      sset_weight_unit(fg->set) : NULL);
	if (!fg->set || (fg->opt.mode == OUT_PPROF && !fg->pprof) ||
	    resolve_init(&fg->res, &fg->reader, warn_record, fg) ||
	    load_snapshot(fg) || resolve_collect(&fg->res)) {
		fatal(fg->opt.path, "out of memory");
		goto out;
	}
	if (load_listing(fg))
		goto out;
	trace_seq_init(&fg->line);
	trace_seq_init(&fg->after);
	ret = decode(fg);
	if (ret) {
		if (ret == -ENOMEM)
			fatal(fg->opt.path, "out of memory");
		ret = EXIT_ERROR;
		goto out_seq;
	}
	ret = EXIT_ERROR;
	if (write_view(fg))
		goto out_seq;
	if (fflush(stdout) || ferror(stdout)) {
		fatal(fg->opt.path, "cannot write the output");
		goto out_seq;
	}
	if (fg->opt.summary)
		format_summary(stderr, fg->events, &fg->res.stats,
			       stacktab_count(fg->res.tab),
			       filter_active(&fg->opt.filter) ? fg->matched :
			       (size_t)-1);
	if (fg->opt.summary && fg->opt.weight)
		format_weight_summary(stderr, fg->set, fg->weight.negative);
	if (fg->opt.summary && fg->opt.off_cpu)
		offcpu_summary(stderr, &fg->offcpu);
	ret = check_strict(fg);
out_seq:
	trace_seq_destroy(&fg->line);
	trace_seq_destroy(&fg->after);
out:
	dwsym_free(fg->sz.dw);
	kallsyms_free(&fg->kallsyms);
	offcpu_fini(&fg->offcpu);
	resolve_fini(&fg->res);
	pprof_free(fg->pprof);
	sset_free(fg->set);
	reader_close(&fg->reader);
	return ret;
}

#define FAULT_MESSAGE \
	"corrupt data: reading it crashed libtracecmd (a bad header, or a page whose header claims more than the page holds)"

static int run(struct fgdecode *fg)
{
	static sigjmp_buf fault_env;
	int ret;

	/*
	 * A corrupt data page can crash libtraceevent (fault.h).  The reader
	 * is then in no state to be closed: report and leave it.
	 */
	if (sigsetjmp(fault_env, 1)) {
		fault_release();
		if (fault_cpu >= 0)
			fatal(fg->opt.path, "CPU %d: %s", (int)fault_cpu,
			      FAULT_MESSAGE);
		else
			fatal(fg->opt.path, "%s", FAULT_MESSAGE);
		return EXIT_ERROR;
	}
	/* Without the handlers, a crash stays a crash: nothing worse. */
	fault_catch(&fault_env);
	ret = run_guarded(fg);
	fault_release();
	return ret;
}

/* ---- --map ---- */

/* The listing --map reads. */
static const char *map_path(const struct options *opt)
{
	return opt->path ? opt->path : MAPLIST_LIVE_PATH;
}

/*
 * Read the listing into @snap; a read that a reset made inconsistent (an
 * entry of another generation) is tried again, up to MAP_READ_TRIES times.
 */
static int read_map(struct fgdecode *fg, struct stackmap_snapshot *snap)
{
	struct sm_err err;
	int ret, tries = 0;
	sm_u32 announced;

	do
		ret = maplist_read(map_path(&fg->opt), snap, &announced, &err);
	while (ret == -EINVAL && ++tries < MAP_READ_TRIES);
	if (ret) {
		fprintf(stderr, "fgdecode: %s\n", err.msg);
		return ret;
	}
	/* Live, inserts in flight are not listed yet: only a saved file. */
	if (fg->opt.path && announced > snap->nr)
		fprintf(stderr, "fgdecode: warning: %s: header says %u entries, %u listed (truncated?)\n",
			fg->opt.path, announced, snap->nr);
	return 0;
}

static enum mapout_mode map_mode(enum output_mode mode)
{
	switch (mode) {
	case OUT_JSON:
		return MAPOUT_JSON;
	case OUT_FOLDED:
		return MAPOUT_FOLDED;
	case OUT_TOP:
		return MAPOUT_TOP;
	case OUT_TEXT:
	case OUT_PPROF:		/* not map options */
	case OUT_FLAMEGRAPH:
		break;
	}
	return MAPOUT_TEXT;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double seconds)
{
	struct timespec ts;

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --interval: print what changed, interval after interval. */
static int map_intervals(struct fgdecode *fg)
{
	struct stackmap_snapshot prev, cur;
	unsigned long n;
	double t0, t1;
	int ret;

	if (read_map(fg, &prev))
		return EXIT_ERROR;
	t0 = now();
	ret = 0;
	for (n = 1; !ret && (!fg->opt.count || n <= fg->opt.count); n++) {
		sleep_for(fg->opt.interval);
		if (read_map(fg, &cur)) {
			ret = EXIT_ERROR;
			break;
		}
		t1 = now();
		if (mapout_interval(stdout, &fg->sz, n, &prev, &cur, t1 - t0,
				    fg->opt.mode == OUT_TOP ? fg->opt.top : 0) ||
		    fflush(stdout) || ferror(stdout)) {
			fatal(map_path(&fg->opt), "out of memory or cannot write the output");
			ret = EXIT_ERROR;
		}
		stackmap_snapshot_free(&prev);
		prev = cur;
		t0 = t1;
	}
	stackmap_snapshot_free(&prev);
	return ret;
}

/* --map without --interval: print the listing once. */
static int map_once(struct fgdecode *fg)
{
	struct stackmap_snapshot snap;
	int ret = 0;

	if (read_map(fg, &snap))
		return EXIT_ERROR;
	if (mapout_print(stdout, &fg->sz, &snap, map_mode(fg->opt.mode),
			 fg->opt.top)) {
		fatal(map_path(&fg->opt), "out of memory");
		ret = EXIT_ERROR;
	} else if (fflush(stdout) || ferror(stdout)) {
		fatal(map_path(&fg->opt), "cannot write the output");
		ret = EXIT_ERROR;
	}
	stackmap_snapshot_free(&snap);
	return ret;
}

/*
 * --map: symbols from --kallsyms, /proc/kallsyms for the live map, or none
 * for a saved listing; then the listing once or every --interval.
 */
static int run_map(struct fgdecode *fg)
{
	const char *ksyms = fg->opt.kallsyms;
	struct sm_err err;
	struct tep_handle *tep;
	int ret = EXIT_ERROR;

	if (!ksyms && !fg->opt.path)
		ksyms = MAPLIST_LIVE_KALLSYMS;
	tep = maplist_symbols(ksyms, &err);
	if (!tep) {
		fprintf(stderr, "fgdecode: %s\n", err.msg);
		return EXIT_ERROR;
	}
	if (!open_symbols(fg, tep, ksyms ? ksyms : map_path(&fg->opt)))
		ret = fg->opt.interval ? map_intervals(fg) : map_once(fg);
	dwsym_free(fg->sz.dw);
	kallsyms_free(&fg->kallsyms);
	tep_free(tep);
	return ret;
}

/* Run @cmd on a fresh struct fgdecode with the options @parse reads. */
static int run_command(int argc, char **argv,
		       int (*parse)(struct options *, int, char **),
		       int (*cmd)(struct fgdecode *))
{
	struct fgdecode *fg = calloc(1, sizeof(*fg));
	int ret;

	if (!fg) {
		fprintf(stderr, "fgdecode: out of memory\n");
		return EXIT_ERROR;
	}
	ret = parse(&fg->opt, argc, argv) ? EXIT_USAGE : cmd(fg);
	free(fg);
	return ret;
}

/* What the weights of @opt sum, and their unit. */
static void weight_of(const struct options *opt, struct fgdiff_print *p)
{
	p->name = opt->off_cpu ? "off-cpu" : opt->weight ? opt->weight : "events";
	p->unit = opt->off_cpu ? "ns" : opt->weight ? weight_unit(opt->weight) :
		  "events";
}

/* diff --flamegraph FILE: titled "BASE -> NEW".  Return: 0, or -1 (printed). */
static int write_diff_flamegraph(const struct options *opt,
				 const struct fgdiff *d,
				 const struct fgdiff_print *p)
{
	char title[512];
	struct sm_err err;

	snprintf(title, sizeof(title), "%s -> %s%s", opt->path, opt->new_path,
		 opt->normalize ? " (base normalized)" : "");
	if (!flamegraph_write_diff(opt->view, d, opt->normalize,
				   *p->unit ? p->unit : p->name, title, &err))
		return 0;
	fprintf(stderr, "fgdecode: %s\n", err.msg);
	return -1;
}

/*
 * fgdecode diff: read BASE, then NEW, each into the diff, on a fresh
 * struct fgdecode; refuse traces of two kernel releases unless
 * --any-kernel (their stacks would differ for that alone); print.
 */
static int run_diff(struct fgdecode *fg)
{
	const struct options opt = fg->opt;
	const char *path[2] = { opt.path, opt.new_path };
	struct fgdiff_print p = {
		.folded = opt.diff_mode == OUT_FOLDED,
		.normalize = opt.normalize,
		.top = opt.diff_mode == OUT_TOP ? opt.top : 0,
	};
	struct fgdiff *d = fgdiff_new();
	char release[2][sizeof(fg->release)];
	int side, ret = EXIT_ERROR;

	if (!d) {
		fprintf(stderr, "fgdecode: out of memory\n");
		return EXIT_ERROR;
	}
	for (side = DIFF_BASE; side <= DIFF_NEW; side++) {
		memset(fg, 0, sizeof(*fg));
		fg->opt = opt;
		fg->opt.path = path[side];
		fg->diff = d;
		fg->diff_side = side;
		ret = run(fg);
		if (ret == EXIT_ERROR)
			goto out;
		memcpy(release[side], fg->release, sizeof(release[side]));
	}
	if (!opt.any_kernel && strcmp(release[DIFF_BASE], release[DIFF_NEW])) {
		fprintf(stderr, "fgdecode: diff: %s was recorded on kernel %s, %s on %s: their stacks differ for that alone (--any-kernel to compare them anyway)\n",
			path[DIFF_BASE], release[DIFF_BASE], path[DIFF_NEW],
			release[DIFF_NEW]);
		ret = EXIT_ERROR;
		goto out;
	}
	weight_of(&opt, &p);
	if (opt.diff_mode == OUT_FLAMEGRAPH) {
		if (write_diff_flamegraph(&opt, d, &p)) {
			ret = EXIT_ERROR;
			goto out;
		}
	} else if (fgdiff_print(stdout, d, &p) || fflush(stdout) ||
		   ferror(stdout)) {
		fprintf(stderr, "fgdecode: diff: out of memory or cannot write the output\n");
		ret = EXIT_ERROR;
		goto out;
	}
	if (opt.summary)
		fgdiff_summary(stderr, d);
out:
	fgdiff_free(d);
	return ret;
}

int fgdecode_diff(int argc, char **argv)
{
	return run_command(argc, argv, parse_diff_options, run_diff);
}

int fgdecode_report(int argc, char **argv)
{
	return run_command(argc, argv, parse_report_options, run);
}

int fgdecode_map(int argc, char **argv)
{
	return run_command(argc, argv, parse_map_options, run_map);
}

void fgdecode_usage(const char *command, FILE *out)
{
	if (command && !strcmp(command, "map"))
		map_usage(out);
	else if (command && !strcmp(command, "diff"))
		diff_usage(out);
	else
		report_usage(out);
}
