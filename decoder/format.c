// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode, stage 3: text output (see format.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "stackmap/cookie.h"
#include "stackmap/events.h"

#define EVENT_NAME_WIDTH	20

void format_header(FILE *out, int nr_cpus)
{
	fprintf(out, "cpus=%d\n", nr_cpus);
}

/* " NAME: " padded so that the info starts in the same column. */
static void format_event_name(struct trace_seq *s, struct tep_event *event)
{
	const char *name = event ? event->name : "(NULL)";
	int len = strlen(name);

	trace_seq_printf(s, " %s: ", name);
	if (len < EVENT_NAME_WIDTH)
		trace_seq_printf(s, "%*s", EVENT_NAME_WIDTH - len, "");
}

void format_dropped(struct trace_seq *s, const struct tep_record *record)
{
	if (record->missed_events > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]\n",
				 record->cpu, record->missed_events);
	else if (record->missed_events < 0)
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]\n", record->cpu);
}

void format_event(struct trace_seq *s, struct tep_handle *tep,
		  struct tep_record *record, const char *buffer)
{
	struct tep_event *event = tep_find_event_by_record(tep, record);

	format_dropped(s, record);
	if (buffer)
		trace_seq_printf(s, "%s:", buffer);
	tep_print_event(tep, s, record, "%16s-%-5d [%03d]", TEP_PRINT_COMM,
			TEP_PRINT_PID, TEP_PRINT_CPU);
	tep_print_event(tep, s, record, " %6.1000d:", TEP_PRINT_TIME);
	format_event_name(s, event);
	tep_print_event(tep, s, record, "%s", TEP_PRINT_INFO);
}

void format_frames(struct trace_seq *s, const struct symbolizer *sz,
		   const sm_u64 *frames, sm_u32 depth)
{
	sm_u32 i;

	for (i = 0; i < depth; i++)
		symbolize_print(s, sz, frames[i], i > 0, FORMAT_INDENT);
}

struct render_ctx {
	const struct symbolizer *sz;
	const struct resolved *res;
};

static void render_frames(struct trace_seq *s, const void *ctx)
{
	const struct render_ctx *c = ctx;

	format_frames(s, c->sz, c->res->frames, c->res->depth);
}

/* Append the frames of @res, rendered once per distinct stack. */
static int format_cached(struct trace_seq *s, const struct symbolizer *sz,
			 const struct resolved *res, struct sset_entry *entry)
{
	struct render_ctx c = { sz, res };

	return sset_render_once(s, entry, SSET_R_TEXT, render_frames, &c);
}

int format_stack(struct trace_seq *s, const struct symbolizer *sz,
		 const struct resolved *res, struct sset_entry *entry,
		 bool show_cookie)
{
	if (show_cookie && res->kind == TEPSTACK_COOKIE &&
	    res->what != RESOLVED_CORRUPT)
		trace_seq_printf(s, "\n" FORMAT_INDENT "<cookie 0x%llx gen %u slot %u>",
				 (unsigned long long)res->cookie,
				 stackmap_cookie_generation(res->cookie),
				 stackmap_cookie_slot(res->cookie));
	if (show_cookie && res->kind == TEPSTACK_FALLBACK &&
	    res->what == RESOLVED_STACK)
		trace_seq_printf(s, "\n" FORMAT_INDENT "<fallback %s>",
				 stackmap_fallback_name(res->reason));
	switch (res->what) {
	case RESOLVED_STACK:
		return format_cached(s, sz, res, entry);
	case RESOLVED_MARKER:
		tepstack_print_marker(s, res->result, res->cookie,
				      FORMAT_INDENT);
		break;
	case RESOLVED_CORRUPT:
		trace_seq_printf(s, "\n" FORMAT_INDENT "=> <corrupt %s>",
				 res->err.msg);
		break;
	}
	return 0;
}

void format_flush(struct trace_seq *s, FILE *out)
{
	trace_seq_terminate(s);
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
	if (s->len) {
		fwrite(s->buffer, 1, s->len, out);
		fputc('\n', out);
	}
	trace_seq_reset(s);
}

void format_summary(FILE *out, size_t events, const struct resolve_stats *st,
		    size_t distinct, size_t matched)
{
	fprintf(out, "fgdecode: %zu events, %zu cookies, %zu resolved, %zu stale, %zu unknown, %zu fallback stacks, %zu definitions (%zu distinct stacks)",
		events, st->cookies, st->resolved, st->stale, st->unknown,
		st->fallbacks, st->definitions, distinct);
	if (st->conflicting)
		fprintf(out, ", %zu conflicting", st->conflicting);
	if (st->corrupt)
		fprintf(out, ", %zu corrupt", st->corrupt);
	if (st->kstacks)
		fprintf(out, ", %zu kernel stacks", st->kstacks);
	if (matched != (size_t)-1)
		fprintf(out, ", %zu matched", matched);
	if (st->from_snapshot)
		fprintf(out, ", %zu from snapshot", st->from_snapshot);
	fputc('\n', out);
}
