// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode, stage 1: read a trace.dat with libtracecmd (see read.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read.h"

/* Can @path be opened as a regular file?  Sets @err when not. */
static int check_file(const char *path, char *err)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, READER_ERR_LEN, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, READER_ERR_LEN, "%s", strerror(EISDIR));
		return -1;
	}
	return 0;
}

/* Find and check the stackmap events the trace holds. */
static int find_events(struct reader *r, char *err)
{
	struct tepstack_err terr;
	struct tep_event *event;
	int kind;

	for (kind = 0; kind < TEPSTACK_NR_KINDS; kind++) {
		r->ids[kind] = -1;
		event = tep_find_event_by_name(r->tep, STACKMAP_SYSTEM,
					       tepstack_event_name(kind));
		if (!event)
			continue;
		if (tepstack_fields_init(&r->fields[kind], event, &terr)) {
			snprintf(err, READER_ERR_LEN, "event %s:%s", STACKMAP_SYSTEM,
				 terr.msg);
			return -1;
		}
		r->ids[kind] = event->id;
	}
	return 0;
}

int reader_open(struct reader *r, const char *path, char err[READER_ERR_LEN])
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	if (check_file(path, err))
		return -1;
	/* Failures are reported here in one line, not by the library. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	r->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!r->handle) {
		snprintf(err, READER_ERR_LEN,
			 "not a trace-cmd trace.dat file, or its headers are corrupt");
		return -1;
	}
	r->tep = tracecmd_get_tep(r->handle);
	r->nr_cpus = tep_get_cpus(r->tep);
	if (r->nr_cpus < 0)
		r->nr_cpus = 0;
	r->heads = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*r->heads));
	if (!r->heads) {
		snprintf(err, READER_ERR_LEN, "%s", strerror(ENOMEM));
		goto fail;
	}
	if (find_events(r, err))
		goto fail;
	reader_rewind(r);
	return 0;
fail:
	free(r->heads);
	tracecmd_close(r->handle);
	return -1;
}

void reader_close(struct reader *r)
{
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		tracecmd_free_record(r->heads[cpu]);
	free(r->heads);
	tracecmd_close(r->handle);
	memset(r, 0, sizeof(*r));
}

void reader_rewind(struct reader *r)
{
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		tracecmd_free_record(r->heads[cpu]);
		r->heads[cpu] = tracecmd_read_cpu_first(r->handle, cpu);
	}
}

struct tep_record *reader_peek(struct reader *r, int cpu)
{
	if (cpu < 0 || cpu >= r->nr_cpus)
		return NULL;
	return r->heads[cpu];
}

struct tep_record *reader_take(struct reader *r, int cpu)
{
	struct tep_record *record = reader_peek(r, cpu);

	if (record)
		r->heads[cpu] = tracecmd_read_data(r->handle, cpu);
	return record;
}

struct tep_record *reader_next(struct reader *r)
{
	struct tep_record *best = NULL;
	int cpu, best_cpu = -1;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct tep_record *head = r->heads[cpu];

		if (head && (!best || head->ts < best->ts)) {
			best = head;
			best_cpu = cpu;
		}
	}
	return best ? reader_take(r, best_cpu) : NULL;
}

void reader_put(struct tep_record *record)
{
	tracecmd_free_record(record);
}

int reader_kind(const struct reader *r, struct tep_record *record)
{
	int id = tep_data_type(r->tep, record);
	int kind;

	for (kind = 0; kind < TEPSTACK_NR_KINDS; kind++)
		if (r->ids[kind] >= 0 && r->ids[kind] == id)
			return kind;
	return -1;
}

const struct tepstack_fields *reader_fields(const struct reader *r, int kind)
{
	if (kind < 0 || kind >= TEPSTACK_NR_KINDS || r->ids[kind] < 0)
		return NULL;
	return &r->fields[kind];
}
