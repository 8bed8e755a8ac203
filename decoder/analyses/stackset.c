// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: the set of distinct stacks (see stackset.h).
 *
 * Two hash tables (hashtab.h): one of entry ids keyed by the stack's hash
 * (entries whose hashes collide are told apart by their contents), one of
 * pair indexes keyed by a hash of (event id, stack id).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "array.h"
#include "hashtab.h"
#include "render_cache.h"
#include "stackset.h"

#define SSET_MIN_CAP	256

struct stackset {
	struct sset_entry **entries;	/* [nr], by id */
	size_t nr, alloc;
	struct sm_hashtab index;	/* of struct sset_slot: entry ids */
	struct sset_pair *pairs;	/* [nr_pairs] */
	size_t nr_pairs, alloc_pairs;
	struct sm_hashtab pair_index;	/* of struct sset_slot: pairs */
	size_t total;
	sm_u64 total_weight;
	const char *weight_name;	/* NULL: events */
	const char *weight_unit;
	const char *count_name;		/* NULL: events */
};

/* A bucket of either table: an entry id or a pair index. */
struct sset_slot {
	sm_u64 key;
	sm_u32 i;
};

/* What tells entries apart (struct sset_entry's identity). */
struct sset_key {
	const char *root;
	enum sset_status status;
	const sm_u64 *frames;
	sm_u32 depth;
	struct sset_entry *blocked, *waker;
	const char *waker_comm;
};

/*
 * A key of the root (FNV-1a), the status, the depth and the frames (each
 * mixed in with sm_hash64(): a frame a step, this runs for every event),
 * then of a woken entry its waker and the waker's comm.
 */
static sm_u64 hash_stack(const struct sset_key *k)
{
	sm_u64 h = SM_HASH_SEED;
	sm_u32 i;

	if (k->root)
		h = sm_hash_bytes(h, k->root, strlen(k->root) + 1);
	h = sm_hash64(h ^ k->status);
	h = sm_hash64(h ^ k->depth);
	for (i = 0; i < k->depth; i++)
		h = sm_hash64(h ^ k->frames[i]);
	if (k->blocked) {
		h = sm_hash64(h ^ (k->waker ? k->waker->id + 2ULL : 1));
		if (k->waker_comm)
			h = sm_hash_bytes(h, k->waker_comm,
					  strlen(k->waker_comm) + 1);
	}
	return sm_hash_key(h);
}

/* Are @a and @b both NULL, or equal strings? */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The key of pair (@event_id, @stack_id): exact, never 0. */
static sm_u64 pair_key(int event_id, sm_u32 stack_id)
{
	return ((sm_u64)(sm_u32)event_id << 32 | stack_id) + 1;
}

struct stackset *sset_new(void)
{
	struct stackset *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	if (sm_hashtab_init(&set->index, sizeof(struct sset_slot),
			    SSET_MIN_CAP) ||
	    sm_hashtab_init(&set->pair_index, sizeof(struct sset_slot),
			    SSET_MIN_CAP)) {
		sset_free(set);
		return NULL;
	}
	return set;
}

void sset_free(struct stackset *set)
{
	size_t i;
	int r;

	if (!set)
		return;
	for (i = 0; i < set->nr; i++) {
		for (r = 0; r < SSET_NR_RENDER; r++)
			free(set->entries[i]->render[r]);
		free(set->entries[i]->frames);
		free(set->entries[i]->root);
		free(set->entries[i]->waker_comm);
		free(set->entries[i]);
	}
	free(set->entries);
	sm_hashtab_fini(&set->index);
	free(set->pairs);
	sm_hashtab_fini(&set->pair_index);
	free(set);
}

static bool same_stack(const struct sset_entry *e, const struct sset_key *k)
{
	if (!same_str(e->root, k->root) || e->blocked != k->blocked ||
	    e->waker != k->waker || !same_str(e->waker_comm, k->waker_comm))
		return false;
	return e->status == k->status && e->depth == k->depth &&
	       (!k->depth ||
		!memcmp(e->frames, k->frames, k->depth * sizeof(*k->frames)));
}

/* Room for one more entry: in the array and in the index. */
static int grow_entries(struct stackset *set)
{
	if (sm_array_reserve(&set->entries, &set->alloc, set->nr + 1,
			     sizeof(*set->entries), 64))
		return -ENOMEM;
	return sm_hashtab_reserve(&set->index);
}

static struct sset_entry *new_entry(struct stackset *set,
				    const struct sset_key *k, sm_u64 h)
{
	size_t size = (k->depth ? k->depth : 1) * sizeof(*k->frames);
	struct sset_entry *e;

	if (grow_entries(set))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->frames = malloc(size);
	e->root = k->root ? strdup(k->root) : NULL;
	e->waker_comm = k->waker_comm ? strdup(k->waker_comm) : NULL;
	if (!e->frames || (k->root && !e->root) ||
	    (k->waker_comm && !e->waker_comm)) {
		free(e->frames);
		free(e->root);
		free(e->waker_comm);
		free(e);
		return NULL;
	}
	if (k->depth)
		memcpy(e->frames, k->frames, k->depth * sizeof(*k->frames));
	e->id = set->nr;
	e->status = k->status;
	e->depth = k->depth;
	e->blocked = k->blocked;
	e->waker = k->waker;
	set->entries[set->nr++] = e;
	((struct sset_slot *)sm_hashtab_add(&set->index, h))->i = e->id;
	return e;
}

/* The entry of @k, added when new. */
static struct sset_entry *intern(struct stackset *set,
				 const struct sset_key *k)
{
	sm_u64 h = hash_stack(k);
	struct sset_slot *slot;
	struct sset_entry *e;

	for (slot = sm_hashtab_find(&set->index, h); slot;
	     slot = sm_hashtab_next(&set->index, slot)) {
		e = set->entries[slot->i];
		if (same_stack(e, k))
			return e;
	}
	return new_entry(set, k, h);
}

struct sset_entry *sset_intern(struct stackset *set, enum sset_status status,
			       const sm_u64 *frames, sm_u32 depth)
{
	return sset_intern_root(set, NULL, status, frames, depth);
}

struct sset_entry *sset_intern_root(struct stackset *set, const char *root,
				    enum sset_status status,
				    const sm_u64 *frames, sm_u32 depth)
{
	struct sset_key k = {
		.root = root, .status = status, .frames = frames,
		.depth = depth,
	};

	return intern(set, &k);
}

struct sset_entry *sset_intern_woken(struct stackset *set,
				     struct sset_entry *blocked,
				     struct sset_entry *waker,
				     const char *waker_comm)
{
	struct sset_key k = {
		.root = blocked->root, .status = blocked->status,
		.frames = blocked->frames, .depth = blocked->depth,
		.blocked = blocked, .waker = waker,
		.waker_comm = waker ? waker_comm : NULL,
	};

	return intern(set, &k);
}

/* Room for one more pair: in the array and in the index. */
static int grow_pairs(struct stackset *set)
{
	if (sm_array_reserve(&set->pairs, &set->alloc_pairs, set->nr_pairs + 1,
			     sizeof(*set->pairs), 64))
		return -ENOMEM;
	return sm_hashtab_reserve(&set->pair_index);
}

/* The pair (@event_id, @e), added when new; NULL when out of memory. */
static struct sset_pair *find_pair(struct stackset *set, struct sset_entry *e,
				   int event_id)
{
	sm_u64 key = pair_key(event_id, e->id);
	struct sset_slot *slot;
	struct sset_pair *p;

	if (e->last_pair && set->pairs[e->last_pair - 1].event_id == event_id)
		return &set->pairs[e->last_pair - 1];
	slot = sm_hashtab_find(&set->pair_index, key);
	if (slot) {
		e->last_pair = slot->i + 1;
		return &set->pairs[slot->i];
	}
	if (grow_pairs(set))
		return NULL;
	p = &set->pairs[set->nr_pairs];
	p->event_id = event_id;
	p->stack_id = e->id;
	p->count = 0;
	p->weight = 0;
	slot = sm_hashtab_add(&set->pair_index, key);
	slot->i = set->nr_pairs++;
	e->last_pair = set->nr_pairs;
	return p;
}

void sset_set_weight(struct stackset *set, const char *name,
		     const char *unit)
{
	set->weight_name = name;
	set->weight_unit = unit;
}

void sset_set_count_name(struct stackset *set, const char *name)
{
	set->count_name = name;
}

const char *sset_count_name(const struct stackset *set)
{
	return set->count_name ? set->count_name : "events";
}

bool sset_weighted(const struct stackset *set)
{
	return set->weight_name;
}

const char *sset_weight_name(const struct stackset *set)
{
	return set->weight_name ? set->weight_name : "events";
}

const char *sset_weight_unit(const struct stackset *set)
{
	return set->weight_name ? set->weight_unit : "events";
}

static int add(struct stackset *set, struct sset_entry *e, int event_id,
	       sm_u64 weight)
{
	struct sset_pair *p = find_pair(set, e, event_id);

	if (!p)
		return -ENOMEM;
	p->count++;
	p->weight += weight;
	e->count++;
	e->weight += weight;
	set->total++;
	set->total_weight += weight;
	return 0;
}

int sset_count(struct stackset *set, struct sset_entry *e, int event_id)
{
	return sset_weighted(set) ? -EINVAL : add(set, e, event_id, 1);
}

int sset_count_weighted(struct stackset *set, struct sset_entry *e,
			int event_id, sm_u64 weight)
{
	return sset_weighted(set) ? add(set, e, event_id, weight) : -EINVAL;
}

int sset_count_orphan(struct stackset *set, struct sset_entry *e,
		      sm_u32 owner)
{
	struct sset_pair *p = find_pair(set, e, SSET_ORPHAN_ID(owner));

	if (!p)
		return -ENOMEM;
	p->count++;
	if (!sset_weighted(set))
		p->weight++;
	return 0;
}

size_t sset_size(const struct stackset *set)
{
	return set->nr;
}

struct sset_entry *sset_entry_at(const struct stackset *set, size_t id)
{
	return id < set->nr ? set->entries[id] : NULL;
}

size_t sset_total(const struct stackset *set)
{
	return set->total;
}

sm_u64 sset_total_weight(const struct stackset *set)
{
	return set->total_weight;
}

const struct sset_pair *sset_pairs(const struct stackset *set, size_t *n)
{
	*n = set->nr_pairs;
	return set->pairs;
}

int sset_render_once(struct trace_seq *s, struct sset_entry *entry,
		     enum sset_render kind,
		     void (*render)(struct trace_seq *out, const void *ctx),
		     const void *ctx)
{
	return sm_render_once(s, entry ? &entry->render[kind] : NULL, render,
			      ctx);
}
