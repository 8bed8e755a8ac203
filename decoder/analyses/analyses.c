// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's analyses (analyses.h): the table, the stack set's default
 * count, and each analyses_*() call handed to the analyses that take it.
 */
#include <errno.h>
#include <stdlib.h>

#include "analyses.h"

/* Every analysis, in the order their summary lines are printed. */
static const struct analysis_ops *const analysis_table[ANALYSES_MAX] = {
	&weight_analysis,
	&offcpu_analysis,
};

/* Each analysis in @an, as A (its ops) and its state, in table order. */
#define for_each_analysis(an, i) for ((i) = 0; (i) < (an)->nr; (i)++)
#define OPS(an, i)	((an)->on[i].ops)
#define STATE(an, i)	((an)->on[i].state)

int analyses_init(struct analyses *an, const struct analysis_env *env,
		  struct sm_err *err)
{
	struct analysis_env e = *env;
	const struct analysis_ops *ops;
	void *state;
	int i, ret;

	an->set = sset_new();
	if (!an->set)
		return -ENOMEM;
	e.set = an->set;
	for (i = 0; i < ANALYSES_MAX; i++) {
		ops = analysis_table[i];
		if (!ops->wanted(env->args))
			continue;
		state = calloc(1, ops->size);
		if (!state)
			return -ENOMEM;
		an->on[an->nr].ops = ops;
		an->on[an->nr++].state = state;
		ret = ops->init ? ops->init(state, &e, err) : 0;
		if (ret)
			return ret == -ENOMEM ? -ENOMEM : -ENOENT;
	}
	return 0;
}

enum sset_status analyses_status(const struct resolved *res)
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
	enum sset_status status = analyses_status(res);
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

void analyses_on_interval(struct analyses *an, offcpu_interval_fn fn,
			  void *arg)
{
	int i;

	for_each_analysis(an, i)
		if (OPS(an, i)->on_interval)
			OPS(an, i)->on_interval(STATE(an, i), fn, arg);
}

int analyses_event(struct analyses *an, struct tep_handle *tep,
		   struct tep_record *record, bool selected)
{
	int i, ret;

	for_each_analysis(an, i) {
		if (!OPS(an, i)->event)
			continue;
		ret = OPS(an, i)->event(STATE(an, i), tep, record, selected);
		if (ret)
			return ret;
	}
	return 0;
}

/* The analysis that weighs events, or -1 (none, not an error): every event weighs 1. */
static int weigher(const struct analyses *an)
{
	int i;

	for_each_analysis(an, i)
		if (OPS(an, i)->weigh)
			return i;
	return -1;
}

int analyses_weigh(struct analyses *an, struct tep_handle *tep,
		   struct fg_event *ev, sm_u64 *weight, struct sm_err *err)
{
	int i = weigher(an);

	*weight = 0;
	ev->weight = NULL;
	if (i < 0 || ev->standalone)
		return 0;
	if (OPS(an, i)->weigh(STATE(an, i), tep, ev->record, weight, err))
		return -EINVAL;
	ev->weight = weight;
	return 0;
}

int analyses_count(struct analyses *an, struct tep_handle *tep,
		   struct fg_event *ev, int type)
{
	const struct resolved *res = ev->stack;
	int i;

	ev->entry = NULL;
	for_each_analysis(an, i)
		if (OPS(an, i)->count)
			return OPS(an, i)->count(STATE(an, i), tep, ev);
	if (!res)
		return 0;
	ev->entry = intern(an, res);
	if (!ev->entry)
		return -ENOMEM;
	if (ev->orphan)
		return sset_count_orphan(an->set, ev->entry, res->owner);
	if (weigher(an) >= 0)
		return sset_count_weighted(an->set, ev->entry, type,
					   ev->weight ? *ev->weight : 0);
	return sset_count(an->set, ev->entry, type);
}

bool analyses_wants_stack(const struct analyses *an, struct tep_handle *tep,
			  struct tep_record *record)
{
	int i;

	for_each_analysis(an, i)
		if (OPS(an, i)->wants_stack &&
		    OPS(an, i)->wants_stack(STATE(an, i), tep, record))
			return true;
	return false;
}

int analyses_stack(struct analyses *an, struct tep_handle *tep,
		   struct tep_record *record, const struct resolved *stack)
{
	int i, ret;

	for_each_analysis(an, i) {
		if (!OPS(an, i)->wants_stack ||
		    !OPS(an, i)->wants_stack(STATE(an, i), tep, record))
			continue;
		ret = OPS(an, i)->stack(STATE(an, i), tep, record, stack);
		if (ret)
			return ret;
	}
	return 0;
}

void analyses_finish(struct analyses *an)
{
	int i;

	for_each_analysis(an, i)
		if (OPS(an, i)->finish)
			OPS(an, i)->finish(STATE(an, i));
}

void analyses_summary(const struct analyses *an, FILE *out)
{
	int i;

	for_each_analysis(an, i)
		if (OPS(an, i)->summary)
			OPS(an, i)->summary(STATE(an, i), out);
}

void analyses_fini(struct analyses *an)
{
	int i;

	for_each_analysis(an, i) {
		if (OPS(an, i)->fini)
			OPS(an, i)->fini(STATE(an, i));
		free(STATE(an, i));
	}
	an->nr = 0;
	sset_free(an->set);
	an->set = NULL;
}
