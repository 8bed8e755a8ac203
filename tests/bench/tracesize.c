// SPDX-License-Identifier: GPL-2.0
/*
 * B1: how many ring-buffer bytes each event type takes in a trace.dat.
 *
 * For every record libtracecmd reads, the payload is record->size (the
 * event's fields, padded to 4 bytes as the ring buffer stores them) and the
 * ring-buffer bytes are that payload plus the ring buffer's 4-byte event
 * header, plus the 4-byte length word the ring buffer adds to payloads over
 * 112 bytes (RB_MAX_SMALL_DATA).  Time-extend and padding records are not
 * events and are not counted.
 *
 * Usage: tracesize trace.dat
 * Output: one line per event type, "system:name count payload rb_bytes",
 * then "total count payload rb_bytes".  Exit 1 when the file cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#define MAX_TYPES		4096
#define RB_HEADER		4
#define RB_LENGTH_WORD		4
#define RB_MAX_SMALL_DATA	112

struct type_sum {
	unsigned long long count, payload, rb_bytes;
};

static struct type_sum sums[MAX_TYPES];

static unsigned long long rb_bytes(unsigned int size)
{
	return size + RB_HEADER + (size > RB_MAX_SMALL_DATA ? RB_LENGTH_WORD : 0);
}

static int count_record(struct tracecmd_input *handle, struct tep_record *rec,
			int cpu, void *data)
{
	int type = tep_data_type(tracecmd_get_tep(handle), rec);

	(void)cpu;
	(void)data;
	if (type < 0 || type >= MAX_TYPES)
		return -1;
	sums[type].count++;
	sums[type].payload += rec->size;
	sums[type].rb_bytes += rb_bytes(rec->size);
	return 0;
}

static void print_sums(struct tep_handle *tep)
{
	struct type_sum total = { 0 };

	for (int type = 0; type < MAX_TYPES; type++) {
		struct tep_event *ev;

		if (!sums[type].count)
			continue;
		ev = tep_find_event(tep, type);
		printf("%s:%s %llu %llu %llu\n", ev ? ev->system : "?",
		       ev ? ev->name : "?", sums[type].count, sums[type].payload,
		       sums[type].rb_bytes);
		total.count += sums[type].count;
		total.payload += sums[type].payload;
		total.rb_bytes += sums[type].rb_bytes;
	}
	printf("total %llu %llu %llu\n", total.count, total.payload,
	       total.rb_bytes);
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;

	if (argc != 2) {
		fprintf(stderr, "usage: tracesize trace.dat\n");
		return 1;
	}
	handle = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		fprintf(stderr, "tracesize: cannot open %s\n", argv[1]);
		return 1;
	}
	if (tracecmd_iterate_events(handle, NULL, 0, count_record, NULL) < 0) {
		fprintf(stderr, "tracesize: cannot read the events of %s\n", argv[1]);
		tracecmd_close(handle);
		return 1;
	}
	print_sums(tracecmd_get_tep(handle));
	tracecmd_close(handle);
	return 0;
}
