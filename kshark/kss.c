// SPDX-License-Identifier: GPL-2.0
/*
 * kss: the stacks of one KernelShark data stream (kss.h): records noted as
 * libkshark loads them, paired as fgdecode pairs (lib/pairing.c) once all
 * definitions are known, resolved and printed with lib/.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-seq.h>

#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "array.h"
#include "hashtab.h"
#include "map_id.h"
#include "pairing.h"
#include "snapshot_table.h"
#include "stacktab.h"
#include "tep_stack.h"
#include "tracedat_options.h"
#include "kss.h"

/* What a record is. */
enum kss_kind { KSS_EVENT, KSS_DEFINE, KSS_COOKIE, KSS_FALLBACK, KSS_KSTACK };

/* fgdecode's lookahead per stream (decoder/pipeline/read.h). */
#define KSS_LOOKAHEAD	64
/* Frames kept of a kernel_stack (decoder/pipeline/read.h READER_KSTACK_MAX). */
#define KSS_KSTACK_MAX	256
/* Event ids that can own stacks (decoder/pipeline/resolve.h). */
#define KSS_NR_OWNERS	65536

/* A stack a record carries whole: frames[start, start + depth). */
struct kss_stack {
	size_t start;
	sm_u32 depth;
	sm_u32 owner;
	sm_u32 flags;
};

/* One record of a CPU, in file order. */
struct kss_rec {
	sm_u64 offset;
	sm_u64 cookie;		/* COOKIE, DEFINE */
	int pid;
	int type;
	int stack;		/* DEFINE, FALLBACK, KSTACK: index in stacks */
	int partner;		/* the paired record (event <-> stack record), -1 */
	unsigned char kind;
	unsigned char ctx;	/* common_flags & STACKMAP_CONTEXT_FLAGS */
	bool missed;		/* events were lost before it */
	bool after_loss;	/* COOKIE, FALLBACK: written after a loss */
	bool bad;		/* a stack record that could not be read */
};

struct kss_cpu {
	struct kss_rec *recs;
	int nr;
	size_t max;
};

/* Where a record is: the key is its offset + 1. */
struct kss_where {
	sm_u64 key;
	int cpu;
	int idx;
};

struct kss {
	struct tep_handle *tep;
	char *file;
	struct stacktab *defs;
	struct stacktab *snap;
	bool snap_tried;
	struct stackmap_map_ids map_ids;
	struct tepstack_fields fields[TEPSTACK_NR_KINDS];
	struct tep_event *kstack;
	struct tep_format_field *kstack_size, *kstack_caller;
	struct kss_cpu *cpus;
	int nr_cpus;
	size_t max_cpus;
	sm_u64 *frames;
	size_t nr_frames, max_frames;
	struct kss_stack *stacks;
	int nr_stacks;
	size_t max_stacks;
	struct sm_hashtab where;
	unsigned char *owners;	/* KSS_NR_OWNERS bits */
	bool paired;
};

static void add_owner(struct kss *k, sm_u32 owner)
{
	if (owner != STACKMAP_OWNER_NONE && owner < KSS_NR_OWNERS)
		k->owners[owner / 8] |= 1u << (owner % 8);
}

static bool is_owner(const struct kss *k, int type)
{
	return type >= 0 && type < KSS_NR_OWNERS &&
	       (k->owners[type / 8] & (1u << (type % 8)));
}

/* Forget every record and stack: libkshark loads the trace again. */
static void reset(struct kss *k)
{
	int i;

	for (i = 0; i < k->nr_cpus; i++)
		k->cpus[i].nr = 0;
	k->nr_frames = 0;
	k->nr_stacks = 0;
	sm_hashtab_fini(&k->where);
	sm_hashtab_init(&k->where, sizeof(struct kss_where), 1024);
	stacktab_free(k->defs);
	k->defs = stacktab_new();
	memset(k->owners, 0, KSS_NR_OWNERS / 8);
	memset(&k->map_ids, 0, sizeof(k->map_ids));
	stacktab_free(k->snap);
	k->snap = NULL;
	k->snap_tried = false;
	k->paired = false;
}

struct kss *kss_new(struct tep_handle *tep, const char *file)
{
	struct kss *k = calloc(1, sizeof(*k));
	struct tep_event *event;
	struct sm_err err;
	int kind;

	if (!k)
		return NULL;
	k->tep = tep;
	k->file = file ? strdup(file) : NULL;
	k->defs = stacktab_new();
	k->owners = calloc(KSS_NR_OWNERS / 8, 1);
	if ((file && !k->file) || !k->defs || !k->owners ||
	    sm_hashtab_init(&k->where, sizeof(struct kss_where), 1024)) {
		kss_free(k);
		return NULL;
	}
	for (kind = 0; kind < TEPSTACK_NR_KINDS; kind++) {
		event = tep_find_event_by_name(tep, STACKMAP_SYSTEM,
					       tepstack_event_name(kind));
		if (event && tepstack_fields_init(&k->fields[kind], event, &err)) {
			fprintf(stderr, "plugin-stackmap: %s\n", err.msg);
			k->fields[kind].event = NULL;
		}
	}
	k->kstack = tep_find_event_by_name(tep, "ftrace", "kernel_stack");
	if (k->kstack) {
		k->kstack_size = tep_find_field(k->kstack, "size");
		k->kstack_caller = tep_find_field(k->kstack, "caller");
		if (!k->kstack_size || !k->kstack_caller ||
		    k->kstack_size->size < 1 || k->kstack_size->size > 8 ||
		    !(k->kstack_caller->flags & TEP_FIELD_IS_ARRAY))
			k->kstack = NULL;
	}
	return k;
}

void kss_free(struct kss *k)
{
	int i;

	if (!k)
		return;
	for (i = 0; i < k->nr_cpus; i++)
		free(k->cpus[i].recs);
	free(k->cpus);
	free(k->frames);
	free(k->stacks);
	free(k->owners);
	sm_hashtab_fini(&k->where);
	stacktab_free(k->defs);
	stacktab_free(k->snap);
	free(k->file);
	free(k);
}

/* Keep @depth frames with @owner and @flags: the stack's index, or -ENOMEM. */
static int keep_stack(struct kss *k, const sm_u64 *frames, sm_u32 depth,
		      sm_u32 owner, sm_u32 flags)
{
	struct kss_stack *st;

	if (sm_array_reserve(&k->frames, &k->max_frames, k->nr_frames + depth,
			     sizeof(*k->frames), 1024) ||
	    sm_array_reserve(&k->stacks, &k->max_stacks,
			     (size_t)k->nr_stacks + 1, sizeof(*k->stacks), 64))
		return -ENOMEM;
	memcpy(k->frames + k->nr_frames, frames, depth * sizeof(*frames));
	st = &k->stacks[k->nr_stacks];
	st->start = k->nr_frames;
	st->depth = depth;
	st->owner = owner;
	st->flags = flags;
	k->nr_frames += depth;
	return k->nr_stacks++;
}

/* A kernel_stack's frames, the tracer's own left out: the stack's index. */
static int read_kstack(struct kss *k, const struct tep_record *record)
{
	sm_u64 frames[KSS_KSTACK_MAX], addr, end, n, avail, i;
	int long_size = tep_get_long_size(k->tep);
	const char *data = record->data;
	sm_u32 depth = 0, top = 0;

	if (k->kstack_size->offset + k->kstack_size->size > record->size ||
	    k->kstack_caller->offset > record->size)
		return -EFAULT;
	if (long_size != 4 && long_size != 8)
		long_size = 8;
	end = long_size == 8 ? ~0ULL : 0xffffffffULL;
	n = tep_read_number(k->tep, data + k->kstack_size->offset,
			    k->kstack_size->size);
	avail = (record->size - k->kstack_caller->offset) / long_size;
	if (n > avail)
		n = avail;
	for (i = 0; i < n && depth < KSS_KSTACK_MAX; i++) {
		addr = tep_read_number(k->tep, data + k->kstack_caller->offset +
				       i * long_size, long_size);
		if (addr == end || addr == 0)
			break;
		frames[depth++] = addr;
	}
	while (top < depth && tepstack_in_tracer(k->tep, frames[top]))
		top++;
	if (top == depth)
		top = 0;
	return keep_stack(k, frames + top, depth - top, STACKMAP_OWNER_NONE, 0);
}

/* Read a stackmap record into @r (kind set): r->bad when it cannot be. */
static void read_stackmap(struct kss *k, struct tep_record *record,
			  struct kss_rec *r)
{
	const struct tepstack_fields *f = &k->fields[r->kind == KSS_COOKIE ?
		TEPSTACK_COOKIE : r->kind == KSS_DEFINE ? TEPSTACK_DEFINE :
		TEPSTACK_FALLBACK];
	struct tepstack_stack stack;
	sm_u32 owner, flags, reason;
	struct sm_err err;
	int ret;

	r->bad = true;
	if (!f->event)
		return;
	switch (r->kind) {
	case KSS_COOKIE:
		if (tepstack_read_cookie(f, record, &r->cookie, &err))
			return;
		r->after_loss = tepstack_after_loss(f, record);
		break;
	case KSS_DEFINE:
		if (tepstack_read_cookie(f, record, &r->cookie, &err) ||
		    tepstack_read_owner(f, record, &owner, &flags, &err) ||
		    tepstack_read_stack(f, record, &stack, &err))
			return;
		ret = keep_stack(k, stack.frames, stack.depth, owner, flags);
		if (ret < 0)
			return;
		r->stack = ret;
		stacktab_define_owned(k->defs, r->cookie, stack.depth,
				      stack.frames, owner, flags);
		stackmap_map_ids_add(&k->map_ids,
				     tepstack_read_map_id(f, record));
		add_owner(k, owner);
		break;
	case KSS_FALLBACK:
		if (tepstack_read_reason(f, record, &reason, &err) ||
		    tepstack_read_owner(f, record, &owner, &flags, &err) ||
		    tepstack_read_stack(f, record, &stack, &err))
			return;
		ret = keep_stack(k, stack.frames, stack.depth, owner, flags);
		if (ret < 0)
			return;
		r->stack = ret;
		r->after_loss = tepstack_after_loss(f, record);
		add_owner(k, owner);
		break;
	}
	r->bad = false;
}

static enum kss_kind kind_of(struct kss *k, struct tep_event *event)
{
	int kind;

	if (!event)
		return KSS_EVENT;
	if (event == k->kstack)
		return KSS_KSTACK;
	kind = tepstack_kind_of(event);
	switch (kind) {
	case TEPSTACK_COOKIE:
		return KSS_COOKIE;
	case TEPSTACK_DEFINE:
		return KSS_DEFINE;
	case TEPSTACK_FALLBACK:
		return KSS_FALLBACK;
	}
	return KSS_EVENT;
}

int kss_add(struct kss *k, struct tep_record *record)
{
	struct kss_where *w;
	struct kss_cpu *c;
	struct kss_rec *r;
	int cpu = record->cpu, ret;

	if (cpu < 0)
		return 0;
	if (sm_hashtab_find(&k->where, record->offset + 1))
		reset(k);
	if (!k->defs)
		return -ENOMEM;
	if (cpu >= k->nr_cpus) {
		if (sm_array_reserve(&k->cpus, &k->max_cpus, (size_t)cpu + 1,
				     sizeof(*k->cpus), 64))
			return -ENOMEM;
		memset(k->cpus + k->nr_cpus, 0,
		       (cpu + 1 - k->nr_cpus) * sizeof(*k->cpus));
		k->nr_cpus = cpu + 1;
	}
	c = &k->cpus[cpu];
	if (sm_array_reserve(&c->recs, &c->max, (size_t)c->nr + 1,
			     sizeof(*c->recs), 64) ||
	    sm_hashtab_reserve(&k->where))
		return -ENOMEM;
	r = &c->recs[c->nr];
	memset(r, 0, sizeof(*r));
	r->offset = record->offset;
	r->type = tep_data_type(k->tep, record);
	r->pid = tep_data_pid(k->tep, record);
	r->ctx = tepstack_context(k->tep, record);
	r->missed = record->missed_events != 0;
	r->partner = -1;
	r->stack = -1;
	r->kind = kind_of(k, tep_find_event(k->tep, r->type));
	if (r->kind == KSS_KSTACK) {
		ret = read_kstack(k, record);
		r->bad = ret < 0;
		r->stack = ret;
	} else if (r->kind != KSS_EVENT) {
		read_stackmap(k, record, r);
	}
	w = sm_hashtab_insert(&k->where, record->offset + 1);
	w->cpu = cpu;
	w->idx = c->nr++;
	k->paired = false;
	return 0;
}

/* Read the map snapshot of the trace.dat, once. */
static void load_snapshot(struct kss *k)
{
	struct stackmap_snapshot snap;
	struct sm_err err;
	sm_u32 i;
	int ret;

	if (k->snap_tried)
		return;
	k->snap_tried = true;
	if (!k->file)
		return;
	ret = stackmap_snapshot_read_tracedat(k->file, &snap, &err);
	if (ret) {
		if (ret != -ENOENT)
			fprintf(stderr, "plugin-stackmap: %s\n", err.msg);
		return;
	}
	if (stackmap_map_id_check(&k->map_ids, 0, "map snapshot", snap.map_id,
				  &err)) {
		fprintf(stderr, "plugin-stackmap: %s: %s (not used)\n", k->file,
			err.msg);
	} else {
		k->snap = stackmap_snapshot_table(&snap, &ret);
		for (i = 0; k->snap && i < snap.nr; i++)
			add_owner(k, snap.entries[i].owner);
	}
	stackmap_snapshot_free(&snap);
}

static enum stacktab_result lookup(struct kss *k, sm_u64 cookie,
				   struct stacktab_stack *out)
{
	load_snapshot(k);
	return stackmap_snapshot_resolve(k->defs, k->snap, cookie, out, NULL);
}

static bool is_stack(const struct kss_rec *r)
{
	return r->kind == KSS_COOKIE || r->kind == KSS_FALLBACK ||
	       r->kind == KSS_KSTACK;
}

/* The owner a stack record names (decoder/pipeline/resolve.c resolve_owner()). */
static bool owner_of(struct kss *k, const struct kss_rec *r, sm_u32 *owner)
{
	struct stacktab_stack stack;

	*owner = STACKMAP_OWNER_NONE;
	if (r->bad)
		return false;
	if (r->kind == KSS_COOKIE) {
		if (lookup(k, r->cookie, &stack) != STACKTAB_FOUND)
			return false;
		*owner = stack.owner;
	} else if (r->kind == KSS_FALLBACK) {
		*owner = k->stacks[r->stack].owner;
	}
	return *owner != STACKMAP_OWNER_NONE;
}

/* @r as the pairing rule sees it (lib/pairing.h). */
static void pairing_record_of(struct kss *k, const struct kss_rec *r,
			      struct sm_pairing_record *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = r->kind == KSS_DEFINE ? SM_PAIRING_DEFINE :
		    is_stack(r) ? SM_PAIRING_STACK : SM_PAIRING_EVENT;
	out->missed = r->missed;
	if (out->kind == SM_PAIRING_DEFINE)
		return;
	out->type = r->type;
	out->pid = r->pid;
	out->context = r->ctx;
	if (out->kind == SM_PAIRING_EVENT) {
		out->owns = is_owner(k, r->type);
		return;
	}
	owner_of(k, r, &out->owner);
	out->after_loss = r->after_loss;
}

/*
 * The stack record of event @i of @c, as fgdecode's find_stack()
 * (decoder/pipeline/pair.c): the event stepped by the rule
 * (sm_pairing_step()) through the next KSS_LOOKAHEAD records no event took
 * yet, until it takes one or ends; else its candidate.  Its index, or -1.
 */
static int find_stack(struct kss *k, struct kss_cpu *c, int i)
{
	struct sm_pairing_record rec;
	struct sm_pairing_event e;
	int j, seen = 0, ownerless = -1;

	pairing_record_of(k, &c->recs[i], &rec);
	sm_pairing_event_init(&e, &rec);
	for (j = i + 1; j < c->nr && seen < KSS_LOOKAHEAD; j++) {
		if (c->recs[j].partner >= 0)
			continue;	/* taken: no longer in the lookahead */
		seen++;
		pairing_record_of(k, &c->recs[j], &rec);
		switch (sm_pairing_step(&e, &rec)) {
		case SM_PAIRING_TAKE:
			return j;
		case SM_PAIRING_CANDIDATE:
			ownerless = j;
			continue;
		case SM_PAIRING_PASS:
			continue;
		case SM_PAIRING_END:
			break;
		}
		break;
	}
	return ownerless;
}

/* Give every event its stack record, once per load. */
static void pair(struct kss *k)
{
	struct kss_cpu *c;
	int cpu, i, j;

	if (k->paired)
		return;
	load_snapshot(k);
	for (cpu = 0; cpu < k->nr_cpus; cpu++) {
		c = &k->cpus[cpu];
		for (i = 0; i < c->nr; i++)
			c->recs[i].partner = -1;
		for (i = 0; i < c->nr; i++) {
			if (c->recs[i].kind != KSS_EVENT)
				continue;
			j = find_stack(k, c, i);
			if (j >= 0) {
				c->recs[i].partner = j;
				c->recs[j].partner = i;
			}
		}
	}
	k->paired = true;
}

static struct kss_rec *find_rec(struct kss *k, sm_u64 offset,
				struct kss_cpu **cpu)
{
	struct kss_where *w = sm_hashtab_find(&k->where, offset + 1);

	if (!w)
		return NULL;
	*cpu = &k->cpus[w->cpu];
	return &(*cpu)->recs[w->idx];
}

/* Frames and the truncation line, each line "\n"-led. */
static void put_frames(struct trace_seq *s, struct kss *k, const sm_u64 *frames,
		       sm_u32 depth, sm_u32 flags)
{
	tepstack_print_stack(s, k->tep, frames, depth, "");
	if (flags & STACKMAP_FLAG_TRUNCATED)
		tepstack_print_truncated(s, "");
}

/* The stack a stack record or definition carries, "\n"-led lines. */
static void put_stack(struct trace_seq *s, struct kss *k, const struct kss_rec *r,
		      bool orphan)
{
	const struct kss_stack *st;
	struct stacktab_stack stack;
	enum stacktab_result res;
	char name[80];
	sm_u32 owner;

	if (r->bad) {
		trace_seq_puts(s, "\n=> <corrupt stack record>");
		return;
	}
	if (orphan && owner_of(k, r, &owner))
		trace_seq_printf(s, "\n<orphan stack of %s>",
				 tepstack_owner_name(k->tep, owner, name,
						     sizeof(name)));
	if (r->kind == KSS_COOKIE) {
		res = lookup(k, r->cookie, &stack);
		if (res == STACKTAB_FOUND)
			put_frames(s, k, stack.frames, stack.depth, stack.flags);
		else
			tepstack_print_marker(s, res, r->cookie, "");
		return;
	}
	st = &k->stacks[r->stack];
	put_frames(s, k, k->frames + st->start, st->depth, st->flags);
}

char *kss_text(struct kss *k, sm_u64 offset)
{
	const struct kss_rec *r;
	struct trace_seq s;
	struct kss_cpu *c;
	char *text;

	pair(k);
	trace_seq_init(&s);
	r = find_rec(k, offset, &c);
	if (!r) {
		trace_seq_puts(&s, "\n<not a record of this trace>");
	} else if (r->kind == KSS_EVENT) {
		if (r->partner >= 0)
			put_stack(&s, k, &c->recs[r->partner], false);
		else
			trace_seq_puts(&s, "\n<no stack>");
	} else if (r->kind == KSS_DEFINE) {
		trace_seq_printf(&s, "\n<definition of cookie gen %u slot %u>",
				 stackmap_cookie_generation(r->cookie),
				 stackmap_cookie_slot(r->cookie));
		put_stack(&s, k, r, false);
	} else {
		put_stack(&s, k, r, r->partner < 0);
	}
	trace_seq_terminate(&s);
	text = s.state == TRACE_SEQ__GOOD ? strdup(s.buffer + (s.len > 0)) : NULL;
	trace_seq_destroy(&s);
	return text;
}

enum kss_role kss_role(struct kss *k, sm_u64 offset)
{
	const struct kss_rec *r;
	struct kss_cpu *c;

	pair(k);
	r = find_rec(k, offset, &c);
	if (!r)
		return KSS_ROLE_NONE;
	if (r->kind == KSS_DEFINE)
		return KSS_ROLE_DEFINE;
	if (r->kind == KSS_EVENT)
		return r->partner >= 0 ? KSS_ROLE_OWNER : KSS_ROLE_EVENT;
	return r->partner >= 0 ? KSS_ROLE_TAKEN : KSS_ROLE_ALONE;
}
