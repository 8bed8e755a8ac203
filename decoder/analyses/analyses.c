// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's analyses (analyses.h): the stack set, --weight and --off-cpu
 * between pairing and the output.
 */
#include <errno.h>

#include "analyses.h"
#include "format.h"

int analyses_init(struct analyses *an, struct tep_handle *tep,
		  const struct symbolizer *sz, const struct output_args *args,
		  bool task_root, struct sm_err *err)
{
	an->weight_field = args->weight;
	an->off_cpu = args->off_cpu;
	an->wakers = args->wakers;
	an->set = sset_new();
	if (!an->set)
		return -ENOMEM;
	if (an->weight_field) {
		weight_init(&an->weight, an->weight_field);
		sset_set_weight(an->set, an->weight_field, an->weight.unit);
	}
	if (an->off_cpu &&
	    offcpu_init(&an->offcpu, tep, an->set, task_root, err))
		return -ENOENT;
	if (an->wakers && offcpu_wakers(&an->offcpu, tep, sz, err))
		return -ENOENT;
	return 0;
}

/* What the stack set calls @res. */
static enum sset_status status_of(const struct resolved *res)
{
	if (res->what == RESOLVED_CORRUPT)
		return SSET_CORRUPT;
	if (res->what == RESOLVED_MARKER)
		return res->result == STACKTAB_STALE ? SSET_STALE :
		       res->result == STACKTAB_CONFLICT ? SSET_CONFLICT :
		       SSET_UNKNOWN;
	return res->flags & STACKMAP_FLAG_TRUNCATED ? SSET_TRUNCATED :
	       SSET_FRAMES;
}

/*
 * The set entry that stands for @res.  A cookie's stack keeps its entry in
 * its table's slot (res->memo), so it is hashed once, not per event.
 */
static struct sset_entry *intern(struct analyses *an,
				 const struct resolved *res)
{
	enum sset_status status = status_of(res);
	struct sset_entry *entry;

	if (!sset_has_frames(status))
		return sset_intern(an->set, status, NULL, 0);
	if (res->memo && *res->memo)
		return *res->memo;
	entry = sset_intern(an->set, status, res->frames, res->depth);
	if (res->memo)
		*res->memo = entry;
	return entry;
}

int analyses_weigh(struct analyses *an, struct tep_handle *tep,
		   struct fg_event *ev, sm_u64 *weight, struct sm_err *err)
{
	*weight = 0;
	ev->weight = NULL;
	if (!an->weight_field || ev->standalone)
		return 0;
	if (weight_read(&an->weight, tep, ev->record, weight, err))
		return -EINVAL;
	ev->weight = weight;
	return 0;
}

/*
 * --off-cpu: the selected event @ev is a switch-out when it is a
 * sched_switch; any other event, and a stack record on its own, is not
 * counted.
 */
static int switch_out(struct analyses *an, struct tep_handle *tep,
		      const struct fg_event *ev)
{
	enum sset_status status = ev->stack ? status_of(ev->stack) :
				  SSET_FRAMES;
	bool frames = ev->stack && sset_has_frames(status);

	if (ev->standalone || !offcpu_is_switch(&an->offcpu, tep, ev->record))
		return 0;
	return offcpu_switch_out(&an->offcpu, tep, ev->record, status,
				 frames ? ev->stack->frames : NULL,
				 frames ? ev->stack->depth : 0);
}

int analyses_count(struct analyses *an, struct tep_handle *tep,
		   struct fg_event *ev, int type)
{
	const struct resolved *res = ev->stack;

	ev->entry = NULL;
	if (an->off_cpu)
		return switch_out(an, tep, ev) ? -ENOMEM : 0;
	if (!res)
		return 0;
	ev->entry = intern(an, res);
	if (!ev->entry)
		return -ENOMEM;
	if (ev->orphan)
		return sset_count_orphan(an->set, ev->entry, res->owner);
	if (an->weight_field)
		return sset_count_weighted(an->set, ev->entry, type,
					   ev->weight ? *ev->weight : 0);
	return sset_count(an->set, ev->entry, type);
}

int analyses_switch_in(struct analyses *an, struct tep_handle *tep,
		       struct tep_record *record, bool selected)
{
	if (!an->off_cpu || !offcpu_is_switch(&an->offcpu, tep, record))
		return 0;
	if (offcpu_switch_in(&an->offcpu, tep, record))
		return -ENOMEM;
	if (!selected &&
	    offcpu_switch_out_uncharged(&an->offcpu, tep, record))
		return -ENOMEM;
	return 0;
}

bool analyses_wants_waker(const struct analyses *an, struct tep_handle *tep,
			  struct tep_record *record)
{
	return an->wakers && offcpu_is_waking(&an->offcpu, tep, record);
}

int analyses_waker(struct analyses *an, struct tep_handle *tep,
		   struct tep_record *record, const struct resolved *stack)
{
	enum sset_status status = stack ? status_of(stack) : SSET_FRAMES;
	bool frames = stack && sset_has_frames(status);

	return offcpu_waking(&an->offcpu, tep, record, status,
			     frames ? stack->frames : NULL,
			     frames ? stack->depth : 0) ? -ENOMEM : 0;
}

/* offcpu_interval_fn: an interval ended; the output prints it. */
static int give_interval(void *arg, const struct offcpu_interval *iv)
{
	const struct output *out = arg;

	return out->ops->interval(out->state, iv);
}

void analyses_on_interval(struct analyses *an, const struct output *out)
{
	if (an->off_cpu && out->ops->interval)
		offcpu_on_interval(&an->offcpu, give_interval, (void *)out);
}

void analyses_finish(struct analyses *an)
{
	if (an->off_cpu)
		offcpu_finish(&an->offcpu);
}

void analyses_summary(const struct analyses *an, FILE *out)
{
	if (an->weight_field)
		format_weight_summary(out, an->set, an->weight.negative);
	if (an->off_cpu)
		offcpu_summary(out, &an->offcpu);
}

void analyses_fini(struct analyses *an)
{
	offcpu_fini(&an->offcpu);
	sset_free(an->set);
	an->set = NULL;
}
