// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/tracedat_pages.c: every page of a version 6 file with
 * two CPUs and an instance (tests/fixtures/mktrace.c), and of a real
 * version 7 recording whose CPU data is zstd-compressed
 * (tests/fixtures/traces/views.dat), read back with libtraceevent's
 * kbuffer as libtracecmd reads them.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>

#include "mktrace.h"
#include "tracedat_pages.h"

#ifndef FIXTURE_TRACES
#define FIXTURE_TRACES "../fixtures/traces"
#endif

/*
 * tests/fixtures/traces/views.dat: one CPU, 1483 records, the first at
 * 7.345369058 s and the last at 7.607546464 s (`trace-cmd report -N -t -i
 * views.dat`, trace-cmd 3.1.6, prints that many event lines between them;
 * the file has no timestamp offset).
 */
#define VIEWS_RECORDS	1483
#define VIEWS_FIRST_NS	7345369058ULL
#define VIEWS_LAST_NS	7607546464ULL

static char path[64];

/* What a walk saw, per buffer and CPU, through a kbuffer. */
struct seen {
	struct kbuffer *kbuf;
	unsigned int pages[2][2];	/* [buffer: top, instance][cpu] */
	unsigned int records[2][2];
	unsigned long long first_ts[2][2], last_ts[2][2];
	unsigned int bad_order;		/* a timestamp below the one before */
	unsigned int stop_after;	/* pages; 0: never stop */
	unsigned int size;
};

static int count_page(const char *buffer, unsigned int cpu, const void *page,
		      unsigned int size, void *arg)
{
	struct seen *s = arg;
	unsigned int b = buffer[0] != '\0';
	unsigned long long ts;
	void *data;

	ck_assert_uint_lt(cpu, 2);
	s->size = size;
	s->pages[b][cpu]++;
	ck_assert_int_eq(kbuffer_load_subbuffer(s->kbuf, (void *)page), 0);
	for (data = kbuffer_read_event(s->kbuf, &ts); data;
	     data = kbuffer_next_event(s->kbuf, &ts)) {
		if (!s->records[b][cpu])
			s->first_ts[b][cpu] = ts;
		else if (ts < s->last_ts[b][cpu])
			s->bad_order++;
		s->last_ts[b][cpu] = ts;
		s->records[b][cpu]++;
	}
	if (s->stop_after && s->pages[0][0] + s->pages[0][1] +
	    s->pages[1][0] + s->pages[1][1] == s->stop_after)
		return 42;
	return 0;
}

static void setup(void)
{
	snprintf(path, sizeof(path), "/tmp/test_tracedat_pages.%d.dat",
		 (int)getpid());
}

static void teardown(void)
{
	unlink(path);
}

static struct kbuffer *kbuf_le64(void)
{
	struct kbuffer *k = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);

	ck_assert_ptr_nonnull(k);
	return k;
}

/*
 * Version 6, two CPUs and an instance: 600 records of 100 bytes on CPU 0
 * (more than a page holds), 3 on CPU 1, 2 in the instance's CPU 1; each
 * CPU's records in time order (the buffers come in the file's order).
 */
START_TEST(v6_every_page_of_every_cpu_and_buffer)
{
	static const struct mkt_format none[] = { { NULL, NULL } };
	struct mktrace *t = mkt_new(2);
	struct seen s = { .kbuf = kbuf_le64() };
	unsigned char rec[100] = { 1 };
	struct sm_err err;
	int i, inst;

	inst = mkt_add_buffer(t, "inst");
	for (i = 0; i < 600; i++)
		mkt_add(t, 0, 1000 + i, rec, sizeof(rec));
	for (i = 0; i < 3; i++)
		mkt_add(t, 1, 2000 + i, rec, sizeof(rec));
	mkt_add_to(t, inst, 1, 3000, rec, sizeof(rec));
	mkt_add_to(t, inst, 1, 3001, rec, sizeof(rec));
	ck_assert_int_eq(mkt_write(t, path, none, "", "1 init\n"), 0);

	ck_assert_int_eq(stackmap_tracedat_pages(path, count_page, &s, &err), 0);
	ck_assert_uint_eq(s.size, 4096);
	ck_assert_uint_eq(s.records[0][0], 600);
	ck_assert_uint_eq(s.records[0][1], 3);
	ck_assert_uint_eq(s.records[1][0], 0);
	ck_assert_uint_eq(s.records[1][1], 2);
	/* 104 bytes a record, 4080 bytes of events a page: 39 a page. */
	ck_assert_uint_eq(s.pages[0][0], (600 + 38) / 39);
	ck_assert_uint_eq(s.pages[0][1], 1);
	ck_assert_uint_eq(s.first_ts[0][0], 1000);
	ck_assert_uint_eq(s.last_ts[0][0], 1599);
	ck_assert_uint_eq(s.first_ts[1][1], 3000);
	ck_assert_uint_eq(s.bad_order, 0);
	kbuffer_free(s.kbuf);
}
END_TEST

/* A real recording: zstd chunks, every record libtracecmd reads. */
START_TEST(v7_compressed_recording)
{
	struct seen s = { .kbuf = kbuf_le64() };
	struct sm_err err;

	ck_assert_int_eq(stackmap_tracedat_pages(FIXTURE_TRACES "/views.dat",
						 count_page, &s, &err), 0);
	ck_assert_uint_eq(s.size, 4096);
	ck_assert_uint_eq(s.records[0][0], VIEWS_RECORDS);
	ck_assert_uint_eq(s.first_ts[0][0], VIEWS_FIRST_NS);
	ck_assert_uint_eq(s.last_ts[0][0], VIEWS_LAST_NS);
	ck_assert_uint_eq(s.bad_order, 0);
	kbuffer_free(s.kbuf);
}
END_TEST

/* The visitor's non-zero return stops the walk and comes back. */
START_TEST(the_visitor_stops_the_walk)
{
	struct seen s = { .kbuf = kbuf_le64(), .stop_after = 2 };
	struct sm_err err;

	ck_assert_int_eq(stackmap_tracedat_pages(FIXTURE_TRACES "/views.dat",
						 count_page, &s, &err), 42);
	ck_assert_uint_eq(s.pages[0][0], 2);
	kbuffer_free(s.kbuf);
}
END_TEST

/* Not a trace.dat: an error naming the file, no visit. */
START_TEST(not_a_trace_is_refused)
{
	struct seen s = { .kbuf = kbuf_le64() };
	struct sm_err err;
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("not a trace\n", f);
	fclose(f);
	ck_assert_int_lt(stackmap_tracedat_pages(path, count_page, &s, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_uint_eq(s.pages[0][0], 0);
	kbuffer_free(s.kbuf);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("tracedat_pages");
	TCase *tc = tcase_create("pages");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, v6_every_page_of_every_cpu_and_buffer);
	tcase_add_test(tc, v7_compressed_recording);
	tcase_add_test(tc, the_visitor_stops_the_walk);
	tcase_add_test(tc, not_a_trace_is_refused);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
