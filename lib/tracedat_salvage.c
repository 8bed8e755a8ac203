// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_salvage: a readable copy of a version 7 trace.dat whose tail was
 * cut (see tracedat_salvage.h for the layout and the trace-cmd functions it
 * mirrors: libtracecmd has no call that reads or repairs a file whose
 * options are missing).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat_file.h"
#include "tracedat_options.h"
#include "tracedat_salvage.h"

/* trace-cmd's enum of option and section ids (trace-cmd-private.h). */
#define SV_OPTION_BUFFER	3
#define SV_OPTION_TRACECLOCK	4
#define SV_OPTION_CPUCOUNT	8
#define SV_OPTION_MAX		64	/* larger: not a section header */
#define SV_MAX_SECTIONS		4096
#define SV_MAX_CPUS		4096
#define SV_MAX_CHUNK		(64u << 20)	/* larger: not a chunk header */

/* What the surviving option chain says. */
struct sv_chain {
	sm_u64 lost_at;		/* first section not whole in the file */
	sm_u64 done_next;	/* offset of the last DONE's next offset */
	sm_u64 done_desc;	/* that section's description string id */
	sm_u64 placed[SV_MAX_SECTIONS];	/* BUFFER sections already placed */
	unsigned int nr_placed;
	bool top_placed;	/* a BUFFER option names the top buffer */
	unsigned int cpus;	/* CPUCOUNT, 0 when absent */
	char clock[64];
};

/* One CPU's data: where it starts and how many bytes it has. */
struct sv_stream {
	sm_u64 offset;
	sm_u64 size;
	sm_u64 count_at;	/* where its chunk count is */
	unsigned int chunks;	/* whole chunks */
};

/* The BUFFER section nothing places, and its CPU streams. */
struct sv_data {
	sm_u64 section;		/* 0: none */
	sm_u64 flags;
	sm_u64 size;
	struct sv_stream streams[SV_MAX_CPUS];
	unsigned int nr;
	sm_u64 keep;		/* bytes of the file the copy keeps */
};

static sm_u64 align_up(sm_u64 v, unsigned int page)
{
	return (v + page - 1) & ~(sm_u64)(page - 1);
}

/* The selected clock of a TRACECLOCK option ("[local] global ..."). */
static int sv_clock(struct tracedat *td, sm_u64 off, sm_u64 size,
		    struct sv_chain *c, struct sm_err *err)
{
	char *text, *open, *close;
	int ret;

	ret = td_payload(td, off, size, 4096, "trace clock option", &text,
			 err);
	if (ret)
		return ret;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (close && close - open - 1 < (long)sizeof(c->clock)) {
		memcpy(c->clock, open + 1, close - open - 1);
		c->clock[close - open - 1] = '\0';
	}
	free(text);
	return 0;
}

/* One option of the chain: what it says about the data. */
static int sv_option(struct tracedat *td, sm_u64 id, sm_u64 off,
		     sm_u64 size, struct sv_chain *c, struct sm_err *err)
{
	sm_u64 v;
	char name;
	int ret;

	switch (id) {
	case SV_OPTION_BUFFER:
		ret = td_num(td, off, 8, &v, "buffer option: offset", err);
		if (!ret)
			ret = td_read(td, off + 8, &name, 1,
				      "buffer option: name", err);
		if (ret)
			return ret;
		if (c->nr_placed < SV_MAX_SECTIONS)
			c->placed[c->nr_placed++] = v;
		c->top_placed |= !name;
		return 0;
	case SV_OPTION_CPUCOUNT:
		ret = td_num(td, off, 4, &v, "CPU count option", err);
		c->cpus = v;
		return ret;
	case SV_OPTION_TRACECLOCK:
		return sv_clock(td, off, size, c, err);
	}
	return 0;
}

/*
 * One options section at @off, whole in the file: its options into @c, and
 * *@next from its DONE option (0: the chain ends).
 */
static int sv_section(struct tracedat *td, sm_u64 off, sm_u64 size,
		      struct sv_chain *c, sm_u64 *next, struct sm_err *err)
{
	sm_u64 end = off + TRACEDAT_SECTION_HDR + size, id, osize;
	int ret;

	for (off += TRACEDAT_SECTION_HDR; off + 6 <= end; off += osize) {
		ret = td_num(td, off, 2, &id, "option id", err);
		if (!ret)
			ret = td_num(td, off + 2, 4, &osize, "option size",
				     err);
		if (ret)
			return ret;
		off += 6;
		if (osize > end - off)
			break;
		if (id == TRACEDAT_OPTION_DONE) {
			c->done_next = off;
			*next = 0;
			if (osize < 8)
				return 0;
			return td_num(td, off, 8, next, "next options offset",
				      err);
		}
		ret = sv_option(td, id, off, osize, c, err);
		if (ret)
			return ret;
	}
	td_fail(td, err, "offset %" PRIu64 ": options section ends without a DONE option",
		end);
	return -EBADMSG;
}

/* Does the section at @off lie whole inside the file?  Its size in *@size. */
static bool sv_whole(struct tracedat *td, sm_u64 off, sm_u64 *size)
{
	struct sm_err ignored;

	if (off > td->size || td->size - off < TRACEDAT_SECTION_HDR ||
	    td_num(td, off + 8, 8, size, "section size", &ignored))
		return false;
	return *size <= td->size - off - TRACEDAT_SECTION_HDR;
}

/* Follow the option chain from @first to the first section not whole. */
static int sv_walk_chain(struct tracedat *td, sm_u64 first,
			 struct sv_chain *c, struct sm_err *err)
{
	sm_u64 off = first, size, desc;
	int ret, n;

	for (n = 0; off; n++) {
		if (n == SV_MAX_SECTIONS) {
			td_fail(td, err, "more than %d options sections (loop?)",
				SV_MAX_SECTIONS);
			return -EBADMSG;
		}
		if (!sv_whole(td, off, &size)) {
			c->lost_at = off;
			break;
		}
		ret = td_num(td, off + 4, 4, &desc, "section description",
			     err);
		if (!ret)
			ret = sv_section(td, off, size, c, &off, err);
		if (ret)
			return ret;
		c->done_desc = desc;
	}
	if (!c->lost_at) {
		td_fail(td, err, "its option chain ends inside the file: nothing was cut after the data");
		return -ENOENT;
	}
	if (!c->done_next) {
		td_fail(td, err, "offset %" PRIu64 ": its first options section is cut: nothing to rebuild from",
			c->lost_at);
		return -EBADMSG;
	}
	return 0;
}

static bool sv_is_placed(const struct sv_chain *c, sm_u64 section)
{
	unsigned int i;

	for (i = 0; i < c->nr_placed; i++)
		if (c->placed[i] == section)
			return true;
	return false;
}

/*
 * Walk the sections one after the other from @start (trace-cmd writes them
 * back to back) and keep the last BUFFER section that no option places:
 * the one whose option the cut took.
 */
static int sv_find_data(struct tracedat *td, sm_u64 start,
			const struct sv_chain *c, struct sv_data *d,
			struct sm_err *err)
{
	sm_u64 off = start, id, size;
	int ret, n;

	for (n = 0; n < SV_MAX_SECTIONS && off + TRACEDAT_SECTION_HDR <= td->size;
	     n++) {
		ret = td_num(td, off, 2, &id, "section id", err);
		if (!ret)
			ret = td_num(td, off + 8, 8, &size, "section size",
				     err);
		if (ret)
			return ret;
		if (id >= SV_OPTION_MAX)
			break;
		if (id == SV_OPTION_BUFFER && !sv_is_placed(c, off)) {
			d->section = off;
			d->size = size;
			ret = td_num(td, off + 2, 2, &d->flags,
				     "section flags", err);
			if (ret)
				return ret;
		}
		if (size > td->size - off - TRACEDAT_SECTION_HDR)
			break;
		off += TRACEDAT_SECTION_HDR + size;
	}
	return 0;
}

/* What sv_stream() walks: the end of the file or section, and its chunks. */
struct sv_walk {
	sm_u64 end;
	sm_u64 reached;		/* past the last whole chunk */
	unsigned int chunks;	/* whole chunks */
};

/* td_chunks() visitor of sv_stream(): one more whole chunk, or stop. */
static int sv_chunk(struct tracedat *td, unsigned int i, sm_u64 off,
		    sm_u64 csize, sm_u64 usize, void *ctx, struct sm_err *err)
{
	struct sv_walk *w = ctx;

	(void)i;
	if (!csize || csize > SV_MAX_CHUNK || usize > SV_MAX_CHUNK) {
		td_fail(td, err, "offset %" PRIu64 ": CPU data: chunk of %" PRIu64 " bytes (%" PRIu64 " uncompressed): not a chunk header",
			off, csize, usize);
		return -EBADMSG;
	}
	if (csize > w->end - off - 8)
		return 1;	/* cut inside it */
	w->reached = off + 8 + csize;
	w->chunks++;
	return 0;
}

/*
 * One compressed CPU stream at @off, within @end: its whole chunks.
 * Return: 1 when the cut ends inside it, 0 when it is whole.
 */
static int sv_stream(struct tracedat *td, sm_u64 off, sm_u64 end,
		     struct sv_stream *s, unsigned int *declared,
		     struct sm_err *err)
{
	struct sv_walk w = { .end = end, .reached = off + 4 };
	sm_u64 n;
	int ret;

	ret = td_chunks(td, off, end, &n, sv_chunk, &w, err);
	if (ret < 0)
		return ret;
	*declared = n;
	s->offset = off;
	s->count_at = off;
	s->chunks = w.chunks;
	s->size = w.reached - off;
	return w.chunks < n;
}

/* The CPU streams of the data section, up to the cut or the section's end. */
static int sv_streams(struct tracedat *td, const struct tracedat_head *h,
		      const struct sv_chain *c, struct sv_data *d,
		      struct stackmap_salvage *out, struct sm_err *err)
{
	sm_u64 off = d->section + TRACEDAT_SECTION_HDR;
	sm_u64 end = off + d->size;
	unsigned int declared = 0;
	int cut = end > td->size || end < off;

	if (cut)
		end = td->size;
	d->keep = end;
	if (!(d->flags & TRACEDAT_SEC_COMPRESS)) {
		if (c->cpus != 1) {
			td_fail(td, err, "offset %" PRIu64 ": uncompressed data of %u CPUs: where each ends was in the options the cut took",
				d->section, c->cpus);
			return -ENOTSUP;
		}
		off = align_up(off, h->page_size);
		d->streams[0].offset = off;
		d->streams[0].size = end > off ?
			(end - off) / h->page_size * h->page_size : 0;
		d->nr = 1;
		if (cut) {
			d->keep = off + d->streams[0].size;
			out->cut_cpu = 0;
			out->unit = "pages";
			out->kept = d->streams[0].size / h->page_size;
			out->bytes_lost = end - d->keep;
		}
		return 0;
	}
	for (cut = 0; !cut && d->nr < SV_MAX_CPUS; d->nr++) {
		off = align_up(off, h->page_size);
		if (off + 4 > end)
			break;
		cut = sv_stream(td, off, end, &d->streams[d->nr], &declared,
				err);
		if (cut < 0)
			return cut;
		off += d->streams[d->nr].size;
		if (cut) {
			out->cut_cpu = d->nr;
			out->unit = "compressed chunks";
			out->kept = d->streams[d->nr].chunks;
			out->lost = declared - out->kept;
			out->bytes_lost = end - off;
			d->keep = off;
		}
	}
	return 0;
}

/* Check that each stream's CPU is known (see the header), fill @out. */
static int sv_cpus(struct tracedat *td, const struct sv_chain *c,
		   const struct sv_data *d, struct stackmap_salvage *out,
		   struct sm_err *err)
{
	if (!c->cpus) {
		td_fail(td, err, "no CPU count option: the CPUs of the data at offset %" PRIu64 " are not known",
			d->section);
		return -ENOTSUP;
	}
	if (d->nr != c->cpus) {
		td_fail(td, err, "the data section at offset %" PRIu64 " holds %u CPU streams%s for %u CPUs: which CPU each belongs to was in the options the cut took",
			d->section, d->nr,
			out->cut_cpu >= 0 ? " before the cut" : "", c->cpus);
		return -ENOTSUP;
	}
	if (c->top_placed) {
		td_fail(td, err, "the data section at offset %" PRIu64 " is an instance's: its name was in the options the cut took",
			d->section);
		return -ENOTSUP;
	}
	out->cpus = d->nr;
	out->data_section = d->section;
	snprintf(out->clock, sizeof(out->clock), "%s",
		 c->clock[0] ? c->clock : "local");
	return 0;
}

/* Append @val as @bytes bytes in the file's byte order. */
static void put_num(unsigned char *buf, size_t *pos, sm_u64 val, int bytes,
		    bool big_endian)
{
	int i;

	for (i = 0; i < bytes; i++)
		buf[*pos + i] = val >> (8 * (big_endian ? bytes - 1 - i : i));
	*pos += bytes;
}

static void put_str(unsigned char *buf, size_t *pos, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(buf + *pos, s, n);
	*pos += n;
}

/*
 * The options section the copy ends with: the BUFFER option, as
 * tcmd_out_add_buffer_option() writes it, and a DONE option ending the
 * chain.  Return: its size in bytes.
 */
static size_t sv_options(unsigned char *buf, const struct tracedat *td,
			 const struct sv_chain *c, const struct sv_data *d,
			 const struct tracedat_head *h,
			 const struct stackmap_salvage *out)
{
	size_t pos = TRACEDAT_SECTION_HDR, opt, i;
	bool be = td->big_endian;

	put_num(buf, &pos, SV_OPTION_BUFFER, 2, be);
	opt = pos;
	pos += 4;
	put_num(buf, &pos, d->section, 8, be);
	put_str(buf, &pos, out->buffer);
	put_str(buf, &pos, out->clock);
	put_num(buf, &pos, h->page_size, 4, be);
	put_num(buf, &pos, d->nr, 4, be);
	for (i = 0; i < d->nr; i++) {
		put_num(buf, &pos, i, 4, be);
		put_num(buf, &pos, d->streams[i].offset, 8, be);
		put_num(buf, &pos, d->streams[i].size, 8, be);
	}
	i = opt;
	put_num(buf, &i, pos - opt - 4, 4, be);
	put_num(buf, &pos, TRACEDAT_OPTION_DONE, 2, be);
	put_num(buf, &pos, 8, 4, be);
	put_num(buf, &pos, 0, 8, be);
	i = 0;
	put_num(buf, &i, TRACEDAT_OPTION_DONE, 2, be);
	put_num(buf, &i, 0, 2, be);
	put_num(buf, &i, c->done_desc, 4, be);
	put_num(buf, &i, pos - TRACEDAT_SECTION_HDR, 8, be);
	return pos;
}

/* A temporary file in @dir, already unlinked. */
static int sv_tmpfile(const char *dir)
{
	char path[4096];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR &&
			errno != EINVAL && errno != ENOENT))
		return fd;
	snprintf(path, sizeof(path), "%s/fgdecode-salvage-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* The first @len bytes of @in into @fd. */
static int sv_copy(int in, int fd, sm_u64 len)
{
	char buf[1 << 16];
	loff_t from = 0;
	ssize_t n;

	while ((sm_u64)from < len) {
		n = copy_file_range(in, &from, fd, NULL, len - from, 0);
		if (n > 0)
			continue;
		if (n < 0 && errno != EXDEV && errno != ENOSYS &&
		    errno != EINVAL && errno != EOPNOTSUPP)
			return -errno;
		n = pread(in, buf, len - from < sizeof(buf) ?
			  len - from : sizeof(buf), from);
		if (n <= 0 || write(fd, buf, n) != n)
			return n < 0 ? -errno : -EIO;
		from += n;
	}
	return 0;
}

/* Write @val at @off of the copy @fd. */
static int sv_patch(int fd, sm_u64 off, sm_u64 val, int bytes,
		    bool big_endian)
{
	unsigned char buf[8];
	size_t pos = 0;

	put_num(buf, &pos, val, bytes, big_endian);
	return pwrite(fd, buf, bytes, off) == bytes ? 0 : -EIO;
}

/* Make the copy: the kept bytes, the patches, the rebuilt options. */
static int sv_write(struct tracedat *td, const struct sv_chain *c,
		    const struct sv_data *d, const struct tracedat_head *h,
		    struct stackmap_salvage *out, const char *tmpdir,
		    struct sm_err *err)
{
	unsigned char *opts = NULL;
	bool be = td->big_endian;
	size_t len = 0;
	int fd, ret;

	fd = sv_tmpfile(tmpdir);
	if (fd < 0) {
		ret = -errno;
		sm_err_set(err, "%s: %s", tmpdir, strerror(errno));
		return ret;
	}
	ret = sv_copy(td->fd, fd, d->section ? d->keep :
		      c->lost_at < td->size ? c->lost_at : td->size);
	if (!ret && d->section) {
		opts = malloc(TRACEDAT_SECTION_HDR + 128 + 20 * d->nr);
		if (!opts)
			ret = -ENOMEM;
	}
	if (!ret && d->section) {
		len = sv_options(opts, td, c, d, h, out);
		if (out->cut_cpu >= 0 && (d->flags & TRACEDAT_SEC_COMPRESS))
			ret = sv_patch(fd, d->streams[out->cut_cpu].count_at,
				       d->streams[out->cut_cpu].chunks, 4, be);
		if (!ret)
			ret = sv_patch(fd, d->section + 8, d->keep -
				       d->section - TRACEDAT_SECTION_HDR, 8, be);
		if (!ret && pwrite(fd, opts, len, d->keep) != (ssize_t)len)
			ret = -EIO;
	}
	if (!ret)
		ret = sv_patch(fd, c->done_next, d->section ? d->keep : 0, 8,
			       be);
	free(opts);
	if (ret) {
		sm_err_set(err, "%s: writing the repaired copy: %s", tmpdir,
			   strerror(-ret));
		close(fd);
		return ret;
	}
	out->fd = fd;
	return 0;
}

/*
 * Version 6: where the CPU tables are.  The parts before the top buffer's
 * table, in the order trace-input.c read_headers_v6() reads them
 * (read_header_files(), read_ftrace_files(), read_event_files(),
 * read_proc_kallsyms(), read_ftrace_printk(), read_and_parse_cmdlines(),
 * read_cpus(), read_options_type() and handle_options()).
 */
struct sv6 {
	sm_u64 cpus;
	sm_u64 table[SV_MAX_SECTIONS];	/* [0]: top; then each instance's */
	sm_u64 option[SV_MAX_SECTIONS];	/* the BUFFER option id's offset */
	unsigned int nr;
};

/* td6_tables() visitor: each table, the top buffer's first. */
static int sv6_table(struct tracedat *td, const char *name, sm_u64 table,
		     sm_u64 option, void *ctx, struct sm_err *err)
{
	struct sv6 *v = ctx;

	(void)td;
	(void)name;
	(void)err;
	if (!option) {
		v->table[0] = table;
	} else if (v->nr < SV_MAX_SECTIONS) {
		v->option[v->nr] = option;
		v->table[v->nr++] = table;
	}
	return 0;
}

static int sv6_find(struct tracedat *td, const struct tracedat_head *h,
		    struct sv6 *v, struct sm_err *err)
{
	v->nr = 1;
	return td6_tables(td, h, &v->cpus, SV_MAX_SECTIONS, sv6_table, v, err);
}

/* Patch one CPU of a table in the copy @fd to the data the file holds. */
static int sv6_cpu(struct tracedat *td, int fd, sm_u64 entry, int cpu,
		   unsigned int page, struct stackmap_salvage *out,
		   struct sm_err *err)
{
	sm_u64 off, size, keep;
	int ret;

	ret = td_num(td, entry, 8, &off, "CPU data offset", err);
	if (!ret)
		ret = td_num(td, entry + 8, 8, &size, "CPU data size", err);
	if (ret || !size || (off <= td->size && size <= td->size - off))
		return ret;
	keep = off < td->size ? (td->size - off) / page * page : 0;
	out->bytes_lost += size - keep;
	out->cpus_lost += !keep;
	if (out->cut_cpu < 0 && keep) {
		out->cut_cpu = cpu;
		out->unit = "pages";
		out->kept = keep / page;
		out->lost = (size - keep + page - 1) / page;
	}
	return sv_patch(fd, entry + 8, keep, 8, td->big_endian);
}

/* Make the version 6 copy: every CPU's data cut to what the file holds. */
static int salvage_v6(struct tracedat *td, const struct tracedat_head *h,
		      const char *tmpdir, struct stackmap_salvage *out,
		      struct sm_err *err)
{
	unsigned int b, cpu;
	struct sv6 *v;
	int fd, ret;

	v = calloc(1, sizeof(*v));
	if (!v) {
		sm_err_set(err, "out of memory");
		return -ENOMEM;
	}
	ret = sv6_find(td, h, v, err);
	fd = ret ? -1 : sv_tmpfile(tmpdir);
	if (!ret && fd < 0) {
		ret = -errno;
		sm_err_set(err, "%s: %s", tmpdir, strerror(errno));
	}
	if (!ret)
		ret = sv_copy(td->fd, fd, td->size);
	for (b = 0; !ret && b < v->nr; b++) {
		if (v->table[b] + 16 * v->cpus > td->size) {
			/* An instance's table is gone: make its option unknown. */
			out->buffers_lost++;
			ret = b ? sv_patch(fd, v->option[b], 0xffff, 2,
					   td->big_endian) : -EBADMSG;
			if (ret)
				td_fail(td, err, "offset %" PRIu64 ": the CPU table is cut",
					v->table[b]);
			continue;
		}
		for (cpu = 0; !ret && cpu < v->cpus; cpu++)
			ret = sv6_cpu(td, fd, v->table[b] + 16 * cpu, cpu,
				      h->page_size, out, err);
	}
	if (!ret && !out->bytes_lost && !out->buffers_lost) {
		td_fail(td, err, "all its CPU data lies inside the file: nothing was cut after the data");
		ret = -ENOENT;
	}
	out->cpus = v->cpus;
	free(v);
	if (ret) {
		if (fd >= 0)
			close(fd);
		return ret;
	}
	out->fd = fd;
	return 0;
}

static int salvage(struct tracedat *td, const char *tmpdir,
		   struct stackmap_salvage *out, struct sm_err *err)
{
	struct tracedat_head h;
	struct sv_chain *c;
	struct sv_data *d;
	int ret;

	ret = td_fields(td, &h, err);
	if (ret)
		return ret;
	if (!h.page_size || (h.page_size & (h.page_size - 1))) {
		td_fail(td, err, "page size %u: not a power of two", h.page_size);
		return -EBADMSG;
	}
	if (h.file_version < 7)
		return salvage_v6(td, &h, tmpdir, out, err);
	c = calloc(1, sizeof(*c));
	d = calloc(1, sizeof(*d));
	ret = c && d ? 0 : -ENOMEM;
	if (ret)
		sm_err_set(err, "out of memory");
	if (!ret)
		ret = sv_walk_chain(td, h.options, c, err);
	if (!ret)
		ret = sv_find_data(td, h.end, c, d, err);
	out->lost_at = c ? c->lost_at : 0;
	if (!ret && d->section) {
		ret = sv_streams(td, &h, c, d, out, err);
		if (!ret)
			ret = sv_cpus(td, c, d, out, err);
	}
	if (!ret)
		ret = sv_write(td, c, d, &h, out, tmpdir, err);
	free(c);
	free(d);
	return ret;
}

int stackmap_tracedat_salvage(const char *path, const char *tmpdir,
			      struct stackmap_salvage *out,
			      struct sm_err *err)
{
	struct tracedat td;
	int ret;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	out->cut_cpu = -1;
	ret = td_open(&td, path, err);
	if (ret)
		return ret;
	out->file_size = td.size;
	ret = salvage(&td, tmpdir, out, err);
	close(td.fd);
	return ret;
}
