// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: print a trace.dat like `trace-cmd report`, with the stack of each
 * event that a stackmap stack_cookie (or stack_fallback) follows on the same
 * CPU expanded under it.
 *
 * The pipeline, one file per stage: read.c (libtracecmd) -> resolve.c
 * (cookie -> stack) -> format.c (text).  This file holds the options and the
 * loop that decides which record a stack belongs to.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "read.h"
#include "resolve.h"

#define FGDECODE_VERSION	"0.1.0"
/* Per-record warnings printed before the rest are only counted. */
#define MAX_WARNINGS		20

struct options {
	bool show_defines;
	bool cookies;
	bool summary;
	const char *path;
};

struct fgdecode {
	struct options opt;
	struct reader reader;
	struct resolver res;
	struct trace_seq line;		/* the event and its stack */
	struct trace_seq after;		/* definitions met while attaching */
	size_t events;
	size_t warnings;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fgdecode [options] trace.dat\n"
		"\n"
		"Print the events of trace.dat in time order, like trace-cmd report, with the\n"
		"stack each stackmap stack_cookie or stack_fallback event carries printed as\n"
		"'=> ' lines under the event it follows on the same CPU.\n"
		"\n"
		"  --cookies       head each cookie's stack with <cookie 0xC gen G slot S>\n"
		"                  and each fallback stack with <fallback REASON>\n"
		"  --show-defines  also print the stack_define events\n"
		"  --no-summary    do not print the summary line on stderr\n"
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

/* Resolve a stackmap record and append its stack lines to @s. */
static void append_stack(struct fgdecode *fg, int kind,
			 struct tep_record *record, struct trace_seq *s)
{
	struct resolved res;

	resolve_record(&fg->res, kind, record, &res);
	format_stack(s, fg->reader.tep, &res, fg->opt.cookies);
}

/* A stack_define line (with its stack) into @s, after what @s holds. */
static void print_define(struct fgdecode *fg, struct tep_record *record,
			 struct trace_seq *s)
{
	if (s->len)
		trace_seq_putc(s, '\n');
	format_event(s, fg->reader.tep, record);
	append_stack(fg, TEPSTACK_DEFINE, record, s);
}

/*
 * Does the next record of @cpu continue the event just printed?  Not when
 * events were lost in between: the stack would then belong to a lost event.
 */
static int next_kind(struct fgdecode *fg, int cpu)
{
	struct tep_record *next = reader_peek(&fg->reader, cpu);

	if (!next || next->missed_events)
		return -1;
	return reader_kind(&fg->reader, next);
}

/*
 * The event just formatted into fg->line ran on @cpu: skip the definitions
 * that follow it there, then attach the stack of a stack_cookie or
 * stack_fallback that comes next.
 */
static void attach_stack(struct fgdecode *fg, int cpu)
{
	struct tep_record *next;
	int kind;

	while ((kind = next_kind(fg, cpu)) == TEPSTACK_DEFINE) {
		next = reader_take(&fg->reader, cpu);
		fg->events++;
		if (fg->opt.show_defines)
			print_define(fg, next, &fg->after);
		reader_put(next);
	}
	if (kind != TEPSTACK_COOKIE && kind != TEPSTACK_FALLBACK)
		return;
	next = reader_take(&fg->reader, cpu);
	fg->events++;
	append_stack(fg, kind, next, &fg->line);
	reader_put(next);
}

static void decode_record(struct fgdecode *fg, struct tep_record *record)
{
	int kind = reader_kind(&fg->reader, record);

	fg->events++;
	if (kind == TEPSTACK_DEFINE) {
		/* Hidden, but not the news that events were lost before it. */
		if (fg->opt.show_defines)
			print_define(fg, record, &fg->line);
		else
			format_dropped(&fg->line, record);
		format_flush(&fg->line, stdout);
		return;
	}
	format_event(&fg->line, fg->reader.tep, record);
	if (kind == TEPSTACK_COOKIE || kind == TEPSTACK_FALLBACK)
		append_stack(fg, kind, record, &fg->line);
	else
		attach_stack(fg, record->cpu);
	format_flush(&fg->line, stdout);
	format_flush(&fg->after, stdout);
}

/* Pass 2: print every record in time order. */
static void decode(struct fgdecode *fg)
{
	struct tep_record *record;

	format_header(stdout, fg->reader.nr_cpus);
	while ((record = reader_next(&fg->reader))) {
		decode_record(fg, record);
		reader_put(record);
	}
}

static int parse_options(struct options *opt, int argc, char **argv)
{
	enum { OPT_SHOW_DEFINES = 256, OPT_NO_SUMMARY, OPT_VERSION, OPT_COOKIES };
	static const struct option longopts[] = {
		{ "cookies", no_argument, NULL, OPT_COOKIES },
		{ "show-defines", no_argument, NULL, OPT_SHOW_DEFINES },
		{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opt->summary = true;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_COOKIES:
			opt->cookies = true;
			break;
		case OPT_SHOW_DEFINES:
			opt->show_defines = true;
			break;
		case OPT_NO_SUMMARY:
			opt->summary = false;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			printf("fgdecode %s\n", FGDECODE_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fgdecode: expected one trace.dat file\n");
		usage(stderr);
		return -1;
	}
	opt->path = argv[optind];
	return 0;
}

static int run(struct fgdecode *fg)
{
	char err[READER_ERR_LEN];
	int ret = 1;

	if (reader_open(&fg->reader, fg->opt.path, err)) {
		fatal(fg->opt.path, "%s", err);
		return 1;
	}
	if (resolve_init(&fg->res, &fg->reader, warn_record, fg) ||
	    resolve_collect(&fg->res)) {
		fatal(fg->opt.path, "out of memory");
		goto out;
	}
	trace_seq_init(&fg->line);
	trace_seq_init(&fg->after);
	decode(fg);
	trace_seq_destroy(&fg->line);
	trace_seq_destroy(&fg->after);
	if (fflush(stdout) || ferror(stdout)) {
		fatal(fg->opt.path, "cannot write the output");
		goto out;
	}
	if (fg->opt.summary)
		format_summary(stderr, fg->events, &fg->res.stats,
			       stacktab_count(fg->res.tab));
	ret = 0;
out:
	resolve_fini(&fg->res);
	reader_close(&fg->reader);
	return ret;
}

int main(int argc, char **argv)
{
	struct fgdecode fg;

	memset(&fg, 0, sizeof(fg));
	if (parse_options(&fg.opt, argc, argv))
		return 2;
	return run(&fg);
}
