// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --weight FIELD (see weight.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "analyses.h"
#include "weight.h"

void weight_init(struct weight *w, const char *field)
{
	memset(w, 0, sizeof(*w));
	w->field = field;
	w->unit = weight_unit(field);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

const char *weight_unit(const char *field)
{
	static const char *const bytes[] = {
		"bytes_alloc", "bytes_req", "len", "size", "bytes", NULL,
	};
	int i;

	for (i = 0; bytes[i]; i++)
		if (!strcmp(field, bytes[i]))
			return "bytes";
	if (!strcmp(field, "nr_sector") || !strcmp(field, "nr_sectors"))
		return "sectors";
	if (ends_with(field, "_ns") || !strcmp(field, "delay") ||
	    !strcmp(field, "runtime"))
		return "ns";
	return "";
}

/* @w->field of @event, checked; NULL with @err set. */
static struct tep_format_field *find_field(struct weight *w,
					   struct tep_event *event,
					   struct sm_err *err, int *ret)
{
	struct tep_format_field *f = tep_find_field(event, w->field);

	if (!f) {
		sm_err_set(err, "--weight %s: event %s:%s has no field '%s' (select events that have it with --event)",
			   w->field, event->system, event->name, w->field);
		*ret = -ENOENT;
		return NULL;
	}
	if ((f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY |
			 TEP_FIELD_IS_DYNAMIC)) || f->size < 1 || f->size > 8) {
		sm_err_set(err, "--weight %s: field '%s' of event %s:%s is not a number (%s)",
			   w->field, w->field, event->system, event->name,
			   f->type);
		*ret = -EINVAL;
		return NULL;
	}
	return f;
}

/* The checked field of the event type of @record, or NULL (@err set). */
static struct tep_format_field *field_of(struct weight *w,
					 struct tep_handle *tep,
					 struct tep_record *record,
					 struct sm_err *err, int *ret)
{
	int id = tep_data_type(tep, record), i;
	struct tep_event *event;
	struct tep_format_field *f;

	for (i = 0; i < w->nr; i++)
		if (w->cache[i].id == id)
			return w->cache[i].f;
	event = tep_find_event(tep, id);
	if (!event) {
		sm_err_set(err, "--weight %s: event id %d has no format in the trace",
			   w->field, id);
		*ret = -ENOENT;
		return NULL;
	}
	f = find_field(w, event, err, ret);
	if (f && w->nr < WEIGHT_CACHE) {
		w->cache[w->nr].id = id;
		w->cache[w->nr++].f = f;
	}
	return f;
}

int weight_read(struct weight *w, struct tep_handle *tep,
		struct tep_record *record, sm_u64 *out, struct sm_err *err)
{
	struct tep_format_field *f;
	unsigned long long v;
	int ret = 0;

	*out = 0;
	f = field_of(w, tep, record, err, &ret);
	if (!f)
		return ret;
	if (record->size < 0 || f->offset + f->size > record->size) {
		sm_err_set(err, "--weight %s: a %d-byte record of event id %d is too short for the field",
			   w->field, record->size, tep_data_type(tep, record));
		return -EFAULT;
	}
	v = tep_read_number(tep, (char *)record->data + f->offset, f->size);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    (v & (1ULL << (f->size * 8 - 1))))
		v |= ~0ULL << (f->size * 8);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && (long long)v < 0) {
		w->negative++;
		return 0;
	}
	*out = v;
	return 0;
}

void weight_summary(FILE *out, const struct weight *w)
{
	const char *unit = sset_weight_unit(w->set);

	fprintf(out, "fgdecode: weight: sum of %s, %llu%s%s over %zu events with a stack",
		sset_weight_name(w->set),
		(unsigned long long)sset_total_weight(w->set), *unit ? " " : "",
		unit, sset_total(w->set));
	if (w->negative)
		fprintf(out, ", %zu negative values taken as 0", w->negative);
	fputc('\n', out);
}

/* The analysis (analyses.h) on the calls above. */

static bool weight_wanted(const struct analysis_args *args)
{
	return args->weight;
}

static int weight_start(void *state, const struct analysis_env *env,
			struct sm_err *err)
{
	struct weight *w = state;

	(void)err;
	weight_init(w, env->args->weight);
	w->set = env->set;
	sset_set_weight(env->set, w->field, w->unit);
	return 0;
}

static int weight_weigh(void *state, struct tep_handle *tep,
			struct tep_record *record, sm_u64 *weight,
			struct sm_err *err)
{
	return weight_read(state, tep, record, weight, err);
}

static void weight_print_summary(const void *state, FILE *out)
{
	weight_summary(out, state);
}

const struct analysis_ops weight_analysis = {
	.wanted = weight_wanted,
	.size = sizeof(struct weight),
	.init = weight_start,
	.weigh = weight_weigh,
	.summary = weight_print_summary,
};
