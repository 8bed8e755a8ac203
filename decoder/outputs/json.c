// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's outputs: --json output (see json.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_fields.h"
#include "output.h"
#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "symbolize.h"
#include "units.h"

/* A JSON string: quotes, escapes for '"', '\\' and control characters. */
static void put_string(struct trace_seq *s, const char *str)
{
	const unsigned char *p = (const unsigned char *)str;

	trace_seq_putc(s, '"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			trace_seq_printf(s, "\\%c", *p);
		else if (*p < 0x20)
			trace_seq_printf(s, "\\u%04x", *p);
		else
			trace_seq_putc(s, *p);
	}
	trace_seq_putc(s, '"');
}

/* One frame object (without the separating comma). */
static void put_frame(struct trace_seq *s, sm_u64 addr,
		      const struct sym_frame *f)
{
	trace_seq_printf(s, "{\"addr\":\"0x%llx\",\"symbol\":",
			 (unsigned long long)addr);
	if (f->name)
		put_string(s, f->name);
	else
		trace_seq_puts(s, "null");
	if (f->name && !f->inlined)
		trace_seq_printf(s, ",\"offset\":%llu",
				 (unsigned long long)f->offset);
	if (f->size)
		trace_seq_printf(s, ",\"size\":%llu",
				 (unsigned long long)f->size);
	if (f->mod) {
		trace_seq_puts(s, ",\"module\":");
		put_string(s, f->mod);
	}
	if (f->file) {
		trace_seq_puts(s, ",\"file\":");
		put_string(s, f->file);
		trace_seq_printf(s, ",\"line\":%d", f->line);
	}
	if (f->inlined)
		trace_seq_puts(s, ",\"inlined\":true");
	trace_seq_putc(s, '}');
}

void json_put_frames(struct trace_seq *s, const struct symbolizer *sz,
		     const sm_u64 *frames, sm_u32 depth)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	bool first = true;
	sm_u32 i;
	int j, n;

	trace_seq_puts(s, "[");
	for (i = 0; i < depth; i++) {
		n = symbolize_addr(sz, frames[i], true, f);
		for (j = 0; j < n; j++) {
			if (!first)
				trace_seq_putc(s, ',');
			first = false;
			put_frame(s, frames[i], &f[j]);
		}
	}
	trace_seq_putc(s, ']');
}

/* A stack to render, for render_frames(). */
struct render_ctx {
	const struct symbolizer *sz;
	const sm_u64 *frames;
	sm_u32 depth;
};

/* Append a stack's frames array (a sset_render_once() callback). */
static void render_frames(struct trace_seq *s, const void *ctx)
{
	const struct render_ctx *c = ctx;

	json_put_frames(s, c->sz, c->frames, c->depth);
}

/* "orphan":true and its "owner", for a stack no event carried. */
static void put_orphan(struct trace_seq *s, struct tep_handle *tep,
		       const struct resolved *res)
{
	char name[80];

	trace_seq_puts(s, ",\"orphan\":true,\"owner\":");
	put_string(s, tepstack_owner_name(tep, res->owner, name, sizeof(name)));
}

/* Append the cached (or freshly rendered) "stack" array of @res. */
static int put_stack(struct trace_seq *s, const struct symbolizer *sz,
		     const struct resolved *res, struct sset_entry *entry)
{
	struct render_ctx c = { sz, res->frames, res->depth };

	return sset_render_once(s, entry, SSET_R_JSON, render_frames, &c);
}

static const char *status_of(const struct resolved *res)
{
	if (!res)
		return "none";
	if (res->what == RESOLVED_CORRUPT)
		return "corrupt";
	if (res->what == RESOLVED_MARKER)
		return stacktab_result_name(res->result);
	if (res->kind == READER_FALLBACK)
		return "fallback";
	if (res->kind == READER_KSTACK)
		return "kernel_stack";
	return "resolved";
}

/* time, ts, cpu, pid, comm, event, system, buffer. */
static void put_header(struct trace_seq *s, struct tep_handle *tep,
		       struct tep_record *record, const char *buffer)
{
	struct tep_event *event = tep_find_event_by_record(tep, record);
	int pid = tep_data_pid(tep, record);
	unsigned long long us = format_us(record->ts);

	trace_seq_printf(s, "{\"time\":%llu.%06llu,\"ts\":%llu,\"cpu\":%d,\"pid\":%d,\"comm\":",
			 us / 1000000, us % 1000000, record->ts, record->cpu,
			 pid);
	put_string(s, tep_data_comm_from_pid(tep, pid));
	trace_seq_puts(s, ",\"event\":");
	put_string(s, event ? event->name : "");
	trace_seq_puts(s, ",\"system\":");
	put_string(s, event && event->system ? event->system : "");
	if (buffer) {
		trace_seq_puts(s, ",\"buffer\":");
		put_string(s, buffer);
	}
}

/* cookie, gen, slot, reason, status, stack or error. */
static int put_resolved(struct trace_seq *s, const struct symbolizer *sz,
			const struct resolved *res, struct sset_entry *entry)
{
	if (res && res->what != RESOLVED_CORRUPT && res->kind == READER_COOKIE)
		trace_seq_printf(s, ",\"cookie\":\"0x%llx\",\"gen\":%u,\"slot\":%u",
				 (unsigned long long)res->cookie,
				 stackmap_cookie_generation(res->cookie),
				 stackmap_cookie_slot(res->cookie));
	if (res && res->what == RESOLVED_STACK && res->kind == READER_FALLBACK)
		trace_seq_printf(s, ",\"reason\":\"%s\"",
				 stackmap_fallback_name(res->reason));
	trace_seq_printf(s, ",\"status\":\"%s\"", status_of(res));
	if (!res)
		return 0;
	if (res->what == RESOLVED_STACK && (res->flags & STACKMAP_FLAG_TRUNCATED))
		trace_seq_puts(s, ",\"truncated\":true");
	if (res->what == RESOLVED_CORRUPT) {
		trace_seq_puts(s, ",\"error\":");
		put_string(s, res->err.msg);
		return 0;
	}
	trace_seq_puts(s, ",\"stack\":");
	if (res->what == RESOLVED_MARKER) {
		trace_seq_puts(s, "[]");
		return 0;
	}
	return put_stack(s, sz, res, entry);
}

int json_event(FILE *out, const struct symbolizer *sz,
	       struct tep_record *record,
	       const char *buffer, const struct resolved *res,
	       struct sset_entry *entry, bool orphan, const sm_u64 *weight)
{
	struct trace_seq s;
	int ret;

	trace_seq_init(&s);
	put_header(&s, sz->tep, record, buffer);
	if (!orphan)
		json_put_fields(&s, sz->tep, record, put_string);
	if (weight)
		trace_seq_printf(&s, ",\"weight\":%llu",
				 (unsigned long long)*weight);
	if (orphan && res)
		put_orphan(&s, sz->tep, res);
	ret = put_resolved(&s, sz, res, entry);
	trace_seq_puts(&s, "}\n");
	trace_seq_terminate(&s);
	fwrite(s.buffer, 1, s.len, out);
	trace_seq_destroy(&s);
	return ret;
}

static const char *const entry_status[SSET_NR_STATUS] = {
	[SSET_FRAMES] = "frames",
	[SSET_TRUNCATED] = "frames",
	[SSET_STALE] = "stale",
	[SSET_UNKNOWN] = "unknown",
	[SSET_CONFLICT] = "conflicting",
	[SSET_CORRUPT] = "corrupt",
};

/* "status", then "truncated" and "stack" of an interned stack. */
static int put_entry(struct trace_seq *s, const struct symbolizer *sz,
		     struct sset_entry *entry)
{
	struct render_ctx c = { sz, entry->frames, entry->depth };

	if (entry->status == SSET_FRAMES && !entry->depth) {
		trace_seq_puts(s, ",\"status\":\"none\"");
		return 0;
	}
	trace_seq_printf(s, ",\"status\":\"%s\"", entry_status[entry->status]);
	if (entry->status == SSET_TRUNCATED)
		trace_seq_puts(s, ",\"truncated\":true");
	trace_seq_puts(s, ",\"stack\":");
	if (!sset_has_frames(entry->status)) {
		trace_seq_puts(s, "[]");
		return 0;
	}
	return sset_render_once(s, entry, SSET_R_JSON, render_frames, &c);
}

int json_off_cpu(FILE *out, const struct symbolizer *sz,
		 const struct offcpu_interval *iv, bool wakers)
{
	unsigned long long us = format_us(iv->out_ts);
	char state[OFFCPU_STATE_LEN];
	struct trace_seq s;
	int ret = 0;

	trace_seq_init(&s);
	trace_seq_printf(&s, "{\"time\":%llu.%06llu,\"ts\":%llu,\"cpu\":%d,\"pid\":%d,\"comm\":",
			 us / 1000000, us % 1000000,
			 (unsigned long long)iv->out_ts, iv->out_cpu, iv->pid);
	put_string(&s, iv->comm);
	trace_seq_printf(&s, ",\"state\":\"%s\",\"off_ns\":%llu,\"end_ts\":%llu,\"end_cpu\":%d",
			 offcpu_state_name(iv->state, state),
			 (unsigned long long)iv->ns,
			 (unsigned long long)iv->in_ts, iv->in_cpu);
	if (wakers && !iv->waker)
		trace_seq_puts(&s, ",\"waker\":null");
	if (wakers && iv->waker) {
		trace_seq_printf(&s, ",\"waker\":{\"pid\":%d,\"comm\":",
				 iv->waker_pid);
		put_string(&s, tep_data_comm_from_pid(sz->tep, iv->waker_pid));
		ret = put_entry(&s, sz, iv->waker);
		trace_seq_putc(&s, '}');
	}
	if (put_entry(&s, sz, iv->blocked))
		ret = -ENOMEM;
	trace_seq_puts(&s, "}\n");
	trace_seq_terminate(&s);
	fwrite(s.buffer, 1, s.len, out);
	trace_seq_destroy(&s);
	return ret;
}

/* fgdecode report --json: one line per event, or per off-CPU interval. */
struct json {
	const struct output_env *env;
};

static int json_begin(void *state, struct output_env *env)
{
	struct json *j = state;

	j->env = env;
	return 0;
}

static int json_output_event(void *state, const struct fg_event *ev)
{
	const struct output_env *env = ((struct json *)state)->env;

	/* --off-cpu: intervals, as they end (json_output_interval()). */
	if (env->analysis->off_cpu)
		return 0;
	return json_event(stdout, env->sz, ev->record, ev->buffer, ev->stack,
			  ev->entry, ev->orphan, ev->weight);
}

static int json_output_interval(void *state, const struct offcpu_interval *iv)
{
	const struct output_env *env = ((struct json *)state)->env;

	return json_off_cpu(stdout, env->sz, iv, env->analysis->wakers);
}

const struct output_ops json_output = {
	.option = "json",
	.help = "  --json          one JSON object per event per line\n",
	.flags = OUTPUT_WEIGHS | OUTPUT_OFF_CPU,
	.size = sizeof(struct json),
	.begin = json_begin,
	.event = json_output_event,
	.interval = json_output_interval,
};
