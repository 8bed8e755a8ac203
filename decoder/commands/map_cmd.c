// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode map (alias --map): the module's stack_map listing, live or a
 * saved copy, read by maplist.c and printed by mapout.c as a stack profile,
 * once or every --interval seconds.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/vfs.h>
#include <time.h>

#include <linux/magic.h>

#include "commands.h"
#include "fgdecode.h"
#include "maplist.h"
#include "mapout.h"
#include "message.h"
#include "options.h"
#include "symbols.h"

/**
 * struct map_options - fgdecode map [LISTING]
 * @path: the saved listing, NULL: the live one
 * @sym: --vmlinux, --modules (--debuginfo is not an option of map)
 * @kallsyms: --kallsyms FILE, NULL: /proc/kallsyms for the live map, none
 *	for a saved listing
 * @print: text, --json, --folded or --top N (not PRINT_FLAMEGRAPH)
 * @top: with PRINT_TOP, N
 * @interval: --interval seconds, 0: read once
 * @count: --count, 0: until interrupted
 */
struct map_options {
	const char *path;
	struct symbol_options sym;
	const char *kallsyms;
	enum print print;
	size_t top;
	double interval;
	unsigned long count;
};

static const struct command map_cmd = { "map ", fgdecode_map_usage };

void fgdecode_map_usage(FILE *out)
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
		"  --kallsyms FILE symbols from FILE, a saved /proc/kallsyms, trace-cmd dump\n"
		"                  --kallsyms's output or a trace.dat (default:\n"
		"                  /proc/kallsyms for the live map, the names a LISTING\n"
		"                  carries beside its addresses)\n"
		"  --vmlinux FILE, --modules DIR  DWARF symbols, as for fgdecode report\n"
		"Over time:\n"
		"  --interval SEC  read the map every SEC seconds and print the hits per\n"
		"                  second of the stacks that changed (text or --top N)\n"
		"  --count N       with --interval: stop after N intervals\n"
		"Other:\n"
		"  --no-summary    accepted as by report and diff; map prints no summary\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}

/*
 * fgdecode map: the map profiler's options (--no-summary is accepted, as
 * it always was, and changes nothing: map prints no summary; its help says
 * so).
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

/* --count N: a positive count; -1 after printing why not. */
static int parse_count(unsigned long *count, const char *arg)
{
	size_t n;

	if (output_parse_count("count", arg, &n))
		return -1;
	*count = n;
	return 0;
}

/* --interval SECONDS: a positive number of seconds, at most a day. */
static int parse_interval(struct map_options *opt, const char *arg)
{
	char *end;

	errno = 0;
	opt->interval = strtod(arg, &end);
	if (errno || *end || !*arg || !(opt->interval >= 0.001) ||
	    opt->interval > 86400) {
		fg_error("--interval: '%s' is not a number of seconds from 0.001 to 86400",
			 arg);
		return -1;
	}
	return 0;
}

/*
 * An option of fgdecode map (--no-summary is accepted, as it always was,
 * and changes nothing: map prints no summary); 1 for another option.
 */
static int parse_map_option(struct map_options *opt, int c, const char *arg)
{
	static const char which[] = "--json, --folded and --top";

	switch (c) {
	case OPT_JSON:
		return set_print(&opt->print, PRINT_JSON, which);
	case OPT_FOLDED:
		return set_print(&opt->print, PRINT_FOLDED, which);
	case OPT_TOP:
		if (output_parse_count("top", arg, &opt->top))
			return -1;
		return set_print(&opt->print, PRINT_TOP, which);
	case OPT_KALLSYMS:
		opt->kallsyms = arg;
		return 0;
	case OPT_INTERVAL:
		return parse_interval(opt, arg);
	case OPT_COUNT:
		return parse_count(&opt->count, arg);
	case OPT_NO_SUMMARY:
		return 0;
	}
	return parse_symbol_option(&opt->sym, c, arg);
}

/*
 * fgdecode map: at most one LISTING.  @opt: zeroed, set.  --count and
 * --interval go together; --interval prints text or --top N.
 * Return: 0, or -1 on a usage error (printed).
 */
static int parse_map_options(struct map_options *opt, int argc, char **argv)
{
	int c, ret;

	if (check_abbreviations(argc, argv, map_longopts))
		return -1;
	while ((c = getopt_long(argc, argv, "h", map_longopts, NULL)) != -1) {
		ret = parse_map_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_common(&map_cmd, c);
		if (ret)
			return -1;
	}
	if (optind < argc - 1) {
		fg_error("--map: expected at most one listing file");
		return -1;
	}
	opt->path = optind < argc ? argv[optind] : NULL;
	if (check_outputs(NULL, NULL, (const char *[]){ opt->path,
			  opt->kallsyms, opt->sym.vmlinux }, 3))
		return -1;
	if (opt->count && !opt->interval) {
		fg_error("--count needs --interval");
		return -1;
	}
	if (opt->interval && (opt->print == PRINT_JSON ||
			      opt->print == PRINT_FOLDED)) {
		fg_error("--interval prints text (or --top N), not --json or --folded");
		return -1;
	}
	return 0;
}

/* One run of fgdecode map: its options and symbols. */
struct map_run {
	struct map_options opt;
	struct symbols syms;
};

/* Reads of a live listing retried when a reset made one inconsistent. */
#define MAP_READ_TRIES		3

/* ---- --map ---- */

/* The listing --map reads. */
static const char *map_path(const struct map_options *opt)
{
	return opt->path ? opt->path : MAPLIST_LIVE_PATH;
}

/*
 * Read the listing into @snap; a read that a reset made inconsistent (an
 * entry of another generation) is tried again, up to MAP_READ_TRIES times.
 */
/*
 * The live listing is missing: say what to do, debugfs not mounted or the
 * module not loaded, rather than name the missing file alone.
 */
static void live_listing_missing(void)
{
	struct statfs fs;

	if (statfs("/sys/kernel/debug", &fs) || fs.f_type != DEBUGFS_MAGIC)
		fg_error("%s: debugfs is not mounted (mount -t debugfs none /sys/kernel/debug), so no stack_map of the module can be read; or give a saved LISTING",
			 MAPLIST_LIVE_PATH);
	else
		fg_error("%s: no such file: the stackmap module is not loaded (modprobe stackmap), or give a saved LISTING",
			 MAPLIST_LIVE_PATH);
}

static int read_map(struct map_run *run, struct stackmap_snapshot *snap)
{
	struct sm_err err;
	int ret, tries = 0;
	sm_u32 announced;

	do
		ret = maplist_read(map_path(&run->opt), snap, &announced, &err);
	while (ret == -EINVAL && ++tries < MAP_READ_TRIES);
	if (ret == -ENOENT && !run->opt.path) {
		live_listing_missing();
		return ret;
	}
	if (ret) {
		fg_error("%s", err.msg);
		return ret;
	}
	/* Live, inserts in flight are not listed yet: only a saved file. */
	if (run->opt.path && announced > snap->nr)
		fg_warn("%s: header says %u entries, %u listed (truncated?)",
			run->opt.path, announced, snap->nr);
	return 0;
}

/* What map prints, in mapout's terms. */
static enum mapout_mode map_mode(enum print print)
{
	switch (print) {
	case PRINT_JSON:
		return MAPOUT_JSON;
	case PRINT_FOLDED:
		return MAPOUT_FOLDED;
	case PRINT_TOP:
		return MAPOUT_TOP;
	case PRINT_TEXT:
	case PRINT_FLAMEGRAPH:	/* not a map option */
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
static int map_intervals(struct map_run *run)
{
	struct stackmap_snapshot prev, cur;
	unsigned long n;
	double t0, t1;
	int ret;

	if (read_map(run, &prev))
		return EXIT_ERROR;
	t0 = now();
	ret = 0;
	for (n = 1; !ret && (!run->opt.count || n <= run->opt.count); n++) {
		sleep_for(run->opt.interval);
		if (read_map(run, &cur)) {
			ret = EXIT_ERROR;
			break;
		}
		t1 = now();
		if (mapout_interval(stdout, &run->syms.sz, n, &prev, &cur, t1 - t0,
				    run->opt.print == PRINT_TOP ? run->opt.top : 0) ||
		    fflush(stdout) || ferror(stdout)) {
			fg_file_error(map_path(&run->opt), "out of memory or cannot write the output");
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
static int map_once(struct map_run *run)
{
	struct stackmap_snapshot snap;
	int ret = 0;

	if (read_map(run, &snap))
		return EXIT_ERROR;
	if (mapout_print(stdout, &run->syms.sz, &snap, map_mode(run->opt.print),
			 run->opt.top)) {
		fg_file_error(map_path(&run->opt), "out of memory");
		ret = EXIT_ERROR;
	} else if (fflush(stdout) || ferror(stdout)) {
		fg_file_error(map_path(&run->opt), "cannot write the output");
		ret = EXIT_ERROR;
	}
	stackmap_snapshot_free(&snap);
	return ret;
}

/*
 * --kallsyms FILE: its symbols must place the functions the listing names
 * where the listing has them (a kallsyms of another boot or kernel names
 * every frame wrongly); -1 after printing why not.  A few that differ are
 * a warning.
 */
static int check_kallsyms(const struct map_run *run, struct tep_handle *tep)
{
	const char *listing = run->opt.path ? run->opt.path : MAPLIST_LIVE_PATH;
	size_t named, differ;
	struct sm_err err;

	if (maplist_check_symbols(listing, tep, run->opt.kallsyms, &named,
				  &differ, &err)) {
		fg_error("%s", err.msg);
		return -1;
	}
	if (differ)
		fg_warn("--kallsyms %s: %zu of the %zu functions %s names do%s not start at its addresses there",
			run->opt.kallsyms, differ, named, listing,
			differ == 1 ? "es" : "");
	return 0;
}

/*
 * --map: symbols from --kallsyms, /proc/kallsyms for the live map, or none
 * for a saved listing; then the listing once or every --interval.
 */
static int run_map(struct map_run *run)
{
	const char *ksyms = run->opt.kallsyms;
	struct sm_err err;
	struct tep_handle *tep;
	int ret = EXIT_ERROR;

	if (!ksyms && !run->opt.path)
		ksyms = MAPLIST_LIVE_KALLSYMS;
	/* A saved listing without --kallsyms: the names it carries. */
	tep = ksyms ? maplist_symbols(ksyms, &err) :
	      maplist_listing_symbols(run->opt.path, &err);
	if (!tep) {
		fg_error("%s", err.msg);
		return EXIT_ERROR;
	}
	if (run->opt.kallsyms && check_kallsyms(run, tep)) {
		tep_free(tep);
		return EXIT_ERROR;
	}
	if (!symbols_open(&run->syms, tep, &run->opt.sym, NULL, false,
			  ksyms ? ksyms : map_path(&run->opt)))
		ret = run->opt.interval ? map_intervals(run) : map_once(run);
	symbols_close(&run->syms);
	tep_free(tep);
	return ret;
}

int fgdecode_map(int argc, char **argv)
{
	struct map_run run = { 0 };

	if (parse_map_options(&run.opt, argc, argv)) {
		usage_hint(&map_cmd);
		return EXIT_USAGE;
	}
	return run_map(&run);
}
