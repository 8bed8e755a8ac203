// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode, stage 3 with --vmlinux: DWARF symbolization (see dwsym.h).
 *
 * The libdwfl recipe is the one in elfutils src/addr2line.c: a module per
 * file, dwfl_module_addrinfo() for the symbol, dwfl_module_getsrc() for the
 * line, and dwarf_getscopes() + dwarf_getscopes_die() for the inline chain,
 * each DW_TAG_inlined_subroutine moving the location to its call site.
 * Both lookups that libdw does by scanning (the symbol table, the unit's
 * DIE tree) go through an index built once per module and unit instead
 * (see "the per-module index" below); dwsym_set_naive() turns it off.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dwmod.h"
#include "dwsym.h"

#define CACHE_MIN	1024
#define MAX_CHAIN	32

struct cache_slot {
	sm_u64 key;		/* address << 1 | is_return; 0: empty */
	struct dw_loc *loc;
};

/* What find_elf and section_address find in a module's user data. */
struct dwfile {
	const char *path;
	const struct dwmod *mod;	/* NULL for the vmlinux */
};

struct modidx;

struct dwsym {
	char *path;
	Dwfl *dwfl;
	sm_u64 bias;
	struct dwfile kernel;
	struct dwmod *mods;
	size_t nr_mods;
	struct dwfile *mod_files;	/* [nr_mods] */
	struct cache_slot *cache;
	size_t cache_cap, cache_nr;
	bool naive;			/* straightforward libdw calls only */
	struct modidx **idx;		/* [nr_idx], built on first use */
	size_t nr_idx;
	struct modidx *last;		/* the one used last */
	struct dwsym_stats stats;
};

/* ---- placing the vmlinux ---- */

/* An ELF function symbol: name and link address; dup when not unique. */
struct esym {
	const char *name;
	sm_u64 value;
	bool dup;
};

struct elf_info {
	struct esym *syms;
	size_t nr;
	sm_u64 low, high;		/* load range at link address */
	sm_u64 text, stext;		/* 0 when absent */
};

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int cmp_esym(const void *a, const void *b)
{
	return strcmp(((const struct esym *)a)->name,
		      ((const struct esym *)b)->name);
}

/* Load range: from the first PT_LOAD to the end of the last above it. */
static int load_range(Elf *elf, struct elf_info *ei)
{
	size_t n, i;
	GElf_Phdr ph;
	bool first = true;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first) {
			ei->low = ph.p_vaddr;
			first = false;
		}
		if (ph.p_vaddr >= ei->low && ph.p_vaddr + ph.p_memsz > ei->high)
			ei->high = ph.p_vaddr + ph.p_memsz;
	}
	return first ? -1 : 0;
}

static void note_symbol(struct elf_info *ei, const char *name,
			const GElf_Sym *sym)
{
	if (!strcmp(name, "_text"))
		ei->text = sym->st_value;
	else if (!strcmp(name, "_stext"))
		ei->stext = sym->st_value;
	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_value)
		return;
	ei->syms[ei->nr].name = name;
	ei->syms[ei->nr].value = sym->st_value;
	ei->syms[ei->nr].dup = false;
	ei->nr++;
}

/* Collect the function symbols of .symtab, sorted by name, dups marked. */
static int read_symtab(Elf *elf, struct elf_info *ei)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *data;
	GElf_Sym sym;
	size_t i, n;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
		return -1;
	n = sh.sh_size / sh.sh_entsize;
	ei->syms = calloc(n ? n : 1, sizeof(*ei->syms));
	if (!ei->syms)
		return -1;
	for (i = 0; i < n; i++) {
		const char *name;

		if (!gelf_getsym(data, i, &sym))
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name && *name)
			note_symbol(ei, name, &sym);
	}
	qsort(ei->syms, ei->nr, sizeof(*ei->syms), cmp_esym);
	for (i = 1; i < ei->nr; i++)
		if (!strcmp(ei->syms[i].name, ei->syms[i - 1].name))
			ei->syms[i].dup = ei->syms[i - 1].dup = true;
	return 0;
}

static const struct esym *find_esym(const struct elf_info *ei,
				    const char *name)
{
	struct esym key = { .name = name };

	return bsearch(&key, ei->syms, ei->nr, sizeof(*ei->syms), cmp_esym);
}

static int cmp_u64(const void *a, const void *b)
{
	sm_u64 x = *(const sm_u64 *)a, y = *(const sm_u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Does recorded symbol @k vote?  Only vmlinux symbols (no module) with an
 * address; a name unique in the ELF that kallsyms lists twice votes twice,
 * and the wrong vote loses the majority.
 */
static bool votes(const struct ksym *k)
{
	return !k->mod && k->addr;
}

/* Majority of (recorded address - st_value); @agree/@matched counts. */
static int vote_bias(const struct kallsyms *ks, const struct elf_info *ei,
		     sm_u64 *bias, size_t *agree, size_t *matched)
{
	sm_u64 *cand = malloc((ks->nr ? ks->nr : 1) * sizeof(*cand));
	size_t i, n = 0, run = 0, best = 0;

	if (!cand)
		return -1;
	for (i = 0; i < ks->nr; i++) {
		const struct esym *e;

		if (!votes(&ks->syms[i]))
			continue;
		e = find_esym(ei, ks->syms[i].name);
		if (e && !e->dup)
			cand[n++] = ks->syms[i].addr - e->value;
	}
	qsort(cand, n, sizeof(*cand), cmp_u64);
	for (i = 0; i < n; i++) {
		run = i && cand[i] == cand[i - 1] ? run + 1 : 1;
		if (run > best) {
			best = run;
			*bias = cand[i];
		}
	}
	free(cand);
	*agree = best;
	*matched = n;
	return 0;
}

/* The recorded address of @name among vmlinux symbols, 0 when absent. */
static sm_u64 recorded(const struct kallsyms *ks, const char *name)
{
	size_t i;

	for (i = 0; i < ks->nr; i++)
		if (!ks->syms[i].mod && !strcmp(ks->syms[i].name, name))
			return ks->syms[i].addr;
	return 0;
}

/* Check _text / _stext against @bias; -1 with @err set on a mismatch. */
static int check_anchor(const struct kallsyms *ks, const char *name,
			sm_u64 link, sm_u64 bias, const char *path,
			char *err, size_t len)
{
	sm_u64 rt;

	if (!link)
		return 0;
	rt = recorded(ks, name);
	if (!rt || rt - link == bias)
		return 0;
	return fail(err, len,
		    "%s: does not match the recorded kernel: %s is at 0x%llx, its symbols say 0x%llx",
		    path, name, (unsigned long long)rt,
		    (unsigned long long)(link + bias));
}

/* Find the bias of @path's ELF against the recording, or refuse it. */
static int place(const struct kallsyms *ks, Elf *elf, const char *path,
		 struct elf_info *ei, sm_u64 *bias, char *err, size_t len)
{
	size_t agree = 0, matched = 0;

	if (load_range(elf, ei) || read_symtab(elf, ei))
		return fail(err, len, "%s: no program headers or no symbol table",
			    path);
	if (vote_bias(ks, ei, bias, &agree, &matched))
		return fail(err, len, "%s", strerror(ENOMEM));
	if (!matched || agree * 2 <= matched)
		return fail(err, len,
			    "%s: does not match the recorded kernel: only %zu of %zu functions at one offset",
			    path, agree, matched);
	if (check_anchor(ks, "_text", ei->text, *bias, path, err, len) ||
	    check_anchor(ks, "_stext", ei->stext, *bias, path, err, len))
		return -1;
	return 0;
}

/* ---- libdwfl ---- */

static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	const struct dwfile *f = *userdata;
	int fd;

	(void)mod;
	(void)modname;
	(void)base;
	fd = open(f->path, O_RDONLY);
	if (fd >= 0) {
		*file_name = strdup(f->path);
		*elfp = NULL;
	}
	return fd;
}

/* A module's section: where dwmod_find() placed it, -1 when unknown. */
static int section_address(Dwfl_Module *mod, void **userdata,
			   const char *modname, Dwarf_Addr base,
			   const char *secname, GElf_Word shndx,
			   const GElf_Shdr *shdr, Dwarf_Addr *addr)
{
	const struct dwfile *f = *userdata;

	(void)mod;
	(void)modname;
	(void)base;
	(void)secname;
	(void)shdr;
	*addr = (Dwarf_Addr)-1;
	if (f->mod && shndx < f->mod->nr_sections &&
	    f->mod->base[shndx] != DWMOD_UNPLACED)
		*addr = f->mod->base[shndx];
	return 0;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod;
	(void)userdata;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	(void)debuginfo_file_name;
	return -1;		/* the DWARF is in the file itself, or absent */
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = section_address,
};

/* Report one file over [low, high); its user data is @f. */
static int report_one(Dwfl *dwfl, const char *name, sm_u64 low, sm_u64 high,
		      struct dwfile *f)
{
	Dwfl_Module *mod;
	void **slot;

	mod = dwfl_report_module(dwfl, name, low, high);
	if (!mod)
		return -1;
	/* find_elf and section_address find @f in the module's user data. */
	dwfl_module_info(mod, &slot, NULL, NULL, NULL, NULL, NULL, NULL);
	*slot = f;
	return 0;
}

static int report(struct dwsym *d, const struct elf_info *ei, char *err,
		  size_t len)
{
	size_t i;
	int ret = 0;

	d->dwfl = dwfl_begin(&callbacks);
	if (!d->dwfl)
		return fail(err, len, "libdwfl: %s", dwfl_errmsg(-1));
	dwfl_report_begin(d->dwfl);
	if (d->path) {
		d->kernel.path = d->path;
		ret = report_one(d->dwfl, "kernel", ei->low + d->bias,
				 ei->high + d->bias, &d->kernel);
	}
	for (i = 0; !ret && i < d->nr_mods; i++) {
		d->mod_files[i].path = d->mods[i].path;
		d->mod_files[i].mod = &d->mods[i];
		ret = report_one(d->dwfl, d->mods[i].name, d->mods[i].low,
				 d->mods[i].high, &d->mod_files[i]);
	}
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (ret)
		return fail(err, len, "libdwfl: %s", dwfl_errmsg(-1));
	return 0;
}

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

/* The sized symbols of one scan of libdwfl (globals or locals), by lo. */
struct symtab_part {
	struct symx *s;
	size_t nr;
};

/*
 * Where dwarf_getscopes() finds the abstract origin of an inlined instance
 * (it needs it when the instance is the innermost on the path).
 */
enum {
	ORIGIN_OK,	/* a child of the unit: found, scopes returned */
	ORIGIN_NONE,	/* in another unit, or unreadable: no scope */
	ORIGIN_ASK,	/* deeper in the unit: ask dwarf_getscopes() */
};

/* One DIE of a unit that has PC ranges, on the path dwarf_getscopes walks. */
struct scope {
	Dwarf_Die die;
	int parent;		/* index in cuidx.nodes; 0 is the unit */
	int tag;
	int origin;		/* inlined: ORIGIN_* */
	bool memo;		/* @name, @call_* read (on first use) */
	const char *name;	/* dwarf_diename() */
	const char *call_file;	/* inlined: its call site */
	int call_line;
	unsigned int kid, nkid;	/* its children's ranges: cuidx.r[kid..] */
};

/* One range of a scope, grouped by parent and sorted by lo in a group. */
struct srange {
	Dwarf_Addr lo, hi;
	Dwarf_Addr pmax;	/* largest hi in the group up to here */
	int node;
	int parent;
};

/* The scope index of one compile unit. */
struct cuidx {
	const void *key;	/* Dwarf_Die.addr of the unit's DIE */
	const void *cu;		/* its Dwarf_Die.cu */
	bool naive;		/* not indexable: use dwarf_getscopes */
	struct scope *nodes;	/* [nr]; [0] is the unit */
	size_t nr, cap;
	struct srange *r;	/* [nr_r] */
	size_t nr_r, cap_r;
	const void **seen;	/* while building: the unit's children */
	size_t nr_seen, cap_seen;
};

struct modidx {
	Dwfl_Module *mod;
	bool sym_naive;		/* symbol index unusable: addrinfo always */
	struct symtab_part glob, loc;
	sm_u64 *labels;		/* values of sizeless global symbols, sorted */
	size_t nr_labels;
	sm_u64 *loc_labels;	/* values of sizeless local symbols, sorted */
	size_t nr_loc_labels;
	struct cuidx **cus;	/* open addressing on key, [cu_cap] */
	size_t nr_cus, cu_cap;
};

static sm_u64 hash_key(sm_u64 key)
{
	key *= 0x9e3779b97f4a7c15ULL;
	return key ^ (key >> 29);
}

static sm_u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (sm_u64)ts.tv_sec * 1000000000ULL + (sm_u64)ts.tv_nsec;
}

/* Grow *@p (of @size-byte elements) so that @need fit; 0 or -1. */
static int grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*(void **)p, n * size);
	if (!q)
		return -1;
	*(void **)p = q;
	*cap = n;
	return 0;
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
	if (grow(v, cap, *nr + 1, sizeof(**v)))
		return -1;
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
	if (grow(&p->s, cap, p->nr + 1, sizeof(*p->s)))
		return -1;
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
 * and local scans, and the sizeless global ones.  Return: 0, -1 when out of
 * memory.  A table the index cannot mirror sets mi->sym_naive.
 */
static int build_symbols(struct modidx *mi)
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
			return -1;
	}
	finish_part(&mi->glob);
	finish_part(&mi->loc);
	sort(mi->labels, mi->nr_labels, sizeof(*mi->labels), cmp_u64);
	sort(mi->loc_labels, mi->nr_loc_labels, sizeof(*mi->loc_labels),
	     cmp_u64);
	return 0;
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
static bool index_addrinfo(const struct modidx *mi, sm_u64 addr,
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

	if (grow(&cx->nodes, &cx->cap, cx->nr + 1, sizeof(*cx->nodes)))
		return -1;
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

	if (grow(&cx->r, &cx->cap_r, cx->nr_r + 1, sizeof(*cx->r)))
		return -1;
	r = &cx->r[cx->nr_r++];
	r->lo = lo;
	r->hi = hi;
	r->node = node;
	r->parent = parent;
	return 0;
}

/*
 * Record @die if it has PC ranges (what dwarf_haspc() would match).
 * Return: its node, -1 without ranges, -2 on an error that dwarf_haspc()
 * would not ignore (the unit is then left to dwarf_getscopes()).
 */
static int scope_ranges(struct cuidx *cx, Dwarf_Die *die, int parent,
			int tag)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int node = -1;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (node < 0 && (node = add_node(cx, die, parent, tag)) < 0)
			return -2;
		if (lo < hi && add_range(cx, lo, hi, node, parent))
			return -2;
	}
	if (off < 0) {
		dwarf_errno();
		/* Without DW_AT_ranges this is a missing range section,
		 * which dwarf_haspc() treats as "not here". */
		if (dwarf_hasattr(die, DW_AT_ranges))
			return -2;
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
 * Return: 0, or -1 when the unit cannot be indexed.
 */
static int walk_scopes(struct cuidx *cx, Dwarf_Die *parent_die, int parent)
{
	Dwarf_Die child;
	int r, tag, node;

	r = dwarf_child(parent_die, &child);
	if (r)
		return r < 0 ? -1 : 0;
	do {
		tag = dwarf_tag(&child);
		if (tag == DW_TAG_imported_unit)
			return -1;
		if (!parent) {
			if (grow(&cx->seen, &cx->cap_seen, cx->nr_seen + 1,
				 sizeof(*cx->seen)))
				return -1;
			cx->seen[cx->nr_seen++] = child.addr;
		}
		if (!dwarf_hasattr(&child, DW_AT_low_pc) &&
		    !dwarf_hasattr(&child, DW_AT_ranges))
			continue;
		node = scope_ranges(cx, &child, parent, tag);
		if (node == -2)
			return -1;
		if (node > 0 && may_have_scopes(tag) &&
		    dwarf_haschildren(&child) > 0 &&
		    walk_scopes(cx, &child, node))
			return -1;
	} while ((r = dwarf_siblingof(&child, &child)) == 0);
	return r < 0 ? -1 : 0;
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
						  &attr), &origin) ||
		    (const void *)origin.cu != cx->cu)
			s->origin = ORIGIN_NONE;
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
 * @pc, or the innermost inlined instance's abstract origin is in another
 * unit, as with LTO), -1 when only dwarf_getscopes() can tell (the origin
 * is deeper in the unit).
 */
static int innermost(const struct cuidx *cx, Dwarf_Addr pc)
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

static size_t ptr_hash(const void *p)
{
	return (size_t)hash_key((sm_u64)(uintptr_t)p);
}

static int cu_insert(struct modidx *mi, struct cuidx *cx)
{
	size_t i, cap;

	if ((mi->nr_cus + 1) * 2 > mi->cu_cap) {
		struct cuidx **old = mi->cus;
		size_t old_cap = mi->cu_cap;

		cap = old_cap ? old_cap * 2 : CU_MIN;
		mi->cus = calloc(cap, sizeof(*mi->cus));
		if (!mi->cus) {
			mi->cus = old;
			return -1;
		}
		mi->cu_cap = cap;
		mi->nr_cus = 0;
		for (i = 0; i < old_cap; i++)
			if (old[i])
				cu_insert(mi, old[i]);
		free(old);
	}
	i = ptr_hash(cx->key) & (mi->cu_cap - 1);
	while (mi->cus[i])
		i = (i + 1) & (mi->cu_cap - 1);
	mi->cus[i] = cx;
	mi->nr_cus++;
	return 0;
}

/* The scope index of unit @cu, built on first use; NULL: out of memory. */
static struct cuidx *cu_index(struct dwsym *d, struct modidx *mi,
			      Dwarf_Die *cu)
{
	struct cuidx *cx;
	sm_u64 t0;
	size_t i;

	if (mi->cu_cap) {
		i = ptr_hash(cu->addr) & (mi->cu_cap - 1);
		for (; mi->cus[i]; i = (i + 1) & (mi->cu_cap - 1))
			if (mi->cus[i]->key == cu->addr)
				return mi->cus[i];
	}
	t0 = now_ns();
	cx = build_cu(cu);
	if (cx && cu_insert(mi, cx)) {
		free_cu(cx);
		cx = NULL;
	}
	d->stats.build_ns += now_ns() - t0;
	if (cx && !cx->naive) {
		d->stats.units++;
		d->stats.scopes += cx->nr - 1;
	}
	return cx;
}

static void free_modidx(struct modidx *mi)
{
	size_t i;

	if (!mi)
		return;
	for (i = 0; i < mi->cu_cap; i++)
		free_cu(mi->cus[i]);
	free(mi->cus);
	free(mi->glob.s);
	free(mi->loc.s);
	free(mi->labels);
	free(mi->loc_labels);
	free(mi);
}

/* The index of @mod, its symbols built on first use; NULL: no memory. */
static struct modidx *mod_index(struct dwsym *d, Dwfl_Module *mod)
{
	struct modidx *mi, **v;
	sm_u64 t0;
	size_t i;

	if (d->last && d->last->mod == mod)
		return d->last;
	for (i = 0; i < d->nr_idx; i++)
		if (d->idx[i]->mod == mod)
			return d->last = d->idx[i];
	v = realloc(d->idx, (d->nr_idx + 1) * sizeof(*v));
	if (!v)
		return NULL;
	d->idx = v;
	mi = calloc(1, sizeof(*mi));
	if (!mi)
		return NULL;
	mi->mod = mod;
	t0 = now_ns();
	if (build_symbols(mi)) {
		free_modidx(mi);
		return NULL;
	}
	d->stats.build_ns += now_ns() - t0;
	d->stats.modules++;
	d->stats.symbols += mi->glob.nr + mi->loc.nr;
	d->idx[d->nr_idx++] = mi;
	return d->last = mi;
}

/* ---- lookups ---- */

static const char *die_name(Dwarf_Die *die)
{
	return dwarf_diename(die);
}

/* File @idx of the CU of @die, or NULL. */
static const char *cu_file(Dwarf_Die *die, Dwarf_Word idx)
{
	Dwarf_Die cu;
	Dwarf_Files *files;

	if (!dwarf_diecu(die, &cu, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, NULL))
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* Move @file/@line to the call site of inlined @die. */
static void call_site(Dwarf_Die *die, const char **file, int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word val;

	*file = NULL;
	*line = 0;
	if (!dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &val))
		*file = cu_file(die, val);
	if (!dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &val))
		*line = (int)val;
}

static void add_frame(struct dw_loc *loc, const char *name, const char *file,
		      int line, bool inlined)
{
	struct dw_frame *f;

	if (loc->nr >= MAX_CHAIN)
		return;
	f = &loc->chain[loc->nr++];
	f->name = name;
	f->file = file;
	f->line = line;
	f->inlined = inlined;
}

/*
 * One scope of the physical nesting, innermost first: an inlined instance
 * adds its frame and moves the location to its call site; the function
 * adds its frame and ends the chain.  Return: true at the end.
 */
static bool chain_step(Dwarf_Die *die, const char **file, int *line,
		       struct dw_loc *loc)
{
	int tag = dwarf_tag(die);

	if (tag == DW_TAG_inlined_subroutine) {
		add_frame(loc, die_name(die), *file, *line, true);
		call_site(die, file, line);
	} else if (tag == DW_TAG_subprogram) {
		add_frame(loc, die_name(die), *file, *line, false);
		return true;
	}
	return false;
}

/* chain_step() on an indexed scope, its DWARF read once and kept. */
static bool node_step(struct scope *s, const char **file, int *line,
		      struct dw_loc *loc)
{
	if (!s->memo) {
		s->name = die_name(&s->die);
		if (s->tag == DW_TAG_inlined_subroutine)
			call_site(&s->die, &s->call_file, &s->call_line);
		s->memo = true;
	}
	if (s->tag == DW_TAG_inlined_subroutine) {
		add_frame(loc, s->name, *file, *line, true);
		*file = s->call_file;
		*line = s->call_line;
	} else if (s->tag == DW_TAG_subprogram) {
		add_frame(loc, s->name, *file, *line, false);
		return true;
	}
	return false;
}

/* The chain the straightforward way: dwarf_getscopes() per address. */
static void naive_chain(Dwarf_Die *cu, Dwarf_Addr pc, const char *file,
			int line, struct dw_loc *loc)
{
	Dwarf_Die *scopes = NULL, *chain = NULL;
	int n, i;

	if (dwarf_getscopes(cu, pc, &scopes) > 0) {
		n = dwarf_getscopes_die(&scopes[0], &chain);
		for (i = 0; i < n; i++)
			if (chain_step(&chain[i], &file, &line, loc))
				break;
	}
	free(scopes);
	free(chain);
}

/* The inline chain of @q, from the line @file:@line outwards. */
static void inline_chain(struct dwsym *d, Dwfl_Module *mod, Dwarf_Addr q,
			 const char *file, int line, struct dw_loc *loc)
{
	struct modidx *mi;
	struct cuidx *cx;
	Dwarf_Addr bias;
	Dwarf_Die *cu;
	int i;

	cu = dwfl_module_addrdie(mod, q, &bias);
	if (!cu)
		goto out;
	if (d->naive || !(mi = mod_index(d, mod)) ||
	    !(cx = cu_index(d, mi, cu)) || cx->naive ||
	    (i = innermost(cx, q - bias)) < 0) {
		d->stats.naive_scopes += !d->naive;
		naive_chain(cu, q - bias, file, line, loc);
		goto out;
	}
	for (; i; i = cx->nodes[i].parent)
		if (node_step(&cx->nodes[i], &file, &line, loc))
			break;
out:
	/* No DWARF scope: the line alone, under the ELF symbol. */
	if (!loc->nr && file)
		add_frame(loc, loc->func, file, line, false);
}

/* The ELF symbol of @q: *@value its start; NULL when none. */
static const char *symbol_of(struct dwsym *d, Dwfl_Module *mod,
			     Dwarf_Addr q, sm_u64 *value)
{
	struct modidx *mi;
	const char *name;
	GElf_Off off = 0;
	GElf_Sym sym;

	if (!d->naive && (mi = mod_index(d, mod)) &&
	    index_addrinfo(mi, q, &name, value))
		return name;
	d->stats.naive_symbols += !d->naive;
	name = dwfl_module_addrinfo(mod, q, &off, &sym, NULL, NULL, NULL);
	*value = q - off;
	return name;
}

/* Resolve @addr (uncached). */
static struct dw_loc *resolve(struct dwsym *d, sm_u64 addr, bool is_return)
{
	Dwarf_Addr q = is_return ? addr - 1 : addr;
	struct dw_frame frames[MAX_CHAIN];
	struct dw_loc tmp = { 0 }, *loc;
	Dwfl_Module *mod;
	const char *file = NULL;
	Dwfl_Line *l;
	sm_u64 value;
	int line = 0;

	mod = dwfl_addrmodule(d->dwfl, q);
	if (!mod)
		return NULL;
	tmp.chain = frames;
	tmp.func = symbol_of(d, mod, q, &value);
	tmp.offset = tmp.func ? addr - value : 0;
	l = dwfl_module_getsrc(mod, q);
	if (l)
		file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	inline_chain(d, mod, q, file, line, &tmp);
	d->stats.lookups++;
	/* Kept for the life of @d: exactly the frames found. */
	loc = malloc(sizeof(*loc) + tmp.nr * sizeof(*loc->chain));
	if (!loc)
		return NULL;
	*loc = tmp;
	loc->chain = (struct dw_frame *)(loc + 1);
	memcpy(loc->chain, frames, tmp.nr * sizeof(*frames));
	return loc;
}

static int cache_grow(struct dwsym *d)
{
	size_t cap = d->cache_cap ? d->cache_cap * 2 : CACHE_MIN, i, j;
	struct cache_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < d->cache_cap; i++) {
		if (!d->cache[i].key)
			continue;
		j = hash_key(d->cache[i].key) & (cap - 1);
		while (slots[j].key)
			j = (j + 1) & (cap - 1);
		slots[j] = d->cache[i];
	}
	free(d->cache);
	d->cache = slots;
	d->cache_cap = cap;
	return 0;
}

const struct dw_loc *dwsym_lookup(struct dwsym *d, sm_u64 addr,
				  bool is_return)
{
	sm_u64 key = addr << 1 | is_return;
	size_t i;

	if (!key)
		return NULL;
	if ((d->cache_nr + 1) * 2 > d->cache_cap && cache_grow(d))
		return NULL;
	i = hash_key(key) & (d->cache_cap - 1);
	for (; d->cache[i].key; i = (i + 1) & (d->cache_cap - 1))
		if (d->cache[i].key == key)
			return d->cache[i].loc;
	d->cache[i].key = key;
	d->cache[i].loc = resolve(d, addr, is_return);
	d->cache_nr++;
	return d->cache[i].loc;
}

/* Place the vmlinux at @path: d->path and d->bias; @ei filled in. */
static int open_vmlinux(struct dwsym *d, const struct kallsyms *ks,
			const char *path, struct elf_info *ei, char *err,
			size_t len)
{
	Elf *elf = NULL;
	int fd, ret = -1;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail(err, len, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		fail(err, len, "%s: not an ELF file", path);
		goto out;
	}
	d->path = strdup(path);
	if (!d->path) {
		fail(err, len, "%s", strerror(ENOMEM));
		goto out;
	}
	ret = place(ks, elf, path, ei, &d->bias, err, len);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* Place the modules found under @dir. */
static int open_modules(struct dwsym *d, const struct kallsyms *ks,
			const char *dir, char *err, size_t len)
{
	if (dwmod_find(dir, ks, &d->mods, &d->nr_mods, err, len))
		return -1;
	d->mod_files = calloc(d->nr_mods + 1, sizeof(*d->mod_files));
	if (!d->mod_files)
		return fail(err, len, "%s", strerror(ENOMEM));
	return 0;
}

int dwsym_open(struct dwsym **out, const struct kallsyms *ks,
	       const char *vmlinux, const char *modules, char *err,
	       size_t len)
{
	struct elf_info ei = { 0 };
	struct dwsym *d;
	int ret = -1;

	*out = NULL;
	elf_version(EV_CURRENT);
	d = calloc(1, sizeof(*d));
	if (!d)
		return fail(err, len, "%s", strerror(ENOMEM));
	if (vmlinux && open_vmlinux(d, ks, vmlinux, &ei, err, len))
		goto out;
	if (modules && open_modules(d, ks, modules, err, len))
		goto out;
	if (report(d, &ei, err, len))
		goto out;
	*out = d;
	ret = 0;
out:
	free(ei.syms);
	if (ret)
		dwsym_free(d);
	return ret;
}

sm_u64 dwsym_bias(const struct dwsym *d)
{
	return d->bias;
}

void dwsym_set_naive(struct dwsym *d, bool naive)
{
	d->naive = naive;
}

void dwsym_get_stats(const struct dwsym *d, struct dwsym_stats *st)
{
	*st = d->stats;
}

void dwsym_free(struct dwsym *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->cache_cap; i++)
		free(d->cache[i].loc);
	free(d->cache);
	for (i = 0; i < d->nr_idx; i++)
		free_modidx(d->idx[i]);
	free(d->idx);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	dwmod_free(d->mods, d->nr_mods);
	free(d->mod_files);
	free(d->path);
	free(d);
}
