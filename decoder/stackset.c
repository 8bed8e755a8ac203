// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: the set of distinct stacks (see stackset.h).
 *
 * Two open-addressing tables with linear probing, both doubling when half
 * full: one of entry ids keyed by the stack's hash and contents, one of pair
 * ids keyed by (event id, stack id).  Slots hold index + 1 (0 is empty).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "stackset.h"

#define SSET_MIN_CAP	256

struct stackset {
	struct sset_entry **entries;	/* [nr], by id */
	size_t nr, alloc;
	sm_u32 *slots;			/* [cap]: entry id + 1, or 0 */
	size_t cap;
	struct sset_pair *pairs;	/* [nr_pairs] */
	size_t nr_pairs, alloc_pairs;
	sm_u32 *pair_slots;		/* [pair_cap]: pair index + 1, or 0 */
	size_t pair_cap;
	size_t total;
	sm_u64 total_weight;
	const char *weight_name;	/* NULL: events */
	const char *weight_unit;
	const char *count_name;		/* NULL: events */
};

/* FNV-1a over the root, the status, the depth and the frames. */
static sm_u64 hash_stack(const char *root, enum sset_status status,
			 const sm_u64 *frames, sm_u32 depth)
{
	sm_u64 h = 0xcbf29ce484222325ULL;
	sm_u32 i;

	for (; root && *root; root++)
		h = (h ^ (unsigned char)*root) * 0x100000001b3ULL;
	h = (h ^ status) * 0x100000001b3ULL;
	h = (h ^ depth) * 0x100000001b3ULL;
	for (i = 0; i < depth; i++)
		h = (h ^ frames[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static sm_u64 hash_pair(int event_id, sm_u32 stack_id)
{
	sm_u64 h = ((sm_u64)(sm_u32)event_id << 32 | stack_id) *
		   0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 31);
}

struct stackset *sset_new(void)
{
	struct stackset *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	set->cap = SSET_MIN_CAP;
	set->slots = calloc(set->cap, sizeof(*set->slots));
	set->pair_cap = SSET_MIN_CAP;
	set->pair_slots = calloc(set->pair_cap, sizeof(*set->pair_slots));
	if (!set->slots || !set->pair_slots) {
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
		free(set->entries[i]);
	}
	free(set->entries);
	free(set->slots);
	free(set->pairs);
	free(set->pair_slots);
	free(set);
}

static bool same_stack(const struct sset_entry *e, const char *root,
		       enum sset_status status, const sm_u64 *frames,
		       sm_u32 depth)
{
	if (!e->root != !root || (root && strcmp(e->root, root)))
		return false;
	return e->status == status && e->depth == depth &&
	       (!depth || !memcmp(e->frames, frames, depth * sizeof(*frames)));
}

/* Put entry @id (hash @h) into the slot table @slots of @cap slots. */
static void place(sm_u32 *slots, size_t cap, sm_u64 h, sm_u32 id)
{
	size_t i = h & (cap - 1);

	while (slots[i])
		i = (i + 1) & (cap - 1);
	slots[i] = id + 1;
}

static int grow_entries(struct stackset *set)
{
	size_t cap = set->cap * 2, i;
	sm_u32 *slots;
	void *p;

	if (set->nr == set->alloc) {
		p = realloc(set->entries,
			    (set->alloc ? set->alloc * 2 : 64) * sizeof(*set->entries));
		if (!p)
			return -ENOMEM;
		set->entries = p;
		set->alloc = set->alloc ? set->alloc * 2 : 64;
	}
	if ((set->nr + 1) * 2 <= set->cap)
		return 0;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < set->nr; i++)
		place(slots, cap, set->entries[i]->hash, i);
	free(set->slots);
	set->slots = slots;
	set->cap = cap;
	return 0;
}

static struct sset_entry *new_entry(struct stackset *set, const char *root,
				    enum sset_status status,
				    const sm_u64 *frames, sm_u32 depth,
				    sm_u64 h)
{
	struct sset_entry *e;

	if (grow_entries(set))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->frames = malloc((depth ? depth : 1) * sizeof(*frames));
	e->root = root ? strdup(root) : NULL;
	if (!e->frames || (root && !e->root)) {
		free(e->frames);
		free(e->root);
		free(e);
		return NULL;
	}
	if (depth)
		memcpy(e->frames, frames, depth * sizeof(*frames));
	e->id = set->nr;
	e->status = status;
	e->depth = depth;
	e->hash = h;
	set->entries[set->nr++] = e;
	place(set->slots, set->cap, h, e->id);
	return e;
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
	sm_u64 h = hash_stack(root, status, frames, depth);
	size_t i = h & (set->cap - 1);
	struct sset_entry *e;

	for (; set->slots[i]; i = (i + 1) & (set->cap - 1)) {
		e = set->entries[set->slots[i] - 1];
		if (e->hash == h && same_stack(e, root, status, frames, depth))
			return e;
	}
	return new_entry(set, root, status, frames, depth, h);
}

static int grow_pairs(struct stackset *set)
{
	size_t cap = set->pair_cap * 2, i;
	sm_u32 *slots;
	void *p;

	if (set->nr_pairs == set->alloc_pairs) {
		size_t n = set->alloc_pairs ? set->alloc_pairs * 2 : 64;

		p = realloc(set->pairs, n * sizeof(*set->pairs));
		if (!p)
			return -ENOMEM;
		set->pairs = p;
		set->alloc_pairs = n;
	}
	if ((set->nr_pairs + 1) * 2 <= set->pair_cap)
		return 0;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < set->nr_pairs; i++)
		place(slots, cap, hash_pair(set->pairs[i].event_id,
					    set->pairs[i].stack_id), i);
	free(set->pair_slots);
	set->pair_slots = slots;
	set->pair_cap = cap;
	return 0;
}

/* The pair (@event_id, @e), added when new; NULL when out of memory. */
static struct sset_pair *find_pair(struct stackset *set, struct sset_entry *e,
				   int event_id)
{
	sm_u64 h = hash_pair(event_id, e->id);
	size_t i = h & (set->pair_cap - 1);
	struct sset_pair *p;

	for (; set->pair_slots[i]; i = (i + 1) & (set->pair_cap - 1)) {
		p = &set->pairs[set->pair_slots[i] - 1];
		if (p->event_id == event_id && p->stack_id == e->id)
			return p;
	}
	if (grow_pairs(set))
		return NULL;
	p = &set->pairs[set->nr_pairs];
	p->event_id = event_id;
	p->stack_id = e->id;
	p->count = 0;
	p->weight = 0;
	place(set->pair_slots, set->pair_cap, h, set->nr_pairs++);
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
	char **cache = entry ? &entry->render[kind] : NULL;
	struct trace_seq tmp;
	int ret = 0;

	if (cache && *cache) {
		trace_seq_puts(s, *cache);
		return 0;
	}
	trace_seq_init(&tmp);
	render(&tmp, ctx);
	trace_seq_terminate(&tmp);
	trace_seq_puts(s, tmp.buffer);
	if (cache) {
		*cache = strdup(tmp.buffer);
		ret = *cache ? 0 : -ENOMEM;
	}
	trace_seq_destroy(&tmp);
	return ret;
}
