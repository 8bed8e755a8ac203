// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: the per-module symbol index and per-compile-unit scope index
 * behind dwsym.c's lookups (see dwindex.h).
 */
#include <dwarf.h>
#include <errno.h>
#include <elfutils/libdwfl.h>
#include <elfutils/version.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "dwindex.h"

/*
 * ---- the per-module index ----
 *
 * Built once per module on its first lookup; per compile unit, the scope
 * index is built on the first lookup that lands in the unit.  Both give
 * exactly what the straightforward calls give (dwfl_module_addrinfo(),
 * dwarf_getscopes() + dwarf_getscopes_die()); where an exact answer would
 * need the whole symbol table or the unit's tree again (a sizeless label,
 * an imported unit, a broken range list), the lookup takes the
 * straightforward call instead and counts it in dwsym_stats.
 */

#define SYM_COVER_MAX	64	/* sized symbols covering one address, at most */
#define CU_MIN		64

/* An eligible sized symbol of the table, [lo, end). */
struct symx {
	sm_u64 lo, end;
	sm_u64 pmax;		/* largest end over this entry and those before */
	sm_u64 size;
	const char *name;
	int ndx;		/* index in the table: libdwfl's scan order */
	int bind;		/* binding_value(): global 3, weak 2, local 1 */
};

/*
 * Where dwarf_getscopes() finds the abstract origin of an inlined instance
 * (it needs it when the instance is the innermost on the path).
 */
enum {
	ORIGIN_OK,	/* a child of the unit: found, scopes returned */
	ORIGIN_NONE,	/* unreadable (or, before elfutils 0.189, in another
			 * unit): no scope */
	ORIGIN_ASK,	/* deeper in the unit (or, since 0.189, in another
			 * unit): ask dwarf_getscopes() */
};

/*
 * An abstract origin in another unit (gcc -flto).  dwarf_getscopes() of
 * elfutils 0.188 (bookworm) and earlier looks for it in the unit of the
 * instance only and returns no scope; 0.189 and later (trixie's 0.192;
 * elfutils commit b7c7d877, "libdw: Search for abstract origin in the
 * correct CU") search the origin's unit, which this index does not hold,
 * so the lookup asks dwarf_getscopes() (counted in dwsym_stats'
 * naive_scopes).
 */
#if _ELFUTILS_PREREQ(0, 189)
#define ORIGIN_FOREIGN	ORIGIN_ASK
#else
#define ORIGIN_FOREIGN	ORIGIN_NONE
#endif

/* One range of a scope, grouped by parent and sorted by lo in a group. */
struct srange {
	Dwarf_Addr lo, hi;
	Dwarf_Addr pmax;	/* largest hi in the group up to here */
	int node;
	int parent;
};

int cmp_u64(const void *a, const void *b)
{
	sm_u64 x = *(const sm_u64 *)a, y = *(const sm_u64 *)b;

	return x < y ? -1 : x > y;
}

static sm_u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (sm_u64)ts.tv_sec * 1000000000ULL + (sm_u64)ts.tv_nsec;
}

/* qsort() that takes an empty, NULL array. */
static void sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* ---- symbols ---- */

static int binding_value(const GElf_Sym *sym)
{
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	case STB_LOCAL:
		return 1;
	default:
		return 0;
	}
}

/* What search_table() of libdwfl looks at, whatever the address. */
static bool eligible(const char *name, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return name && name[0] && sym->st_shndx != SHN_UNDEF &&
	       type != STT_SECTION && type != STT_FILE && type != STT_TLS;
}

static int cmp_symx(const void *a, const void *b)
{
	const struct symx *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->ndx - y->ndx;
}

static void finish_part(struct symtab_part *p)
{
	sm_u64 m = 0;
	size_t i;

	sort(p->s, p->nr, sizeof(*p->s), cmp_symx);
	for (i = 0; i < p->nr; i++) {
		m = p->s[i].end > m ? p->s[i].end : m;
		p->s[i].pmax = m;
	}
}

static int add_label(sm_u64 **v, size_t *nr, size_t *cap, sm_u64 value)
{
	if (sm_array_reserve(v, cap, *nr + 1, sizeof(**v), 16))
		return -ENOMEM;
	(*v)[(*nr)++] = value;
	return 0;
}

static int add_sym(struct modidx *mi, struct symtab_part *p, size_t *cap,
		   size_t *cap_labels, int ndx, const char *name,
		   const GElf_Sym *sym, GElf_Addr value, bool global)
{
	struct symx *x;

	if (!sym->st_size)
		return global ?
		       add_label(&mi->labels, &mi->nr_labels, &cap_labels[0],
				 value) :
		       add_label(&mi->loc_labels, &mi->nr_loc_labels,
				 &cap_labels[1], value);
	/* libdwfl's min_label would wrap: leave such a table to it. */
	if (value + sym->st_size < value)
		mi->sym_naive = true;
	if (sm_array_reserve(&p->s, cap, p->nr + 1, sizeof(*p->s), 16))
		return -ENOMEM;
	x = &p->s[p->nr++];
	x->lo = value;
	x->size = sym->st_size;
	x->end = value + sym->st_size < value ? ~0ULL : value + sym->st_size;
	x->name = name;
	x->ndx = ndx;
	x->bind = binding_value(sym);
	return 0;
}

/*
 * Read the module's symbol table into @mi: the sized symbols of the global
 * and local scans, and the sizeless global ones.  Return: 0, -ENOMEM.
 * A table the index cannot mirror sets mi->sym_naive.
 */
static int index_symbols(struct modidx *mi)
{
	size_t cap_g = 0, cap_l = 0, cap_labels[2] = { 0, 0 };
	int n, first, start, i;
	GElf_Addr value;
	GElf_Word shndx;
	GElf_Sym sym;
	Elf *elf;
	const char *name;
	GElf_Addr bias;
	GElf_Ehdr eh;

	n = dwfl_module_getsymtab(mi->mod);
	first = dwfl_module_getsymtab_first_global(mi->mod);
	elf = dwfl_module_getelf(mi->mod, &bias);
	/* ppc64 function descriptors: libdwfl tries two values per symbol. */
	if (n < 0 || first < 0 || !elf || !gelf_getehdr(elf, &eh) ||
	    eh.e_machine == EM_PPC64) {
		mi->sym_naive = true;
		return 0;
	}
	start = first == 0 ? 1 : first;
	for (i = 1; i < n; i++) {
		bool global = i >= start;

		if (!global && first <= 1)
			continue;	/* libdwfl never scans these */
		name = dwfl_module_getsym_info(mi->mod, i, &sym, &value,
					       &shndx, &elf, NULL);
		if (!eligible(name, &sym))
			continue;
		if (add_sym(mi, global ? &mi->glob : &mi->loc,
			    global ? &cap_g : &cap_l, cap_labels, i, name,
			    &sym, value, global))
			return -ENOMEM;
	}
	finish_part(&mi->glob);
	finish_part(&mi->loc);
	sort(mi->labels, mi->nr_labels, sizeof(*mi->labels), cmp_u64);
	sort(mi->loc_labels, mi->nr_loc_labels, sizeof(*mi->loc_labels),
	     cmp_u64);
	return 0;
}

int build_symbols(struct dwsym_stats *st, struct modidx *mi)
{
	sm_u64 t0 = now_ns();
	int ret = index_symbols(mi);

	st->build_ns += now_ns() - t0;
	return ret;
}

/* Index of the last entry of @p with lo <= @addr, or -1. */
static long last_at_or_below(const struct symtab_part *p, sm_u64 addr)
{
	size_t lo = 0, hi = p->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->s[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/*
 * The sized symbol libdwfl's scan of @p picks for @addr, replaying its
 * rules (try_sym_value()) over the symbols covering @addr in table order.
 * Return: the winner, or NULL when none covers @addr or when more than
 * SYM_COVER_MAX do (then *@overflow is set: ask libdwfl).
 */
static const struct symx *scan_part(const struct symtab_part *p,
				    sm_u64 addr, bool *overflow)
{
	const struct symx *cover[SYM_COVER_MAX], *c = NULL, *t;
	long i = last_at_or_below(p, addr);
	int n = 0, j, k;

	for (; i >= 0 && p->s[i].pmax > addr; i--) {
		if (p->s[i].end <= addr)
			continue;
		if (n == SYM_COVER_MAX) {
			*overflow = true;
			return NULL;
		}
		cover[n++] = &p->s[i];
	}
	/* Table order: insertion sort on ndx (n is tiny). */
	for (j = 1; j < n; j++)
		for (k = j; k > 0 && cover[k - 1]->ndx > cover[k]->ndx; k--) {
			t = cover[k];
			cover[k] = cover[k - 1];
			cover[k - 1] = t;
		}
	for (j = 0; j < n; j++) {
		t = cover[j];
		if (!c || c->lo < t->lo || c->bind < t->bind)
			c = t;
		else if (c->lo == t->lo &&
			 ((c->size > t->size && c->bind <= t->bind) ||
			  (c->size >= t->size && c->bind < t->bind)))
			c = t;
	}
	return c;
}

static bool has_label(const struct modidx *mi, sm_u64 addr)
{
	return mi->nr_labels &&
	       bsearch(&addr, mi->labels, mi->nr_labels, sizeof(*mi->labels),
		       cmp_u64) != NULL;
}

/* Largest of @v[@nr] (sorted) at or below @addr; false when none. */
static bool label_below(const sm_u64 *v, size_t nr, sm_u64 addr,
			sm_u64 *out)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	*out = v[lo - 1];
	return true;
}

/* Largest end of a sized symbol of @p starting at or below @addr, or 0. */
static sm_u64 end_below(const struct symtab_part *p, sm_u64 addr)
{
	long i = last_at_or_below(p, addr);

	return i < 0 ? 0 : p->s[i].pmax;
}

/*
 * No sized symbol covers @addr and both tables were scanned: can a sizeless
 * symbol still win?  libdwfl takes one only at or above min_label, the
 * largest end (value + size) of every symbol at or below @addr; a sizeless
 * label ends where it starts, so only the largest such label can, and only
 * when no sized symbol ends after it.
 */
static bool label_may_win(const struct modidx *mi, sm_u64 addr)
{
	sm_u64 g = 0, l = 0, end;
	bool has_g, has_l;

	has_g = label_below(mi->labels, mi->nr_labels, addr, &g);
	has_l = label_below(mi->loc_labels, mi->nr_loc_labels, addr, &l);
	if (!has_g && !has_l)
		return false;
	end = end_below(&mi->glob, addr);
	if (end_below(&mi->loc, addr) > end)
		end = end_below(&mi->loc, addr);
	return (g > l ? g : l) >= end;
}

/*
 * dwfl_module_addrinfo() from the index.  Return: true with *@name and
 * *@value set (*@name NULL: no symbol), false when only the
 * straightforward call can tell (a sizeless symbol may win).
 */
bool index_addrinfo(const struct modidx *mi, sm_u64 addr,
		    const char **name, sm_u64 *value)
{
	const struct symx *c;
	bool overflow = false;

	if (mi->sym_naive)
		return false;
	c = scan_part(&mi->glob, addr, &overflow);
	/* Locals are scanned unless a global sizeless label is at @addr. */
	if (!c && !overflow && has_label(mi, addr))
		return false;
	if (!c && !overflow)
		c = scan_part(&mi->loc, addr, &overflow);
	if (overflow || (!c && label_may_win(mi, addr)))
		return false;
	*name = c ? c->name : NULL;
	*value = c ? c->lo : 0;
	return true;
}

/* ---- scopes ---- */

/* The tags __libdw_visit_scopes() descends into. */
static bool may_have_scopes(int tag)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_with_stmt:
	case DW_TAG_catch_block:
	case DW_TAG_try_block:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
		return true;
	default:
		return false;
	}
}

static int add_node(struct cuidx *cx, Dwarf_Die *die, int parent, int tag)
{
	struct scope *s;

	if (sm_array_reserve(&cx->nodes, &cx->cap, cx->nr + 1,
			     sizeof(*cx->nodes), 16))
		return -ENOMEM;
	s = &cx->nodes[cx->nr];
	memset(s, 0, sizeof(*s));
	s->die = *die;
	s->parent = parent;
	s->tag = tag;
	return (int)cx->nr++;
}

static int add_range(struct cuidx *cx, Dwarf_Addr lo, Dwarf_Addr hi,
		     int node, int parent)
{
	struct srange *r;

	if (sm_array_reserve(&cx->r, &cx->cap_r, cx->nr_r + 1,
			     sizeof(*cx->r), 16))
		return -ENOMEM;
	r = &cx->r[cx->nr_r++];
	r->lo = lo;
	r->hi = hi;
	r->node = node;
	r->parent = parent;
	return 0;
}

/*
 * Record @die if it has PC ranges (what dwarf_haspc() would match).
 * Return: its node, -1 without ranges (not an error); -EINVAL on an error
 * that dwarf_haspc() would not ignore, -ENOMEM (either leaves the unit to
 * dwarf_getscopes()).
 */
static int scope_ranges(struct cuidx *cx, Dwarf_Die *die, int parent,
			int tag)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int node = -1;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (node < 0 && (node = add_node(cx, die, parent, tag)) < 0)
			return node;
		if (lo < hi && add_range(cx, lo, hi, node, parent))
			return -ENOMEM;
	}
	if (off < 0) {
		dwarf_errno();
		/* Without DW_AT_ranges this is a missing range section,
		 * which dwarf_haspc() treats as "not here". */
		if (dwarf_hasattr(die, DW_AT_ranges))
			return -EINVAL;
	}
	return node;
}

/*
 * Index the children of @parent_die that dwarf_getscopes() may descend
 * into: those with PC ranges, recursively through the tags
 * __libdw_visit_scopes() enters.  A child without DW_AT_low_pc or
 * DW_AT_ranges has no range (dwarf_ranges() would say so), and its subtree
 * is never on a PC path.  The unit's own children are remembered: that is
 * where abstract origins are found.
 * Return: 0; when the unit cannot be indexed, -EINVAL for a DWARF error,
 * -ENOTSUP for an imported unit, -ENOMEM.
 */
static int walk_scopes(struct cuidx *cx, Dwarf_Die *parent_die, int parent)
{
	Dwarf_Die child;
	int r, tag, node, ret;

	r = dwarf_child(parent_die, &child);
	if (r)
		return r < 0 ? -EINVAL : 0;
	do {
		tag = dwarf_tag(&child);
		if (tag == DW_TAG_imported_unit)
			return -ENOTSUP;
		if (!parent) {
			if (sm_array_reserve(&cx->seen, &cx->cap_seen,
					     cx->nr_seen + 1, sizeof(*cx->seen),
					     16))
				return -ENOMEM;
			cx->seen[cx->nr_seen++] = child.addr;
		}
		if (!dwarf_hasattr(&child, DW_AT_low_pc) &&
		    !dwarf_hasattr(&child, DW_AT_ranges))
			continue;
		node = scope_ranges(cx, &child, parent, tag);
		if (node < -1)
			return node;
		if (node > 0 && may_have_scopes(tag) &&
		    dwarf_haschildren(&child) > 0 &&
		    (ret = walk_scopes(cx, &child, node)))
			return ret;
	} while ((r = dwarf_siblingof(&child, &child)) == 0);
	return r < 0 ? -EINVAL : 0;
}

static int cmp_ptr(const void *a, const void *b)
{
	const char *x = *(const void *const *)a, *y = *(const void *const *)b;

	return x < y ? -1 : x > y;
}

static int cmp_srange(const void *a, const void *b)
{
	const struct srange *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent - y->parent;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->node - y->node;
}

/* Group the ranges by parent, with running maxima; resolve origins. */
static void finish_cu(struct cuidx *cx)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin;
	size_t i;

	sort(cx->r, cx->nr_r, sizeof(*cx->r), cmp_srange);
	for (i = 0; i < cx->nr_r; i++) {
		struct srange *r = &cx->r[i];
		struct scope *p = &cx->nodes[r->parent];

		if (!p->nkid || r[-1].parent != r->parent) {
			p->kid = i;
			r->pmax = r->hi;
		} else {
			r->pmax = r->hi > r[-1].pmax ? r->hi : r[-1].pmax;
		}
		p->nkid++;
	}
	sort(cx->seen, cx->nr_seen, sizeof(*cx->seen), cmp_ptr);
	for (i = 1; i < cx->nr; i++) {
		struct scope *s = &cx->nodes[i];

		if (s->tag != DW_TAG_inlined_subroutine)
			continue;
		if (!dwarf_formref_die(dwarf_attr(&s->die, DW_AT_abstract_origin,
						  &attr), &origin))
			s->origin = ORIGIN_NONE;
		else if ((const void *)origin.cu != cx->cu)
			s->origin = ORIGIN_FOREIGN;
		else if (cx->nr_seen &&
			 bsearch(&origin.addr, cx->seen, cx->nr_seen,
				 sizeof(*cx->seen), cmp_ptr))
			s->origin = ORIGIN_OK;
		else
			s->origin = ORIGIN_ASK;
	}
	free(cx->seen);
	cx->seen = NULL;
}

/* Index the unit @cu; a unit that cannot be indexed gets cx->naive. */
static struct cuidx *build_cu(Dwarf_Die *cu)
{
	struct cuidx *cx = calloc(1, sizeof(*cx));
	Dwarf_Half version;
	uint8_t unit_type = 0;

	if (!cx)
		return NULL;
	cx->key = cu->addr;
	cx->cu = cu->cu;
	if (dwarf_cu_info(cu->cu, &version, &unit_type, NULL, NULL, NULL,
			  NULL, NULL) ||
	    (unit_type != DW_UT_compile && unit_type != DW_UT_partial) ||
	    add_node(cx, cu, 0, dwarf_tag(cu)) < 0 ||
	    walk_scopes(cx, cu, 0)) {
		cx->naive = true;
		free(cx->seen);
		cx->seen = NULL;
		return cx;
	}
	finish_cu(cx);
	return cx;
}

static void free_cu(struct cuidx *cx)
{
	if (!cx)
		return;
	free(cx->nodes);
	free(cx->r);
	free(cx->seen);
	free(cx);
}

/*
 * The child of node @parent that dwarf_getscopes() descends into for @pc:
 * the first in DIE order whose ranges hold @pc.  Return: its node, or 0.
 */
static int first_kid_at(const struct cuidx *cx, int parent, Dwarf_Addr pc)
{
	const struct scope *p = &cx->nodes[parent];
	const struct srange *g = cx->r + p->kid;
	size_t lo = 0, hi = p->nkid;
	long i;
	int best = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = (long)lo - 1; i >= 0 && g[i].pmax > pc; i--)
		if (g[i].hi > pc && (!best || g[i].node < best))
			best = g[i].node;
	return best;
}

/*
 * The innermost scope of @pc, as scopes[0] of dwarf_getscopes().  Return:
 * its node, 0 when dwarf_getscopes() would return no scope (none holds
 * @pc, or the innermost inlined instance's abstract origin is unreadable,
 * or in another unit before elfutils 0.189: ORIGIN_FOREIGN), -1 when only
 * dwarf_getscopes() can tell (the origin is deeper in the unit, or in
 * another unit since 0.189).
 */
int innermost(const struct cuidx *cx, Dwarf_Addr pc)
{
	int cur = 0, next, i;

	while ((next = first_kid_at(cx, cur, pc)))
		cur = next;
	for (i = cur; i; i = cx->nodes[i].parent)
		if (cx->nodes[i].tag == DW_TAG_inlined_subroutine)
			return cx->nodes[i].origin == ORIGIN_OK ? cur :
			       cx->nodes[i].origin == ORIGIN_NONE ? 0 : -1;
	return cur;
}

/* A bucket of a module's unit indexes: keyed by the unit's DIE address. */
struct cu_slot {
	sm_u64 key;
	struct cuidx *cx;
};

static int cu_insert(struct modidx *mi, struct cuidx *cx)
{
	struct cu_slot *slot;

	if (!mi->cus.buckets &&
	    sm_hashtab_init(&mi->cus, sizeof(*slot), CU_MIN))
		return -ENOMEM;
	if (sm_hashtab_reserve(&mi->cus))
		return -ENOMEM;
	slot = sm_hashtab_add(&mi->cus, (sm_u64)(uintptr_t)cx->key);
	slot->cx = cx;
	return 0;
}

/* The scope index of unit @cu, built on first use; NULL: out of memory. */
struct cuidx *cu_index(struct dwsym_stats *st, struct modidx *mi,
		       Dwarf_Die *cu)
{
	struct cu_slot *slot;
	struct cuidx *cx;
	sm_u64 t0;

	if (mi->cus.buckets) {
		slot = sm_hashtab_find(&mi->cus, (sm_u64)(uintptr_t)cu->addr);
		if (slot)
			return slot->cx;
	}
	t0 = now_ns();
	cx = build_cu(cu);
	if (cx && cu_insert(mi, cx)) {
		free_cu(cx);
		cx = NULL;
	}
	st->build_ns += now_ns() - t0;
	if (cx && !cx->naive) {
		st->units++;
		st->scopes += cx->nr - 1;
	}
	return cx;
}

void free_modidx(struct modidx *mi)
{
	size_t i;

	if (!mi)
		return;
	for (i = 0; i < mi->cus.cap; i++) {
		struct cu_slot *slot = sm_hashtab_at(&mi->cus, i);

		if (slot)
			free_cu(slot->cx);
	}
	sm_hashtab_fini(&mi->cus);
	free(mi->glob.s);
	free(mi->loc.s);
	free(mi->labels);
	free(mi->loc_labels);
	free(mi);
}
