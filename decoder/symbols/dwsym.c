// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's symbols with --vmlinux: DWARF symbolization (see dwsym.h).
 *
 * The libdwfl recipe is the one in elfutils src/addr2line.c: a module per
 * file, dwfl_module_addrinfo() for the symbol, dwfl_module_getsrc() for the
 * line, and dwarf_getscopes() + dwarf_getscopes_die() for the inline chain,
 * each DW_TAG_inlined_subroutine moving the location to its call site.
 * Both lookups that libdw does by scanning (the symbol table, the unit's
 * DIE tree) go through an index built once per module and unit instead
 * (dwindex.c); dwsym_set_naive() turns it off.
 */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwindex.h"
#include "dwmod.h"
#include "dwsym.h"
#include "hashtab.h"
#include "message.h"

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

struct dwsym {
	char *path;
	Dwfl *dwfl;
	sm_u64 bias;
	struct dwfile kernel;
	struct dwmod *mods;
	size_t nr_mods;
	struct dwfile *mod_files;	/* [nr_mods] */
	struct sm_hashtab cache;	/* of struct cache_slot, from the
					 * first lookup on */
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

static int cmp_esym(const void *a, const void *b)
{
	return strcmp(((const struct esym *)a)->name,
		      ((const struct esym *)b)->name);
}

/*
 * Load range: from the first PT_LOAD to the end of the last above it.
 * Return: 0, -EINVAL when @elf has no loadable segment.
 */
static int load_range(Elf *elf, struct elf_info *ei)
{
	size_t n, i;
	GElf_Phdr ph;
	bool first = true;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
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
	return first ? -EINVAL : 0;
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

/*
 * Collect the function symbols of .symtab, sorted by name, dups marked.
 * Return: 0, -ENOENT when there is no symbol table, -ENOMEM.
 */
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
		return -ENOENT;
	n = sh.sh_size / sh.sh_entsize;
	ei->syms = calloc(n ? n : 1, sizeof(*ei->syms));
	if (!ei->syms)
		return -ENOMEM;
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

/*
 * Does recorded symbol @k vote?  Only vmlinux symbols (no module) with an
 * address; a name unique in the ELF that kallsyms lists twice votes twice,
 * and the wrong vote loses the majority.
 */
static bool votes(const struct ksym *k)
{
	return !k->mod && k->addr;
}

/* Majority of (recorded address - st_value); @agree/@matched counts.  0, -ENOMEM. */
static int vote_bias(const struct kallsyms *ks, const struct elf_info *ei,
		     sm_u64 *bias, size_t *agree, size_t *matched)
{
	sm_u64 *cand = malloc((ks->nr ? ks->nr : 1) * sizeof(*cand));
	size_t i, n = 0;

	if (!cand)
		return -ENOMEM;
	for (i = 0; i < ks->nr; i++) {
		const struct esym *e;

		if (!votes(&ks->syms[i]))
			continue;
		e = find_esym(ei, ks->syms[i].name);
		if (e && !e->dup)
			cand[n++] = ks->syms[i].addr - e->value;
	}
	qsort(cand, n, sizeof(*cand), cmp_u64);
	*agree = kallsyms_vote(cand, n, bias);
	*matched = n;
	free(cand);
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

/* Check _text / _stext against @bias; -EINVAL with @err set on a mismatch. */
static int check_anchor(const struct kallsyms *ks, const char *name,
			sm_u64 link, sm_u64 bias, const char *path,
			struct sm_err *err)
{
	sm_u64 rt;

	if (!link)
		return 0;
	rt = recorded(ks, name);
	if (!rt || rt - link == bias)
		return 0;
	return sm_err_code(err, -EINVAL, "%s: does not match the recorded kernel: %s is at 0x%llx, its symbols say 0x%llx",
		    path, name, (unsigned long long)rt,
		    (unsigned long long)(link + bias));
}

/* Refuse @path: name one voting symbol that is not at @bias.  -EINVAL. */
static int refuse_moved(const struct kallsyms *ks, const struct elf_info *ei,
			sm_u64 bias, size_t agree, size_t matched,
			const char *path, struct sm_err *err)
{
	const struct esym *e = NULL;
	size_t i;

	for (i = 0; i < ks->nr; i++) {
		if (!votes(&ks->syms[i]))
			continue;
		e = find_esym(ei, ks->syms[i].name);
		if (e && !e->dup && ks->syms[i].addr - e->value != bias)
			break;
	}
	if (i == ks->nr)
		return sm_err_code(err, -EINVAL, "%s: does not match the recorded kernel: %zu of %zu functions are not where the recording has them",
			    path, matched - agree, matched);
	return sm_err_code(err, -EINVAL, "%s: does not match the recorded kernel: %zu of %zu functions are not where the recording has them (e.g. %s: recorded at 0x%llx, this file puts it at 0x%llx); at most 1 in %d may differ",
		    path, matched - agree, matched, ks->syms[i].name,
		    (unsigned long long)ks->syms[i].addr,
		    (unsigned long long)(e->value + bias), DW_MATCH_TOLERANCE);
}

/*
 * Do too few of the functions of @ei match names of the recording for it
 * to be its kernel?  A vmlinux has most of its functions in kallsyms (all
 * but those whose names repeat), a program but a few by chance ("die",
 * "pack"): at least half of the smaller of the two lists must match.
 */
static bool too_few(const struct kallsyms *ks, const struct elf_info *ei,
		    size_t matched)
{
	size_t i, recorded_fns = 0;

	for (i = 0; i < ks->nr; i++)
		recorded_fns += votes(&ks->syms[i]);
	return matched * 2 < (ei->nr < recorded_fns ? ei->nr : recorded_fns);
}

/* The name of ELF type @type ("ET_DYN"); an unnamed one's number in @buf. */
static const char *elf_type_name(unsigned int type, char *buf, size_t len)
{
	static const char *const names[] = {
		[ET_NONE] = "ET_NONE", [ET_REL] = "ET_REL",
		[ET_EXEC] = "ET_EXEC", [ET_DYN] = "ET_DYN",
		[ET_CORE] = "ET_CORE",
	};

	if (type < sizeof(names) / sizeof(names[0]))
		return names[type];
	snprintf(buf, len, "ELF type %#x", type);
	return buf;
}

/*
 * Refuse @path, which lacks what a vmlinux has: a loadable segment
 * (@no_load) or a symbol table (@no_symtab).  One line naming its type and
 * what it lacks: "FILE: not a vmlinux: ET_DYN with no symbol table".
 * Return: -EINVAL.
 */
static int not_vmlinux(Elf *elf, const char *path, bool no_load,
		       bool no_symtab, struct sm_err *err)
{
	GElf_Ehdr eh = { 0 };
	char type[32];

	gelf_getehdr(elf, &eh);
	return sm_err_code(err, -EINVAL, "%s: not a vmlinux: %s with %s%s%s%s", path,
			   elf_type_name(eh.e_type, type, sizeof(type)),
			   no_load ? "no loadable segment" : "",
			   no_load && no_symtab ? " and " : "",
			   no_symtab ? "no symbol table" : "",
			   eh.e_type == ET_REL ? " (a kernel module? --modules DIR reads those)" : "");
}

/* Find the bias of @path's ELF against the recording, or refuse it (-EINVAL); -ENOMEM. */
static int place_vmlinux(const struct kallsyms *ks, Elf *elf,
			 const char *path, struct elf_info *ei, sm_u64 *bias,
			 struct sm_err *err)
{
	size_t agree = 0, matched = 0;
	bool no_load = load_range(elf, ei) != 0;
	int symtab = read_symtab(elf, ei), ret;

	if (symtab == -ENOMEM)
		return sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
	if (no_load || symtab)
		return not_vmlinux(elf, path, no_load, symtab == -ENOENT, err);
	if (vote_bias(ks, ei, bias, &agree, &matched))
		return sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
	if (!matched)
		return sm_err_code(err, -EINVAL, "%s: none of its %zu symbols is a function the recorded kallsyms list by that name (a vmlinux without its symbol table, such as the BTF-only one of a headers package? the one with symbols and DWARF is /usr/lib/debug/boot/vmlinux-RELEASE, in linux-image-RELEASE-dbg)",
			    path, ei->nr);
	if (too_few(ks, ei, matched))
		return sm_err_code(err, -EINVAL, "%s: not a vmlinux of the recorded kernel: only %zu of its %zu functions are named in the recorded kallsyms (a user-space program, or another kernel?)",
			    path, matched, ei->nr);
	if (!kallsyms_vote_accepts(agree, matched))
		return refuse_moved(ks, ei, *bias, agree, matched, path, err);
	ret = check_anchor(ks, "_text", ei->text, *bias, path, err);
	if (!ret)
		ret = check_anchor(ks, "_stext", ei->stext, *bias, path, err);
	return ret;
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
		/* A compressed module: libdwfl gets it decompressed. */
		*elfp = dwmod_is_compressed(f->path) ? dwelf_elf_begin(fd) : NULL;
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

static int no_separate_debuginfo(Dwfl_Module *mod, void **userdata,
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
	.find_debuginfo = no_separate_debuginfo,
	.section_address = section_address,
};

/* Report one file over [low, high); its user data is @f.  0, -EINVAL. */
static int report_one(Dwfl *dwfl, const char *name, sm_u64 low, sm_u64 high,
		      struct dwfile *f)
{
	Dwfl_Module *mod;
	void **slot;

	mod = dwfl_report_module(dwfl, name, low, high);
	if (!mod)
		return -EINVAL;
	/* find_elf and section_address find @f in the module's user data. */
	dwfl_module_info(mod, &slot, NULL, NULL, NULL, NULL, NULL, NULL);
	*slot = f;
	return 0;
}

/* Report the vmlinux and the modules to libdwfl: 0, -ENOMEM, -EINVAL. */
static int report(struct dwsym *d, const struct elf_info *ei, struct sm_err *err)
{
	size_t i;
	int ret = 0;

	d->dwfl = dwfl_begin(&callbacks);
	if (!d->dwfl)
		return sm_err_code(err, -ENOMEM, "libdwfl: %s", dwfl_errmsg(-1));
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
		return sm_err_code(err, ret, "libdwfl: %s", dwfl_errmsg(-1));
	return 0;
}

/* ---- the index of each module (dwindex.h) ---- */

/* The index of @mod, its symbols built on first use; NULL: no memory. */
static struct modidx *mod_index(struct dwsym *d, Dwfl_Module *mod)
{
	struct modidx *mi, **v;
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
	if (build_symbols(&d->stats, mi)) {
		free_modidx(mi);
		return NULL;
	}
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
	    !(cx = cu_index(&d->stats, mi, cu)) || cx->naive ||
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

/* Look @addr up in the DWARF (what dwsym_lookup() caches). */
static struct dw_loc *lookup_uncached(struct dwsym *d, sm_u64 addr,
				      bool is_return)
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

const struct dw_loc *dwsym_lookup(struct dwsym *d, sm_u64 addr,
				  bool is_return)
{
	sm_u64 key = addr << 1 | is_return;
	struct cache_slot *slot;

	if (!key)
		return NULL;
	if (!d->cache.buckets &&
	    sm_hashtab_init(&d->cache, sizeof(*slot), CACHE_MIN))
		return NULL;
	slot = sm_hashtab_find(&d->cache, key);
	if (slot)
		return slot->loc;
	if (sm_hashtab_reserve(&d->cache))
		return NULL;
	slot = sm_hashtab_insert(&d->cache, key);
	slot->loc = lookup_uncached(d, addr, is_return);
	return slot->loc;
}

/*
 * Place the vmlinux at @path: d->path and d->bias; @ei filled in.
 * Return: 0; -errno of open(); -EINVAL when it is not an ELF file or not
 * the recorded vmlinux; -ENOMEM.
 */
static int open_vmlinux(struct dwsym *d, const struct kallsyms *ks,
			const char *path, struct elf_info *ei, struct sm_err *err)
{
	Elf *elf = NULL;
	int fd, ret;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return sm_err_code(err, -errno, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ret = sm_err_code(err, -EINVAL, "%s: not an ELF file", path);
		goto out;
	}
	d->path = strdup(path);
	if (!d->path) {
		ret = sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
		goto out;
	}
	ret = place_vmlinux(ks, elf, path, ei, &d->bias, err);
	if (!ret && dwmod_dwarf_problem(elf))
		fg_error("%s: %s: its frames keep the kallsyms symbols, with no file:line or inlined frames",
			 path, dwmod_dwarf_problem(elf));
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/*
 * A modules directory where none of the @recorded modules is found: a
 * warning, for a wrong directory would otherwise change nothing, silently
 * (the frames keep their kallsyms symbols).
 */
static void warn_no_module(const char *dir, size_t recorded)
{
	if (!recorded)
		fg_warn("%s: the recording names no module to look for there",
			dir);
	else
		fg_warn("%s: none of the recorded modules (%zu) is under it as NAME.ko, .ko.xz, .ko.gz or .ko.zst: their frames keep the kallsyms symbols",
			dir, recorded);
}

/* Place the modules found under @dir: 0, or dwmod_find()'s errors. */
static int open_modules(struct dwsym *d, const struct kallsyms *ks,
			const char *dir, struct sm_err *err)
{
	const char *example = NULL, *why = NULL;
	size_t i, without = 0, recorded;
	int ret;

	ret = dwmod_find(dir, ks, &d->mods, &d->nr_mods, &recorded, err);
	if (ret)
		return ret;
	if (!d->nr_mods)
		warn_no_module(dir, recorded);
	/* One line for all modules without usable DWARF (a stripped tree). */
	for (i = 0; i < d->nr_mods; i++)
		if (d->mods[i].dwarf_problem) {
			example = example ? example : d->mods[i].path;
			why = why ? why : d->mods[i].dwarf_problem;
			without++;
		}
	if (without)
		fg_error("%zu of the %zu modules found under %s give no file:line (e.g. %s: %s); their frames keep the kallsyms symbols",
			 without, d->nr_mods, dir, example, why);
	d->mod_files = calloc(d->nr_mods + 1, sizeof(*d->mod_files));
	if (!d->mod_files)
		return sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
	return 0;
}

int dwsym_open(struct dwsym **out, const struct kallsyms *ks,
	       const char *vmlinux, const char *modules, struct sm_err *err)
{
	struct elf_info ei = { 0 };
	struct dwsym *d;
	int ret = 0;

	*out = NULL;
	elf_version(EV_CURRENT);
	d = calloc(1, sizeof(*d));
	if (!d)
		return sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
	if (vmlinux)
		ret = open_vmlinux(d, ks, vmlinux, &ei, err);
	if (!ret && modules)
		ret = open_modules(d, ks, modules, err);
	if (!ret)
		ret = report(d, &ei, err);
	if (!ret)
		*out = d;
	free(ei.syms);
	if (ret)
		dwsym_free(d);
	return ret;
}

/* The symbol @name of @elf's .symtab into @sym; false when absent. */
static bool find_symbol(Elf *elf, const char *name, GElf_Sym *sym)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr sh;
	size_t i, n;
	const char *s;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
		return false;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(data, i, sym) || sym->st_shndx == SHN_UNDEF ||
		    sym->st_shndx >= SHN_LORESERVE)
			continue;
		s = elf_strptr(elf, sh.sh_link, sym->st_name);
		if (s && !strcmp(s, name))
			return true;
	}
	return false;
}

/* The release in @elf's linux_banner into @out ("" when it has none). */
static void banner_release(Elf *elf, char *out, size_t len)
{
	char text[160] = "";
	Elf_Data *raw;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Scn *scn;
	size_t n;

	out[0] = '\0';
	if (!find_symbol(elf, "linux_banner", &sym) ||
	    !(scn = elf_getscn(elf, sym.st_shndx)) || !gelf_getshdr(scn, &sh) ||
	    sh.sh_type != SHT_PROGBITS || sym.st_value < sh.sh_addr ||
	    sym.st_value - sh.sh_addr >= sh.sh_size)
		return;
	n = sh.sh_size - (sym.st_value - sh.sh_addr);
	n = n < sizeof(text) - 1 ? n : sizeof(text) - 1;
	raw = elf_getdata_rawchunk(elf, sh.sh_offset + sym.st_value - sh.sh_addr,
				   n, ELF_T_BYTE);
	if (!raw || !raw->d_buf)
		return;
	memcpy(text, raw->d_buf, n);
	text[n] = '\0';
	if (sscanf(text, "Linux version %127s", out) != 1 || len < 128)
		out[0] = '\0';
}

int dwsym_check_banner(const char *vmlinux, const char *release,
		       struct sm_err *err)
{
	char banner[128];
	Elf *elf;
	int fd, ret = 0;

	if (!release || !*release)
		return 0;
	elf_version(EV_CURRENT);
	fd = open(vmlinux, O_RDONLY);
	if (fd < 0)
		return sm_err_code(err, -errno, "%s: %s", vmlinux, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ret = sm_err_code(err, -EINVAL, "%s: not an ELF file", vmlinux);
	} else {
		banner_release(elf, banner, sizeof(banner));
		if (*banner && strcmp(banner, release))
			ret = sm_err_code(err, -EINVAL, "%s: its linux_banner says release %s, the trace was recorded on %s",
				   vmlinux, banner, release);
	}
	if (elf)
		elf_end(elf);
	close(fd);
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
	for (i = 0; i < d->cache.cap; i++) {
		struct cache_slot *slot = sm_hashtab_at(&d->cache, i);

		if (slot)
			free(slot->loc);
	}
	sm_hashtab_fini(&d->cache);
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
