// SPDX-License-Identifier: GPL-2.0
/*
 * kss-dump TRACE.dat: what the KernelShark plugin's panel shows, for every
 * record of a trace, in the shape of fgdecode's text output, so that a test
 * can compare the two record by record.  The records reach kss as libkshark
 * hands them to the plugin (CPU by CPU, each in file order: libkshark-
 * tepdata.c get_records()), and are printed in time order:
 *
 *   [CPU] SECONDS.MICROS: SYSTEM:EVENT:
 *   => frames (and markers) of its stack, as the panel shows them
 *
 * An event without a stack prints its line alone; a stack record an event
 * took and a stack_define print nothing, as in fgdecode's default output.
 */
#include <stdio.h>
#include <stdlib.h>

#include <event-parse.h>
#include <trace-cmd/trace-cmd.h>

#include "kss.h"

struct item {
	unsigned long long ts;
	int cpu;
	sm_u64 offset;
	int type;
};

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *in;
	struct tep_record *rec;
	struct tep_event *event;
	struct tep_handle *tep;
	struct item *items = NULL;
	size_t nr = 0, max = 0, i;
	unsigned long long us;
	enum kss_role role;
	struct kss *k;
	char *text;
	int cpu;

	if (argc != 2) {
		fprintf(stderr, "usage: kss-dump TRACE.dat\n");
		return 2;
	}
	in = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!in) {
		fprintf(stderr, "kss-dump: %s: cannot open\n", argv[1]);
		return 1;
	}
	tep = tracecmd_get_tep(in);
	k = kss_new(tep, argv[1]);
	if (!k)
		return 1;
	for (cpu = 0; cpu < tep_get_cpus(tep); cpu++) {
		for (rec = tracecmd_read_cpu_first(in, cpu); rec;
		     rec = tracecmd_read_data(in, cpu)) {
			if (nr == max) {
				max = max ? 2 * max : 4096;
				items = realloc(items, max * sizeof(*items));
				if (!items)
					return 1;
			}
			items[nr++] = (struct item){ rec->ts, rec->cpu, rec->offset,
						     tep_data_type(tep, rec) };
			if (kss_add(k, rec))
				return 1;
			tracecmd_free_record(rec);
		}
	}
	qsort(items, nr, sizeof(*items), by_time);
	for (i = 0; i < nr; i++) {
		role = kss_role(k, items[i].offset);
		if (role == KSS_ROLE_TAKEN || role == KSS_ROLE_DEFINE)
			continue;
		event = tep_find_event(tep, items[i].type);
		/* Microseconds rounded, as fgdecode and trace-cmd report print them. */
		us = (items[i].ts + 500) / 1000;
		printf("[%03d] %llu.%06llu: %s:\n", items[i].cpu, us / 1000000,
		       us % 1000000, event ? event->name : "?");
		if (role == KSS_ROLE_EVENT)
			continue;
		text = kss_text(k, items[i].offset);
		if (!text)
			return 1;
		printf("%s\n", text);
		free(text);
	}
	free(items);
	kss_free(k);
	tracecmd_close(in);
	return 0;
}
