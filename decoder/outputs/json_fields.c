// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --json: an event's own fields (see json_fields.h).  The fields
 * are read as libtraceevent's tep_print_field_content() reads them (sizes
 * and signs from the format, tep_read_number() in the trace's byte order,
 * tep_get_field_raw() for __data_loc and __rel_loc fields), and written as
 * JSON rather than printed.
 */
#include <stdbool.h>
#include <string.h>

#include "json_fields.h"
#include "stackmap/events.h"
#include "symbolic.h"

/* Numbers from 2^53 on are not exact in a double: a string of hex then. */
#define JSON_EXACT_MAX	(1ULL << 53)

/* The @size-byte number at @p, sign-extended when @is_signed. */
static unsigned long long read_num(struct tep_handle *tep, const void *p,
				   int size, bool is_signed)
{
	unsigned long long v = tep_read_number(tep, p, size);

	if (is_signed && size < 8 && (v & (1ULL << (size * 8 - 1))))
		v |= ~0ULL << (size * 8);
	return v;
}

static void put_num(struct trace_seq *s, unsigned long long v,
		    bool is_signed, bool pointer)
{
	if (is_signed && !pointer)
		trace_seq_printf(s, "%lld", (long long)v);
	else if (pointer || v >= JSON_EXACT_MAX)
		trace_seq_printf(s, "\"0x%llx\"", v);
	else
		trace_seq_printf(s, "%llu", v);
}

/* The @len bytes at @p up to a NUL, as a JSON string. */
static void put_text(struct trace_seq *s, const char *p, int len,
		     void (*put_string)(struct trace_seq *, const char *))
{
	char buf[1024];
	int n = 0;

	while (n < len && n < (int)sizeof(buf) - 1 && p[n])
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
	put_string(s, buf);
}

/* Where field @f's data is in @record, and its length; NULL: beyond it. */
static const char *field_data(struct tep_handle *tep, struct tep_event *event,
			      struct tep_format_field *f,
			      struct tep_record *record, int *len)
{
	struct trace_seq dummy;
	const char *p;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		trace_seq_init(&dummy);
		p = tep_get_field_raw(&dummy, event, f->name, record, len, 0);
		trace_seq_destroy(&dummy);
		return p;
	}
	(void)tep;
	if (f->offset < 0 || f->size < 0 ||
	    f->offset + f->size > record->size)
		return NULL;
	*len = f->size;
	return (const char *)record->data + f->offset;
}

static void put_field(struct trace_seq *s, struct tep_handle *tep,
		      struct tep_event *event, struct tep_format_field *f,
		      struct tep_record *record,
		      void (*put_string)(struct trace_seq *, const char *))
{
	bool is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	bool pointer = f->flags & TEP_FIELD_IS_POINTER;
	int len, el, i;
	const char *p = field_data(tep, event, f, record, &len);

	if (!p) {
		trace_seq_puts(s, "null");
		return;
	}
	if (f->flags & TEP_FIELD_IS_STRING) {
		put_text(s, p, len, put_string);
		return;
	}
	if (!(f->flags & TEP_FIELD_IS_ARRAY)) {
		if (len != 1 && len != 2 && len != 4 && len != 8)
			trace_seq_puts(s, "null");
		else
			put_num(s, read_num(tep, p, len, is_signed), is_signed,
				pointer);
		return;
	}
	el = f->elementsize;
	if (el != 1 && el != 2 && el != 4 && el != 8) {
		trace_seq_puts(s, "null");
		return;
	}
	trace_seq_putc(s, '[');
	for (i = 0; i + el <= len; i += el) {
		if (i)
			trace_seq_putc(s, ',');
		put_num(s, read_num(tep, p + i, el, is_signed), is_signed,
			pointer);
	}
	trace_seq_putc(s, ']');
}

/* ,"printed":{...}: the symbolic fields of @event as its format prints them. */
static void put_printed(struct trace_seq *s, struct tep_event *event,
			struct tep_record *record,
			void (*put_string)(struct trace_seq *, const char *))
{
	struct symbolic_field sf[SYMBOLIC_MAX];
	int n = symbolic_find(event, sf), i;
	bool first = true;
	struct trace_seq v;

	if (!n)
		return;
	trace_seq_init(&v);
	trace_seq_puts(s, ",\"printed\":{");
	for (i = 0; i < n; i++) {
		trace_seq_reset(&v);
		if (!symbolic_print(&v, event, &sf[i], record))
			continue;
		trace_seq_terminate(&v);
		if (!first)
			trace_seq_putc(s, ',');
		first = false;
		put_string(s, sf[i].field->name);
		trace_seq_putc(s, ':');
		put_string(s, v.buffer);
	}
	trace_seq_putc(s, '}');
	trace_seq_destroy(&v);
}

void json_put_fields(struct trace_seq *s, struct tep_handle *tep,
		     struct tep_record *record,
		     void (*put_string)(struct trace_seq *s, const char *str))
{
	struct tep_event *event = tep_find_event_by_record(tep, record);
	struct tep_format_field *f;

	if (!event ||
	    (event->system && !strcmp(event->system, STACKMAP_SYSTEM)))
		return;
	trace_seq_puts(s, ",\"fields\":{");
	for (f = event->format.fields; f; f = f->next) {
		if (f != event->format.fields)
			trace_seq_putc(s, ',');
		put_string(s, f->name);
		trace_seq_putc(s, ':');
		put_field(s, tep, event, f, record, put_string);
	}
	trace_seq_putc(s, '}');
	put_printed(s, event, record, put_string);
}
