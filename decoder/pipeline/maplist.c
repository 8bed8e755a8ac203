// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode --map, input (see maplist.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listing.h"
#include "maplist.h"
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
	if (!text) {
		sm_err_set(err, "%s: %s", path, strerror(errno));
		tep_free(tep);
		return NULL;
	}
	ret = tep_parse_kallsyms(tep, text);
	free(text);
	if (ret) {
		sm_err_set(err, "%s: not a kallsyms file", path);
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
