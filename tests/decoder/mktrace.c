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

struct mktrace {
	int nr_cpus;
	struct mkt_cpu cpus[MKT_MAX_CPUS];
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
	return t;
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
	t->cpus[cpu].lose = count;
	t->cpus[cpu].lose_pending = true;
}

void mkt_add(struct mktrace *t, int cpu, unsigned long long ts,
	     const void *data, size_t len)
{
	struct mkt_cpu *c = &t->cpus[cpu];
	size_t padded = (len + 3) & ~(size_t)3;
	size_t need = 4 + padded + (padded > 4 * MAX_TYPE_LEN ? 4 : 0);
	struct mkt_page *pg = c->nr_pages ? &c->pages[c->nr_pages - 1] : NULL;
	unsigned char *p;

	if (cpu < 0 || cpu >= t->nr_cpus || len > 1000 || ts < c->last_ts)
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
	w(o, "flyrecord", 10);
}

static void write_cpu_data(struct out *o, struct mktrace *t)
{
	long pos = ftell(o->f) + 16L * t->nr_cpus;
	unsigned long long off;
	int cpu;
	size_t i;

	off = (pos + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		size_t size = t->cpus[cpu].nr_pages * PAGE_SIZE;

		w_num(o, off, 8);
		w_num(o, size, 8);
		off += size;
	}
	while (pos++ % PAGE_SIZE)
		w_num(o, 0, 1);
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		seal_pages(&t->cpus[cpu]);
		for (i = 0; i < t->cpus[cpu].nr_pages; i++)
			w(o, t->cpus[cpu].pages[i].data, PAGE_SIZE);
	}
}

int mkt_write(struct mktrace *t, const char *path,
	      const struct mkt_format *formats, const char *kallsyms,
	      const char *cmdlines)
{
	struct out o = { .f = fopen(path, "w") };
	int cpu, ret = 0;

	if (!o.f) {
		ret = -1;
		goto out;
	}
	write_headers(&o, t->nr_cpus, formats, kallsyms, cmdlines);
	write_cpu_data(&o, t);
	if (fclose(o.f) || o.failed) {
		errno = EIO;
		ret = -1;
	}
out:
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		free(t->cpus[cpu].pages);
	free(t);
	return ret;
}
