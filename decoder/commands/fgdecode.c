// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: print a trace.dat like `trace-cmd report`, with the stack of each
 * event that a stackmap stack_cookie (or stack_fallback), or an ftrace
 * kernel_stack, follows on the same CPU of the same buffer expanded under it.
 * A stackmap stack goes only to the event it names as its owner, in the
 * same context (events.h, "Which event a stack belongs to"); any other is an
 * orphan, shown on its own.
 *
 * The pipeline, a folder of decoder/ per stage (commands/pass.c runs it):
 * pipeline/read.c (libtracecmd, all buffers) -> pipeline/pair.c (which
 * stack record is an event's own) -> pipeline/resolve.c (cookie -> stack)
 * -> analyses/ (what a stack weighs into the stack set: one per event,
 * --weight, --off-cpu) -> one output (outputs/output.h; the table in
 * outputs/outputs.c: text, json, folded, top, pprof, flamegraph).
 * pipeline/filter.c selects events, symbols/ names addresses,
 * analyses/stackset.c interns stacks so that each distinct stack is
 * formatted once.
 *
 * The commands (commands.h), one file each in commands/, sharing
 * fgdecode.h: this file opens one trace, sets those stages up and runs the
 * pass (pass.c) for report_cmd.c (fgdecode report) and diff_cmd.c
 * (fgdecode diff, whose output, one side of the diff, is its own);
 * map_cmd.c is fgdecode map.  Each command file holds its own options and
 * help; options.c what they share.
 *
 * Exit status: 0 success; 1 the trace (with --map: the listing or the
 * kallsyms) cannot be read, out of memory, or the output cannot be written;
 * 2 bad usage; 3 (--strict only) the trace holds stale, unknown or
 * conflicting cookies, orphan stacks or corrupt records, or data of a CPU
 * that could not be read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "fault.h"
#include "fgdecode.h"
#include "format.h"
#include "maplist.h"
#include "tracedat_options.h"
#include "message.h"

/* Per-record warnings printed before the rest are only counted. */
#define MAX_WARNINGS		20

/* resolve_warn_fn: one line per bad record, up to MAX_WARNINGS. */
static void warn_record(void *ctx, const struct tep_record *record,
			const char *msg)
{
	struct fgdecode *fg = ctx;

	if (fg->warnings++ >= MAX_WARNINGS)
		return;
	fg_file_error(fg->opt.path, "CPU %d ts %llu: %s", record->cpu,
		      record->ts, msg);
	if (fg->warnings == MAX_WARNINGS)
		fg_file_error(fg->opt.path, "further warnings suppressed");
}

/* Under --strict: say why the exit status is EXIT_STRICT, or return 0. */
static int check_strict(struct fgdecode *fg)
{
	const struct resolve_stats *st = &fg->res.stats;

	bool salvaged = fg->reader.salvage.fd >= 0;

	if (!fg->opt.strict ||
	    !(st->stale + st->unknown + st->conflicting + st->corrupt +
	      st->orphans + fg->unread + salvaged))
		return 0;
	if (salvaged)
		fg_file_error(fg->opt.path, "--strict: truncated: decoded from a repaired copy");
	if (fg->unread)
		fg_file_error(fg->opt.path, "--strict: the data of %zu CPU%s was damaged or not read to its end",
			      fg->unread, fg->unread == 1 ? "" : "s");
	if (!(st->stale + st->unknown + st->conflicting + st->corrupt +
	      st->orphans))
		return EXIT_STRICT;
	if (st->orphans)
		fg_file_error(fg->opt.path, "--strict: %zu stale, %zu unknown, %zu conflicting cookies, %zu corrupt records, %zu orphan stacks",
			      st->stale, st->unknown, st->conflicting, st->corrupt,
			      st->orphans);
	else
		fg_file_error(fg->opt.path, "--strict: %zu stale, %zu unknown, %zu conflicting cookies, %zu corrupt records",
			      st->stale, st->unknown, st->conflicting, st->corrupt);
	return EXIT_STRICT;
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

	ret = stackmap_snapshot_read_tracedat(fg->reader.file, &snap, &err);
	if (ret == -ENOENT ||
	    (ret == -ENOTSUP && fg->reader.file_version < 7))
		return 0;
	if (ret) {
		fg_warn("%s (map snapshot not used)",
			err.msg);
		return 0;
	}
	ret = resolve_add_snapshot(&fg->res, &snap, &err);
	stackmap_snapshot_free(&snap);
	if (ret == -ENOMEM)
		return ret;
	if (ret == -ESTALE)
		fg_warn("%s: %s (not used)", fg->opt.path, err.msg);
	else if (ret)
		fg_warn("%s: map snapshot lists a slot twice with different stacks (not used)",
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
	char what[PATH_MAX + 16];
	sm_u32 announced;
	int ret;

	if (!path)
		return 0;
	if (!strcmp(path, "live"))
		path = MAPLIST_LIVE_PATH;
	ret = maplist_read(path, &snap, &announced, &err);
	if (ret) {
		fg_error("--stack-map: %s", err.msg);
		return -1;
	}
	snprintf(what, sizeof(what), "--stack-map %s", path);
	ret = resolve_add_listing(&fg->res, &snap, what, &err);
	stackmap_snapshot_free(&snap);
	if (ret == -ENOMEM)
		fg_file_error(fg->opt.path, "out of memory");
	else if (ret == -ESTALE)
		fg_error("%s", err.msg);
	else if (ret)
		fg_error("--stack-map: %s: lists a slot twice with different stacks",
			 path);
	return ret ? -1 : 0;
}

/*
 * The output opt.output asks for (text by default), unless the command set
 * one up; @made says which.  Return: 0, or -ENOMEM.
 */
static int make_output(struct fgdecode *fg, bool *made)
{
	*made = !fg->out.ops;
	if (!*made)
		return 0;
	return output_new(&fg->out, fg->opt.output ? fg->opt.output :
			  output_table()[0]);
}

/* offcpu_interval_fn: an interval ended; the output prints it. */
static int give_interval(void *arg, const struct offcpu_interval *iv)
{
	const struct output *out = arg;

	return out->ops->interval(out->state, iv);
}

/* Begin the output, the trace and its stages set up; -1 after printing. */
static int begin_output(struct fgdecode *fg)
{
	int ret;

	fg->env = (struct output_env){
		.path = fg->opt.path,
		.file = fg->reader.file,
		.tep = fg->reader.tep,
		.nr_cpus = fg->reader.nr_cpus,
		.uname = reader_uname(&fg->reader),
		.sz = &fg->syms.sz,
		.vmlinux = fg->syms.vmlinux,
		.set = fg->an.set,
		.args = &fg->opt.out,
		.analysis = &fg->opt.an,
		.selected = &fg->selected,
	};
	ret = fg->out.ops->begin ? fg->out.ops->begin(fg->out.state,
						      &fg->env) : 0;
	if (ret == -ENOMEM)
		fg_file_error(fg->opt.path, "out of memory");
	if (!ret && fg->out.ops->interval)
		analyses_on_interval(&fg->an, give_interval, &fg->out);
	return ret ? -1 : 0;
}

/* The stages the pass needs, after the trace is open; -1 after printing. */
static int set_up(struct fgdecode *fg)
{
	struct analysis_env env;
	struct sm_err err;
	int ret;

	if (filter_compile(&fg->opt.filter, fg->reader.tep, &err) ||
	    filter_check(&fg->opt.filter, fg->reader.tep, fg->reader.nr_cpus,
			 &err)) {
		fg_file_error(fg->opt.path, "%s", err.msg);
		return -1;
	}
	if (symbols_open(&fg->syms, fg->reader.tep, &fg->opt.sym,
			 reader_uname(&fg->reader),
			 fg->out.ops->flags & OUTPUT_NAMES_ONLY, fg->opt.path))
		return -1;
	env = (struct analysis_env){
		.tep = fg->reader.tep,
		.args = &fg->opt.an,
	};
	ret = analyses_init(&fg->an, &env, &err);
	if (ret && ret != -ENOMEM) {
		fg_file_error(fg->opt.path, "%s", err.msg);
		return -1;
	}
	if (ret || resolve_init(&fg->res, &fg->reader, warn_record, fg) ||
	    resolve_collect(&fg->res) || load_snapshot(fg)) {
		fg_file_error(fg->opt.path, "out of memory");
		return -1;
	}
	fg->res.tracer_frames = fg->opt.tracer_frames;
	return load_listing(fg);
}

/*
 * An output that shows stacks only, when none of the events selected had
 * one: say so, and which events of the trace have stacks, rather than
 * write an empty picture; true after printing.  (--off-cpu counts its own
 * intervals and says so in its summary.)
 */
static bool no_stack_selected(struct fgdecode *fg)
{
	const int bits = 8 * sizeof(fg->stack_types[0]);
	char list[512], none[64];
	struct tep_event *ev;
	size_t len = 0, pairs;
	int type, n = 0;

	if (!(fg->out.ops->flags & OUTPUT_STACKS_ONLY) || fg->opt.an.off_cpu ||
	    !fg->selected)
		return false;
	/* Orphans are shown on their own, under their owner: not empty. */
	sset_pairs(fg->an.set, &pairs);
	if (pairs)
		return false;
	list[0] = '\0';
	for (type = 0; type < (1 << 16) && len < sizeof(list); type++) {
		if (!(fg->stack_types[type / bits] & 1UL << (type % bits)))
			continue;
		ev = tep_find_event(fg->reader.tep, type);
		if (n++ == 8) {
			len += snprintf(list + len, sizeof(list) - len, ", ...");
			break;
		}
		len += snprintf(list + len, sizeof(list) - len, "%s%s:%s",
				n > 1 ? ", " : "", ev ? ev->system : "?",
				ev ? ev->name : "?");
	}
	snprintf(none, sizeof(none), fg->selected == 1 ?
		 "the one selected event has no stack" :
		 "none of the %zu selected events has a stack", fg->selected);
	if (n)
		fg_file_error(fg->opt.path, "%s, for %s (the events with one: %s)",
			      none, output_name(fg->out.ops), list);
	else
		fg_file_error(fg->opt.path, "%s, for %s, nor does any event of the trace (record with -O stackmap, or trace-cmd record -T)",
			      none, output_name(fg->out.ops));
	return true;
}

/*
 * After the pass: one warning for each CPU whose data libtracecmd did not
 * read to the end its headers give, or read damaged (reader_unread());
 * counted for --strict.
 */
static void check_unread(struct fgdecode *fg)
{
	struct sm_err what;
	int stream;

	for (stream = 0; stream < fg->reader.nr_streams; stream++)
		if (FAULT_GUARDED(-1, reader_unread(&fg->reader, stream, &what))) {
			fg_warn("%s: %s", fg->opt.path, what.msg);
			fg->unread++;
		}
}

/* After the pass: the summary lines on stderr, as asked. */
static void print_summary(struct fgdecode *fg)
{
	if (!fg->opt.summary)
		return;
	format_summary(stderr, fg->records, fg->events, &fg->res.stats,
		       stacktab_count(fg->res.tab),
		       filter_active(&fg->opt.filter) ? fg->matched :
		       (size_t)-1, reader_has_stackmap(&fg->reader));
	format_losses(stderr, &fg->reader);
	analyses_summary(&fg->an, stderr);
}

static int run_guarded(struct fgdecode *fg)
{
	struct sm_err err;
	bool made, begun = false;
	int ret = EXIT_ERROR;

	if (reader_open(&fg->reader, fg->opt.path,
			fg->opt.no_plugins ? READER_NO_PLUGINS : 0, &err)) {
		fg_file_error(fg->opt.path, "%s", err.msg);
		return EXIT_ERROR;
	}
	if (reader_salvaged(&fg->reader, &err))
		fg_warn("%s: %s", fg->opt.path, err.msg);
	if (make_output(fg, &made)) {
		fg_file_error(fg->opt.path, "out of memory");
		goto out;
	}
	if (set_up(fg) || begin_output(fg))
		goto out;
	begun = true;
	ret = fg_decode(fg);
	if (!ret && no_stack_selected(fg)) {
		ret = EXIT_ERROR;
		goto out;
	}
	if (!ret && fg->out.ops->end)
		ret = fg->out.ops->end(fg->out.state, &fg->env,
				       fg->last_ts - fg->first_ts);
	if (ret) {
		if (ret == -ENOMEM)
			fg_file_error(fg->opt.path, "out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	ret = EXIT_ERROR;
	if (fflush(stdout) || ferror(stdout)) {
		fg_file_error(fg->opt.path, "cannot write the output");
		goto out;
	}
	check_unread(fg);
	print_summary(fg);
	if (!fg->matched && fg->records &&
	    (filter_check_span(&fg->opt.filter, fg->first_ts, fg->last_ts,
			       &err) ||
	     filter_check_tasks(&fg->opt.filter, &err))) {
		fg_file_error(fg->opt.path, "%s", err.msg);
		goto out;
	}
	ret = check_strict(fg);
out:
	if (begun && fg->out.ops->fini)
		fg->out.ops->fini(fg->out.state);
	if (made)
		output_free(&fg->out);
	symbols_close(&fg->syms);
	filter_free(&fg->opt.filter);
	analyses_fini(&fg->an);
	resolve_fini(&fg->res);
	reader_close(&fg->reader);
	return ret;
}

#define FAULT_MESSAGE \
	"corrupt data: reading it crashed libtracecmd (a bad header, or a page whose header claims more than the page holds)"

int fg_run_trace(struct fgdecode *fg)
{
	static sigjmp_buf fault_env;
	int ret;

	/*
	 * A corrupt data page can crash libtraceevent (fault.h).  The reader
	 * is then in no state to be closed: report and leave it.
	 */
	if (sigsetjmp(fault_env, 1)) {
		fault_release();
		if (fault_input)
			fg_file_error(fg->opt.path, "%s", fault_input);
		else if (fault_cpu >= 0)
			fg_file_error(fg->opt.path, "CPU %d: %s", (int)fault_cpu,
				      FAULT_MESSAGE);
		else
			fg_file_error(fg->opt.path, "%s", FAULT_MESSAGE);
		return EXIT_ERROR;
	}
	/* Without the handlers, a crash stays a crash: nothing worse. */
	fault_catch(&fault_env);
	ret = run_guarded(fg);
	fault_release();
	return ret;
}

int fg_run(const struct trace_options *opt, const struct output *out)
{
	struct fgdecode *fg = calloc(1, sizeof(*fg));
	int ret;

	if (!fg) {
		fg_error("out of memory");
		return EXIT_ERROR;
	}
	fg->opt = *opt;
	if (out)
		fg->out = *out;
	ret = fg_run_trace(fg);
	free(fg);
	return ret;
}
