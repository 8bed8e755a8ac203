// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture: write a small trace.dat (see mktrace.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktrace.h"

#define PAGE_SIZE	4096
#define PAGE_HEADER	16		/* u64 timestamp, u64 commit */
#define PAGE_DATA	(PAGE_SIZE - PAGE_HEADER)
#define MAX_DELTA	(1ULL << 27)	/* time_delta is 27 bits */
#define MAX_TYPE_LEN	28		/* longer events store their length */
#define MISSING_EVENTS	(1ULL << 31)
#define MISSING_STORED	(1ULL << 30)

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

struct mkt_page {
	unsigned char data[PAGE_SIZE];
	size_t used;			/* bytes of data[PAGE_HEADER..] */
	unsigned long long lost;	/* events lost before this page */
};

struct mkt_cpu {
	struct mkt_page *pages;
	size_t nr_pages;
	unsigned long long last_ts;
	unsigned long long lose;	/* for the next page */
	bool lose_pending;
};

struct mkt_buffer {
	const char *name;		/* NULL for the top buffer */
	struct mkt_cpu cpus[MKT_MAX_CPUS];
	long option_at;			/* file offset of its BUFFER offset */
};

struct mktrace {
	int nr_cpus;
	int nr_buffers;
	struct mkt_buffer buffers[MKT_MAX_BUFFERS];
};

static void die(const char *what)
{
	fprintf(stderr, "mktrace: %s\n", what);
	abort();
}

static void put_le(unsigned char *p, unsigned long long val, int size)
{
	int i;

	for (i = 0; i < size; i++)
		p[i] = (unsigned char)(val >> (8 * i));
}

struct mktrace *mkt_new(int nr_cpus)
{
	struct mktrace *t;

	if (nr_cpus < 1 || nr_cpus > MKT_MAX_CPUS)
		die("bad CPU count");
	t = calloc(1, sizeof(*t));
	if (!t)
		die("out of memory");
	t->nr_cpus = nr_cpus;
	t->nr_buffers = 1;
	return t;
}

int mkt_add_buffer(struct mktrace *t, const char *name)
{
	if (t->nr_buffers >= MKT_MAX_BUFFERS || !name || !*name)
		die("bad buffer");
	t->buffers[t->nr_buffers].name = name;
	return t->nr_buffers++;
}

static struct mkt_page *new_page(struct mkt_cpu *c, unsigned long long ts)
{
	struct mkt_page *pg;

	c->pages = realloc(c->pages, (c->nr_pages + 1) * sizeof(*c->pages));
	if (!c->pages)
		die("out of memory");
	pg = &c->pages[c->nr_pages++];
	memset(pg, 0, sizeof(*pg));
	put_le(pg->data, ts, 8);
	if (c->lose_pending)
		pg->lost = c->lose;
	c->lose_pending = false;
	c->last_ts = ts;
	return pg;
}

void mkt_lose(struct mktrace *t, int cpu, unsigned long long count)
{
	t->buffers[0].cpus[cpu].lose = count;
	t->buffers[0].cpus[cpu].lose_pending = true;
}

void mkt_add(struct mktrace *t, int cpu, unsigned long long ts,
	     const void *data, size_t len)
{
	mkt_add_to(t, 0, cpu, ts, data, len);
}

void mkt_add_to(struct mktrace *t, int buffer, int cpu, unsigned long long ts,
		const void *data, size_t len)
{
	struct mkt_cpu *c;
	size_t padded = (len + 3) & ~(size_t)3;
	size_t need = 4 + padded + (padded > 4 * MAX_TYPE_LEN ? 4 : 0);
	struct mkt_page *pg;
	unsigned char *p;

	if (buffer < 0 || buffer >= t->nr_buffers || cpu < 0 ||
	    cpu >= t->nr_cpus)
		die("bad buffer or CPU");
	c = &t->buffers[buffer].cpus[cpu];
	pg = c->nr_pages ? &c->pages[c->nr_pages - 1] : NULL;
	if (len > 1000 || ts < c->last_ts)
		die("bad event");
	/* 8 bytes stay free for a lost-events count. */
	if (!pg || c->lose_pending || pg->used + need > PAGE_DATA - 8 ||
	    ts - c->last_ts >= MAX_DELTA)
		pg = new_page(c, ts);
	p = pg->data + PAGE_HEADER + pg->used;
	if (padded > 4 * MAX_TYPE_LEN) {
		put_le(p, (ts - c->last_ts) << 5, 4);
		put_le(p + 4, padded + 4, 4);
		p += 8;
	} else {
		put_le(p, (ts - c->last_ts) << 5 | padded / 4, 4);
		p += 4;
	}
	memcpy(p, data, len);
	pg->used += need;
	c->last_ts = ts;
}

/* Fill in the commit word (and the lost count) of every page. */
static void seal_pages(struct mkt_cpu *c)
{
	size_t i;

	for (i = 0; i < c->nr_pages; i++) {
		struct mkt_page *pg = &c->pages[i];
		unsigned long long commit = pg->used;

		if (pg->lost) {
			commit |= MISSING_EVENTS | MISSING_STORED;
			put_le(pg->data + PAGE_HEADER + pg->used, pg->lost, 8);
		}
		put_le(pg->data + 8, commit, 8);
	}
}

struct out {
	FILE *f;
	bool failed;
};

static void w(struct out *o, const void *p, size_t len)
{
	if (len && fwrite(p, 1, len, o->f) != len)
		o->failed = true;
}

static void w_num(struct out *o, unsigned long long val, int size)
{
	unsigned char b[8];

	put_le(b, val, size);
	w(o, b, size);
}

static void w_str0(struct out *o, const char *s)
{
	w(o, s, strlen(s) + 1);
}

/* @size_bytes-long size, then the text. */
static void w_sized(struct out *o, const char *text, int size_bytes)
{
	w_num(o, strlen(text), size_bytes);
	w(o, text, strlen(text));
}

static void write_formats(struct out *o, const struct mkt_format *formats)
{
	const struct mkt_format *f, *g;
	int nsys = 0, nev;

	/* Group the formats by system, in order of first appearance. */
	for (f = formats; f->system; f++) {
		for (g = formats; g != f && strcmp(g->system, f->system); g++)
			;
		nsys += g == f;
	}
	w_num(o, nsys, 4);
	for (f = formats; f->system; f++) {
		for (g = formats; g != f && strcmp(g->system, f->system); g++)
			;
		if (g != f)
			continue;
		w_str0(o, f->system);
		for (nev = 0, g = f; g->system; g++)
			nev += !strcmp(g->system, f->system);
		w_num(o, nev, 4);
		for (g = f; g->system; g++)
			if (!strcmp(g->system, f->system))
				w_sized(o, g->text, 8);
	}
}

static void write_headers(struct out *o, int nr_cpus,
			  const struct mkt_format *formats,
			  const char *kallsyms, const char *cmdlines)
{
	w(o, "\027\010\104tracing", 10);
	w_str0(o, "6");
	w_num(o, 0, 1);			/* little endian */
	w_num(o, 8, 1);			/* long size */
	w_num(o, PAGE_SIZE, 4);
	w_str0(o, "header_page");
	w_sized(o, header_page, 8);
	w_str0(o, "header_event");
	w_sized(o, header_event, 8);
	w_num(o, 0, 4);			/* no ftrace formats */
	write_formats(o, formats);
	w_sized(o, kallsyms, 4);
	w_sized(o, "", 4);		/* printk formats */
	w_sized(o, cmdlines, 8);
	w_num(o, nr_cpus, 4);
}

/* The BUFFER options of the instances; their offsets are patched later. */
static void write_options(struct out *o, struct mktrace *t)
{
	int i;

	if (t->nr_buffers < 2)
		return;
	w(o, "options  ", 10);
	for (i = 1; i < t->nr_buffers; i++) {
		w_num(o, 3, 2);			/* TRACECMD_OPTION_BUFFER */
		w_num(o, 8 + strlen(t->buffers[i].name) + 1, 4);
		t->buffers[i].option_at = ftell(o->f);
		w_num(o, 0, 8);
		w_str0(o, t->buffers[i].name);
	}
	w_num(o, 0, 2);				/* TRACECMD_OPTION_DONE */
}

/*
 * "flyrecord", the (offset, size) of each CPU's pages, at least 8 zero bytes
 * (an empty trace clock), then the pages from the next page boundary.
 */
static void write_cpu_data(struct out *o, struct mktrace *t,
			   struct mkt_buffer *b)
{
	long pos, start;
	unsigned long long off;
	int cpu;
	size_t i;

	w(o, "flyrecord", 10);
	pos = ftell(o->f) + 16L * t->nr_cpus;
	start = (pos + 8 + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
	off = start;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		size_t size = b->cpus[cpu].nr_pages * PAGE_SIZE;

		w_num(o, off, 8);
		w_num(o, size, 8);
		off += size;
	}
	for (; pos < start; pos++)
		w_num(o, 0, 1);
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		seal_pages(&b->cpus[cpu]);
		for (i = 0; i < b->cpus[cpu].nr_pages; i++)
			w(o, b->cpus[cpu].pages[i].data, PAGE_SIZE);
	}
}

/* Each instance's data, with its BUFFER option pointed at it. */
static void write_instances(struct out *o, struct mktrace *t)
{
	long at;
	int i;

	for (i = 1; i < t->nr_buffers; i++) {
		at = ftell(o->f);
		fseek(o->f, t->buffers[i].option_at, SEEK_SET);
		w_num(o, at, 8);
		fseek(o->f, at, SEEK_SET);
		write_cpu_data(o, t, &t->buffers[i]);
	}
}

int mkt_write(struct mktrace *t, const char *path,
	      const struct mkt_format *formats, const char *kallsyms,
	      const char *cmdlines)
{
	struct out o = { .f = fopen(path, "w") };
	int cpu, i, ret = 0;

	if (!o.f) {
		ret = -1;
		goto out;
	}
	write_headers(&o, t->nr_cpus, formats, kallsyms, cmdlines);
	write_options(&o, t);
	write_cpu_data(&o, t, &t->buffers[0]);
	write_instances(&o, t);
	if (fclose(o.f) || o.failed) {
		errno = EIO;
		ret = -1;
	}
out:
	for (i = 0; i < t->nr_buffers; i++)
		for (cpu = 0; cpu < t->nr_cpus; cpu++)
			free(t->buffers[i].cpus[cpu].pages);
	free(t);
	return ret;
}
