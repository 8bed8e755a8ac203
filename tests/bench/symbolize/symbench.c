// SPDX-License-Identifier: GPL-2.0
/*
 * symbench: fgdecode's symbolizer (decoder/symbols/symbolize.c over dwsym.c) on a
 * list of addresses, timed.  Driven by run.sh.
 *
 *   symbench [--naive] ELF KALLSYMS ADDRS OUT
 *
 * ELF is placed with dwsym_open() as a vmlinux, KALLSYMS being `nm` output
 * of it ("ADDR TYPE NAME" lines: the recorded symbols, unshifted).  ADDRS
 * holds one hex address a line.  Each is symbolized once as a first frame
 * (no - 1, like addr2line), timed; then again (cache hits), timed; then
 * as return addresses (cache misses, indexes and line tables warm), timed;
 * then OUT
 * gets one line per address, "ADDR NAME FILE:LINE;..." innermost frame
 * first, the shape run.sh makes of addr2line's output.  Figures go to
 * standard output as "key value" lines.  --naive: dwsym's straightforward
 * libdw calls instead of its index (the reference).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dwsym.h"
#include "kallsyms.h"
#include "symbolize.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "symbench: %s: %s\n", what, why);
	exit(1);
}

/* Read `nm` output into @ks (names malloc'ed: free them with drop_kallsyms()). */
static void read_kallsyms(const char *path, struct kallsyms *ks)
{
	unsigned long long addr;
	char type, name[512];
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die(path, strerror(errno));
	memset(ks, 0, sizeof(*ks));
	while (fscanf(f, "%llx %c %511s", &addr, &type, name) == 3) {
		if (ks->nr == cap) {
			cap = cap ? cap * 2 : 1024;
			ks->syms = realloc(ks->syms, cap * sizeof(*ks->syms));
			if (!ks->syms)
				die(path, strerror(ENOMEM));
		}
		ks->syms[ks->nr].addr = addr;
		ks->syms[ks->nr].name = strdup(name);
		ks->syms[ks->nr].mod = NULL;
		ks->nr++;
	}
	fclose(f);
}

/* Free what read_kallsyms() allocated. */
static void drop_kallsyms(struct kallsyms *ks)
{
	size_t i;

	for (i = 0; i < ks->nr; i++)
		free((char *)ks->syms[i].name);
	kallsyms_free(ks);
}

/* Read hex addresses, one a line; return their number. */
static size_t read_addrs(const char *path, sm_u64 **out)
{
	unsigned long long a;
	size_t nr = 0, cap = 0;
	sm_u64 *v = NULL;
	FILE *f = fopen(path, "r");

	if (!f)
		die(path, strerror(errno));
	while (fscanf(f, "%llx", &a) == 1) {
		if (nr == cap) {
			cap = cap ? cap * 2 : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				die(path, strerror(ENOMEM));
		}
		v[nr++] = a;
	}
	fclose(f);
	*out = v;
	return nr;
}

static void print_frames(FILE *f, const struct symbolizer *sz, sm_u64 addr)
{
	struct sym_frame fr[SYM_MAX_FRAMES];
	int i, n = symbolize_addr(sz, addr, false, fr);

	fprintf(f, "0x%016llx ", (unsigned long long)addr);
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s:%d;", fr[i].name ? fr[i].name : "??",
			fr[i].file ? fr[i].file : "??", fr[i].line);
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	struct sym_frame fr[SYM_MAX_FRAMES];
	struct symbolizer sz = { 0 };
	struct dwsym_stats st;
	struct kallsyms ks;
	double t0, t1, t2, t3, t4, t5;
	struct sm_err err;
	bool naive = false;
	sm_u64 *addrs;
	size_t nr, i;
	FILE *out;

	if (argc > 1 && !strcmp(argv[1], "--naive")) {
		naive = true;
		argv++;
		argc--;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: symbench [--naive] ELF KALLSYMS ADDRS OUT\n");
		return 2;
	}
	read_kallsyms(argv[2], &ks);
	nr = read_addrs(argv[3], &addrs);
	if (!nr)
		die(argv[3], "no address");
	sz.tep = tep_alloc();
	t0 = now_us();
	if (dwsym_open(&sz.dw, &ks, argv[1], NULL, &err))
		die(argv[1], err.msg);
	dwsym_set_naive(sz.dw, naive);
	t1 = now_us();
	symbolize_addr(&sz, addrs[0], false, fr);
	t2 = now_us();
	for (i = 1; i < nr; i++)
		symbolize_addr(&sz, addrs[i], false, fr);
	t3 = now_us();
	for (i = 0; i < nr; i++)
		symbolize_addr(&sz, addrs[i], false, fr);
	t4 = now_us();
	/* As return addresses (looked up at - 1): not cached, but every
	 * unit they fall in already indexed, its line table read. */
	for (i = 0; i < nr; i++)
		symbolize_addr(&sz, addrs[i], true, fr);
	t5 = now_us();
	dwsym_get_stats(sz.dw, &st);
	out = fopen(argv[4], "w");
	if (!out)
		die(argv[4], strerror(errno));
	for (i = 0; i < nr; i++)
		print_frames(out, &sz, addrs[i]);
	if (fclose(out))
		die(argv[4], strerror(errno));
	printf("addresses %zu\n", nr);
	printf("open_ms %.3f\n", (t1 - t0) / 1e3);
	printf("first_ms %.3f\n", (t2 - t1) / 1e3);
	printf("per_addr_us %.3f\n", nr > 1 ? (t3 - t2) / (nr - 1) : 0.0);
	printf("cached_ns %.1f\n", (t4 - t3) * 1e3 / nr);
	printf("warm_per_addr_us %.3f\n", (t5 - t4) / nr);
	printf("build_ms %.3f\n", st.build_ns / 1e6);
	printf("units %zu\nscopes %zu\nsymbols %zu\n", st.units, st.scopes,
	       st.symbols);
	printf("naive_symbols %zu\nnaive_scopes %zu\n", st.naive_symbols,
	       st.naive_scopes);
	dwsym_free(sz.dw);
	tep_free(sz.tep);
	drop_kallsyms(&ks);
	free(addrs);
	return 0;
}
