// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's outputs: text output (see format.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "format.h"
#include "stackmap/cookie.h"
#include "stackmap/events.h"

#define EVENT_NAME_WIDTH	20

void format_header(FILE *out, int nr_cpus)
{
	fprintf(out, "cpus=%d\n", nr_cpus);
}

void format_dropped(struct trace_seq *s, const struct tep_record *record)
{
	if (record->missed_events > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]\n",
				 record->cpu, record->missed_events);
	else if (record->missed_events < 0)
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]\n", record->cpu);
}

/*
 * Append @v in decimal, padded to @width: on the left with @fill (' ' or '0',
 * as printf's "%5d" and "%03d"), or on the right with spaces when @left (as
 * "%-5d").  Returns the new end of @p.
 */
static char *put_int(char *p, long long v, int width, char fill, bool left)
{
	static const char pairs[] =
		"0001020304050607080910111213141516171819"
		"2021222324252627282930313233343536373839"
		"4041424344454647484950515253545556575859"
		"6061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
					 (unsigned long long)v;
	char tmp[24], *end = tmp + sizeof(tmp), *q = end;
	int n;

	/* Two digits a division: this runs three times per event line. */
	for (; u >= 100; u /= 100) {
		q -= 2;
		memcpy(q, &pairs[(u % 100) * 2], 2);
	}
	if (u >= 10) {
		q -= 2;
		memcpy(q, &pairs[u * 2], 2);
	} else {
		*--q = '0' + u;
	}
	if (v < 0)
		*--q = '-';
	n = end - q;
	for (; !left && width > n; width--)
		*p++ = fill;
	memcpy(p, q, n);
	p += n;
	for (width -= n; left && width > 0; width--)
		*p++ = ' ';
	return p;
}

/* Append @str (at most @max bytes) padded on the left to @width. */
static char *put_str(char *p, const char *str, size_t max, int width)
{
	size_t len = strnlen(str, max);

	for (; width > (int)len; width--)
		*p++ = ' ';
	memcpy(p, str, len);
	return p + len;
}

/*
 * Write "COMM-PID " of @pid at @p, from @comms when it is there (NULL:
 * nothing is kept).  Returns the new end of @p.
 */
static char *put_task(char *p, struct tep_handle *tep,
		      struct format_comms *comms, int pid)
{
	unsigned int i = (unsigned int)pid & (FORMAT_COMMS - 1);
	const char *comm;
	char *start = p;

	if (comms && comms->len[i] && comms->pid[i] == pid) {
		memcpy(p, comms->prefix[i], comms->len[i]);
		return p + comms->len[i];
	}
	comm = tep_data_comm_from_pid(tep, pid);
	p = put_str(p, comm, 64, 16);
	*p++ = '-';
	p = put_int(p, pid, 5, ' ', true);
	*p++ = ' ';
	if (comms && strcmp(comm, "<...>")) {
		comms->pid[i] = pid;
		comms->len[i] = p - start;
		memcpy(comms->prefix[i], start, p - start);
	}
	return p;
}

#ifndef FG_REPORT_LATENCY
#define FG_REPORT_LATENCY 0
#endif

/*
 * The latency flags after the CPU, " d..2.", as trace-cmd 3.3 and later
 * print them in every event line (tracecmd/trace-read.c: trace_show_data(),
 * tep_print_event(" %s", TEP_PRINT_LATENCY); since commit 1e713bfc, "Add
 * interrupt info in output", libtracecmd 1.5.0).  Compiled in when
 * libtracecmd is that new (decoder/dirs.mk), so fgdecode's lines are those
 * of the trace-cmd installed beside it.
 */
static void format_latency(struct trace_seq *s, struct tep_handle *tep,
			   struct tep_record *record)
{
	tep_print_event(tep, s, record, " %s", TEP_PRINT_LATENCY);
}

/*
 * The line start "COMM-PID [CPU] SECS.USECS: NAME: " with the event name
 * padded so that the info starts in the same column (and the latency flags
 * after the CPU where trace-cmd prints them: format_latency()).  Prints
 * what tep_print_event() (libtraceevent 1.7: print_string(), print_int()
 * and print_event_time()) prints for the format trace-cmd report uses,
 * "%16s-%-5d [%03d] %6.1000d:" (the time rounded to microseconds), without
 * parsing a format and calling vsnprintf() on every record, which was half
 * of the text output's cost.  Comm and event names are cut at 64 bytes.
 */
static void format_line_start(struct trace_seq *s, struct tep_handle *tep,
			      struct format_comms *comms,
			      struct tep_record *record,
			      const struct tep_event *event)
{
	char line[256], *p = line;
	int pid = tep_data_pid(tep, record);
	unsigned long long usecs = format_us(record->ts);
	size_t name_len = strnlen(event->name, 64);

	p = put_task(p, tep, comms, pid);
	*p++ = '[';
	p = put_int(p, record->cpu, 3, '0', false);
	*p++ = ']';
	if (FG_REPORT_LATENCY) {
		*p = '\0';
		trace_seq_puts(s, line);
		format_latency(s, tep, record);
		p = line;
	}
	*p++ = ' ';
	p = put_int(p, usecs / 1000000, 5, ' ', false);
	*p++ = '.';
	p = put_int(p, usecs % 1000000, 6, '0', false);
	*p++ = ':';
	*p++ = ' ';
	p = put_str(p, event->name, name_len, 0);
	*p++ = ':';
	*p++ = ' ';
	p = put_str(p, "", 0, EVENT_NAME_WIDTH - (int)name_len);
	*p = '\0';
	trace_seq_puts(s, line);
}

void format_event(struct trace_seq *s, struct tep_handle *tep,
		  struct format_comms *comms, struct tep_record *record,
		  const char *buffer, int width)
{
	struct tep_event *event = tep_find_event_by_record(tep, record);

	format_dropped(s, record);
	/* Mirrors trace-cmd's print_handle_file() (tracecmd/trace-read.c). */
	if (width)
		trace_seq_printf(s, "%*s%s", width, buffer ? buffer : "",
				 buffer ? ": " : "  ");
	if (!event) {
		/* tep_print_event() says so in its own words */
		tep_print_event(tep, s, record, "%s", TEP_PRINT_INFO);
		return;
	}
	format_line_start(s, tep, comms, record, event);
	tep_print_event(tep, s, record, "%s", TEP_PRINT_INFO);
}

void format_frames(struct trace_seq *s, const struct symbolizer *sz,
		   const sm_u64 *frames, sm_u32 depth)
{
	sm_u32 i;

	for (i = 0; i < depth; i++)
		symbolize_print(s, sz, frames[i], true, FORMAT_INDENT);
}

struct render_ctx {
	const struct symbolizer *sz;
	const struct resolved *res;
};

static void render_frames(struct trace_seq *s, const void *ctx)
{
	const struct render_ctx *c = ctx;

	format_frames(s, c->sz, c->res->frames, c->res->depth);
	if (c->res->flags & STACKMAP_FLAG_TRUNCATED)
		tepstack_print_truncated(s, FORMAT_INDENT);
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
	if (show_cookie && res->kind == READER_COOKIE &&
	    res->what != RESOLVED_CORRUPT)
		trace_seq_printf(s, "\n" FORMAT_INDENT "<cookie 0x%llx gen %u slot %u>",
				 (unsigned long long)res->cookie,
				 stackmap_cookie_generation(res->cookie),
				 stackmap_cookie_slot(res->cookie));
	if (show_cookie && res->kind == READER_FALLBACK &&
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

void format_orphan(struct trace_seq *s, struct tep_handle *tep, sm_u32 owner)
{
	char name[80];

	trace_seq_printf(s, "\n" FORMAT_INDENT "<orphan stack of %s>",
			 tepstack_owner_name(tep, owner, name, sizeof(name)));
}

void format_cut(struct trace_seq *s)
{
	trace_seq_puts(s, "\n" FORMAT_INDENT
		       "<no stack: the recording of this CPU ends here>");
}

void format_flush(struct trace_seq *s, FILE *out)
{
	if (!s->len && s->state == TRACE_SEQ__GOOD)
		return;		/* nothing to write or reset */
	trace_seq_terminate(s);
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
	if (s->len) {
		fwrite(s->buffer, 1, s->len, out);
		fputc('\n', out);
	}
	trace_seq_reset(s);
}

void format_losses(FILE *out, struct reader *r)
{
	struct reader_losses l;

	reader_losses(r, &l);
	if (l.dropped || l.overrun)
		fprintf(out, "fgdecode: the ring buffer lost %llu events: %llu dropped (buffer full, not overwriting), %llu overwritten, over %d CPUs (trace-cmd report --stat)\n",
			l.dropped + l.overrun, l.dropped, l.overrun, l.cpus);
}

/* The counters of stackmap's records, after the records. */
static void stackmap_counts(FILE *out, const struct resolve_stats *st,
			    size_t distinct)
{
	format_count(out, ", ", st->cookies, "cookies");
	fprintf(out, ", %zu resolved, %zu stale, %zu unknown, ",
		st->resolved, st->stale, st->unknown);
	if (st->orphans)
		fprintf(out, "%zu orphan, ", st->orphans);
	if (st->after_loss)
		fprintf(out, "%zu after a ring buffer loss, ", st->after_loss);
	format_count(out, "", st->fallbacks, "fallback stacks");
	format_count(out, ", ", st->definitions, "definitions");
	format_count(out, " (", distinct, "distinct stacks");
	fputc(')', out);
}

void format_summary(FILE *out, size_t records, size_t events,
		    const struct resolve_stats *st, size_t distinct,
		    size_t matched, bool stackmap)
{
	format_count(out, "fgdecode: ", events, "events");
	format_count(out, " (", records, "records");
	fputc(')', out);
	if (stackmap)
		stackmap_counts(out, st, distinct);
	else if (!st->kstacks)
		fputs(", no stack record (neither stackmap's events nor ftrace's kernel_stack)",
		      out);
	if (st->conflicting)
		fprintf(out, ", %zu conflicting", st->conflicting);
	if (st->corrupt)
		fprintf(out, ", %zu corrupt", st->corrupt);
	if (st->kstacks)
		format_count(out, ", ", st->kstacks, "kernel stacks");
	if (matched != (size_t)-1)
		fprintf(out, ", %zu matched", matched);
	if (st->from_snapshot)
		fprintf(out, ", %zu from snapshot", st->from_snapshot);
	if (st->from_listing)
		fprintf(out, ", %zu from stack map", st->from_listing);
	if (st->truncated)
		fprintf(out, ", %zu truncated", st->truncated);
	if (st->unverified)
		fprintf(out, ", %zu unverified", st->unverified);
	if (st->stackless)
		fprintf(out, ", %zu without a stack (%zu at the end of a CPU's recording)",
			st->stackless, st->stackless_at_end);
	fputc('\n', out);
}
