/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: --flamegraph FILE.svg, an interactive flame graph of
 * the counted stacks, in one self-contained SVG file (no external script,
 * style or font), drawn the way flamegraph.pl and inferno draw them.
 *
 * The root frame "all" at the bottom, then one frame per event (its name,
 * as the root of --folded lines), then the entry's own root frames
 * (folded_root(): --off-cpu's state, with --task-root the task first,
 * with --wakers the waker's comm, frames and "--" before them: offwaketime's
 * one line, as in --folded), then the stack's frames outermost first,
 * the frame that hit the event on top; a frame's width is its weight
 * (sset_pair.weight: the number of events, or with --weight the sum of the
 * field).  Siblings are merged by name and sorted by name.  An inlined
 * frame (with --vmlinux) is a frame of its own above the function it is
 * inlined into.  Markers are frames too: "[stale cookie]", ...,
 * "[truncated]" below the frames of a truncated stack (folded_marker()).
 * Orphan stacks are carried by no event and are left out.
 *
 * Colours say what a frame is: warm (red to yellow) a vmlinux function,
 * aqua a module's, green an inlined frame, grey a marker, violet an event,
 * blue a root frame (task, state), light grey merged frames; the shade within a hue comes from the name,
 * so a function keeps its colour across graphs.  A legend under the title
 * names the kinds drawn; the title counts the events with a stack and the
 * events selected ("trace.dat (2428 events with a stack, of 2569)").
 *
 * Each frame's label is written into the file, fitted as flamegraph.pl
 * fits it (the name, cut with ".." to what fits, none when fewer than 3
 * characters would), so the file reads as a picture where no script runs
 * (<img>); the script fits labels anew when it zooms or widens the graph to
 * the window.
 *
 * Siblings narrower than FLAMEGRAPH_MIN_WIDTH px at full width are drawn
 * as one frame "[N frames]" (with what they weigh), or dropped when that
 * one too is narrower, so that the file stays small and quick with tens
 * of thousands of stacks.
 *
 * In a browser (flamegraph.js): each frame's tooltip (<title>) says its
 * name, weight and share of the total ("__schedule: 412 events, 22.84%";
 * a module's function names its module: "p9_client_rpc: ..., 2.32% [9pnet]"),
 * with --weight also its count, and in ns the time for people as the title
 * gives it ("[S]: 2.00 s (2000000000 ns), 72.73%, 1 interval": --off-cpu
 * counts intervals); clicking a frame zooms to it, "Search" (or Ctrl-F) paints the frames
 * whose name matches a regular expression and shows the share they hold.
 */
#ifndef FGDECODE_FLAMEGRAPH_H
#define FGDECODE_FLAMEGRAPH_H

#include <stdbool.h>

#include "sm_err.h"
#include "stackset.h"
#include "symbolize.h"

/* Width of the image and of its frame area (px), height of a frame. */
#define FLAMEGRAPH_WIDTH	1200
#define FLAMEGRAPH_FRAME_HEIGHT	16
/* Frames narrower than this (px at full width) are merged. */
#define FLAMEGRAPH_MIN_WIDTH	0.5

/**
 * flamegraph_write() - write the counted stacks of @set as an SVG flame graph
 * @path: the file to write, "-" for standard output
 * @sz: the symbolizer (its kallsyms list says which frames are a module's)
 * @set: stacks counted with sset_count*()
 * @merge: no event frames: each stack over all events (--merge)
 * @title: the graph's title (e.g. the trace's file name)
 * @selected: the events the filters selected, with a stack or not, for the
 *	title's "N events with a stack, of M"; (size_t)-1: not said
 * @err: on failure, one line naming @path
 *
 * Return: 0, -ENOMEM, or -EIO when @path cannot be written (@err set in
 * both cases).
 */
int flamegraph_write(const char *path, const struct symbolizer *sz,
		     struct stackset *set, bool merge, const char *title,
		     size_t selected, struct sm_err *err);

struct fgdiff;

/**
 * flamegraph_write_diff() - write a differential flame graph of a diff
 * @path: the file to write, "-" for standard output
 * @d: the diff (fgdecode diff), both traces added
 * @normalize: scale the base weights to the new total first
 * @unit: what a weight is ("events", "bytes", "ns")
 * @title: the graph's title
 * @err: on failure, one line naming @path
 *
 * The graph of NEW (frames as wide as their new weight, from the folded
 * stacks the diff matched), each frame coloured by its change from BASE:
 * red where it grew, blue where it shrank, the deeper the more (against
 * the largest change of any frame), white unchanged, as flamegraph.pl
 * draws difffolded.pl's output; the tooltip adds the base weight and the
 * change ("__schedule: 412 events, 22.84% (base 300, +112)").  A stack
 * only in BASE has no width: swap the traces to see what went away.
 *
 * Return: as flamegraph_write().
 */
int flamegraph_write_diff(const char *path, const struct fgdiff *d,
			  bool normalize, const char *unit, const char *title,
			  struct sm_err *err);

#endif /* FGDECODE_FLAMEGRAPH_H */
