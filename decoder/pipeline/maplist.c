// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --map, input (see maplist.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "kallsyms.h"
#include "listing.h"
#include "maplist.h"
#include "stdout_aside.h"
#include "tracedat_options.h"

/* Largest listing or kallsyms file read (a full default map is ~90 MiB). */
#define MAPLIST_MAX_FILE	(512u << 20)

/*
 * The whole of @path as a NUL-terminated string of @lenp bytes (free() it),
 * or NULL with errno set (EFBIG above MAPLIST_MAX_FILE).
 */
static char *read_listing_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 1 << 16, n;
	char *buf = NULL, *nbuf;

	if (!f)
		return NULL;
	errno = 0;
	for (;;) {
		nbuf = realloc(buf, cap + 1);
		if (!nbuf)
			break;
		buf = nbuf;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap || cap >= MAPLIST_MAX_FILE)
			break;
		cap *= 2;
	}
	if (!nbuf || ferror(f) || len >= MAPLIST_MAX_FILE) {
		int e = !nbuf ? ENOMEM : ferror(f) ? (errno ? errno : EIO) :
			EFBIG;

		free(buf);
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

/* The "entries U/C" count of the header line at @text; 0 when absent. */
static sm_u32 header_entries(const char *text)
{
	unsigned int g, used;

	if (sscanf(text, "# generation %u entries %u/", &g, &used) != 2)
		return 0;
	return used;
}

int maplist_read(const char *path, struct stackmap_snapshot *snap,
		 sm_u32 *announced, struct sm_err *err)
{
	char *text;
	size_t len;
	FILE *f;
	int ret;

	memset(snap, 0, sizeof(*snap));
	*announced = 0;
	/* One read of the whole file, then parse it from memory. */
	text = read_listing_file(path, &len);
	if (!text) {
		ret = -errno;
		sm_err_set(err, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (len >= STACKMAP_TRACEDAT_MAGIC_LEN &&
	    !memcmp(text, STACKMAP_TRACEDAT_MAGIC, STACKMAP_TRACEDAT_MAGIC_LEN)) {
		free(text);
		sm_err_set(err, "%s: a trace.dat, not a stack_map listing: decode it with fgdecode %s",
			   path, path);
		return -EINVAL;
	}
	f = fmemopen(text, len, "r");
	if (!f) {
		free(text);
		sm_err_set(err, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = stackmap_snapshot_parse_listing(f, path, 8, snap, err);
	fclose(f);
	if (!ret)
		*announced = header_entries(text);
	free(text);
	return ret;
}

/*
 * Drop the lines of @text that are no kallsyms line, in place: the section
 * headers `trace-cmd dump --kallsyms` prints ("\t[Kallsyms, N bytes]").
 */
static void keep_symbol_lines(char *text)
{
	char *in = text, *out = text, *nl;
	size_t len;

	while (*in) {
		nl = strchr(in, '\n');
		len = nl ? (size_t)(nl - in) + 1 : strlen(in);
		if (*in != '\t' && *in != ' ' && *in != '[') {
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	*out = '\0';
}

/* The kallsyms of @ks as /proc/kallsyms text ("ADDR t NAME\t[MODULE]"). */
static char *kallsyms_of(const struct kallsyms *ks)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (i = 0; i < ks->nr; i++)
		fprintf(f, "%016llx t %s%s%s%s\n",
			(unsigned long long)ks->syms[i].addr, ks->syms[i].name,
			ks->syms[i].mod ? "\t[" : "",
			ks->syms[i].mod ? ks->syms[i].mod : "",
			ks->syms[i].mod ? "]" : "");
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* The kallsyms a trace.dat stores, as /proc/kallsyms text; NULL + @err. */
static char *tracedat_kallsyms(const char *path, struct sm_err *err)
{
	struct tracecmd_input *h;
	struct kallsyms ks;
	char *text = NULL;
	int saved;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	saved = sm_stdout_aside();	/* its HOOK options (stdout_aside.h) */
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	sm_stdout_back(saved);
	if (!h) {
		sm_err_set(err, "%s: a trace.dat whose headers cannot be read", path);
		return NULL;
	}
	if (!kallsyms_load(&ks, tracecmd_get_tep(h))) {
		text = kallsyms_of(&ks);
		kallsyms_free(&ks);
	}
	tracecmd_close(h);
	if (!text)
		sm_err_set(err, "%s: cannot list the kallsyms it stores", path);
	return text;
}

struct tep_handle *maplist_symbols(const char *path,
				   struct sm_err *err)
{
	struct tep_handle *tep = tep_alloc();
	size_t len;
	char *text;
	int ret;

	if (!tep) {
		sm_err_set(err, "out of memory");
		return NULL;
	}
	tep_set_long_size(tep, 8);
	if (!path)
		return tep;
	text = read_listing_file(path, &len);
	if (!text)
		sm_err_set(err, "%s: %s", path, strerror(errno));
	else if (len >= STACKMAP_TRACEDAT_MAGIC_LEN &&
		 !memcmp(text, STACKMAP_TRACEDAT_MAGIC, STACKMAP_TRACEDAT_MAGIC_LEN)) {
		free(text);
		text = tracedat_kallsyms(path, err);
	} else {
		keep_symbol_lines(text);
	}
	ret = text ? tep_parse_kallsyms(tep, text) : -1;
	if (text && ret)
		sm_err_set(err, "%s: not a kallsyms file", path);
	free(text);
	if (ret) {
		tep_free(tep);
		return NULL;
	}
	return tep;
}

/* (slot, hits) of one entry, sorted by slot for bsearch(). */
struct slot_hits {
	sm_u32 slot;
	sm_u32 hits;
};

static int cmp_slot(const void *a, const void *b)
{
	const struct slot_hits *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* The (slot, hits) pairs of @snap sorted by slot, or NULL (ENOMEM). */
static struct slot_hits *index_slots(const struct stackmap_snapshot *snap)
{
	struct slot_hits *idx = calloc(snap->nr ? snap->nr : 1, sizeof(*idx));
	sm_u32 i;

	if (!idx)
		return NULL;
	for (i = 0; i < snap->nr; i++) {
		idx[i].slot = snap->entries[i].slot;
		idx[i].hits = snap->entries[i].hits;
	}
	qsort(idx, snap->nr, sizeof(*idx), cmp_slot);
	return idx;
}

/* Hits of @slot in the index of @nr pairs; 0 when it is not listed. */
static sm_u32 hits_of(const struct slot_hits *idx, size_t nr, sm_u32 slot)
{
	struct slot_hits key = { .slot = slot }, *hit;

	hit = bsearch(&key, idx, nr, sizeof(*idx), cmp_slot);
	return hit ? hit->hits : 0;
}

/* Highest rate first; equal rates in listing order. */
static int cmp_rate(const void *a, const void *b)
{
	const struct maplist_change *x = a, *y = b;

	if (x->hits != y->hits)
		return x->hits < y->hits ? 1 : -1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

struct maplist_change *maplist_delta(const struct stackmap_snapshot *prev,
				     const struct stackmap_snapshot *cur,
				     double seconds, bool *reset, size_t *nr)
{
	struct maplist_change *out = calloc(cur->nr ? cur->nr : 1,
					    sizeof(*out));
	struct slot_hits *idx = index_slots(prev);
	const struct stackmap_snap_entry *e;
	sm_u32 i, before;

	*nr = 0;
	*reset = prev->generation != cur->generation;
	if (!out || !idx) {
		free(out);
		free(idx);
		return NULL;
	}
	for (i = 0; i < cur->nr; i++) {
		e = &cur->entries[i];
		before = *reset ? 0 : hits_of(idx, prev->nr, e->slot);
		if (e->hits <= before)
			continue;
		out[*nr].entry = e;
		out[*nr].hits = e->hits - before;
		out[*nr].rate = out[*nr].hits / seconds;
		(*nr)++;
	}
	free(idx);
	qsort(out, *nr, sizeof(*out), cmp_rate);
	return out;
}

/* A function a listing names: where it starts and ends, its module. */
struct listed_sym {
	sm_u64 start, end;
	char name[128];
	char mod[64];
};

static int cmp_listed(const void *a, const void *b)
{
	const struct listed_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The named frames of @text ("0xADDR NAME+0xOFF/0xSIZE [MODULE]" lines),
 * sorted by start, into *@out.  Return: their number, or -ENOMEM.
 */
static long listed_syms(char *text, struct listed_sym **out)
{
	struct listed_sym *syms = NULL, *grown, s;
	unsigned long long addr, off, size;
	size_t nr = 0, max = 0;
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		memset(&s, 0, sizeof(s));
		if (sscanf(line, " 0x%llx %127[^+ ]+0x%llx/0x%llx [%63[^]]]",
			   &addr, s.name, &off, &size, s.mod) < 4 ||
		    off > addr || !size)
			continue;
		s.start = addr - off;
		s.end = s.start + size;
		if (nr == max) {
			max = max ? 2 * max : 256;
			grown = realloc(syms, max * sizeof(*syms));
			if (!grown) {
				free(syms);
				return -ENOMEM;
			}
			syms = grown;
		}
		syms[nr++] = s;
	}
	if (nr)
		qsort(syms, nr, sizeof(*syms), cmp_listed);
	*out = syms;
	return nr;
}

/* Keep one of each start of the sorted @syms; their new number. */
static size_t unique_starts(struct listed_sym *syms, size_t nr)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++)
		if (!n || syms[i].start != syms[n - 1].start)
			syms[n++] = syms[i];
	return n;
}

/* @syms as kallsyms text: starts, and ends where nothing starts. */
static char *kallsyms_text(struct listed_sym *syms, size_t nr)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	nr = unique_starts(syms, nr);
	for (i = 0; i < nr; i++) {
		fprintf(f, "%016llx t %s%s%s%s\n",
			(unsigned long long)syms[i].start, syms[i].name,
			*syms[i].mod ? "\t[" : "", syms[i].mod,
			*syms[i].mod ? "]" : "");
		if (i + 1 < nr && syms[i + 1].start <= syms[i].end)
			continue;
		fprintf(f, "%016llx t %s.end\n",
			(unsigned long long)syms[i].end, syms[i].name);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

struct tep_handle *maplist_listing_symbols(const char *path,
					   struct sm_err *err)
{
	struct tep_handle *tep = maplist_symbols(NULL, err);
	struct listed_sym *syms = NULL;
	char *text, *ksyms = NULL;
	size_t len;
	long nr;

	if (!tep)
		return NULL;
	text = read_listing_file(path, &len);
	if (!text) {
		sm_err_set(err, "%s: %s", path, strerror(errno));
		tep_free(tep);
		return NULL;
	}
	nr = listed_syms(text, &syms);
	free(text);
	if (nr > 0)
		ksyms = kallsyms_text(syms, nr);
	free(syms);
	if (nr < 0 || (nr > 0 && !ksyms) ||
	    (ksyms && tep_parse_kallsyms(tep, ksyms))) {
		sm_err_set(err, "%s: out of memory", path);
		free(ksyms);
		tep_free(tep);
		return NULL;
	}
	free(ksyms);
	return tep;
}

/*
 * Does @tep place the function @s where the listing does?  A function of
 * @tep must start where @s starts (an alias of another name at the same
 * address agrees: %pS and libtraceevent may pick different ones).
 */
static bool placed_alike(struct tep_handle *tep, const struct listed_sym *s)
{
	return tep_find_function(tep, s->start) &&
	       tep_find_function_address(tep, s->start) == s->start;
}

int maplist_check_symbols(const char *path, struct tep_handle *tep,
			  const char *ksyms, size_t *named, size_t *differ,
			  struct sm_err *err)
{
	const struct listed_sym *bad = NULL;
	struct listed_sym *syms = NULL;
	size_t len, i, agree = 0;
	char *text;
	long nr;

	*named = *differ = 0;
	text = read_listing_file(path, &len);
	if (!text)
		return sm_err_code(err, -errno, "%s: %s", path, strerror(errno));
	nr = listed_syms(text, &syms);
	free(text);
	if (nr < 0)
		return sm_err_code(err, -ENOMEM, "%s: out of memory", path);
	nr = unique_starts(syms, nr);
	for (i = 0; i < (size_t)nr; i++) {
		if (placed_alike(tep, &syms[i]))
			agree++;
		else if (!bad)
			bad = &syms[i];
	}
	*named = nr;
	*differ = nr - agree;
	if (!nr || kallsyms_vote_accepts(agree, nr)) {
		free(syms);
		return 0;
	}
	sm_err_set(err, "--kallsyms %s: not the kallsyms of %s's kernel: %zu of the %ld functions the listing names do not start at its addresses there (e.g. %s at 0x%llx: there %s%s); at most 1 in %d may differ",
		   ksyms, path, *differ, nr, bad->name,
		   (unsigned long long)bad->start,
		   tep_find_function(tep, bad->start) ? "in " : "no symbol",
		   tep_find_function(tep, bad->start) ?: "",
		   DW_MATCH_TOLERANCE);
	free(syms);
	return -EINVAL;
}
