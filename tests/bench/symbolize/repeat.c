// SPDX-License-Identifier: GPL-2.0
/*
 * B3 trace writer: a trace.dat whose stacks lie in the generated program
 * (run.sh's prog.elf, a vmlinux stand-in), each distinct stack used REPEAT
 * times, so fgdecode's DWARF cost can be compared at 1x and 10x repetition.
 *
 * Usage: repeat ADDRS KALLSYMS NSTACKS REPEAT OUT.dat
 *   ADDRS     distinct instruction addresses of prog.elf, one per line (0x...)
 *   KALLSYMS  `nm prog.elf`, stored in the trace as its kallsyms
 *   NSTACKS   distinct stacks of 8 frames, drawn from ADDRS (fixed seed)
 *   REPEAT    times each stack is used: a test:tick event followed by its
 *             stack_cookie; every stack is defined once, first
 * Exit: 0, or 1 with a message naming the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktrace.h"
#include "stackmap/cookie.h"
#include "tep_fixture.h"

#define DEPTH	8

static sm_u64 *read_addrs(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	sm_u64 *v = NULL, a;
	size_t cap = 0;

	*n = 0;
	if (!f)
		return NULL;
	while (fscanf(f, "%llx", (unsigned long long *)&a) == 1) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				break;
		}
		v[(*n)++] = a;
	}
	fclose(f);
	return v;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc(len + 1)) ||
	    fread(buf, 1, len, f) != (size_t)len) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static void add(struct mktrace *t, unsigned long long *ts, struct fx_buf *b)
{
	mkt_add(t, 0, (*ts)++ * 1000, b->data, b->len);
}

int main(int argc, char **argv)
{
	static const struct mkt_format formats[] = {
		{ "stackmap", fx_fmt_stack_define },
		{ "stackmap", fx_fmt_stack_cookie },
		{ "test", fx_fmt_tick },
		{ NULL, NULL },
	};
	unsigned long long ts = 1;
	struct mktrace *t;
	struct fx_buf b;
	char *kallsyms;
	sm_u64 *addrs;
	size_t n;
	int nstacks, repeat;

	if (argc != 6) {
		fprintf(stderr, "usage: repeat ADDRS KALLSYMS NSTACKS REPEAT OUT.dat\n");
		return 1;
	}
	addrs = read_addrs(argv[1], &n);
	kallsyms = read_file(argv[2]);
	nstacks = atoi(argv[3]);
	repeat = atoi(argv[4]);
	if (!addrs || n < DEPTH || !kallsyms || nstacks < 1 || repeat < 1) {
		fprintf(stderr, "repeat: cannot use %s / %s\n", argv[1], argv[2]);
		return 1;
	}
	srand(3);
	t = mkt_new(1);
	fx_buf_init(&b, 8, false);
	for (int s = 0; s < nstacks; s++) {
		sm_u64 frames[DEPTH];
		sm_u64 cookie = stackmap_cookie_make(1, (sm_u32)s);

		for (int f = 0; f < DEPTH; f++)
			frames[f] = addrs[(size_t)rand() % n];
		fx_define(&b, cookie, DEPTH, frames, DEPTH);
		add(t, &ts, &b);
		for (int r = 0; r < repeat; r++) {
			fx_tick(&b, s);
			add(t, &ts, &b);
			fx_cookie(&b, cookie);
			add(t, &ts, &b);
		}
	}
	if (mkt_write(t, argv[5], formats, kallsyms, "42 worker\n")) {
		perror(argv[5]);
		return 1;
	}
	free(addrs);
	free(kallsyms);
	return 0;
}
