// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --off-cpu (see offcpu.h).
 *
 * The tasks are a hash table (hashtab.h) keyed by pid + 1; a task is never
 * removed (it is only marked back on the CPU), so pids reused within a trace
 * share an element, which is right: only one task has a pid at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "duration.h"
#include "offcpu.h"
#include "units.h"

#define OFFCPU_MIN_CAP	1024
/* prev_comm is char[16] (TASK_COMM_LEN); room for a longer one, cut. */
#define OFFCPU_COMM_LEN	32

struct offcpu_task {
	sm_u64 key;		/* pid + 1 */
	int pid;
	bool off;		/* switched out, not yet back */
	sm_u64 ts;		/* of the switch-out */
	struct sset_entry *entry;	/* charged stack; NULL: not charged */
	struct sset_entry *waker;	/* wakers: the first wakeup's stack */
	int waker_pid;			/* and who recorded it */
	/* Kept for offcpu_on_interval() only: the switch-out's */
	char comm[OFFCPU_COMM_LEN];	/* prev_comm */
	sm_u64 state;			/* prev_state */
	int cpu;
};

static sm_u64 task_key(int pid)
{
	return (sm_u64)(unsigned int)pid + 1;
}

/* A numeric field of sched_switch, or NULL. */
static struct tep_format_field *number(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
			       TEP_FIELD_IS_DYNAMIC)) ||
	    f->size < 1 || f->size > 8)
		return NULL;
	return f;
}

int offcpu_init(struct offcpu *o, struct tep_handle *tep,
		struct stackset *set, bool task_root, struct sm_err *err)
{
	struct tep_event *ev;

	memset(o, 0, sizeof(*o));
	ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	if (!ev) {
		sm_err_set(err, "--off-cpu: the trace has no sched:sched_switch events (record them, with stacks: -e sched:sched_switch)");
		return -ENOENT;
	}
	o->prev_pid = number(ev, "prev_pid");
	o->prev_state = number(ev, "prev_state");
	o->next_pid = number(ev, "next_pid");
	o->prev_comm = tep_find_field(ev, "prev_comm");
	if (!o->prev_pid || !o->prev_state || !o->next_pid || !o->prev_comm ||
	    !(o->prev_comm->flags & TEP_FIELD_IS_ARRAY)) {
		sm_err_set(err, "--off-cpu: event sched:sched_switch lacks a numeric prev_pid, prev_state or next_pid, or the prev_comm array");
		return -ENOENT;
	}
	o->event_id = ev->id;
	o->set = set;
	o->task_root = task_root;
	if (sm_hashtab_init(&o->tasks, sizeof(struct offcpu_task),
			    OFFCPU_MIN_CAP)) {
		sm_err_set(err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	sset_set_weight(set, "off-cpu", "ns");
	sset_set_count_name(set, "intervals");
	return 0;
}

void offcpu_fini(struct offcpu *o)
{
	sm_hashtab_fini(&o->tasks);
}

bool offcpu_is_switch(const struct offcpu *o, struct tep_handle *tep,
		      struct tep_record *record)
{
	return o->tasks.buckets && tep_data_type(tep, record) == o->event_id;
}

/* The task of @pid, or NULL when it was never seen. */
static struct offcpu_task *find(struct offcpu *o, int pid)
{
	return sm_hashtab_find(&o->tasks, task_key(pid));
}

/* The task of @pid, added when new; NULL when out of memory. */
static struct offcpu_task *get(struct offcpu *o, int pid)
{
	struct offcpu_task *t = find(o, pid);

	if (t)
		return t;
	if (sm_hashtab_reserve(&o->tasks))
		return NULL;
	t = sm_hashtab_insert(&o->tasks, task_key(pid));
	t->pid = pid;
	return t;
}

static long long field(struct tep_handle *tep, struct tep_record *record,
		       const struct tep_format_field *f)
{
	unsigned long long v;

	if (f->offset + f->size > record->size)
		return 0;
	v = tep_read_number(tep, (char *)record->data + f->offset, f->size);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    (v & (1ULL << (f->size * 8 - 1))))
		v |= ~0ULL << (f->size * 8);
	return (long long)v;
}

/* The entry of @blocked under the waker of @t (sset_intern_woken()). */
static struct sset_entry *with_waker(struct offcpu *o, struct tep_handle *tep,
				     struct sset_entry *blocked,
				     struct offcpu_task *t)
{
	const char *comm = NULL;

	if (t->waker) {
		o->stats.woken++;
		comm = tep_data_comm_from_pid(tep, t->waker_pid);
	} else {
		o->stats.no_waker++;
	}
	return sset_intern_woken(o->set, blocked, t->waker, comm);
}

void offcpu_on_interval(struct offcpu *o, offcpu_interval_fn fn, void *arg)
{
	o->on_interval = fn;
	o->on_interval_arg = arg;
}

/*
 * Hand the interval of @t, charged as @ns to @charged (@blocked, or it
 * under its waker) and ended by @record, to the callback.
 */
static int report_interval(struct offcpu *o, struct offcpu_task *t,
			   struct sset_entry *blocked,
			   struct sset_entry *charged,
			   struct tep_record *record, sm_u64 ns)
{
	struct offcpu_interval iv = {
		.pid = t->pid,
		.comm = t->comm,
		.state = t->state,
		.out_ts = record->ts - ns,
		.in_ts = record->ts,
		.ns = ns,
		.out_cpu = t->cpu,
		.in_cpu = record->cpu,
		.blocked = blocked,
		.charged = charged,
		.waker = t->waker,
		.waker_pid = t->waker_pid,
	};

	return o->on_interval(o->on_interval_arg, &iv);
}

int offcpu_switch_in(struct offcpu *o, struct tep_handle *tep,
		     struct tep_record *record)
{
	int pid = (int)field(tep, record, o->next_pid);
	struct offcpu_task *t;
	struct sset_entry *e, *blocked;
	sm_u64 ns;
	int ret;

	if (!pid)
		return 0;
	t = find(o, pid);
	if (!t || !t->off) {
		o->stats.no_switch_out++;
		return 0;
	}
	t->off = false;
	blocked = e = t->entry;
	t->entry = NULL;
	if (!e)
		return 0;
	if (o->wakers) {
		e = with_waker(o, tep, e, t);
		if (!e)
			return -ENOMEM;
	}
	ns = record->ts > t->ts ? record->ts - t->ts : 0;
	o->stats.intervals++;
	o->stats.ns += ns;
	ret = sset_count_weighted(o->set, e, o->event_id, ns);
	if (!ret && o->on_interval)
		ret = report_interval(o, t, blocked, e, record, ns);
	return ret;
}

/* prev_comm of @record into @comm (NUL-terminated; "" when cut off). */
static void read_comm(const struct offcpu *o, const struct tep_record *record,
		      char *comm, size_t len)
{
	const struct tep_format_field *c = o->prev_comm;
	size_t n = 0;

	if (c->offset + c->size <= record->size) {
		n = (size_t)c->size < len - 1 ? (size_t)c->size : len - 1;
		memcpy(comm, (char *)record->data + c->offset, n);
		n = strnlen(comm, n);
	}
	comm[n] = '\0';
}

/* prev_pid leaves the CPU, charging @entry (NULL: nothing) on its return. */
static int leave(struct offcpu *o, struct tep_handle *tep,
		 struct tep_record *record, struct sset_entry *entry)
{
	int pid = (int)field(tep, record, o->prev_pid);
	struct offcpu_task *t;

	if (!pid) {
		o->stats.idle++;
		return 0;
	}
	t = get(o, pid);
	if (!t)
		return -ENOMEM;
	t->off = true;
	t->ts = record->ts;
	t->entry = entry;
	t->waker = NULL;
	if (o->on_interval && entry) {
		read_comm(o, record, t->comm, sizeof(t->comm));
		t->state = (sm_u64)field(tep, record, o->prev_state);
		t->cpu = record->cpu;
	}
	return 0;
}

int offcpu_wakers(struct offcpu *o, struct tep_handle *tep,
		  struct sm_err *err)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "sched",
						      "sched_waking");

	if (!ev)
		ev = tep_find_event_by_name(tep, "sched", "sched_wakeup");
	o->waking_pid = ev ? number(ev, "pid") : NULL;
	if (!o->waking_pid) {
		sm_err_set(err, "--wakers: the trace has no sched:sched_waking or sched:sched_wakeup events with a pid (attach the module to sched:sched_waking and record it)");
		return -ENOENT;
	}
	o->waking_id = ev->id;
	o->wakers = true;
	return 0;
}

bool offcpu_is_waking(const struct offcpu *o, struct tep_handle *tep,
		      struct tep_record *record)
{
	return o->wakers && tep_data_type(tep, record) == o->waking_id;
}

int offcpu_waking(struct offcpu *o, struct tep_handle *tep,
		  struct tep_record *record, enum sset_status status,
		  const sm_u64 *frames, sm_u32 depth)
{
	struct offcpu_task *t = find(o, (int)field(tep, record, o->waking_pid));

	if (!t || !t->off || !t->entry || t->waker)
		return 0;
	t->waker = sset_intern(o->set, status, frames, depth);
	t->waker_pid = tep_data_pid(tep, record);
	return t->waker ? 0 : -ENOMEM;
}

const char *offcpu_state_name(sm_u64 state, char *buf)
{
	static const char letters[] = "SDTtXZPI";
	char *p = buf;
	int i;

	for (i = 0; i < 8; i++) {
		if (!(state & OFFCPU_STATE_MASK & (1ULL << i)))
			continue;
		if (p != buf)
			*p++ = '|';
		*p++ = letters[i];
	}
	if (p == buf)
		*p++ = 'R';
	if (state & OFFCPU_STATE_PREEMPT)
		*p++ = '+';
	*p = '\0';
	return buf;
}

/* The root frames of a switch-out: "[STATE]", or "COMM;[STATE]". */
static void root_of(struct offcpu *o, struct tep_handle *tep,
		    struct tep_record *record, char *buf, size_t len)
{
	char state[OFFCPU_STATE_LEN], comm[OFFCPU_COMM_LEN];
	size_t n;

	offcpu_state_name((sm_u64)field(tep, record, o->prev_state), state);
	if (!o->task_root) {
		snprintf(buf, len, "[%s]", state);
		return;
	}
	read_comm(o, record, comm, sizeof(comm));
	n = strlen(comm);
	/* A ';' would split the frame in folded output. */
	for (; n--;)
		if (comm[n] == ';')
			comm[n] = '_';
	snprintf(buf, len, "%s;[%s]", comm, state);
}

int offcpu_switch_out(struct offcpu *o, struct tep_handle *tep,
		      struct tep_record *record, enum sset_status status,
		      const sm_u64 *frames, sm_u32 depth)
{
	struct sset_entry *e;
	char root[64];

	if (!field(tep, record, o->prev_pid))
		return leave(o, tep, record, NULL);
	root_of(o, tep, record, root, sizeof(root));
	e = sset_intern_root(o->set, root, status, frames, depth);
	return e ? leave(o, tep, record, e) : -ENOMEM;
}

int offcpu_switch_out_uncharged(struct offcpu *o, struct tep_handle *tep,
				struct tep_record *record)
{
	return leave(o, tep, record, NULL);
}

void offcpu_finish(struct offcpu *o)
{
	struct offcpu_task *t;
	size_t i;

	for (i = 0; i < o->tasks.cap; i++) {
		t = sm_hashtab_at(&o->tasks, i);
		if (t && t->off && t->entry)
			o->stats.still_off++;
	}
}

void offcpu_summary(FILE *out, const struct offcpu *o)
{
	char d[SM_DURATION_NS_LEN];

	fprintf(out, "fgdecode: off-cpu: %s", sm_duration_ns(d, o->stats.ns));
	format_count(out, " in ", o->stats.intervals, "intervals");
	format_count(out, ", ", o->stats.no_switch_out, "switch-ins");
	format_count(out, " with no switch-out in the trace, ",
		     o->stats.still_off, "tasks");
	fputs(" still off the CPU at its end (neither charged)", out);
	if (o->wakers)
		fprintf(out, ", %zu ended by a wakeup in the trace, %zu by none",
			o->stats.woken, o->stats.no_waker);
	fputc('\n', out);
}

/* The analysis (analyses.h) on the calls above. */

static bool offcpu_wanted(const struct analysis_args *args)
{
	return args->off_cpu;
}

static int offcpu_start(void *state, const struct analysis_env *env,
			struct sm_err *err)
{
	struct offcpu *o = state;
	int ret;

	ret = offcpu_init(o, env->tep, env->set, env->args->task_root, err);
	if (!ret && env->args->wakers)
		ret = offcpu_wakers(o, env->tep, err);
	return ret;
}

static void offcpu_give_intervals(void *state, offcpu_interval_fn fn,
				  void *arg)
{
	offcpu_on_interval(state, fn, arg);
}

/*
 * Every sched_switch is a switch-in of next_pid; one the filters did not
 * select also takes prev_pid off the CPU, uncharged.
 */
static int offcpu_event(void *state, struct tep_handle *tep,
			struct tep_record *record, bool selected)
{
	struct offcpu *o = state;
	int ret;

	if (!offcpu_is_switch(o, tep, record))
		return 0;
	ret = offcpu_switch_in(o, tep, record);
	if (!ret && !selected)
		ret = offcpu_switch_out_uncharged(o, tep, record);
	return ret;
}

/*
 * A selected sched_switch is a switch-out, charged when its task comes
 * back; any other event, and a stack record on its own, is not counted.
 */
static int offcpu_count(void *state, struct tep_handle *tep,
			struct fg_event *ev)
{
	struct offcpu *o = state;
	enum sset_status status = ev->stack ? analyses_status(ev->stack) :
				  SSET_FRAMES;
	bool frames = ev->stack && sset_has_frames(status);

	if (ev->standalone || !offcpu_is_switch(o, tep, ev->record))
		return 0;
	return offcpu_switch_out(o, tep, ev->record, status,
				 frames ? ev->stack->frames : NULL,
				 frames ? ev->stack->depth : 0);
}

static bool offcpu_wants_stack(const void *state, struct tep_handle *tep,
			       struct tep_record *record)
{
	return offcpu_is_waking(state, tep, record);
}

/* --wakers: a wakeup, selected or not, with its stack. */
static int offcpu_waker(void *state, struct tep_handle *tep,
			struct tep_record *record,
			const struct resolved *stack)
{
	enum sset_status status = stack ? analyses_status(stack) : SSET_FRAMES;
	bool frames = stack && sset_has_frames(status);

	return offcpu_waking(state, tep, record, status,
			     frames ? stack->frames : NULL,
			     frames ? stack->depth : 0);
}

static void offcpu_end(void *state)
{
	offcpu_finish(state);
}

static void offcpu_print_summary(const void *state, FILE *out)
{
	offcpu_summary(out, state);
}

static void offcpu_free(void *state)
{
	offcpu_fini(state);
}

const struct analysis_ops offcpu_analysis = {
	.wanted = offcpu_wanted,
	.size = sizeof(struct offcpu),
	.init = offcpu_start,
	.on_interval = offcpu_give_intervals,
	.event = offcpu_event,
	.count = offcpu_count,
	.wants_stack = offcpu_wants_stack,
	.stack = offcpu_waker,
	.finish = offcpu_end,
	.summary = offcpu_print_summary,
	.fini = offcpu_free,
};
