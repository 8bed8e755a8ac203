// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode report --perf-script: the events and their stacks in the text
 * format of `perf script` with callchains, for the tools that read it
 * (FlameGraph's stackcollapse-perf.pl, speedscope, the Firefox Profiler,
 * Hotspot's perf import):
 *
 *   COMM PID/TID [CPU] SEC.USEC: SYSTEM:EVENT: FIELDS
 *   \tADDR SYMBOL+0xOFF (DSO)             one line per frame, innermost first
 *   \tADDR INLINED (inlined)              with DWARF, before its caller
 *   (an empty line)
 *
 * ADDR is the address in hex padded to 16, DSO "[kernel.kallsyms]" for the
 * kernel and "[MODULE]" for a module's frame, "[unknown]" with SYMBOL
 * "[unknown]" for an address no symbol covers.  The header follows
 * perf_sample__fprintf_start() of perf's builtin-script.c with callchains
 * (comm unpadded, "%7d/%-7d" for pid/tid, "[%03d]", time "%5u.%06u"; the
 * microseconds rounded to the nearest, as in every output of fgdecode and in
 * trace-cmd report, where perf cuts them: format_us()), FIELDS is what
 * libtraceevent prints of the event (as trace-cmd report's last column), and
 * the frames follow sample__fprintf_callchain() of perf's
 * util/evsel_fprintf.c ("\t%16llx %s+0x%llx (%s)").  No public library
 * writes this format: hand-written, after those two functions.
 *
 * PID is the task's process (tgid), from the tgids the front end stores in
 * the trace (lib/tgids.h): perf script prints "PID/TID" then.  trace-cmd
 * stores none, so a task whose process the trace does not tell gets its tid
 * alone ("%7d "), as perf prints a sample without its pid; the tools above
 * read both.
 *
 * An event without a stack gets the header line and the empty line (perf
 * prints an event without callchain the same way); a stale, unknown or
 * corrupt stack gets no frame line (fgdecode's summary counts them); a
 * stack record shown on its own (an orphan) belongs to no event and is left
 * out.  Each distinct stack is rendered once (kept by its stack set id).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "message.h"
#include "output.h"
#include "render_cache.h"
#include "tgids.h"
#include "units.h"

struct perf_script {
	const struct output_env *env;
	struct trace_seq line;
	struct sm_tgids tgids;	/* empty when the trace stores none */
	char **rendered;	/* by sset entry id: its frame lines */
	size_t nr_rendered;
};

static int perf_script_begin(void *state, struct output_env *env)
{
	struct perf_script *p = state;
	struct sm_err err;
	int ret;

	p->env = env;
	trace_seq_init(&p->line);
	ret = sm_tgids_read_tracedat(&p->tgids, env->file, &err);
	if (ret == -ENOMEM)
		return ret;
	/* None stored, or a version 6 file (which cannot store them): tids only. */
	if (ret && ret != -ENOENT && ret != -ENOTSUP)
		fg_warn("%s (processes not named: tids only)", err.msg);
	if (ret)
		sm_tgids_fini(&p->tgids);
	return 0;
}

/* The header line of @ev (perf_sample__fprintf_start()). */
static void put_header(struct perf_script *p, const struct fg_event *ev)
{
	struct tep_handle *tep = p->env->tep;
	struct tep_record *r = ev->record;
	struct tep_event *event = tep_find_event_by_record(tep, r);
	int pid = tep_data_pid(tep, r);
	int tgid = sm_tgids_lookup(&p->tgids, pid);

	trace_seq_printf(&p->line, "%s ", tep_data_comm_from_pid(tep, pid));
	if (tgid >= 0)
		trace_seq_printf(&p->line, "%7d/%-7d ", tgid, pid);
	else
		trace_seq_printf(&p->line, "%7d ", pid);
	trace_seq_printf(&p->line, "[%03d] %5llu.%06llu: ", r->cpu,
			 format_us(r->ts) / 1000000, format_us(r->ts) % 1000000);
	if (event)
		trace_seq_printf(&p->line, "%s:%s: ", event->system,
				 event->name);
	tep_print_event(tep, &p->line, r, "%s", TEP_PRINT_INFO);
	trace_seq_putc(&p->line, '\n');
}

struct frames {
	const struct symbolizer *sz;
	const struct resolved *stack;
};

/* The frame lines of one address (sample__fprintf_callchain()). */
static void put_addr(struct trace_seq *s, const struct symbolizer *sz,
		     sm_u64 addr)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	int n = symbolize_addr(sz, addr, true, f), i;

	for (i = 0; i < n; i++) {
		trace_seq_printf(s, "\t%16llx ", (unsigned long long)addr);
		if (!f[i].name)
			trace_seq_puts(s, "[unknown] ([unknown])\n");
		else if (f[i].inlined)
			trace_seq_printf(s, "%s (inlined)\n", f[i].name);
		else
			trace_seq_printf(s, "%s+0x%llx ([%s])\n", f[i].name,
					 (unsigned long long)f[i].offset,
					 f[i].mod ? f[i].mod : "kernel.kallsyms");
	}
}

/* sm_render_fn: every frame of a stack. */
static void render_frames(struct trace_seq *s, const void *ctx)
{
	const struct frames *fr = ctx;
	sm_u32 i;

	for (i = 0; i < fr->stack->depth; i++)
		put_addr(s, fr->sz, fr->stack->frames[i]);
}

/* Where the rendering of @entry is kept; NULL: none (rendered each time). */
static char **cache_of(struct perf_script *p, const struct sset_entry *entry)
{
	size_t n;
	char **grown;

	if (!entry)
		return NULL;
	if (entry->id >= p->nr_rendered) {
		n = entry->id + 1 > 2 * p->nr_rendered ? entry->id + 1 :
		    2 * p->nr_rendered;
		grown = realloc(p->rendered, n * sizeof(*grown));
		if (!grown)
			return NULL;
		while (p->nr_rendered < n)
			grown[p->nr_rendered++] = NULL;
		p->rendered = grown;
	}
	return &p->rendered[entry->id];
}

static int perf_script_event(void *state, const struct fg_event *ev)
{
	struct perf_script *p = state;
	struct frames fr = { p->env->sz, ev->stack };
	int ret = 0;

	if (ev->standalone)
		return 0;
	put_header(p, ev);
	if (ev->stack && ev->stack->what == RESOLVED_STACK)
		ret = sm_render_once(&p->line, cache_of(p, ev->entry),
				     render_frames, &fr);
	trace_seq_putc(&p->line, '\n');
	trace_seq_terminate(&p->line);
	fwrite(p->line.buffer, 1, p->line.len, stdout);
	trace_seq_reset(&p->line);
	return ret;
}

static void perf_script_fini(void *state)
{
	struct perf_script *p = state;
	size_t i;

	for (i = 0; i < p->nr_rendered; i++)
		free(p->rendered[i]);
	free(p->rendered);
	sm_tgids_fini(&p->tgids);
	trace_seq_destroy(&p->line);
}

const struct output_ops perf_script_output = {
	.option = "perf-script",
	.help = "  --perf-script   the events and their stacks as `perf script` prints them\n"
		"                  (stackcollapse-perf.pl, speedscope, Firefox Profiler)\n",
	.flags = OUTPUT_EVENT_TEXT,
	.size = sizeof(struct perf_script),
	.begin = perf_script_begin,
	.event = perf_script_event,
	.fini = perf_script_fini,
};
