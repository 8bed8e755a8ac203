// SPDX-License-Identifier: GPL-2.0
/*
 * Seed corpus from a real recording: writes the payload of up to MAX_SEEDS
 * stackmap records of a trace.dat as fuzz_tep_stack inputs (header byte, then
 * the record data), one file per record.
 *
 * Usage: extract_seeds TRACE.dat OUTDIR
 * Exit: 0 with the number of seeds written on stdout, 1 on error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#define MAX_SEEDS	64

static int kind_of(const char *name)
{
	if (!strcmp(name, "stack_define"))
		return 0;
	if (!strcmp(name, "stack_fallback"))
		return 1;
	if (!strcmp(name, "stack_cookie"))
		return 2;
	return -1;
}

static int write_seed(const char *dir, int n, unsigned char head,
		      const void *data, int size)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/real-%03d", dir, n);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	fputc(head, f);
	fwrite(data, 1, size, f);
	return fclose(f);
}

struct extract {
	const char *dir;
	int seen[3];
	int n;
	int failed;
};

/* tracecmd_iterate_events() callback: non-zero stops the iteration. */
static int extract_record(struct tracecmd_input *handle, struct tep_record *rec,
			  int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct extract *x = data;
	int kind = ev && !strcmp(ev->system, "stackmap") ? kind_of(ev->name) : -1;
	/* fuzz_tep_stack's kind 3: a stack_define with ips[], older modules'. */
	int head = kind == 0 && !tep_find_field(ev, "frames") ? 3 : kind;

	(void)cpu;
	/* A few of each kind; the long size of the recording is 8. */
	if (kind < 0 || x->seen[kind] >= MAX_SEEDS / 3)
		return 0;
	x->seen[kind]++;
	if (write_seed(x->dir, x->n++, (unsigned char)(head << 2), rec->data,
		       rec->size)) {
		x->failed = 1;
		return 1;
	}
	return x->n >= MAX_SEEDS;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	struct extract x = { 0 };

	if (argc != 3) {
		fprintf(stderr, "usage: extract_seeds TRACE.dat OUTDIR\n");
		return 1;
	}
	handle = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		fprintf(stderr, "extract_seeds: %s: cannot open as trace.dat\n", argv[1]);
		return 1;
	}
	x.dir = argv[2];
	tracecmd_iterate_events(handle, NULL, 0, extract_record, &x);
	tracecmd_close(handle);
	if (x.failed) {
		fprintf(stderr, "extract_seeds: %s: cannot write\n", argv[2]);
		return 1;
	}
	printf("%d\n", x.n);
	return 0;
}
