// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode map (alias --map): the module's stack_map listing, live or a
 * saved copy, read by maplist.c and printed by mapout.c as a stack profile,
 * once or every --interval seconds.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "commands.h"
#include "fgdecode.h"
#include "maplist.h"
#include "mapout.h"
#include "message.h"
#include "options.h"
#include "symbols.h"

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
static int read_map(struct map_run *run, struct stackmap_snapshot *snap)
{
	struct sm_err err;
	int ret, tries = 0;
	sm_u32 announced;

	do
		ret = maplist_read(map_path(&run->opt), snap, &announced, &err);
	while (ret == -EINVAL && ++tries < MAP_READ_TRIES);
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

	if (parse_map_options(&run.opt, argc, argv))
		return EXIT_USAGE;
	return run_map(&run);
}
