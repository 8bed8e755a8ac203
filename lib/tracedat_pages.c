// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_pages: every ring-buffer page of a trace.dat's CPU data (see
 * tracedat_pages.h), placed by tracedat_extent.c and, when compressed,
 * uncompressed a chunk at a time by tracedat_block.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat_block.h"
#include "tracedat_extent.h"
#include "tracedat_file.h"
#include "tracedat_pages.h"

#define PAGES_MAX_PAGE	(1u << 20)
/*
 * trace-cmd writes a chunk of PAGES_IN_CHUNK (10) pages (lib/trace-cmd/
 * trace-output.c, its compressed copy of a CPU's data): 10 MiB at the
 * largest page above.  A chunk header that
 * claims more than this is refused before anything is allocated for it.
 */
#define PAGES_MAX_CHUNK	(64u << 20)

/* A walk: the file, its algorithm, the visitor and a page being filled. */
struct page_walk {
	struct tracedat td;
	enum td_algo algo;
	unsigned int page_size;
	stackmap_page_fn fn;
	void *arg;
	const char *buffer;
	unsigned int cpu;
	unsigned char *page;
	unsigned int fill;	/* bytes of @page filled so far */
};

/*
 * Hand the page filled so far to the visitor, zero-filled past its
 * @fill bytes when the CPU's data ends inside it; nothing when it is empty.
 */
static int hand_page(struct page_walk *w)
{
	if (!w->fill)
		return 0;
	memset(w->page + w->fill, 0, w->page_size - w->fill);
	w->fill = 0;
	return w->fn(w->buffer, w->cpu, w->page, w->page_size, w->arg);
}

/* Append @len bytes to the page; hand each page that fills to the visitor. */
static int feed(struct page_walk *w, const unsigned char *p, sm_u64 len)
{
	sm_u64 take;
	int ret;

	while (len) {
		take = w->page_size - w->fill;
		if (take > len)
			take = len;
		memcpy(w->page + w->fill, p, take);
		w->fill += take;
		p += take;
		len -= take;
		if (w->fill < w->page_size)
			break;
		ret = hand_page(w);
		if (ret)
			return ret;
	}
	return 0;
}

/* Data stored as it is: read a page at a time. */
static int plain_cpu(struct page_walk *w, const struct stackmap_cpu_extent *c,
		     struct sm_err *err)
{
	sm_u64 done, len;
	int ret;

	for (done = 0; done < c->size; done += len) {
		len = c->size - done;
		if (len > w->page_size)
			len = w->page_size;
		ret = td_read(&w->td, c->offset + done, w->page, len,
			      "CPU data", err);
		if (ret)
			return ret;
		w->fill = len;
		ret = hand_page(w);
		if (ret)
			return ret;
	}
	return 0;
}

/* Compressed data: each chunk uncompressed whole, its bytes fed on. */
static int compressed_cpu(struct page_walk *w,
			  const struct stackmap_cpu_extent *c,
			  struct sm_err *err)
{
	unsigned int i;
	sm_u64 len;
	char *out;
	int ret;

	for (i = 0; i < c->chunks; i++) {
		ret = td_block(&w->td, w->algo, c->chunk_at[i], PAGES_MAX_CHUNK,
			       &out, &len, err);
		if (ret)
			return ret;
		ret = feed(w, (const unsigned char *)out, len);
		free(out);
		if (ret)
			return ret;
	}
	return hand_page(w);
}

static int walk_extents(struct page_walk *w, const struct stackmap_extents *e,
			struct sm_err *err)
{
	const struct stackmap_cpu_extent *c;
	unsigned int b, i;
	int ret;

	for (b = 0; b < e->nr_buffers; b++) {
		w->buffer = e->buffers[b].name;
		for (i = 0; i < e->buffers[b].nr_cpus; i++) {
			c = &e->buffers[b].cpus[i];
			w->cpu = c->cpu;
			w->fill = 0;
			if (c->chunks && w->algo == TD_ALGO_UNKNOWN) {
				td_fail(&w->td, err, "CPU data: compressed with an algorithm libtracecmd has none for");
				return -EBADMSG;
			}
			ret = c->chunks ? compressed_cpu(w, c, err) :
					  plain_cpu(w, c, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int stackmap_tracedat_pages(const char *path, stackmap_page_fn fn, void *arg,
			    struct sm_err *err)
{
	struct page_walk w = { .fn = fn, .arg = arg };
	struct stackmap_extents e;
	struct tracedat_head h;
	int ret;

	ret = stackmap_tracedat_extents(path, &e, err);
	if (ret)
		return ret;
	ret = td_open(&w.td, path, err);
	if (ret) {
		stackmap_extents_free(&e);
		return ret;
	}
	ret = td_fields(&w.td, &h, err);
	if (!ret && (!e.page_size || e.page_size > PAGES_MAX_PAGE)) {
		td_fail(&w.td, err, "page size %u: not a ring-buffer page",
			e.page_size);
		ret = -EBADMSG;
	}
	if (!ret) {
		w.algo = td_algo_of(h.compression, h.compression_version);
		w.page_size = e.page_size;
		w.page = malloc(w.page_size);
		if (!w.page) {
			td_fail(&w.td, err, "out of memory");
			ret = -ENOMEM;
		}
	}
	if (!ret)
		ret = walk_extents(&w, &e, err);
	free(w.page);
	close(w.td.fd);
	stackmap_extents_free(&e);
	return ret;
}
