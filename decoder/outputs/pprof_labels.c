// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --pprof: an event's own fields as labels (see pprof_labels.h).
 *
 * A set is kept as bytes, label after label: the key and a NUL, then 's'
 * and the string and a NUL, or 'n', the 8 bytes of the number and the
 * unit and a NUL; sets are interned in a tsearch() tree by those bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "pprof_labels.h"
#include "stackmap/events.h"
#include "symbolic.h"
#include "weight.h"

struct pp_labelset {
	uint32_t id;
	size_t nr;		/* labels */
	size_t len;		/* bytes */
	char bytes[];
};

/* Keys every sample has already (pprof.c's label_key[]). */
static bool taken(const char *name)
{
	return !strcmp(name, "event") || !strcmp(name, "comm") ||
	       !strcmp(name, "pid") || !strcmp(name, "cpu");
}

static void put_key(struct trace_seq *s, const char *name, const char *tail)
{
	trace_seq_printf(s, "%s%s%s", taken(name) ? "field_" : "", name, tail);
	trace_seq_putc(s, '\0');
}

static void put_str(struct trace_seq *s, const char *p, int len)
{
	trace_seq_putc(s, 's');
	for (; len > 0 && *p; len--)
		trace_seq_putc(s, *p++);
	trace_seq_putc(s, '\0');
}

/*
 * The unit of a number label whose field is in @unit (weight_unit()):
 * pprof's name of a time unit, as pprof.c's sample types; "count" for a
 * plain number, since pprof drops a number label that has neither a value
 * other than 0 nor a unit (the protocol buffer cannot tell it from none),
 * and go tool pprof shows no unit it does not know, and matches
 * -tagfocus KEY=N on it as on a number without one.
 */
static const char *label_unit(const char *unit)
{
	if (!strcmp(unit, "ns"))
		return "nanoseconds";
	return *unit ? unit : "count";
}

static void put_num(struct trace_seq *s, int64_t v, const char *unit)
{
	int i;

	trace_seq_putc(s, 'n');
	for (i = 0; i < 8; i++)
		trace_seq_putc(s, (char)((uint64_t)v >> (8 * i)));
	trace_seq_puts(s, label_unit(unit));
	trace_seq_putc(s, '\0');
}

/* A number label's value: the field read with its size and sign. */
static int64_t read_num(struct tep_handle *tep, const struct tep_record *r,
			const struct tep_format_field *f)
{
	uint64_t v = tep_read_number(tep, (char *)r->data + f->offset,
				     f->size);

	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    (v & (1ULL << (f->size * 8 - 1))))
		v |= ~0ULL << (f->size * 8);
	return (int64_t)v;
}

/* Is @f symbolic: one of @sf[0..n)?  Return its index, or -1. */
static int symbolic_index(const struct symbolic_field *sf, int n,
			  const struct tep_format_field *f)
{
	while (n--)
		if (sf[n].field == f)
			return n;
	return -1;
}

/* Append @f's labels to @s, if it gets any; return how many (0-2). */
static int put_field(struct trace_seq *s, struct tep_event *event,
		     struct tep_format_field *f, struct tep_record *r,
		     const struct symbolic_field *sf, int nr_sf)
{
	int k = symbolic_index(sf, nr_sf, f), len;
	struct trace_seq dummy;
	const char *p;

	if (f->flags & TEP_FIELD_IS_STRING) {
		trace_seq_init(&dummy);
		p = tep_get_field_raw(&dummy, event, f->name, r, &len, 0);
		trace_seq_destroy(&dummy);
		if (!p)
			return 0;
		put_key(s, f->name, "");
		put_str(s, p, len);
		return 1;
	}
	if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    f->size < 1 || f->size > 8 || f->offset + f->size > r->size)
		return 0;
	if (k >= 0) {
		/* As printed under its name, the number under NAME_raw. */
		put_key(s, f->name, "");
		trace_seq_putc(s, 's');
		symbolic_print(s, event, &sf[k], r);
		trace_seq_putc(s, '\0');
		put_key(s, f->name, "_raw");
		put_num(s, read_num(event->tep, r, f), weight_unit(f->name));
		return 2;
	}
	if ((f->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG)) ||
	    symbolic_is_address(event, f))
		return 0;
	put_key(s, f->name, "");
	put_num(s, read_num(event->tep, r, f), weight_unit(f->name));
	return 1;
}

static int cmp_set(const void *a, const void *b)
{
	const struct pp_labelset *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->bytes, y->bytes, x->len);
}

/* The id of the set @len bytes at @bytes hold, added when new. */
static int intern(struct pp_labels *l, const char *bytes, size_t len,
		  size_t nr, uint32_t *id)
{
	struct pp_labelset *set = malloc(sizeof(*set) + len), **found;

	if (!set)
		return -ENOMEM;
	set->len = len;
	set->nr = nr;
	memcpy(set->bytes, bytes, len);
	found = tfind(set, &l->tree, cmp_set);
	if (found) {
		free(set);
		*id = (*found)->id;
		return 0;
	}
	if (sm_array_reserve(&l->sets, &l->alloc, l->nr + 1, sizeof(*l->sets),
			     16) || !tsearch(set, &l->tree, cmp_set)) {
		free(set);
		return -ENOMEM;
	}
	set->id = *id = l->nr;
	l->sets[l->nr++] = set;
	return 0;
}

int pp_labels_of(struct pp_labels *l, struct tep_handle *tep,
		 struct tep_record *record, uint32_t *id)
{
	struct tep_event *event = tep_find_event_by_record(tep, record);
	struct symbolic_field sf[SYMBOLIC_MAX];
	struct tep_format_field *f;
	size_t nr = 0;
	int nr_sf;

	if (!l->buf_init) {
		trace_seq_init(&l->buf);
		l->buf_init = true;
	}
	trace_seq_reset(&l->buf);
	if (event && !(event->system &&
		       !strcmp(event->system, STACKMAP_SYSTEM))) {
		nr_sf = symbolic_find(event, sf);
		for (f = event->format.fields; f; f = f->next)
			nr += put_field(&l->buf, event, f, record, sf, nr_sf);
	}
	if (l->buf.state != TRACE_SEQ__GOOD)
		return -ENOMEM;
	return intern(l, l->buf.buffer, l->buf.len, nr, id);
}

size_t pp_labels_count(const struct pp_labels *l, uint32_t id)
{
	return l->sets[id]->nr;
}

void pp_labels_get(const struct pp_labels *l, uint32_t id,
		   struct pp_label *out)
{
	const struct pp_labelset *set = l->sets[id];
	const char *p = set->bytes;
	uint64_t v;
	size_t i;
	int b;

	for (i = 0; i < set->nr; i++, out++) {
		out->key = p;
		p += strlen(p) + 1;
		out->str = out->unit = NULL;
		if (*p++ == 's') {
			out->str = p;
			p += strlen(p) + 1;
			continue;
		}
		for (v = 0, b = 0; b < 8; b++)
			v |= (uint64_t)(unsigned char)*p++ << (8 * b);
		out->num = (int64_t)v;
		out->unit = *p ? p : NULL;
		p += strlen(p) + 1;
	}
}

static void free_set(void *set)
{
	(void)set;	/* freed from the array */
}

void pp_labels_fini(struct pp_labels *l)
{
	size_t i;

	tdestroy(l->tree, free_set);
	for (i = 0; i < l->nr; i++)
		free(l->sets[i]);
	free(l->sets);
	if (l->buf_init)
		trace_seq_destroy(&l->buf);
	memset(l, 0, sizeof(*l));
}
