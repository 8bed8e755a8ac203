// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/tracedat_printk.c and lib/tracedat_block.c: printk
 * formats checked as libtraceevent 1.7.1 parses them, and the printk and
 * kallsyms sections of version 6 and 7 files (zstd, zlib, none) found and
 * uncompressed as libtracecmd 1.3 reads them.
 */
#define _GNU_SOURCE	/* memmem() */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mktrace.h"
#include "mktrace7.h"
#include "tracedat_printk.h"

#define GOOD_PRINTK \
	"0xffffffffb134aef8 : \"CPU_ON\"\n" \
	"0xffffffffb1355fe5 : \"NQ\"\n" \
	"0xffffffffb1351741 : \"thaw_processes\"\n"
#define KALLSYMS \
	"ffffffff81000000 T _text\n" \
	"ffffffffc0000000 t p9_client_rpc\t[9pnet]\n"
/* What the fuzzer's crash came to: a zstd frame uncompressed into other
 * text, whose last line has no ':'. */
#define CRASH_PRINTK \
	"0xffffffffaf5b46rg : \"tspeebalance\"\n" \
	"0"

static char path[64];

static void setup(void)
{
	snprintf(path, sizeof(path), "/tmp/test_tracedat_printk.%d.dat",
		 (int)getpid());
}

static void teardown(void)
{
	unlink(path);
}

/* stackmap_printk_check_text() on @text: its reason and line. */
static const char *check(const char *text, unsigned int *line)
{
	return stackmap_printk_check_text(text, strlen(text), line);
}

START_TEST(kernel_formats_pass)
{
	unsigned int line;

	ck_assert_ptr_null(check(GOOD_PRINTK, &line));
	ck_assert_ptr_null(check("", &line));
	/* The last line needs no '\n' when it has its ':' and format. */
	ck_assert_ptr_null(check("0x1 : \"abc\"", &line));
}
END_TEST

START_TEST(a_line_without_a_colon_is_refused)
{
	unsigned int line = 0;

	ck_assert_str_eq(check(CRASH_PRINTK, &line),
			 "has no ':' (libtraceevent would read past it)");
	ck_assert_uint_eq(line, 2);
	/* Not the last line: its format would be the rest of the text. */
	ck_assert_ptr_nonnull(check("garbage\n" GOOD_PRINTK, &line));
	ck_assert_uint_eq(line, 1);
	/* Leading ':' are skipped, as strtok_r() does. */
	ck_assert_ptr_nonnull(check("::0x1 \"abc\"\n", &line));
}
END_TEST

START_TEST(a_line_ending_at_its_colon_is_refused)
{
	unsigned int line = 0;

	ck_assert_str_eq(check(GOOD_PRINTK "0x1 :", &line),
			 "ends at its ':' (libtraceevent would read past it)");
	ck_assert_uint_eq(line, 4);
}
END_TEST

/* tep_register_print_string() reads its copy 1 and 3 bytes from the end. */
START_TEST(a_format_of_fewer_than_3_bytes_is_refused)
{
	unsigned int line = 0;

	ck_assert_str_eq(check("0x1 : \"x\"\n", &line),
			 "has a format of fewer than 3 bytes (libtraceevent would read before it)");
	ck_assert_uint_eq(line, 1);
	ck_assert_ptr_nonnull(check("0x1 : \"\"\n", &line));
	ck_assert_ptr_nonnull(check("0x1 : \n", &line));
	ck_assert_ptr_nonnull(check("0x1 :ab\n", &line));
	ck_assert_ptr_nonnull(check("0x1 :abc\n", &line));	/* "a" is taken for the space */
	ck_assert_ptr_null(check("0x1 :abcd\n", &line));
	ck_assert_ptr_null(check("0x1 : \"NQ\"\n", &line));
}
END_TEST

/* Empty lines are skipped and counted; every '\n' is. */
START_TEST(line_numbers_count_empty_lines)
{
	unsigned int line = 0;

	ck_assert_ptr_nonnull(check("\n\n" GOOD_PRINTK "\nbad", &line));
	ck_assert_uint_eq(line, 7);
}
END_TEST

/* libtraceevent stops at a line of ':' only, and at the first NUL. */
START_TEST(what_the_parse_never_reaches_is_not_checked)
{
	static const char nul[] = GOOD_PRINTK "\0bad";
	unsigned int line;

	ck_assert_ptr_null(check(GOOD_PRINTK ":::\nbad", &line));
	ck_assert_ptr_null(stackmap_printk_check_text(nul, sizeof(nul) - 1,
						      &line));
	ck_assert_ptr_nonnull(stackmap_printk_check_text("0x1 : \"abc\"\nbad", 15,
							 &line));
}
END_TEST

/* A text section of the trace written by write7(). */
static struct mkt7_text text(int id, const char *s, int compressed)
{
	struct mkt7_text t = {
		.id = id, .text = s, .len = strlen(s), .size = strlen(s),
		.compressed = compressed,
	};

	return t;
}

/* Write a version 7 file of kallsyms and @printk; *@at: the printk's offset. */
static void write7(enum mkt7_algo algo, const char *printk, long *at)
{
	struct mkt7_text t[2] = {
		text(MKT7_KALLSYMS, KALLSYMS, 1),
		text(MKT7_PRINTK, printk, 1),
	};
	long offs[2];

	ck_assert_int_eq(mkt7_write(path, algo, t, 2, offs), 0);
	*at = offs[1];
}

/* Overwrite @len bytes of the file at @off. */
static void patch(long off, const void *p, size_t len)
{
	ck_assert_int_eq(mkt_patch(path, off, p, len), 0);
}

static const enum mkt7_algo algos[] = { MKT7_NONE, MKT7_ZSTD, MKT7_ZLIB };

START_TEST(v7_good_sections_pass)
{
	struct sm_err err;
	long at;

	write7(algos[_i], GOOD_PRINTK, &at);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), 0);
}
END_TEST

START_TEST(v7_printk_line_without_colon_names_its_section)
{
	char want[256];
	struct sm_err err;
	long at;

	write7(algos[_i], CRASH_PRINTK, &at);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), -EBADMSG);
	snprintf(want, sizeof(want), "%s: offset %ld: printk formats: line 2 has no ':' (libtraceevent would read past it)",
		 path, at);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/*
 * A size libtracecmd 1.3 allocates + 1 in 32 bits (0xffffffff: 0 bytes)
 * or copies with an int length (0xfffffffc..: a negative memcpy()).
 */
START_TEST(v7_sizes_of_2_gib_or_more_are_refused)
{
	struct mkt7_text t[2] = {
		text(MKT7_KALLSYMS, KALLSYMS, 1),
		text(MKT7_PRINTK, GOOD_PRINTK, 1),
	};
	struct sm_err err;
	char want[256];
	long at[2];
	int i;

	for (i = 0; i < 2; i++) {
		t[0].size = i ? 0xfffffffc : t[0].len;
		t[1].size = i ? t[1].len : 0xffffffff;
		ck_assert_int_eq(mkt7_write(path, algos[_i], t, 2, at), 0);
		ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), -E2BIG);
		snprintf(want, sizeof(want), "%s: offset %ld: %s: size %u: 2 GiB or more (libtracecmd would overflow its buffer)",
			 path, at[!i], i ? "kallsyms" : "printk formats",
			 i ? 0xfffffffc : 0xffffffff);
		ck_assert_str_eq(err.msg, want);
	}
}
END_TEST

/* What libtracecmd does not read (it fails there) is not refused here. */
START_TEST(v7_what_libtracecmd_cannot_read_is_left_to_it)
{
	struct mkt7_text t[2] = {
		text(MKT7_KALLSYMS, "garbage without a newline", 1),
		text(MKT7_PRINTK, CRASH_PRINTK, 1),
	};
	struct sm_err err;
	long at[2];

	/* A size past the data: libtracecmd's read fails, reads nothing. */
	t[1].size = t[1].len + 1;
	ck_assert_int_eq(mkt7_write(path, algos[_i], t, 2, at), 0);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), 0);
	/* The section an option places has another id: handle_section() fails. */
	t[1].size = t[1].len;
	ck_assert_int_eq(mkt7_write(path, algos[_i], t, 2, at), 0);
	patch(at[1], "\023", 1);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), 0);
}
END_TEST

/* "zstd" renamed: libtracecmd has no such algorithm and opens nothing. */
START_TEST(v7_unknown_algorithm_is_left_to_libtracecmd)
{
	struct sm_err err;
	long at;

	write7(MKT7_ZSTD, CRASH_PRINTK, &at);
	patch(12 + 1 + 1 + 4, "zstx", 4);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), 0);
}
END_TEST

/* A block that does not uncompress: libtracecmd fails on it too. */
START_TEST(v7_block_that_does_not_uncompress_is_left_to_libtracecmd)
{
	struct sm_err err;
	long at;

	write7(algos[_i], CRASH_PRINTK, &at);
	/* the first byte of the compressed bytes (zstd's magic, zlib's CMF) */
	patch(at + 16 + 8, "\377", 1);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), 0);
	/* a compressed size past the end of the file */
	patch(at + 16, "\377\377\377\000", 4);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), 0);
}
END_TEST

/* The compressed flag in a file of algorithm "none": read as it is. */
START_TEST(v7_none_reads_a_flagged_section_as_it_is)
{
	struct sm_err err;
	long at;

	write7(MKT7_NONE, CRASH_PRINTK, &at);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), -EBADMSG);
}
END_TEST

/* Version 6: the printk formats after the kallsyms, offset of their size. */
START_TEST(v6_printk_formats_are_checked)
{
	static const struct mkt_format none[] = { { NULL, NULL } };
	struct mktrace *t = mkt_new(1);
	char want[256], *file;
	struct sm_err err;
	size_t len;
	FILE *f;
	long at;

	mkt_set_printk(t, "0x1 : \"x\"\n");
	ck_assert_int_eq(mkt_write(t, path, none, KALLSYMS, "1 init\n"), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	file = calloc(1, 65536);
	len = fread(file, 1, 65535, f);
	fclose(f);
	at = (char *)memmem(file, len, "0x1 : ", 6) - file - 4;
	free(file);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), -EBADMSG);
	snprintf(want, sizeof(want), "%s: offset %ld: printk formats: line 1 has a format of fewer than 3 bytes (libtraceevent would read before it)",
		 path, at);
	ck_assert_str_eq(err.msg, want);
	t = mkt_new(1);
	mkt_set_printk(t, GOOD_PRINTK);
	ck_assert_int_eq(mkt_write(t, path, none, KALLSYMS, "1 init\n"), 0);
	ck_assert_int_eq(stackmap_tracedat_check_printk(path, &err), 0);
}
END_TEST

START_TEST(missing_file_is_its_errno)
{
	struct sm_err err;

	ck_assert_int_eq(stackmap_tracedat_check_printk("/nonexistent/t.dat", &err),
			 -ENOENT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tracedat_printk");
	TCase *tc = tcase_create("core");
	int n = sizeof(algos) / sizeof(algos[0]);
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, kernel_formats_pass);
	tcase_add_test(tc, a_line_without_a_colon_is_refused);
	tcase_add_test(tc, a_line_ending_at_its_colon_is_refused);
	tcase_add_test(tc, a_format_of_fewer_than_3_bytes_is_refused);
	tcase_add_test(tc, line_numbers_count_empty_lines);
	tcase_add_test(tc, what_the_parse_never_reaches_is_not_checked);
	tcase_add_loop_test(tc, v7_good_sections_pass, 0, n);
	tcase_add_loop_test(tc, v7_printk_line_without_colon_names_its_section, 0, n);
	tcase_add_loop_test(tc, v7_sizes_of_2_gib_or_more_are_refused, 0, n);
	tcase_add_loop_test(tc, v7_what_libtracecmd_cannot_read_is_left_to_it, 0, n);
	tcase_add_test(tc, v7_unknown_algorithm_is_left_to_libtracecmd);
	tcase_add_loop_test(tc, v7_block_that_does_not_uncompress_is_left_to_libtracecmd, 1, n);
	tcase_add_test(tc, v7_none_reads_a_flagged_section_as_it_is);
	tcase_add_test(tc, v6_printk_formats_are_checked);
	tcase_add_test(tc, missing_file_is_its_errno);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
