// SPDX-License-Identifier: GPL-2.0
/*
 * pairing (pairing.h): which event a stack record belongs to, by the rule
 * of include/stackmap/events.h, "Which event a stack belongs to".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pairing.h"
#include "stackmap/events.h"

void sm_pairing_event_init(struct sm_pairing_event *e,
			   const struct sm_pairing_record *event)
{
	e->type = event->type;
	e->pid = event->pid;
	e->context = event->context;
	e->owns = event->owns;
	e->quiet = true;
	e->followed = false;
	e->tag = event->tag;
}

/* An event of @r's kind in @e's context, after @e. */
static enum sm_pairing_step step_event(struct sm_pairing_event *e,
				       const struct sm_pairing_record *r)
{
	if (!e->owns)
		return SM_PAIRING_END;
	/*
	 * The next event of @e's type ends it: a stack after it can be that
	 * event's (or of one of its kind a filter dropped), never @e's.  In
	 * task context only the next one of @e's own task does: another
	 * task's means @e's was preempted between its event and its stack
	 * record (probes run preemptible on 7.x; the module pins the task to
	 * its CPU, so its stack record comes later on this one).
	 */
	if (r->type == e->type &&
	    (stackmap_context_level(e->context) || r->pid == e->pid))
		return SM_PAIRING_END;
	e->quiet = false;
	e->followed = true;
	return SM_PAIRING_PASS;
}

/* A stack record of @e's context, after @e. */
static enum sm_pairing_step step_stack(struct sm_pairing_event *e,
				       const struct sm_pairing_record *r)
{
	bool quiet = e->quiet;

	e->quiet = false;
	if (r->owner == STACKMAP_OWNER_NONE)
		return quiet && r->pid == e->pid ? SM_PAIRING_CANDIDATE :
						   SM_PAIRING_PASS;
	if (r->owner != (sm_u32)e->type)
		return SM_PAIRING_PASS;		/* another event's, or an orphan */
	if (r->pid == e->pid)
		return SM_PAIRING_TAKE;
	/* In an interrupt, another task's: @e's interrupt is over. */
	if (stackmap_context_level(e->context))
		return SM_PAIRING_END;
	/* Another task's, after its own event (step_event()). */
	e->followed = true;
	return SM_PAIRING_PASS;
}

enum sm_pairing_step sm_pairing_step(struct sm_pairing_event *e,
				     const struct sm_pairing_record *r)
{
	if (r->missed)
		return SM_PAIRING_END;
	if (r->kind == SM_PAIRING_DEFINE)
		return SM_PAIRING_PASS;
	/* Whatever its context: the refusal may have come before it. */
	if (r->kind == SM_PAIRING_STACK && r->after_loss)
		return SM_PAIRING_END;
	if (r->context != e->context) {
		if (stackmap_context_level(r->context) >
		    stackmap_context_level(e->context))
			return SM_PAIRING_PASS;		/* an interrupt nested in */
		return SM_PAIRING_END;			/* @e's context is over */
	}
	if (r->kind == SM_PAIRING_EVENT)
		return step_event(e, r);
	return step_stack(e, r);
}

/* ---- the machine: the open events of each CPU ---- */

/*
 * One CPU.  @known: an event or a loss of it was fed since the machine
 * began or forgot (sm_pairing_forget()); @partial: with @known, task
 * context is checked only for the (task, type) pairs in @seen (sorted
 * task_key()s of its task-context events and unchecked stack records).
 */
struct sm_pairing_cpu {
	struct sm_pairing_event open[SM_PAIRING_MAX_OPEN];	/* oldest first */
	int nr_open;
	bool known;
	bool partial;
	sm_u64 *seen;
	int nr_seen;
	int max_seen;
};

void sm_pairing_init(struct sm_pairing *p, bool from_start)
{
	memset(p, 0, sizeof(*p));
	p->from_start = from_start;
}

void sm_pairing_fini(struct sm_pairing *p)
{
	int i;

	for (i = 0; i < p->nr_cpus; i++)
		free(p->cpus[i].seen);
	free(p->cpus);
	p->cpus = NULL;
	p->nr_cpus = 0;
}

void sm_pairing_forget(struct sm_pairing *p, bool partial)
{
	int i;

	p->partial = partial;
	for (i = 0; i < p->nr_cpus; i++) {
		p->cpus[i].known = false;
		p->cpus[i].partial = partial;
		p->cpus[i].nr_seen = 0;
	}
}

/* The state of @cpu, NULL when out of memory. */
static struct sm_pairing_cpu *cpu_state(struct sm_pairing *p, int cpu)
{
	struct sm_pairing_cpu *c;
	int n, i;

	if (cpu >= p->nr_cpus) {
		n = cpu + 1 > 2 * p->nr_cpus ? cpu + 1 : 2 * p->nr_cpus;
		c = realloc(p->cpus, n * sizeof(*c));
		if (!c)
			return NULL;
		memset(c + p->nr_cpus, 0, (n - p->nr_cpus) * sizeof(*c));
		for (i = p->nr_cpus; i < n; i++) {
			c[i].known = p->from_start && !p->partial;
			c[i].partial = p->partial;
		}
		p->cpus = c;
		p->nr_cpus = n;
	}
	return &p->cpus[cpu];
}

/* Events were lost before the record fed: nothing before it owns a stack. */
static void lost(struct sm_pairing_cpu *c)
{
	c->nr_open = 0;
	c->known = true;
	c->partial = false;
	c->nr_seen = 0;
}

/* The key of a record of @type by @pid in @seen. */
static sm_u64 task_key(int pid, int type)
{
	return (sm_u64)(unsigned int)pid << 32 | (unsigned int)type;
}

/* Where @key is, or would go, in @c's @seen; *@found: whether it is there. */
static int seen_index(const struct sm_pairing_cpu *c, sm_u64 key, bool *found)
{
	int lo = 0, hi = c->nr_seen, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->seen[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < c->nr_seen && c->seen[lo] == key;
	return lo;
}

/*
 * Partial: @pid's record of @type in task context was fed on @c.  Out of
 * memory, that pair stays unseen (its stack records go unchecked).
 */
static void note_seen(struct sm_pairing_cpu *c, int pid, int type)
{
	sm_u64 key = task_key(pid, type), *grown;
	bool found;
	int i = seen_index(c, key, &found), n;

	if (found)
		return;
	if (c->nr_seen == c->max_seen) {
		n = c->max_seen ? 2 * c->max_seen : 16;
		grown = realloc(c->seen, n * sizeof(*grown));
		if (!grown)
			return;
		c->seen = grown;
		c->max_seen = n;
	}
	memmove(&c->seen[i + 1], &c->seen[i],
		(c->nr_seen - i) * sizeof(c->seen[0]));
	c->seen[i] = key;
	c->nr_seen++;
}

/* Partial: was @pid's record of @type in task context fed on @c? */
static bool seen(const struct sm_pairing_cpu *c, int pid, int type)
{
	bool found;

	seen_index(c, task_key(pid, type), &found);
	return found;
}

/*
 * Step the open events [0, @nr) of @c through @r, closing those that end
 * (a taker is found beforehand: none of these takes @r).  Return the index
 * of the one whose candidate @r is, or -1.
 */
static int step_open(struct sm_pairing_cpu *c, int nr,
		     const struct sm_pairing_record *r)
{
	int i, kept = 0, candidate = -1;

	for (i = 0; i < nr; i++) {
		switch (sm_pairing_step(&c->open[i], r)) {
		case SM_PAIRING_END:
		case SM_PAIRING_TAKE:
			continue;
		case SM_PAIRING_CANDIDATE:
			candidate = kept;
			break;
		case SM_PAIRING_PASS:
			break;
		}
		if (kept != i)
			c->open[kept] = c->open[i];
		kept++;
	}
	memmove(&c->open[kept], &c->open[nr],
		(c->nr_open - nr) * sizeof(c->open[0]));
	c->nr_open -= nr - kept;
	return candidate;
}

/* The open event of @c that takes the stack record @r, or -1. */
static int find_taker(const struct sm_pairing_cpu *c,
		      const struct sm_pairing_record *r)
{
	struct sm_pairing_event e;
	int i;

	for (i = c->nr_open - 1; i >= 0; i--) {
		e = c->open[i];
		if (sm_pairing_step(&e, r) == SM_PAIRING_TAKE)
			return i;
	}
	return -1;
}

static void note_event(struct sm_pairing_cpu *c,
		       const struct sm_pairing_record *r)
{
	step_open(c, c->nr_open, r);
	c->known = true;
	if (c->partial && !stackmap_context_level(r->context))
		note_seen(c, r->pid, r->type);
	if (c->nr_open == SM_PAIRING_MAX_OPEN) {
		memmove(&c->open[0], &c->open[1],
			(c->nr_open - 1) * sizeof(c->open[0]));
		c->nr_open--;
	}
	sm_pairing_event_init(&c->open[c->nr_open++], r);
}

static void note_stack(struct sm_pairing_cpu *c,
		       const struct sm_pairing_record *r,
		       struct sm_pairing_verdict *v)
{
	int taker, candidate;

	if (r->after_loss) {
		/* As lost events: nothing before it owns a stack any more. */
		lost(c);
		v->outcome = SM_PAIRING_ORPHAN_AFTER_LOSS;
		return;
	}
	taker = find_taker(c, r);
	if (taker >= 0) {
		v->outcome = SM_PAIRING_OWN;
		v->has_event = true;
		v->tag = c->open[taker].tag;
		/* Those before it met @r; those after it never will. */
		step_open(c, taker + 1, r);
		return;
	}
	candidate = step_open(c, c->nr_open, r);
	if (r->owner == STACKMAP_OWNER_NONE) {
		v->outcome = SM_PAIRING_OWNERLESS;
		v->has_event = candidate >= 0;
		if (v->has_event)
			v->tag = c->open[candidate].tag;
	} else if (!c->known) {
		v->outcome = SM_PAIRING_UNCHECKED;
	} else if (c->partial && !stackmap_context_level(r->context) &&
		   !seen(c, r->pid, (int)r->owner)) {
		/*
		 * Its event may have been given before watching began: only
		 * the task's first stack of that type can be that one's.
		 */
		note_seen(c, r->pid, (int)r->owner);
		v->outcome = SM_PAIRING_UNCHECKED;
	} else {
		v->outcome = r->missed ? SM_PAIRING_ORPHAN_LOST :
					 SM_PAIRING_ORPHAN_NO_EVENT;
	}
}

int sm_pairing_note(struct sm_pairing *p, int cpu,
		    const struct sm_pairing_record *r,
		    struct sm_pairing_verdict *v)
{
	struct sm_pairing_cpu *c;

	memset(v, 0, sizeof(*v));
	v->outcome = SM_PAIRING_NOT_STACK;
	c = cpu >= 0 ? cpu_state(p, cpu) : NULL;
	if (!c) {
		/* Nothing to check it against; a flagged one is still an orphan. */
		if (r->kind == SM_PAIRING_STACK)
			v->outcome = r->after_loss ?
				     SM_PAIRING_ORPHAN_AFTER_LOSS :
				     SM_PAIRING_UNCHECKED;
		return cpu < 0 ? -EINVAL : -ENOMEM;
	}
	if (r->missed)
		lost(c);
	switch (r->kind) {
	case SM_PAIRING_EVENT:
		note_event(c, r);
		break;
	case SM_PAIRING_STACK:
		note_stack(c, r, v);
		break;
	case SM_PAIRING_DEFINE:
		break;
	}
	return 0;
}
