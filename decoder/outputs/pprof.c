// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's outputs: --pprof output (see pprof.h).
 *
 * Events are gathered as (stack, event, pid, CPU) keys with a count and a
 * weight, sorted and merged whenever the array fills, so memory grows with
 * distinct keys.  pprof_write() then builds the Profile message: strings,
 * functions and locations are interned in glibc tsearch() trees (each
 * keeps the index its message got), one location list per stack, shared
 * by that stack's samples.  protobuf-c packs it and zlib compresses it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "array.h"
#include "folded.h"
#include "pprof.h"
#include "pprof_labels.h"
#include "output.h"
#include "profile.pb-c.h"
#include "tep_stack.h"

#define PP_MIN_SAMPLES	4096
/* pp_key.labels of a sample without field labels. */
#define PP_NO_LABELS	UINT32_MAX
/* Label keys of every sample. */
enum { PP_L_EVENT, PP_L_COMM, PP_L_PID, PP_L_CPU, PP_NR_LABELS };
static const char *const label_key[PP_NR_LABELS] = {
	"event", "comm", "pid", "cpu",
};

typedef Perftools__Profiles__Profile PProfile;
typedef Perftools__Profiles__Sample PSample;
typedef Perftools__Profiles__Label PLabel;
typedef Perftools__Profiles__Location PLocation;
typedef Perftools__Profiles__Line PLine;
typedef Perftools__Profiles__Function PFunction;
typedef Perftools__Profiles__Mapping PMapping;
typedef Perftools__Profiles__ValueType PValueType;

struct pp_key {
	sm_u32 stack_id;
	int event_id;
	int pid;
	int cpu;
	uint32_t labels;	/* the fields' label set, or PP_NO_LABELS */
	sm_u64 count;
	sm_u64 weight;
};

struct pprof {
	struct pp_key *keys;
	size_t nr, alloc;
	size_t merged;		/* keys[0..merged) are sorted and distinct */
	const char *weight_type, *weight_unit;
	sm_u64 duration_ns;
	struct pp_labels labels;	/* the events' fields */
};

/* A tree node: a string, a (name, file) function or an address. */
struct pp_node {
	const char *str;
	int64_t a, b;
	sm_u64 id;		/* string index, function or location id */
};

/* A mapping being built: which module, its message. */
struct pp_map {
	const char *mod;	/* NULL: vmlinux */
	PMapping msg;
};

/* What pprof_write() builds, and frees. */
struct pp_build {
	const struct symbolizer *sz;
	void *strings, *functions, *locations;	/* tsearch() roots */
	void *named;			/* locations without address */
	char **strtab;
	size_t nr_str, alloc_str;
	PFunction **funcs;
	size_t nr_funcs, alloc_funcs;
	PLocation **locs;
	size_t nr_locs, alloc_locs;
	struct pp_map *maps;
	size_t nr_maps;
	uint64_t **stack_locs;			/* [stack id], leaf first */
	size_t *stack_depth;
	bool nomem;
};

/* pprof's name of @unit: it formats "nanoseconds" and "bytes" itself. */
static const char *pprof_unit(const char *unit)
{
	if (!unit || !*unit)
		return "count";
	return strcmp(unit, "ns") ? unit : "nanoseconds";
}

struct pprof *pprof_new(const char *weight_type, const char *weight_unit)
{
	struct pprof *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	pp->weight_type = weight_type;
	pp->weight_unit = pprof_unit(weight_unit);
	return pp;
}

void pprof_free(struct pprof *pp)
{
	if (!pp)
		return;
	free(pp->keys);
	pp_labels_fini(&pp->labels);
	free(pp);
}

static int cmp_key(const void *a, const void *b)
{
	const struct pp_key *x = a, *y = b;

	if (x->stack_id != y->stack_id)
		return x->stack_id < y->stack_id ? -1 : 1;
	if (x->event_id != y->event_id)
		return x->event_id < y->event_id ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->labels != y->labels)
		return x->labels < y->labels ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Sort the keys and add up equal ones. */
static void merge_keys(struct pprof *pp)
{
	size_t i, n = 0;

	if (!pp->nr)
		return;
	qsort(pp->keys, pp->nr, sizeof(*pp->keys), cmp_key);
	for (i = 0; i < pp->nr; i++) {
		if (n && !cmp_key(&pp->keys[n - 1], &pp->keys[i])) {
			pp->keys[n - 1].count += pp->keys[i].count;
			pp->keys[n - 1].weight += pp->keys[i].weight;
		} else {
			pp->keys[n++] = pp->keys[i];
		}
	}
	pp->nr = pp->merged = n;
}

/*
 * Room for one more key: when the array is full, merge it first, and grow
 * it only when merging freed less than a quarter.  Return: false when out
 * of memory.
 */
static bool room_for_key(struct pprof *pp)
{
	struct pp_key *k;
	size_t alloc;

	if (pp->nr < pp->alloc)
		return true;
	merge_keys(pp);
	if (pp->alloc && pp->nr < pp->alloc - pp->alloc / 4)
		return true;
	alloc = pp->alloc ? 2 * pp->alloc : PP_MIN_SAMPLES;
	k = realloc(pp->keys, alloc * sizeof(*k));
	if (!k)
		return false;
	pp->keys = k;
	pp->alloc = alloc;
	return true;
}

int pprof_add(struct pprof *pp, struct tep_handle *tep,
	      struct tep_record *record, const struct sset_entry *e,
	      sm_u64 weight)
{
	uint32_t labels;

	if (!room_for_key(pp) ||
	    pp_labels_of(&pp->labels, tep, record, &labels))
		return -ENOMEM;
	pp->keys[pp->nr++] = (struct pp_key){
		.stack_id = e->id,
		.event_id = tep_data_type(tep, record),
		.pid = tep_data_pid(tep, record),
		.cpu = record->cpu,
		.labels = labels,
		.count = 1,
		.weight = weight,
	};
	return 0;
}

void pprof_set_duration(struct pprof *pp, sm_u64 ns)
{
	pp->duration_ns = ns;
}

int pprof_add_pairs(struct pprof *pp, const struct stackset *set)
{
	const struct sset_pair *pairs;
	size_t i, n;

	pairs = sset_pairs(set, &n);
	for (i = 0; i < n; i++) {
		if (SSET_IS_ORPHAN_ID(pairs[i].event_id) || !pairs[i].count)
			continue;
		if (!room_for_key(pp))
			return -ENOMEM;
		pp->keys[pp->nr++] = (struct pp_key){
			.stack_id = pairs[i].stack_id,
			.event_id = pairs[i].event_id,
			.pid = -1, .cpu = -1, .labels = PP_NO_LABELS,
			.count = pairs[i].count, .weight = pairs[i].weight,
		};
	}
	return 0;
}

/* ---- building the message ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(((const struct pp_node *)a)->str,
		      ((const struct pp_node *)b)->str);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pp_node *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

/*
 * Find @key in the tree @root, or add a copy made by @make (which sets its
 * id).  Return: the node, or NULL when out of memory.
 */
static struct pp_node *intern(struct pp_build *b, void **root,
			      const struct pp_node *key,
			      int (*cmp)(const void *, const void *),
			      bool (*make)(struct pp_build *, struct pp_node *))
{
	struct pp_node **found = tfind(key, root, cmp), *n;

	if (found)
		return *found;
	n = malloc(sizeof(*n));
	if (!n)
		return NULL;
	*n = *key;
	if (!make(b, n) || !tsearch(n, root, cmp)) {
		free(n);
		return NULL;
	}
	return n;
}

static bool make_str(struct pp_build *b, struct pp_node *n)
{
	if (sm_array_reserve(&b->strtab, &b->alloc_str, b->nr_str + 1,
			     sizeof(char *), 64))
		return false;
	n->str = b->strtab[b->nr_str] = strdup(n->str);
	if (!n->str)
		return false;
	n->id = b->nr_str++;
	return true;
}

/* The string table index of @s; 0 ("") when out of memory (noted). */
static int64_t str_id(struct pp_build *b, const char *s)
{
	struct pp_node key = { .str = s }, *n;

	n = intern(b, &b->strings, &key, cmp_str, make_str);
	if (!n) {
		b->nomem = true;
		return 0;
	}
	return n->id;
}

static bool make_func(struct pp_build *b, struct pp_node *n)
{
	PFunction *f;

	if (sm_array_reserve(&b->funcs, &b->alloc_funcs, b->nr_funcs + 1,
			     sizeof(*b->funcs), 64))
		return false;
	f = malloc(sizeof(*f));
	if (!f)
		return false;
	perftools__profiles__function__init(f);
	f->id = n->id = b->nr_funcs + 1;
	f->name = f->system_name = n->a;
	f->filename = n->b;
	b->funcs[b->nr_funcs++] = f;
	return true;
}

/* The id of the function @name in @file (NULL: unknown); 0 out of memory. */
static sm_u64 func_id(struct pp_build *b, const char *name, const char *file)
{
	struct pp_node key = { .a = str_id(b, name),
			       .b = file ? str_id(b, file) : 0 }, *n;

	n = intern(b, &b->functions, &key, cmp_pair, make_func);
	if (!n) {
		b->nomem = true;
		return 0;
	}
	return n->id;
}

/* The mapping of module @mod (NULL: vmlinux), added when new. */
static PMapping *mapping_of(struct pp_build *b, const char *mod)
{
	char name[128];
	struct pp_map *m;
	size_t i;

	for (i = 0; i < b->nr_maps; i++)
		if (mod == b->maps[i].mod ||
		    (mod && b->maps[i].mod && !strcmp(mod, b->maps[i].mod)))
			return &b->maps[i].msg;
	m = realloc(b->maps, (b->nr_maps + 1) * sizeof(*m));
	if (!m) {
		b->nomem = true;
		return NULL;
	}
	b->maps = m;
	m = &b->maps[b->nr_maps];
	perftools__profiles__mapping__init(&m->msg);
	m->mod = mod;
	m->msg.id = ++b->nr_maps;
	if (mod)
		snprintf(name, sizeof(name), "[%s]", mod);
	m->msg.filename = str_id(b, mod ? name : "[kernel.kallsyms]");
	m->msg.has_functions = true;
	m->msg.memory_start = ~0ULL;
	return &m->msg;
}

/* Widen @m to cover @addr; note what its frames hold. */
static void map_cover(PMapping *m, sm_u64 addr, const struct sym_frame *f,
		      int n)
{
	if (addr < m->memory_start)
		m->memory_start = addr;
	if (addr >= m->memory_limit)
		m->memory_limit = addr + 1;
	if (f[n - 1].file) {
		m->has_filenames = true;
		m->has_line_numbers = true;
	}
	if (n > 1)
		m->has_inline_frames = true;
}

/* Lines of a new location: @n frames, inlined ones first. */
static bool set_lines(struct pp_build *b, PLocation *loc,
		      const struct sym_frame *f, int n, sm_u64 addr)
{
	char hex[24];
	int i;

	loc->line = calloc(n, sizeof(*loc->line));
	if (!loc->line)
		return false;
	for (i = 0; i < n; i++) {
		PLine *l = malloc(sizeof(*l));

		if (!l)
			return false;
		perftools__profiles__line__init(l);
		loc->line[loc->n_line++] = l;
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)addr);
		l->function_id = func_id(b, f[i].name ? f[i].name : hex,
					 f[i].file);
		l->line = f[i].line > 0 ? f[i].line : 0;
	}
	return true;
}

/* A new location for the node @n: an address (n->a) or a marker (n->str). */
static bool make_loc(struct pp_build *b, struct pp_node *n)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	const struct ksym *k;
	PLocation *loc;
	PMapping *m;
	sm_u64 end;
	int nf;

	if (sm_array_reserve(&b->locs, &b->alloc_locs, b->nr_locs + 1,
			     sizeof(*b->locs), 64))
		return false;
	loc = calloc(1, sizeof(*loc));
	if (!loc)
		return false;
	perftools__profiles__location__init(loc);
	b->locs[b->nr_locs++] = loc;
	loc->id = n->id = b->nr_locs;
	if (n->str) {
		/*
		 * The tree keeps the name: the string table's copy, read after
		 * str_id() (which may move the table).
		 */
		int64_t id = str_id(b, n->str);

		n->str = b->strtab[id];
		f[0] = (struct sym_frame){ .name = n->str };
		return !b->nomem && set_lines(b, loc, f, 1, 0);
	}
	loc->address = n->a;
	nf = symbolize_addr(b->sz, n->a, true, f);
	k = kallsyms_find(b->sz->ks, n->a, &end);
	m = mapping_of(b, k ? k->mod : NULL);
	if (m) {
		loc->mapping_id = m->id;
		map_cover(m, n->a, f, nf);
	}
	return set_lines(b, loc, f, nf, n->a);
}

/* The location id of address @addr; 0 when out of memory (noted). */
static sm_u64 addr_loc(struct pp_build *b, sm_u64 addr)
{
	struct pp_node key = { .a = (int64_t)addr }, *n;

	n = intern(b, &b->locations, &key, cmp_pair, make_loc);
	if (!n) {
		b->nomem = true;
		return 0;
	}
	return n->id;
}

/*
 * The location id of a frame without address: a marker or a root frame,
 * named @name (its only function); 0 when out of memory (noted).
 */
static sm_u64 named_loc(struct pp_build *b, const char *name)
{
	struct pp_node key = { .str = name }, *n;

	n = intern(b, &b->named, &key, cmp_str, make_loc);
	if (!n) {
		b->nomem = true;
		return 0;
	}
	return n->id;
}

/* The number of ';'-separated frames in @root (NULL: none). */
static size_t nr_roots(const char *root)
{
	size_t n = root ? 1 : 0;

	for (; root && *root; root++)
		n += *root == ';';
	return n;
}

/* The location ids of @e's frames, then of its marker: how many. */
static size_t frame_locs(struct pp_build *b, const struct sset_entry *e,
			 uint64_t *ids)
{
	size_t i;

	for (i = 0; i < e->depth; i++)
		ids[i] = addr_loc(b, e->frames[i]);
	if (e->status != SSET_FRAMES)
		ids[i++] = named_loc(b, folded_marker(e->status));
	return i;
}

/* How many locations frame_locs() gives @e. */
static size_t nr_frame_locs(const struct sset_entry *e)
{
	return e->depth + (e->status != SSET_FRAMES);
}

/*
 * The location ids of stack @e, leaf first, made once per stack: its
 * frames, its marker, its root frames (sset_intern_root()) innermost
 * first, then with --wakers "--" and the waker's frames and marker the
 * same way (or FOLDED_NO_WAKER): a waker's frames are addresses as a
 * blocked stack's are; its comm is the sample's "waker" label.
 */
static bool stack_locs(struct pp_build *b, const struct sset_entry *e)
{
	size_t roots = nr_roots(e->root), n, k, i;
	char *copy, *rest, *part;
	uint64_t *ids;

	n = nr_frame_locs(e) + roots;
	if (e->blocked)
		n += 1 + (e->waker ? nr_frame_locs(e->waker) : 1);
	if (b->stack_locs[e->id])
		return true;
	ids = calloc(n ? n : 1, sizeof(*ids));
	copy = e->root ? strdup(e->root) : NULL;
	if (!ids || (e->root && !copy)) {
		free(ids);
		return false;
	}
	b->stack_locs[e->id] = ids;
	b->stack_depth[e->id] = n;
	k = frame_locs(b, e, ids) + roots;
	/* Root first in @copy, so from the last root's place down. */
	rest = copy;
	for (i = 0; i < roots && (part = strsep(&rest, ";")); i++)
		ids[k - 1 - i] = named_loc(b, part);
	free(copy);
	if (e->blocked) {
		ids[k++] = named_loc(b, "--");
		if (e->waker)
			frame_locs(b, e->waker, ids + k);
		else
			ids[k] = named_loc(b, FOLDED_NO_WAKER);
	}
	return !b->nomem;
}

/*
 * The labels of key @k of stack @e: its own, the comm of @e's waker
 * (--wakers), then its fields'.
 */
static size_t nr_labels(const struct pprof *pp, const struct pp_key *k,
			const struct sset_entry *e)
{
	return (k->pid < 0 ? 1 : PP_NR_LABELS) + (e->waker != NULL) +
	       (k->labels == PP_NO_LABELS ? 0 :
		pp_labels_count(&pp->labels, k->labels));
}

/* The labels of @k's fields into @lab (pprof_labels.h). */
static void field_labels(struct pp_build *b, const struct pprof *pp,
			 const struct pp_key *k, PLabel *lab)
{
	size_t i, n = pp_labels_count(&pp->labels, k->labels);
	struct pp_label l[n ? n : 1];

	pp_labels_get(&pp->labels, k->labels, l);
	for (i = 0; i < n; i++) {
		perftools__profiles__label__init(&lab[i]);
		lab[i].key = str_id(b, l[i].key);
		if (l[i].str) {
			lab[i].str = str_id(b, l[i].str);
			continue;
		}
		lab[i].num = l[i].num;
		if (l[i].unit)
			lab[i].num_unit = str_id(b, l[i].unit);
	}
}

/*
 * Fill sample @s from key @k of stack @e; labels into @lab (nr_labels() of
 * them).
 */
static bool make_sample(struct pp_build *b, const struct pprof *pp,
			const struct pp_key *k, const struct sset_entry *e,
			PSample *s, PLabel *lab)
{
	char buf[3][128];
	const char *val[PP_NR_LABELS];
	size_t i, own = k->pid < 0 ? 1 : PP_NR_LABELS;
	size_t n = nr_labels(pp, k, e);

	perftools__profiles__sample__init(s);
	s->location_id = b->stack_locs[k->stack_id];
	s->n_location_id = b->stack_depth[k->stack_id];
	s->n_value = pp->weight_type ? 2 : 1;
	s->value = calloc(s->n_value, sizeof(*s->value));
	s->label = calloc(n, sizeof(*s->label));
	if (!s->value || !s->label)
		return false;
	s->value[0] = (int64_t)k->count;
	if (pp->weight_type)
		s->value[1] = (int64_t)k->weight;
	/* "SYSTEM:NAME" */
	val[PP_L_EVENT] = tepstack_owner_name(b->sz->tep, (sm_u32)k->event_id,
					      buf[0], sizeof(buf[0]));
	val[PP_L_COMM] = tep_data_comm_from_pid(b->sz->tep, k->pid);
	snprintf(buf[1], sizeof(buf[1]), "%d", k->pid);
	val[PP_L_PID] = buf[1];
	snprintf(buf[2], sizeof(buf[2]), "%d", k->cpu);
	val[PP_L_CPU] = buf[2];
	for (i = 0; i < own; i++) {
		perftools__profiles__label__init(&lab[i]);
		lab[i].key = str_id(b, label_key[i]);
		lab[i].str = str_id(b, val[i]);
	}
	if (e->waker) {
		perftools__profiles__label__init(&lab[own]);
		lab[own].key = str_id(b, "waker");
		lab[own++].str = str_id(b, e->waker_comm);
	}
	if (n > own)
		field_labels(b, pp, k, &lab[own]);
	for (i = 0; i < n; i++)
		s->label[s->n_label++] = &lab[i];
	return !b->nomem;
}

/* Build @p's samples (arrays in @samples, @labels) from the merged keys. */
static bool make_samples(struct pp_build *b, const struct pprof *pp,
			 const struct stackset *set, PProfile *p,
			 PSample **samples, PLabel **labels)
{
	size_t i, total = 0, at = 0;

	for (i = 0; i < pp->nr; i++)
		total += nr_labels(pp, &pp->keys[i],
				   sset_entry_at(set, pp->keys[i].stack_id));
	*samples = calloc(pp->nr ? pp->nr : 1, sizeof(**samples));
	*labels = calloc(total ? total : 1, sizeof(**labels));
	p->sample = calloc(pp->nr ? pp->nr : 1, sizeof(*p->sample));
	if (!*samples || !*labels || !p->sample)
		return false;
	for (i = 0; i < pp->nr; i++) {
		const struct pp_key *k = &pp->keys[i];
		const struct sset_entry *e = sset_entry_at(set, k->stack_id);

		/* Listed first, so that its arrays are freed however it ends. */
		p->sample[p->n_sample++] = &(*samples)[i];
		if (!stack_locs(b, e) ||
		    !make_sample(b, pp, k, e, &(*samples)[i], &(*labels)[at]))
			return false;
		at += nr_labels(pp, k, e);
	}
	return true;
}

/* Pack @p and write it gzip-compressed to @path ("-": stdout). */
static int write_gz(const PProfile *p, const char *path, struct sm_err *err)
{
	size_t len = perftools__profiles__profile__get_packed_size(p);
	uint8_t *buf = malloc(len ? len : 1);
	gzFile gz;
	int fd, ok;

	if (!buf)
		return -ENOMEM;
	perftools__profiles__profile__pack(p, buf);
	fd = strcmp(path, "-") ? -1 : dup(STDOUT_FILENO);
	gz = fd >= 0 ? gzdopen(fd, "wb") : gzopen(path, "wb");
	if (!gz) {
		if (fd >= 0)
			close(fd);
		free(buf);
		sm_err_set(err, "%s: cannot open for writing: %s", path,
			   strerror(errno ? errno : ENOMEM));
		return -EIO;
	}
	ok = !len || gzwrite(gz, buf, len) == (int)len;
	ok = gzclose(gz) == Z_OK && ok;
	free(buf);
	if (!ok) {
		sm_err_set(err, "%s: cannot write the profile", path);
		return -EIO;
	}
	return 0;
}

static void free_node(void *n)
{
	free(n);
}

static void build_free(struct pp_build *b, size_t nr_stacks)
{
	size_t i, j;

	tdestroy(b->strings, free_node);
	tdestroy(b->functions, free_node);
	tdestroy(b->locations, free_node);
	tdestroy(b->named, free_node);
	for (i = 0; i < b->nr_str; i++)
		free(b->strtab[i]);
	free(b->strtab);
	for (i = 0; i < b->nr_funcs; i++)
		free(b->funcs[i]);
	free(b->funcs);
	for (i = 0; i < b->nr_locs; i++) {
		for (j = 0; j < b->locs[i]->n_line; j++)
			free(b->locs[i]->line[j]);
		free(b->locs[i]->line);
		free(b->locs[i]);
	}
	free(b->locs);
	free(b->maps);
	for (i = 0; i < nr_stacks; i++)
		free(b->stack_locs[i]);
	free(b->stack_locs);
	free(b->stack_depth);
}

/* The sample types, and the mappings' pointer array, into @p. */
static bool make_header(struct pp_build *b, const struct pprof *pp,
			PProfile *p, PValueType *vt, const char *mapping_name)
{
	size_t i;

	perftools__profiles__value_type__init(&vt[0]);
	vt[0].type = str_id(b, "events");
	vt[0].unit = str_id(b, "count");
	perftools__profiles__value_type__init(&vt[1]);
	vt[1].type = str_id(b, pp->weight_type ? pp->weight_type : "");
	vt[1].unit = str_id(b, pp->weight_unit ? pp->weight_unit : "");
	p->n_sample_type = pp->weight_type ? 2 : 1;
	p->sample_type = calloc(2, sizeof(*p->sample_type));
	p->mapping = calloc(b->nr_maps ? b->nr_maps : 1, sizeof(*p->mapping));
	if (!p->sample_type || !p->mapping)
		return false;
	p->sample_type[0] = &vt[0];
	p->sample_type[1] = &vt[1];
	for (i = 0; i < b->nr_maps; i++) {
		p->mapping[p->n_mapping++] = &b->maps[i].msg;
		if (!b->maps[i].mod && mapping_name)
			b->maps[i].msg.filename = str_id(b, mapping_name);
	}
	return !b->nomem;
}

int pprof_write(struct pprof *pp, const struct symbolizer *sz,
		const struct stackset *set, const char *path,
		const char *mapping_name, struct sm_err *err)
{
	size_t nr_stacks = sset_size(set);
	struct pp_build b = { .sz = sz };
	PProfile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	PSample *samples = NULL;
	PLabel *labels = NULL;
	PValueType vt[2];
	int ret = -ENOMEM;
	size_t i;

	merge_keys(pp);
	b.stack_locs = calloc(nr_stacks ? nr_stacks : 1, sizeof(*b.stack_locs));
	b.stack_depth = calloc(nr_stacks ? nr_stacks : 1, sizeof(*b.stack_depth));
	if (!b.stack_locs || !b.stack_depth)
		goto out;
	str_id(&b, "");
	if (!make_samples(&b, pp, set, &p, &samples, &labels) ||
	    !make_header(&b, pp, &p, vt, mapping_name))
		goto out;
	p.string_table = b.strtab;
	p.n_string_table = b.nr_str;
	p.function = b.funcs;
	p.n_function = b.nr_funcs;
	p.location = b.locs;
	p.n_location = b.nr_locs;
	p.duration_nanos = (int64_t)pp->duration_ns;
	ret = write_gz(&p, path, err);
out:
	if (ret == -ENOMEM)
		sm_err_set(err, "%s: out of memory", path);
	for (i = 0; i < p.n_sample; i++) {
		free(p.sample[i]->value);
		free(p.sample[i]->label);
	}
	free(p.sample);
	free(p.sample_type);
	free(p.mapping);
	free(samples);
	free(labels);
	build_free(&b, nr_stacks);
	return ret;
}

/* fgdecode report --pprof FILE: a sample per event, written at the end. */
struct pprof_output {
	const struct output_env *env;
	struct pprof *pp;
};

static int pprof_begin(void *state, struct output_env *env)
{
	struct pprof_output *p = state;
	bool weighted = sset_weighted(env->set);

	p->env = env;
	p->pp = pprof_new(weighted ? sset_weight_name(env->set) : NULL,
			  weighted ? sset_weight_unit(env->set) : NULL);
	return p->pp ? 0 : -ENOMEM;
}

static int pprof_event(void *state, const struct fg_event *ev)
{
	struct pprof_output *p = state;

	if (!ev->entry || ev->orphan)
		return 0;
	return pprof_add(p->pp, p->env->tep, ev->record, ev->entry,
			 ev->weight ? *ev->weight : 0);
}

/* --off-cpu counts at switch-in, not per event: its pairs, then write. */
static int pprof_end(void *state, const struct output_env *env,
		     sm_u64 span_ns)
{
	struct pprof_output *p = state;
	struct sm_err err;
	int ret = 0;

	if (env->analysis->off_cpu && pprof_add_pairs(p->pp, env->set))
		ret = -ENOMEM;
	if (!ret) {
		pprof_set_duration(p->pp, span_ns);
		ret = pprof_write(p->pp, env->sz, env->set, env->args->arg,
				  env->vmlinux, &err);
	}
	return output_failed(ret, env->args->arg, &err);
}

static void pprof_fini(void *state)
{
	pprof_free(((struct pprof_output *)state)->pp);
}

const struct output_ops pprof_output = {
	.option = "pprof",
	.arg = "FILE",
	.help = "  --pprof FILE    a gzip-compressed pprof profile (go tool pprof, Pyroscope,\n"
		"                  Parca) of the stacks, labelled by event, comm, pid, cpu\n"
		"                  and the event's fields; FILE - is standard output\n",
	.flags = OUTPUT_WEIGHS | OUTPUT_OFF_CPU | OUTPUT_WRITES_ARG |
		 OUTPUT_STACKS_ONLY,
	.size = sizeof(struct pprof_output),
	.begin = pprof_begin,
	.event = pprof_event,
	.end = pprof_end,
	.fini = pprof_fini,
};
