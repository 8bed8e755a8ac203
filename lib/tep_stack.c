// SPDX-License-Identifier: GPL-2.0
/*
 * tep_stack: stackmap events out of libtraceevent records (see tep_stack.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stackmap/cookie.h"
#include "stackmap/frames.h"
#include "tep_stack.h"

static const char *const kind_names[TEPSTACK_NR_KINDS] = {
	[TEPSTACK_COOKIE] = STACKMAP_EVENT_COOKIE,
	[TEPSTACK_DEFINE] = STACKMAP_EVENT_DEFINE,
	[TEPSTACK_FALLBACK] = STACKMAP_EVENT_FALLBACK,
};

const char *tepstack_event_name(enum tepstack_kind kind)
{
	if ((unsigned int)kind >= TEPSTACK_NR_KINDS)
		return NULL;
	return kind_names[kind];
}

int tepstack_kind_of(const struct tep_event *event)
{
	int kind;

	if (!event->system || strcmp(event->system, STACKMAP_SYSTEM))
		return -1;
	for (kind = 0; kind < TEPSTACK_NR_KINDS; kind++)
		if (!strcmp(event->name, kind_names[kind]))
			return kind;
	return -1;
}

static bool is_number(const struct tep_format_field *field)
{
	if (field->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY |
			    TEP_FIELD_IS_STRING))
		return false;
	return field->size == 1 || field->size == 2 || field->size == 4 ||
	       field->size == 8;
}

/* Look up field @name; check its shape with @ok (which @what describes). */
static int want_field(struct tepstack_fields *f, struct tep_format_field **out,
		      const char *name,
		      bool (*ok)(const struct tep_format_field *),
		      const char *what, struct sm_err *err)
{
	const char *ev = f->event->name;

	*out = tep_find_field(f->event, name);
	if (!*out)
		return sm_err_code(err, -ENOENT, "%s: no field '%s'", ev, name);
	if (!ok(*out))
		return sm_err_code(err, -EPROTO, "%s: field '%s' is not %s (type '%s', size %d)",
			    ev, name, what, (*out)->type, (*out)->size);
	return 0;
}

static bool is_u64(const struct tep_format_field *field)
{
	return is_number(field) && field->size == 8;
}

static bool is_dynamic_array(const struct tep_format_field *field)
{
	return (field->flags & TEP_FIELD_IS_DYNAMIC) && field->size == 4;
}

int tepstack_fields_init(struct tepstack_fields *f, struct tep_event *event,
			 struct sm_err *err)
{
	int kind = tepstack_kind_of(event);
	int ret = 0;

	memset(f, 0, sizeof(*f));
	f->event = event;
	if (kind < 0)
		return sm_err_code(err, -EINVAL, "%s:%s: not a stackmap event",
			    event->system, event->name);
	f->kind = kind;
	if (kind == TEPSTACK_COOKIE || kind == TEPSTACK_DEFINE)
		ret = want_field(f, &f->cookie, STACKMAP_FIELD_COOKIE, is_u64,
				 "an 8-byte number", err);
	if (!ret && kind == TEPSTACK_FALLBACK)
		ret = want_field(f, &f->reason, STACKMAP_FIELD_REASON, is_number,
				 "a number", err);
	if (!ret && kind != TEPSTACK_COOKIE)
		ret = want_field(f, &f->depth, STACKMAP_FIELD_DEPTH, is_number,
				 "a number", err);
	/* Packed frames (frames.h); an ips[] array from older modules. */
	if (!ret && kind == TEPSTACK_DEFINE &&
	    tep_find_field(event, STACKMAP_FIELD_FRAMES))
		ret = want_field(f, &f->frames, STACKMAP_FIELD_FRAMES,
				 is_dynamic_array, "a __data_loc array", err);
	else if (!ret && kind != TEPSTACK_COOKIE)
		ret = want_field(f, &f->ips, STACKMAP_FIELD_IPS, is_dynamic_array,
				 "a __data_loc array", err);
	if (ret || kind == TEPSTACK_COOKIE)
		return ret;
	/* Optional: definitions of stackmap 0.2 and before have none. */
	if (kind == TEPSTACK_DEFINE && tep_find_field(event, STACKMAP_FIELD_MAP_ID))
		ret = want_field(f, &f->map_id, STACKMAP_FIELD_MAP_ID, is_u64,
				 "an 8-byte number", err);
	if (ret)
		return ret;
	/* Both or neither: neither is a stackmap 0.1 format. */
	if (!tep_find_field(event, STACKMAP_FIELD_OWNER) &&
	    !tep_find_field(event, STACKMAP_FIELD_FLAGS))
		return 0;
	ret = want_field(f, &f->owner, STACKMAP_FIELD_OWNER, is_number,
			 "a number", err);
	if (!ret)
		ret = want_field(f, &f->flags, STACKMAP_FIELD_FLAGS, is_number,
				 "a number", err);
	return ret;
}

/* Is [off, off + len) inside @record? */
static bool in_record(const struct tep_record *record, long long off,
		      long long len)
{
	return off >= 0 && len >= 0 && off + len <= record->size;
}

/* Read the number field @field (checked by tepstack_fields_init()). */
static int read_field(const struct tepstack_fields *f,
		      const struct tep_format_field *field, const char *name,
		      const struct tep_record *record, sm_u64 *val,
		      struct sm_err *err)
{
	*val = 0;
	if (!field)
		return sm_err_code(err, -ENOENT, "%s: no field '%s'", f->event->name,
			    name);
	if (!in_record(record, field->offset, field->size))
		return sm_err_code(err, -EFAULT,
			    "%s: field '%s' lies outside the %d-byte record",
			    f->event->name, name, record->size);
	*val = tep_read_number(f->event->tep,
			       (const char *)record->data + field->offset,
			       field->size);
	return 0;
}

int tepstack_read_cookie(const struct tepstack_fields *f,
			 const struct tep_record *record, sm_u64 *cookie,
			 struct sm_err *err)
{
	int ret = read_field(f, f->cookie, STACKMAP_FIELD_COOKIE, record,
			     cookie, err);

	*cookie = stackmap_cookie_strip(*cookie);
	return ret;
}

bool tepstack_after_loss(const struct tepstack_fields *f,
			 const struct tep_record *record)
{
	struct sm_err err;
	sm_u64 value;

	if (f->kind == TEPSTACK_FALLBACK)
		return tepstack_has_owner(f) &&
		       !read_field(f, f->flags, STACKMAP_FIELD_FLAGS, record,
				   &value, &err) &&
		       (value & STACKMAP_FLAG_AFTER_LOSS);
	return f->kind == TEPSTACK_COOKIE &&
	       !read_field(f, f->cookie, STACKMAP_FIELD_COOKIE, record, &value,
			   &err) &&
	       stackmap_cookie_after_loss(value);
}

sm_u64 tepstack_read_map_id(const struct tepstack_fields *f,
			    const struct tep_record *record)
{
	struct sm_err err;
	sm_u64 id;

	if (!f->map_id ||
	    read_field(f, f->map_id, STACKMAP_FIELD_MAP_ID, record, &id, &err))
		return 0;
	return id;
}

int tepstack_read_reason(const struct tepstack_fields *f,
			 const struct tep_record *record, sm_u32 *reason,
			 struct sm_err *err)
{
	sm_u64 val;
	int ret;

	ret = read_field(f, f->reason, STACKMAP_FIELD_REASON, record, &val,
			 err);
	if (!ret)
		*reason = (sm_u32)val;
	return ret;
}

int tepstack_read_owner(const struct tepstack_fields *f,
			const struct tep_record *record, sm_u32 *owner,
			sm_u32 *flags, struct sm_err *err)
{
	sm_u64 o, fl;
	int ret;

	*owner = STACKMAP_OWNER_NONE;
	*flags = 0;
	if (!tepstack_has_owner(f))
		return 0;
	ret = read_field(f, f->owner, STACKMAP_FIELD_OWNER, record, &o, err);
	if (!ret)
		ret = read_field(f, f->flags, STACKMAP_FIELD_FLAGS, record, &fl,
				 err);
	if (ret)
		return ret;
	/* Not part of the stack (events.h): tepstack_after_loss() reads it. */
	if (f->kind == TEPSTACK_FALLBACK)
		fl &= ~(sm_u64)STACKMAP_FLAG_AFTER_LOSS;
	if (fl & ~(sm_u64)STACKMAP_FLAGS_KNOWN)
		return sm_err_code(err, -EBADMSG,
			    "%s: field '%s' is 0x%llx, unknown bits (known: 0x%x)",
			    f->event->name, STACKMAP_FIELD_FLAGS,
			    (unsigned long long)fl, STACKMAP_FLAGS_KNOWN);
	*owner = (sm_u32)o;
	*flags = (sm_u32)fl;
	return 0;
}

unsigned int tepstack_context(struct tep_handle *tep,
			      struct tep_record *record)
{
	int flags = tep_data_flags(tep, record);

	return flags < 0 ? 0 : (unsigned int)flags & STACKMAP_CONTEXT_FLAGS;
}

const char *tepstack_owner_name(struct tep_handle *tep, sm_u32 owner,
				char *buf, size_t len)
{
	struct tep_event *event = tep_find_event(tep, (int)owner);

	if (event && event->system && event->name)
		snprintf(buf, len, "%s:%s", event->system, event->name);
	else
		snprintf(buf, len, "event id %u", owner);
	return buf;
}

/*
 * Locate the dynamic array @field (named @name) of @record: its byte offset
 * in the record and its length in bytes, from the __data_loc (or __rel_loc)
 * word.
 */
static int locate_array(const struct tepstack_fields *f,
			const struct tep_format_field *field, const char *name,
			const struct tep_record *record, long long *off,
			long long *len, struct sm_err *err)
{
	sm_u64 loc;
	int ret;

	ret = read_field(f, field, name, record, &loc, err);
	if (ret)
		return ret;
	*off = loc & 0xffff;
	*len = (loc >> 16) & 0xffff;
	if (field->flags & TEP_FIELD_IS_RELATIVE)
		*off += field->offset + field->size;
	if (!in_record(record, *off, *len))
		return sm_err_code(err, -EFAULT,
			    "%s: field '%s' array at %lld, %lld bytes, lies outside the %d-byte record",
			    f->event->name, name, *off, *len,
			    record->size);
	return 0;
}

static const char *const frames_errors[] = {
	[STACKMAP_FRAMES_SHORT] = "ends before the end of the frame at byte",
	[STACKMAP_FRAMES_OVERLONG] = "holds a frame of more than 64 bits at byte",
	[STACKMAP_FRAMES_TRAILING] = "holds bytes after its last frame, from byte",
};

/* The packed frames field of a stack_define (frames.h) into @out. */
static int read_frames(const struct tepstack_fields *f,
		       const struct tep_record *record,
		       struct tepstack_stack *out, struct sm_err *err)
{
	enum stackmap_frames_error bad;
	long long off, len;
	sm_u32 at;
	int ret;

	ret = locate_array(f, f->frames, STACKMAP_FIELD_FRAMES, record, &off,
			   &len, err);
	if (ret)
		return ret;
	bad = stackmap_frames_unpack((const unsigned char *)record->data + off,
				     (sm_u32)len, out->depth, out->frames, &at);
	if (bad == STACKMAP_FRAMES_OK)
		return 0;
	return sm_err_code(err, -EBADMSG,
		    "%s: field '%s' (%lld bytes) %s %u: not %s %u packed frames",
		    f->event->name, STACKMAP_FIELD_FRAMES, len,
		    frames_errors[bad], at, STACKMAP_FIELD_DEPTH, out->depth);
}

int tepstack_read_stack(const struct tepstack_fields *f,
			const struct tep_record *record,
			struct tepstack_stack *out, struct sm_err *err)
{
	struct tep_handle *tep = f->event->tep;
	int long_size = tep_get_long_size(tep);
	const char *data = record->data;
	long long off, len;
	sm_u64 depth;
	sm_u32 i;
	int ret;

	ret = read_field(f, f->depth, STACKMAP_FIELD_DEPTH, record, &depth, err);
	if (ret)
		return ret;
	if (depth > STACKMAP_MAX_DEPTH)
		return sm_err_code(err, -E2BIG, "%s: field '%s' is %llu, more than %d frames",
			    f->event->name, STACKMAP_FIELD_DEPTH,
			    (unsigned long long)depth, STACKMAP_MAX_DEPTH);
	out->depth = (sm_u32)depth;
	if (f->frames)
		return read_frames(f, record, out, err);
	ret = locate_array(f, f->ips, STACKMAP_FIELD_IPS, record, &off, &len,
			   err);
	if (ret)
		return ret;
	if ((long_size != 4 && long_size != 8) || len != (long long)depth * long_size)
		return sm_err_code(err, -EBADMSG,
			    "%s: field '%s' holds %lld bytes, not %s %llu x %d-byte longs",
			    f->event->name, STACKMAP_FIELD_IPS, len,
			    STACKMAP_FIELD_DEPTH, (unsigned long long)depth,
			    long_size);
	for (i = 0; i < out->depth; i++)
		out->frames[i] = tep_read_number(tep, data + off + i * long_size,
						 long_size);
	return 0;
}

void tepstack_find_symbol(struct tep_handle *tep, sm_u64 addr,
			  const char **name, sm_u64 *offset, sm_u64 *size)
{
	unsigned long long start = 0;
	unsigned long len = 0;

	*offset = 0;
	*size = 0;
	if (!tep_find_function_info(tep, addr, name, &start, &len)) {
		*name = NULL;
		return;
	}
	*offset = addr - start;
	if (len > *offset && len <= TEPSTACK_MAX_SYMBOL_SIZE)
		*size = len;
}

void tepstack_print_symbol(struct trace_seq *s, const char *name,
			   sm_u64 offset, sm_u64 size, const char *mod,
			   sm_u64 addr, bool show_addr)
{
	if (!name) {
		trace_seq_printf(s, "=> 0x%llx", (unsigned long long)addr);
		return;
	}
	trace_seq_printf(s, "=> %s+0x%llx", name, (unsigned long long)offset);
	if (size)
		trace_seq_printf(s, "/0x%llx", (unsigned long long)size);
	if (mod)
		trace_seq_printf(s, " [%s]", mod);
	if (show_addr)
		trace_seq_printf(s, " (%llx)", (unsigned long long)addr);
}

void tepstack_print_frame(struct trace_seq *s, struct tep_handle *tep,
			  sm_u64 addr)
{
	const char *name;
	sm_u64 offset, size;

	tepstack_find_symbol(tep, addr, &name, &offset, &size);
	tepstack_print_symbol(s, name, offset, size, NULL, addr, true);
}

void tepstack_print_stack(struct trace_seq *s, struct tep_handle *tep,
			  const sm_u64 *frames, sm_u32 depth,
			  const char *indent)
{
	sm_u32 i;

	for (i = 0; i < depth; i++) {
		trace_seq_printf(s, "\n%s", indent);
		tepstack_print_frame(s, tep, frames[i]);
	}
}

void tepstack_print_truncated(struct trace_seq *s, const char *indent)
{
	trace_seq_printf(s, "\n%s=> ... [truncated]", indent);
}

void tepstack_print_marker(struct trace_seq *s, enum stacktab_result result,
			   sm_u64 cookie, const char *indent)
{
	trace_seq_printf(s, "\n%s=> <%s cookie gen %u slot %u>", indent,
			 stacktab_result_name(result),
			 stackmap_cookie_generation(cookie),
			 stackmap_cookie_slot(cookie));
}

enum stacktab_result tepstack_print_cookie(struct trace_seq *s,
					   struct tep_handle *tep,
					   const struct stacktab *tab,
					   sm_u64 cookie, const char *indent)
{
	struct stacktab_stack stack;
	enum stacktab_result result;

	result = stacktab_lookup(tab, cookie, &stack);
	if (result == STACKTAB_FOUND) {
		tepstack_print_stack(s, tep, stack.frames, stack.depth, indent);
		if (stack.flags & STACKMAP_FLAG_TRUNCATED)
			tepstack_print_truncated(s, indent);
	} else
		tepstack_print_marker(s, result, cookie, indent);
	return result;
}

/* What tepstack_in_tracer() looks for: prefixes of the tracer's functions. */
static const char *const tracer_prefixes[] = {
	"trace_event_raw_event_", "perf_trace_", "__traceiter_",
	"__bpf_trace_", "__probestub_", "__SCT__tp_func_",
	"trace_event_buffer_", "trace_buffer_unlock_commit", "__trace_stack",
	"ftrace_trace_stack", "__ftrace_trace_stack", NULL,
};

bool tepstack_in_tracer(struct tep_handle *tep, sm_u64 addr)
{
	const char *name = tep_find_function(tep, addr - 1);
	int i;

	for (i = 0; name && tracer_prefixes[i]; i++)
		if (!strncmp(name, tracer_prefixes[i],
			     strlen(tracer_prefixes[i])))
			return true;
	return false;
}
