// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --modules: place kernel modules from the recorded kallsyms (see
 * dwmod.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "dwmod.h"

/* A .ko symbol: name, section, value; dup when the name is not unique. */
struct msym {
	const char *name;
	size_t shndx;
	sm_u64 value;
	bool dup;
};

/* One vote: section @shndx at @base. */
struct vote {
	size_t shndx;
	sm_u64 base;
};

/* "foo-bar.ko" and "foo_bar" both become "foo_bar" in @out. */
static void normalize(const char *name, char *out, size_t len)
{
	size_t i;

	for (i = 0; name[i] && name[i] != '.' && i + 1 < len; i++)
		out[i] = name[i] == '-' ? '_' : name[i];
	out[i] = '\0';
}

/* ---- finding the files ---- */

const char *dwmod_dwarf_problem(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *name;
	GElf_Chdr ch;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return "no section headers";
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (strcmp(name, ".debug_info") &&
			      strcmp(name, ".zdebug_info")))
			continue;
		/* elfutils reads zstd sections from 0.189 on (ELFCOMPRESS_ZSTD). */
		if ((sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(scn, &ch) &&
		    ch.ch_type == 2 && strverscmp(dwfl_version(NULL), "0.189") < 0)
			return "its DWARF is zstd-compressed, which this libdw cannot read (elfutils 0.189 can; or decompress it: objcopy --decompress-debug-sections)";
		return NULL;
	}
	return "no DWARF (.debug_info; a stripped file)";
}

bool dwmod_is_compressed(const char *name)
{
	size_t n = strlen(name);

	return (n > 6 && !strcmp(name + n - 6, ".ko.xz")) ||
	       (n > 6 && !strcmp(name + n - 6, ".ko.gz")) ||
	       (n > 7 && !strcmp(name + n - 7, ".ko.zst"));
}

bool dwmod_is_module_file(const char *name)
{
	size_t n = strlen(name);

	return (n > 3 && !strcmp(name + n - 3, ".ko")) ||
	       dwmod_is_compressed(name);
}

/* Every file found for a module, in the order nftw() met them. */
struct candidates {
	char **paths;
	size_t nr;
};

static struct dwmod *walk_mods;
static struct candidates *walk_cands;
static size_t walk_nr;

/* Add @path to @c; -ENOMEM. */
static int add_candidate(struct candidates *c, const char *path)
{
	char **grown = realloc(c->paths, (c->nr + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	c->paths = grown;
	c->paths[c->nr] = strdup(path);
	if (!c->paths[c->nr])
		return -ENOMEM;
	c->nr++;
	return 0;
}

static void free_candidates(struct candidates *c, size_t nr)
{
	size_t i, j;

	for (i = 0; c && i < nr; i++) {
		for (j = 0; j < c[i].nr; j++)
			free(c[i].paths[j]);
		free(c[i].paths);
	}
	free(c);
}

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	const char *base = path + ftw->base;
	char norm[256], want[256];
	size_t i;

	(void)st;
	if (type != FTW_F || !dwmod_is_module_file(base))
		return 0;
	normalize(base, norm, sizeof(norm));
	for (i = 0; i < walk_nr; i++) {
		normalize(walk_mods[i].name, want, sizeof(want));
		if (!strcmp(norm, want))
			return add_candidate(&walk_cands[i], path);
	}
	return 0;
}

/* One entry per module named in @ks; -ENOMEM. */
static int list_modules(const struct kallsyms *ks, struct dwmod **mods,
			size_t *nr)
{
	size_t i, j;

	*mods = calloc(ks->nr ? ks->nr : 1, sizeof(**mods));
	*nr = 0;
	if (!*mods)
		return -ENOMEM;
	for (i = 0; i < ks->nr; i++) {
		const char *m = ks->syms[i].mod;

		if (!m)
			continue;
		for (j = 0; j < *nr && strcmp((*mods)[j].name, m); j++)
			;
		if (j < *nr)
			continue;
		(*mods)[*nr].name = strdup(m);
		if (!(*mods)[(*nr)++].name)
			return -ENOMEM;
	}
	return 0;
}

/* ---- placing one module ---- */

static int cmp_msym(const void *a, const void *b)
{
	return strcmp(((const struct msym *)a)->name,
		      ((const struct msym *)b)->name);
}

static int cmp_vote(const void *a, const void *b)
{
	const struct vote *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

/* The defined symbols of @elf's .symtab, sorted by name, dups marked. */
static struct msym *read_syms(Elf *elf, size_t *nr)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr sh;
	GElf_Sym sym;
	struct msym *syms;
	size_t i, n;

	*nr = 0;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
		return NULL;
	n = sh.sh_size / sh.sh_entsize;
	syms = calloc(n ? n : 1, sizeof(*syms));
	for (i = 0; syms && i < n; i++) {
		const char *name;
		int type;

		if (!gelf_getsym(data, i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx >= SHN_LORESERVE)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		syms[*nr].name = name;
		syms[*nr].shndx = sym.st_shndx;
		syms[(*nr)++].value = sym.st_value;
	}
	if (!syms)
		return NULL;
	qsort(syms, *nr, sizeof(*syms), cmp_msym);
	for (i = 1; i < *nr; i++)
		if (!strcmp(syms[i].name, syms[i - 1].name))
			syms[i].dup = syms[i - 1].dup = true;
	return syms;
}

/* Votes of @m's recorded symbols into @votes; returns their number. */
static size_t collect_votes(const struct kallsyms *ks, const struct dwmod *m,
			    const struct msym *syms, size_t nsyms,
			    struct vote *votes)
{
	const struct msym *s;
	struct msym key;
	size_t i, n = 0;

	for (i = 0; i < ks->nr; i++) {
		if (!ks->syms[i].mod || strcmp(ks->syms[i].mod, m->name))
			continue;
		key.name = ks->syms[i].name;
		s = bsearch(&key, syms, nsyms, sizeof(*syms), cmp_msym);
		if (!s || s->dup)
			continue;
		votes[n].shndx = s->shndx;
		votes[n++].base = ks->syms[i].addr - s->value;
	}
	qsort(votes, n, sizeof(*votes), cmp_vote);
	return n;
}

/* The name of @elf's section @shndx, for messages. */
static const char *section_name(Elf *elf, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	size_t shstrndx;
	GElf_Shdr sh;
	const char *name = NULL;

	if (scn && gelf_getshdr(scn, &sh) && !elf_getshdrstrndx(elf, &shstrndx))
		name = elf_strptr(elf, shstrndx, sh.sh_name);
	return name ? name : "?";
}

/* Each section's base by kallsyms_vote(); -EINVAL with @err when one is refused, -ENOMEM. */
static int count_votes(struct dwmod *m, Elf *elf, const struct vote *v,
		       size_t n, struct sm_err *err)
{
	sm_u64 *bases = malloc((n ? n : 1) * sizeof(*bases)), base = 0;
	size_t i = 0, j, best;
	int ret = 0;

	if (!bases)
		return sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
	/* @v is sorted by section, then base: each section's bases sorted. */
	for (j = 0; j < n; j++)
		bases[j] = v[j].base;
	for (; i < n && !ret; i = j) {
		for (j = i; j < n && v[j].shndx == v[i].shndx; j++)
			;
		best = kallsyms_vote(bases + i, j - i, &base);
		if (!kallsyms_vote_accepts(best, j - i))
			ret = sm_err_code(err, -EINVAL, "%s: does not match the recorded module %s: %zu of the %zu symbols of its section %s are not where the recording has them (at most 1 in %d may differ)",
				   m->path, m->name, j - i - best, j - i,
				   section_name(elf, v[i].shndx),
				   DW_MATCH_TOLERANCE);
		else if (v[i].shndx < m->nr_sections)
			m->base[v[i].shndx] = base;
	}
	free(bases);
	return ret;
}

/* The range of the placed SHF_ALLOC sections. */
static void alloc_range(Elf *elf, struct dwmod *m)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	m->low = ~0ULL;
	m->high = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		i = elf_ndxscn(scn);
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    i >= m->nr_sections || m->base[i] == DWMOD_UNPLACED)
			continue;
		if (m->base[i] < m->low)
			m->low = m->base[i];
		if (m->base[i] + sh.sh_size > m->high)
			m->high = m->base[i] + sh.sh_size;
	}
	if (m->low > m->high)
		m->low = m->high = 0;
}

/* Place @m from @elf: 0, -EINVAL (no section headers, no symbol table, refused), -ENOMEM. */
static int place_elf(const struct kallsyms *ks, struct dwmod *m, Elf *elf,
		     struct sm_err *err)
{
	struct msym *syms;
	struct vote *votes;
	size_t nsyms, n, i;
	int ret;

	if (elf_getshdrnum(elf, &m->nr_sections))
		return sm_err_code(err, -EINVAL, "%s: no section headers", m->path);
	m->base = malloc((m->nr_sections + 1) * sizeof(*m->base));
	syms = read_syms(elf, &nsyms);
	votes = malloc((ks->nr + 1) * sizeof(*votes));
	if (!m->base || !syms || !votes) {
		ret = !m->base || !votes ? -ENOMEM : -EINVAL;
		free(syms);
		free(votes);
		return sm_err_code(err, ret, "%s: no symbol table, or out of memory",
				   m->path);
	}
	for (i = 0; i < m->nr_sections; i++)
		m->base[i] = DWMOD_UNPLACED;
	n = collect_votes(ks, m, syms, nsyms, votes);
	ret = count_votes(m, elf, votes, n, err);
	if (!ret)
		alloc_range(elf, m);
	free(syms);
	free(votes);
	return ret;
}

/* Place @m from its file: 0, -errno of open(), place_elf()'s errors. */
static int place_module(const struct kallsyms *ks, struct dwmod *m,
			struct sm_err *err)
{
	GElf_Ehdr eh;
	Elf *elf;
	int fd, ret;

	fd = open(m->path, O_RDONLY);
	if (fd < 0)
		return sm_err_code(err, -errno, "%s: %s", m->path, strerror(errno));
	/* dwelf_elf_begin() reads .ko.xz, .ko.gz and .ko.zst too. */
	elf = dwelf_elf_begin(fd);
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_type != ET_REL)
		ret = sm_err_code(err, -EINVAL, "%s: not a kernel module (ELF ET_REL)",
				  m->path);
	else
		ret = place_elf(ks, m, elf, err);
	if (!ret && elf)
		m->dwarf_problem = dwmod_dwarf_problem(elf);
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* Drop the modules without a file or without a placed section. */
static void compact(struct dwmod *mods, size_t *nr)
{
	size_t i, n = 0;

	for (i = 0; i < *nr; i++) {
		if (mods[i].path && mods[i].high > mods[i].low) {
			mods[n++] = mods[i];
			continue;
		}
		free(mods[i].name);
		free(mods[i].path);
		free(mods[i].base);
	}
	*nr = n;
}

/* Free what dwmod_find() built and leave nothing behind; return @ret. */
static int give_up(struct dwmod **mods, size_t *nr, int ret)
{
	dwmod_free(*mods, *nr);
	*mods = NULL;
	*nr = 0;
	return ret;
}

/*
 * Place @m from the first of its candidate files that matches the
 * recording; one that does not is passed over for the next (a tree may
 * hold other builds of a module).  None matching: the first one's error,
 * with how many more were tried, and its errno (place_module()); -ENOMEM.
 */
static int place_candidates(const struct kallsyms *ks, struct dwmod *m,
			    const struct candidates *c, const char *dir,
			    struct sm_err *err)
{
	struct sm_err first;
	size_t i;
	int ret = 0, first_ret = 0;

	for (i = 0; i < c->nr; i++) {
		free(m->path);
		free(m->base);
		m->base = NULL;
		m->low = m->high = 0;
		m->path = strdup(c->paths[i]);
		if (!m->path)
			return sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
		ret = place_module(ks, m, i ? err : &first);
		if (!ret)
			return 0;
		if (!i)
			first_ret = ret;
	}
	if (c->nr > 1)
		return sm_err_code(err, first_ret, "%s (nor do the %zu other files of %s under %s)",
				   first.msg, c->nr - 1, m->name, dir);
	*err = first;
	return first_ret;
}

int dwmod_find(const char *dir, const struct kallsyms *ks,
	       struct dwmod **mods, size_t *nr, size_t *recorded,
	       struct sm_err *err)
{
	size_t i;
	int ret = 0;

	elf_version(EV_CURRENT);
	if (list_modules(ks, mods, nr)) {
		sm_err_set(err, "%s", strerror(ENOMEM));
		return give_up(mods, nr, -ENOMEM);
	}
	*recorded = *nr;
	walk_mods = *mods;
	walk_nr = *nr;
	walk_cands = calloc(*nr ? *nr : 1, sizeof(*walk_cands));
	/* Symbolic links followed: a symlinked modules tree or .ko counts. */
	if (!walk_cands)
		ret = -ENOMEM;
	else if ((ret = nftw(dir, visit, 16, 0)) == -1)
		ret = errno ? -errno : -EIO;	/* else visit()'s -ENOMEM */
	if (ret)
		sm_err_set(err, "%s: cannot search it for modules", dir);
	for (i = 0; !ret && i < *nr; i++)
		if (walk_cands[i].nr)
			ret = place_candidates(ks, &(*mods)[i], &walk_cands[i],
					       dir, err);
	free_candidates(walk_cands, *nr);
	walk_cands = NULL;
	if (ret)
		return give_up(mods, nr, ret);
	compact(*mods, nr);
	return 0;
}

void dwmod_free(struct dwmod *mods, size_t nr)
{
	size_t i;

	for (i = 0; mods && i < nr; i++) {
		free(mods[i].name);
		free(mods[i].path);
		free(mods[i].base);
	}
	free(mods);
}
