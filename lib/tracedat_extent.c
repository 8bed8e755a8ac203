// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_extent: every buffer's CPU data as a trace.dat's headers place it
 * (see tracedat_extent.h).  The layouts are read with tracedat_file.c's
 * readers: the option chain (td_walk_file()), a BUFFER option (td_buffer()),
 * a compressed CPU stream's chunk headers (td_chunks()) and a version 6
 * file's CPU tables (td6_tables()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat_extent.h"
#include "tracedat_file.h"

#define EXTENT_MAX_BUFFERS	4096
#define EXTENT_MAX_CPUS		8192	/* Linux's largest NR_CPUS on x86-64 */
#define EXTENT_MAX_CHUNKS	(1u << 24)

/* What a walk fills: @out, and the header's page size and CPU count (v6). */
struct extent_walk {
	struct stackmap_extents *out;
	sm_u64 cpus;
	bool latency;		/* v7: a BUFFER_TEXT option (a latency trace) */
	sm_u64 cpu_count;	/* v7: the CPUCOUNT option's, 0 when none */
};

/* A new buffer named @name with @cpus CPUs, last in @out (*@b). */
static int add_buffer(struct tracedat *td, struct stackmap_extents *out,
		      const char *name, sm_u64 cpus,
		      struct stackmap_buffer_extent **b, struct sm_err *err)
{
	struct stackmap_buffer_extent *all;

	if (out->nr_buffers == EXTENT_MAX_BUFFERS || cpus > EXTENT_MAX_CPUS) {
		td_fail(td, err, "buffer \"%s\": %" PRIu64 " CPUs, or more than %d buffers: more than Linux has",
			name, cpus, EXTENT_MAX_BUFFERS);
		return -E2BIG;
	}
	all = realloc(out->buffers, (out->nr_buffers + 1) * sizeof(*all));
	if (!all) {
		td_fail(td, err, "out of memory");
		return -ENOMEM;
	}
	out->buffers = all;
	*b = all + out->nr_buffers;
	memset(*b, 0, sizeof(**b));
	snprintf((*b)->name, sizeof((*b)->name), "%s", name);
	(*b)->cpus = calloc(cpus ? cpus : 1, sizeof(*(*b)->cpus));
	if (!(*b)->cpus) {
		td_fail(td, err, "out of memory");
		return -ENOMEM;
	}
	(*b)->nr_cpus = cpus;
	out->nr_buffers++;
	return 0;
}

/* td_chunks() visitor: one chunk's header into the CPU's extent. */
static int add_chunk(struct tracedat *td, unsigned int i, sm_u64 off,
		     sm_u64 csize, sm_u64 usize, void *ctx, struct sm_err *err)
{
	struct stackmap_cpu_extent *c = ctx;

	(void)td;
	(void)csize;
	(void)err;
	c->chunk_at[i] = off;
	c->data_size += usize;
	c->chunk_end[i] = c->data_size;
	c->chunks = i + 1;
	return 0;
}

/* The chunk headers of a compressed CPU stream (tracecmd_load_chunks_info()). */
static int read_chunks(struct tracedat *td, struct stackmap_cpu_extent *c,
		       struct sm_err *err)
{
	sm_u64 count;
	int ret;

	ret = td_num(td, c->offset, 4, &count, "CPU data: chunk count", err);
	if (ret)
		return ret;
	/* Each chunk has an 8-byte header inside the data. */
	if (count > EXTENT_MAX_CHUNKS || count > c->size / 8) {
		td_fail(td, err, "offset %" PRIu64 ": CPU data: %" PRIu64 " chunks in %" PRIu64 " bytes",
			c->offset, count, c->size);
		return -EBADMSG;
	}
	c->chunk_at = calloc(count ? count : 1, sizeof(*c->chunk_at));
	c->chunk_end = calloc(count ? count : 1, sizeof(*c->chunk_end));
	if (!c->chunk_at || !c->chunk_end) {
		td_fail(td, err, "out of memory");
		return -ENOMEM;
	}
	return td_chunks(td, c->offset, c->offset + c->size, &count, add_chunk,
			 c, err);
}

/*
 * A section's flags: trace-cmd knows only TRACECMD_SEC_FL_COMPRESS.  With
 * it cleared by a damaged byte, libtracecmd took the compressed printk
 * formats for text and libtraceevent 1.7's tep_parse_printk_formats() read
 * past them.
 */
static int check_flags(struct tracedat *td, sm_u64 section,
		       struct sm_err *err)
{
	sm_u64 flags;
	int ret;

	ret = td_num(td, section + 2, 2, &flags, "section flags", err);
	if (!ret && (flags & ~(sm_u64)TRACEDAT_SEC_COMPRESS)) {
		td_fail(td, err, "offset %" PRIu64 ": section flags 0x%" PRIx64 ": not a section trace-cmd writes",
			section + 2, flags);
		ret = -EPROTO;
	}
	return ret;
}

/* An option placing a section (HEADER_INFO .. CMDLINES): its flags. */
static int check_section(struct tracedat *td, sm_u64 off, struct sm_err *err)
{
	sm_u64 section;
	int ret;

	ret = td_num(td, off, 8, &section, "section offset", err);
	return ret ? ret : check_flags(td, section, err);
}

/* The CPUCOUNT option: no more CPUs than Linux has (libtracecmd walks them). */
static int check_cpu_count(struct tracedat *td, sm_u64 off, sm_u64 size,
			   sm_u64 *count, struct sm_err *err)
{
	sm_u64 cpus;
	int ret;

	if (size < 4)
		return 0;
	ret = td_num(td, off, 4, &cpus, "CPU count option", err);
	*count = cpus;
	if (!ret && cpus > EXTENT_MAX_CPUS) {
		td_fail(td, err, "offset %" PRIu64 ": CPU count %" PRIu64 ": more than Linux has",
			off, cpus);
		ret = -E2BIG;
	}
	return ret;
}

/* Version 7: the option chain's visitor, each BUFFER option's CPUs. */
static int visit_buffer(struct tracedat *td, sm_u64 id, sm_u64 off,
			sm_u64 size, void *ctx, struct sm_err *err)
{
	struct extent_walk *w = ctx;
	struct stackmap_buffer_extent *b;
	struct stackmap_cpu_extent *c;
	sm_u64 flags, cpu, i;
	struct td_buffer opt;
	int ret;

	w->latency |= id == 22;	/* TRACECMD_OPTION_BUFFER_TEXT */
	if (id == 8)		/* TRACECMD_OPTION_CPUCOUNT */
		return check_cpu_count(td, off, size, &w->cpu_count, err);
	if (id >= 16 && id <= 21 && size >= 8)	/* HEADER_INFO .. CMDLINES */
		return check_section(td, off, err);
	if (id != 3)	/* TRACECMD_OPTION_BUFFER */
		return 0;
	ret = td_buffer(td, off, &opt, err);
	if (!ret)
		ret = check_flags(td, opt.section, err);
	/* trace-cmd writes nothing else in it (tcmd_out_add_buffer_option()). */
	if (!ret && (opt.cpus > size / 20 ||
		     opt.table + 20 * opt.cpus != off + size)) {
		td_fail(td, err, "offset %" PRIu64 ": buffer option: its fields take %" PRIu64 " of its %" PRIu64 " bytes",
			off, opt.table + 20 * opt.cpus - off, size);
		return -EPROTO;
	}
	if (!ret)
		ret = td_num(td, opt.section + 2, 2, &flags, "section flags",
			     err);
	if (ret)
		return ret;
	ret = add_buffer(td, w->out, opt.name, opt.cpus, &b, err);
	for (i = 0; !ret && i < opt.cpus; i++) {
		c = &b->cpus[i];
		ret = td_buffer_cpu(td, &opt, i, &cpu, &c->offset, &c->size,
				    err);
		c->cpu = cpu;
		c->data_size = c->size;
		if (!ret && cpu >= EXTENT_MAX_CPUS) {
			td_fail(td, err, "buffer \"%s\": CPU id %" PRIu64 ": more than Linux has",
				opt.name, cpu);
			ret = -E2BIG;
		}
		if (!ret && c->size && (flags & TRACEDAT_SEC_COMPRESS)) {
			c->data_size = 0;
			ret = read_chunks(td, c, err);
		}
	}
	return ret;
}

/* Version 6: td6_tables()' visitor, each table's CPUs. */
static int visit_table(struct tracedat *td, const char *name, sm_u64 table,
		       sm_u64 option, void *ctx, struct sm_err *err)
{
	struct extent_walk *w = ctx;
	struct stackmap_buffer_extent *b;
	sm_u64 i;
	int ret;

	(void)option;
	ret = add_buffer(td, w->out, name, w->cpus, &b, err);
	for (i = 0; !ret && i < w->cpus; i++) {
		b->cpus[i].cpu = i;
		ret = td_num(td, table + 16 * i, 8, &b->cpus[i].offset,
			     "CPU data offset", err);
		if (!ret)
			ret = td_num(td, table + 16 * i + 8, 8,
				     &b->cpus[i].size, "CPU data size", err);
		b->cpus[i].data_size = b->cpus[i].size;
	}
	return ret;
}

/*
 * trace-cmd numbers the CPUs of a BUFFER option below the CPUCOUNT option's
 * count (when there is one): a higher id is a damaged one, and libtracecmd
 * 1.3 read no record of the CPU whose id 0 became 255.
 */
static int check_ids(const char *path, const struct stackmap_extents *e,
		     sm_u64 count, struct sm_err *err)
{
	unsigned int b, c;

	for (b = 0; count && b < e->nr_buffers; b++)
		for (c = 0; c < e->buffers[b].nr_cpus; c++)
			if (e->buffers[b].cpus[c].cpu >= count) {
				sm_err_set(err, "%s: buffer \"%s\": CPU id %u: the trace has %llu CPUs",
					   path, e->buffers[b].name,
					   e->buffers[b].cpus[c].cpu,
					   (unsigned long long)count);
				return -EPROTO;
			}
	return 0;
}

/* Does @e hold the top buffer (named "")? */
static bool has_top(const struct stackmap_extents *e)
{
	unsigned int b;

	for (b = 0; b < e->nr_buffers; b++)
		if (!e->buffers[b].name[0])
			return true;
	return false;
}

int stackmap_tracedat_extents(const char *path, struct stackmap_extents *out,
			      struct sm_err *err)
{
	struct extent_walk w = { .out = out };
	struct tracedat_head h;
	struct tracedat td;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = td_open(&td, path, err);
	if (ret)
		return ret;
	ret = td_fields(&td, &h, err);
	out->page_size = h.page_size;
	if (!ret && h.file_version < 7)
		ret = td6_tables(&td, &h, &w.cpus, EXTENT_MAX_BUFFERS,
				 visit_table, &w, err);
	close(td.fd);
	if (!ret && h.file_version >= 7)
		ret = td_walk_file(path, 0, visit_buffer, &w, err);
	/*
	 * trace-cmd writes the top buffer's BUFFER option, with no CPU when
	 * only instances were recorded (out_write_cpu_data()): without it,
	 * libtracecmd places none of the top buffer's data.
	 */
	if (!ret && h.file_version >= 7 && !w.latency &&
	    !has_top(out)) {
		sm_err_set(err, "%s: no BUFFER option places the top buffer's data",
			   path);
		ret = -EPROTO;
	}
	if (!ret && h.file_version >= 7)
		ret = check_ids(path, out, w.cpu_count, err);
	if (ret)
		stackmap_extents_free(out);
	return ret;
}

void stackmap_extents_free(struct stackmap_extents *e)
{
	unsigned int b, c;

	for (b = 0; b < e->nr_buffers; b++) {
		for (c = 0; c < e->buffers[b].nr_cpus; c++) {
			free(e->buffers[b].cpus[c].chunk_at);
			free(e->buffers[b].cpus[c].chunk_end);
		}
		free(e->buffers[b].cpus);
	}
	free(e->buffers);
	memset(e, 0, sizeof(*e));
}

const struct stackmap_cpu_extent *
stackmap_extent_find(const struct stackmap_extents *e, const char *name,
		     unsigned int index)
{
	unsigned int b;

	for (b = 0; b < e->nr_buffers; b++)
		if (!strcmp(e->buffers[b].name, name ? name : "") &&
		    index < e->buffers[b].nr_cpus)
			return &e->buffers[b].cpus[index];
	return NULL;
}
