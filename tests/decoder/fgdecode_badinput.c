// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input: corrupt records, missing fields, files that are no trace,
 * traces cut anywhere.
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fgdecode_fixture.h"
#include "mktrace.h"
#include "mktrace7.h"

START_TEST(corrupt_definition_is_counted_and_its_cookie_unknown)
{
	sm_u64 frames[STACKMAP_MAX_DEPTH + 1] = { 0 };
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define(0, 1 * SEC - 10, ck, frames, STACKMAP_MAX_DEPTH + 1);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, ck);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <unknown cookie gen 7 slot 1>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: CPU 0 ts 999999990: stack_define: field 'depth' is 65, more than 64 frames\n"
		"fgdecode: 1 event (3 records), 1 cookie, 0 resolved, 0 stale, 1 unknown, 0 fallback stacks, 1 definition (0 distinct stacks), 1 corrupt\n");
}
END_TEST

START_TEST(corrupt_fallback_prints_a_corrupt_marker)
{
	tick(0, 1 * SEC, 1);
	fallback(0, 1 * SEC + 10, STACKMAP_FALLBACK_FULL, frames3, 3, 2);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <corrupt stack_fallback: field 'ips' holds 16 bytes, not depth 3 x 8-byte longs>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: CPU 0 ts 1000000010: stack_fallback: field 'ips' holds 16 bytes, not depth 3 x 8-byte longs\n"
		"fgdecode: 1 event (2 records), 0 cookies, 0 resolved, 0 stale, 0 unknown, 1 fallback stack, 0 definitions (0 distinct stacks), 1 corrupt\n");
}
END_TEST

START_TEST(stackmap_event_without_a_field_is_an_error)
{
	static const char define_no_ips[] =
		"name: stack_define\n"
		"ID: 1360\n"
		"format:\n"
		FX_COMMON_FIELDS
		"\tfield:u64 cookie;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 depth;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"cookie=0x%llx depth=%u\", REC->cookie, REC->depth\n";
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ STACKMAP_SYSTEM, define_no_ips },
		{ NULL, NULL },
	};

	tick(0, 1 * SEC, 1);
	write_trace_with(formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: event stackmap:stack_define: no field 'ips'\n");
}
END_TEST

START_TEST(missing_file_is_one_line_and_exit_1)
{
	run("nothing.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: nothing.dat: No such file or directory\n");
}
END_TEST

START_TEST(file_that_is_not_a_trace_is_one_line_and_exit_1)
{
	FILE *f = fopen(trace_path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("this is not a trace\n", f);
	fclose(f);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: offset 0: magic: not a trace.dat file\n");
}
END_TEST

START_TEST(truncated_trace_does_not_crash)
{
	char cmd[256];
	int cut;

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 10, stackmap_cookie_make(1, 1), frames3, 3);
	write_trace();
	/* Cut the file at many points: fgdecode must fail cleanly or decode. */
	for (cut = 16; cut < 6000; cut += 397) {
		snprintf(cmd, sizeof(cmd), "head -c %d %s > %s/cut.dat", cut,
			 trace_path, dir);
		ck_assert_int_eq(system(cmd), 0);
		run("cut.dat");
		ck_assert_msg(res.status == 0 || res.status == 1,
			      "cut at %d: status %d: %s", cut, res.status,
			      res.err);
	}
}
END_TEST

/*
 * Each of @n cuts of the trace at trace_path: for cut i, the file without
 * its last @step * (i + 1) bytes.  Every decode of a cut file must exit 0;
 * one that took only what follows the data must print exactly @whole (a
 * version 7 file's strings section, the last, names sections only: cut
 * alone it changes nothing and is not warned about); one that ends inside
 * a CPU's data must warn and print only lines of @whole (and the marker of
 * the stack it cut off); once a cut took a whole CPU's data, the CPU of
 * what is left is not known and the file must be refused, saying so.
 * Return: how many cuts were decoded from options placed again (warned,
 * and every line printed); *@inside: how many ended inside a CPU's data.
 */
static int decode_cuts(const char *name, const char *whole, int step, int n,
		       int *inside)
{
	char cmd[512], *line, *save, *out;
	struct stat st;
	int i, same = 0;

	ck_assert_int_eq(stat(trace_path, &st), 0);
	for (i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "head -c %lld '%s' > '%s/cut.dat'",
			 (long long)st.st_size - step * (i + 1), trace_path, dir);
		ck_assert_int_eq(system(cmd), 0);
		run("cut.dat");
		if (res.status == 1 && strstr(res.err, "which CPU each belongs to"))
			continue;
		ck_assert_msg(res.status == 0, "%s cut %d: status %d: %s", name,
			      i, res.status, res.err);
		if (!strstr(res.err, "the cut ends inside")) {
			ck_assert_msg(!strcmp(res.out, whole),
				      "%s cut %d: output differs from the whole trace's; %.400s",
				      name, i, res.err);
			same += !!strstr(res.err, "as placed again");
			continue;
		}
		ck_assert_msg(strstr(res.err, ": truncated at byte "),
			      "%s cut %d: no warning: %s", name, i, res.err);
		(*inside)++;
		out = strdup(res.out);
		for (line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ck_assert_msg(strstr(whole, line) ||
				      strstr(line, "<no stack: "),
				      "%s cut %d: line not in the whole trace: %s",
				      name, i, line);
		free(out);
	}
	return same;
}

/*
 * Two CPUs, CPU 1's data three pages long (trace-cmd writes whole pages,
 * mkt_write() too), written to trace_path.
 */
static void write_two_cpus(void)
{
	int i;

	for (i = 0; i < 40; i++)
		tick(0, 1 * SEC + i * 1000ULL, i);
	for (i = 0; i < 600; i++)
		tick(1, 1 * SEC + 500 + i * 1000ULL, i);
	write_trace();
}

START_TEST(v6_trace_cut_inside_its_data_decodes_the_whole_pages)
{
	int inside = 0;
	char *whole;

	write_two_cpus();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	whole = strdup(res.out);
	ck_assert_int_eq(decode_cuts("v6", whole, 1000, 3, &inside), 0);
	ck_assert_int_eq(inside, 3);
	ck_assert(strstr(res.err, "the cut ends inside CPU 1's data: "));
	ck_assert(strstr(res.err, " pages kept"));
	/* CPU 0's events all stay, CPU 1 keeps fewer. */
	ck_assert_int_eq(count_of(res.out, "[000]"), count_of(whole, "[000]"));
	ck_assert_int_gt(count_of(res.out, "[001]"), 0);
	ck_assert_int_lt(count_of(res.out, "[001]"), count_of(whole, "[001]"));
	free(whole);
}
END_TEST

START_TEST(v7_trace_cut_after_its_data_decodes_the_same)
{
	char cmd[512], *whole;
	int inside = 0;

	/* trace-cmd 3.1.6 converts a version 6 file only with its options. */
	mkt_set_uname(mt, "Linux test 6.1.0 #1 SMP x86_64");
	write_two_cpus();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && trace-cmd convert --file-version 7 -i trace.dat -o v7.dat >convert.log 2>&1 && mv v7.dat trace.dat",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	whole = strdup(res.out);
	/*
	 * Cuts of 40, 80, ... 2000 bytes: the strings and the options that
	 * place the data first (decoded the same, from the data placed
	 * again), then the end of CPU 1's compressed data.
	 */
	ck_assert_int_gt(decode_cuts("v7", whole, 40, 50, &inside), 0);
	ck_assert_int_gt(inside, 0);
	ck_assert(strstr(res.err, "which CPU each belongs to"));
	free(whole);
}
END_TEST

/*
 * Write @bytes (printf escapes) at @at bytes into CPU 1's data of
 * write_two_cpus()'s trace.dat (three pages): its offset is the second
 * entry of the CPU table after "flyrecord".
 */
static int damage_cpu1(const char *bytes, int at)
{
	return shell("cd '%s' && off=$(grep -obUa flyrecord trace.dat | tail -n1 | cut -d: -f1) && "
		     "data=$(od -An -tu8 -j $((off + 10 + 16)) -N8 trace.dat | tr -d ' ') && "
		     "printf '%s' | dd of=trace.dat bs=1 seek=$((data + %d)) conv=notrunc status=none",
		     dir, bytes, at);
}

/*
 * CPU 1's second page says it holds more than a page (its commit word, after
 * the page's 8-byte time stamp): libtracecmd ends CPU 1's records at that
 * page, as trace-cmd report does, and fgdecode says so in one warning
 * naming the CPU, the last time stamp read and what was not read; --strict
 * fails.  CPU 0 keeps every record.
 */
START_TEST(cpu_data_read_short_is_warned_and_fails_strict)
{
	static const char warning[] =
		"fgdecode: warning: trace.dat: CPU 1: data lost after 1.000253 (the last record read): libtracecmd stopped at a page or chunk it cannot read, 4096 bytes into the 12288 its headers give: 8192 bytes not read\n";
	char *whole;

	write_two_cpus();
	run("--strict trace.dat");
	ck_assert_int_eq(res.status, 0);
	whole = strdup(res.out);
	ck_assert_int_eq(damage_cpu1("\\377\\377", 4096 + 8), 0);
	run("--strict trace.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_msg(!strncmp(res.err, warning, strlen(warning)), "%s", res.err);
	ck_assert(strstr(res.err, "fgdecode: trace.dat: --strict: the data of 1 CPU was damaged or not read to its end\n"));
	ck_assert_int_eq(count_of(res.out, "[000]"), count_of(whole, "[000]"));
	ck_assert_int_lt(count_of(res.out, "[001]"), count_of(whole, "[001]"));
	free(whole);
}
END_TEST

/*
 * CPU 1's last page says it holds more than a page: libtracecmd skips it
 * from the start and from the end alike, so the last record it finds from
 * the end is the last one read.  fgdecode still says the last page was
 * not read, from the extent the headers give.
 */
START_TEST(last_page_not_read_is_warned_and_fails_strict)
{
	static const char warning[] =
		"fgdecode: warning: trace.dat: CPU 1: data lost after ";
	char *whole;

	write_two_cpus();
	run("--strict trace.dat");
	ck_assert_int_eq(res.status, 0);
	whole = strdup(res.out);
	ck_assert_int_eq(damage_cpu1("\\377\\377", 8192 + 8), 0);
	run("--strict trace.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_msg(!strncmp(res.err, warning, strlen(warning)), "%s", res.err);
	ck_assert_msg(strstr(res.err, "the 4096 bytes its headers give after that record's page hold no record libtracecmd could read"),
		      "%s", res.err);
	ck_assert_int_eq(count_of(res.out, "[000]"), count_of(whole, "[000]"));
	ck_assert_int_lt(count_of(res.out, "[001]"), count_of(whole, "[001]"));
	free(whole);
}
END_TEST

/*
 * The first record header of CPU 1's second page made a padding record
 * longer than the page (type_len 29, a time delta, a length of 1 MiB): as
 * a byte changed in a compressed chunk can decompress to.  kbuffer skips
 * the page with no record and goes on with the third: fgdecode says one
 * page was lost inside CPU 1's data.
 */
START_TEST(page_that_gave_no_record_is_warned_and_fails_strict)
{
	char *whole;

	write_two_cpus();
	run("--strict trace.dat");
	ck_assert_int_eq(res.status, 0);
	whole = strdup(res.out);
	/* Little-endian u32 (1 << 5 | 29), then the u32 0x100000. */
	ck_assert_int_eq(damage_cpu1("\\075\\000\\000\\000\\000\\000\\020\\000", 4096 + 16), 0);
	run("--strict trace.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_msg(strstr(res.err, "fgdecode: warning: trace.dat: CPU 1: data lost inside 1 page, the first after "),
		      "%s", res.err);
	ck_assert_msg(strstr(res.err, ", 4096 bytes into its data: "), "%s", res.err);
	ck_assert_int_eq(count_of(res.out, "[000]"), count_of(whole, "[000]"));
	ck_assert_int_lt(count_of(res.out, "[001]"), count_of(whole, "[001]"));
	ck_assert_int_gt(count_of(res.out, "[001]"), 0);
	free(whole);
}
END_TEST

/*
 * Make the first options section of the version 7 trace say 0 bytes (the
 * u64 size 8 bytes into its header, whose offset ends the file header).
 */
static void zero_options_size(void)
{
	static const char zero[8];
	unsigned char b[128];
	unsigned long long opts = 0;
	size_t n, p = 10;	/* after the magic */
	FILE *f = fopen(trace_path, "r");
	int i;

	ck_assert_ptr_nonnull(f);
	n = fread(b, 1, sizeof(b) - 1, f);
	fclose(f);
	ck_assert_uint_gt(n, 64);
	b[n] = 0;
	p += strlen((char *)b + p) + 1 + 1 + 1 + 4;	/* version ... page size */
	p += strlen((char *)b + p) + 1;			/* compression name */
	p += strlen((char *)b + p) + 1;			/* and version */
	for (i = 7; i >= 0; i--)
		opts = opts << 8 | b[p + i];
	ck_assert_int_eq(mkt_patch(trace_path, (long)opts + 8, zero, 8), 0);
}

/*
 * A version 7 file whose compressed printk formats end in a line without
 * ':', as a damaged byte of a zstd frame (no checksum) made them in a file
 * the fuzzer wrote: libtraceevent 1.7's tep_parse_printk_formats() read
 * past its copy.  fgdecode refuses it first, naming the section.
 */
START_TEST(v7_printk_formats_with_a_line_without_colon_are_refused)
{
	static const char printk[] =
		"0xffffffffb134aef8 : \"CPU_ON\"\n"
		"0xffffffffaf5b46rg : \"tspeebalance\"\n"
		"0";
	struct mkt7_text t = {
		.id = MKT7_PRINTK, .text = printk, .len = sizeof(printk) - 1,
		.size = sizeof(printk) - 1, .compressed = 1,
	};
	char want[256];
	long at;

	ck_assert_int_eq(mkt7_write(trace_path, MKT7_ZSTD, &t, 1, &at), 0);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	snprintf(want, sizeof(want), "fgdecode: trace.dat: corrupt: offset %ld: printk formats: line 3 has no ':' (libtraceevent would read past it)\n",
		 at);
	ck_assert_str_eq(res.err, want);
	/* The same, its options section's header saying 0 bytes:
	 * libtracecmd reads the options to their DONE all the same. */
	zero_options_size();
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err, want);
	/* The same text whole: the file decodes (no CPU, no event). */
	t.len = t.size = sizeof(printk) - 3;
	ck_assert_int_eq(mkt7_write(trace_path, MKT7_ZSTD, &t, 1, &at), 0);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "cpus=0\n");
}
END_TEST

/*
 * libtracecmd 1.3 allocates a kallsyms' size + 1 in 32 bits and copies it
 * out of a compressed block with an int length: 0xfffffffc made a memcpy()
 * of -4 bytes.
 */
START_TEST(v7_kallsyms_size_of_2_gib_or_more_is_refused)
{
	static const char ks[] = "ffffffff81000000 T _text\n";
	struct mkt7_text t = {
		.id = MKT7_KALLSYMS, .text = ks, .len = sizeof(ks) - 1,
		.size = 0xfffffffc, .compressed = 1,
	};
	char want[256];
	long at;

	ck_assert_int_eq(mkt7_write(trace_path, MKT7_ZSTD, &t, 1, &at), 0);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	snprintf(want, sizeof(want), "fgdecode: trace.dat: corrupt: offset %ld: kallsyms: size 4294967292: 2 GiB or more (libtracecmd would overflow its buffer)\n",
		 at);
	ck_assert_str_eq(res.err, want);
}
END_TEST

/* The offset of @len bytes of @needle in the trace, or -1. */
static long offset_in_trace(const char *needle, size_t len)
{
	static char bytes[1 << 16];
	FILE *f = fopen(trace_path, "r");
	const char *at;
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(bytes, 1, sizeof(bytes), f);
	fclose(f);
	at = memmem(bytes, n, needle, len);
	return at ? at - bytes : -1;
}

/*
 * Version 6: a byte of "NQ" damaged into '\n' leaves the format "N":
 * libtraceevent's tep_register_print_string() reads 2 bytes before its
 * copy.  The offset named is that of the printk formats' size.
 */
START_TEST(v6_printk_format_too_short_is_refused)
{
	static const char printk[] =
		"0xffffffffb134aef8 : \"CPU_ON\"\n"
		"0xffffffffb1355fe5 : \"N\n\"\n";
	char want[256];
	long at;

	tick(0, 1 * SEC, 1);
	mkt_set_printk(mt, printk);
	write_trace();
	at = offset_in_trace(printk, sizeof(printk) - 1);
	ck_assert_int_gt(at, 4);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	snprintf(want, sizeof(want), "fgdecode: trace.dat: corrupt: offset %ld: printk formats: line 2 has a format of fewer than 3 bytes (libtraceevent would read before it)\n",
		 at - 4);
	ck_assert_str_eq(res.err, want);
}
END_TEST

/*
 * A version 7 file whose top BUFFER option lost the NUL of its clock and
 * the bytes after it, as the 108-byte file fuzz_tracedat found
 * (tests/fuzz/regress/fuzz_tracedat/buffer-clock-without-nul.dat, the same
 * layout): libtracecmd 1.3's handle_buffer_option() strdup()ed the clock
 * past the option.  fgdecode refuses it first, naming the field.
 */
START_TEST(v7_buffer_clock_without_nul_is_refused)
{
	long at;

	ck_assert_int_eq(mkt7_write(trace_path, MKT7_NONE, NULL, 0, NULL), 0);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "cpus=0\n");
	/* "local", its NUL, the page size and the CPU count: 14 bytes. */
	at = offset_in_trace("local", 6);
	ck_assert_int_eq(at, 63);
	ck_assert_int_eq(mkt_patch(trace_path, at + 5, "XXXXXXXXX", 9), 0);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: corrupt: offset 63: option 3: buffer clock: 14 bytes with no NUL ending its string\n");
}
END_TEST

/*
 * Options libtracecmd 1.3 (trace-cmd 3.1.6 handle_options()) reads outside
 * the buffer it reads them into: each in a version 7 file (before the top
 * BUFFER option) and a version 6 file's option list, refused naming the
 * offset (@delta bytes into the option's data) and the field; and options
 * of the same ids whole, which decode.
 */
static const char guest_neg[] = "vm\0" "\1\0\0\0\0\0\0\0" "\2\0\0\0"
				"\377\377\377\377" "\7\0\0\0";
static const char guest_ok[] = "vm\0" "\1\0\0\0\0\0\0\0" "\1\0\0\0"
			       "\0\0\0\0" "\7\0\0\0";
/* What `trace-cmd record -H` stores; libtracecmd prints it to stdout. */
static const char hook_ok[] = "sched:sched_switch,prev_pid/sched:sched_switch,next_pid";
static const struct option_case {
	unsigned short id;
	const char *data;
	unsigned int len;
	int v6;			/* also in a version 6 file */
	long delta;		/* where the message's offset is */
	const char *why;	/* after "option ID: "; NULL: decodes */
} option_cases[] = {
	{ 3, "\0\0\0\0\0\0\0\0" "abc", 11, 1, 8,
	  "buffer name: 3 bytes with no NUL ending its string" },
	{ 3, "\0\0\0\0\0\0\0\0" "\0" "local", 14, 0, 9,
	  "buffer clock: 5 bytes with no NUL ending its string" },
	{ 22, "\0\0\0\0\0\0\0\0" "\0" "local", 14, 0, 9,
	  "buffer clock: 5 bytes with no NUL ending its string" },
	{ 3, "\0\0\0\0\0\0", 6, 1, 0,
	  "buffer offset: 6 bytes, fewer than its 8" },
	{ 7, "1234", 4, 1, 0, "4 bytes with no NUL ending its string" },
	{ 4, "[local] global", 14, 1, 0,
	  "14 bytes with no NUL ending its string" },
	{ 8, "\1\0", 2, 1, 0, "CPU count: 2 bytes, fewer than its 4" },
	{ 2, "", 0, 1, 0,
	  "CPU stats: empty (libtracecmd would write 4 GiB past it)" },
	{ 10, "", 0, 1, 0,
	  "process maps: empty (libtracecmd would read 4 GiB past it)" },
	{ 13, "vm", 2, 1, 0,
	  "guest name: 2 bytes with no NUL ending its string" },
	{ 13, guest_neg, sizeof(guest_neg) - 1, 1, 15,
	  "guest CPU: -1, negative (libtracecmd would write before its table)" },
	{ 6, "a,b/c", 6, 1, 0,
	  "hook: not [SYSTEM:]EVENT,MATCH[,PID]/[SYSTEM:]EVENT,MATCH[,FLAGS] (libtracecmd would write through NULL)" },
	{ 4, "x []", 5, 1, 0,
	  "trace clock: the current clock's word is brackets alone (libtracecmd would read through NULL)" },
	/* Whole: they decode. */
	{ 7, "0", 2, 1, 0, NULL },
	{ 4, "[local] global", 15, 1, 0, NULL },
	{ 8, "\2\0\0\0", 4, 1, 0, NULL },
	{ 2, "cpu: 0\n", 8, 1, 0, NULL },
	{ 13, guest_ok, sizeof(guest_ok) - 1, 1, 0, NULL },
	{ 6, hook_ok, sizeof(hook_ok), 1, 0, NULL },
};

START_TEST(option_read_outside_its_data_is_refused)
{
	const struct option_case *c = &option_cases[_i / 2];
	struct mkt7_option o = { .id = c->id, .data = c->data, .len = c->len };
	int v6 = _i % 2;
	char want[256];
	long at = -1;

	if (v6 && !c->v6)
		return;
	if (v6) {
		tick(0, 1 * SEC, 1);
		mkt_add_option(mt, c->id, c->data, c->len, &at);
		write_trace();
	} else {
		ck_assert_int_eq(mkt7_write_options(trace_path, MKT7_NONE, NULL, 0, NULL, &o, 1, &at), 0);
	}
	ck_assert_int_gt(at, 0);
	run("trace.dat");
	if (!c->why) {
		ck_assert_msg(res.status == 0, "option %u (v%d): exit %d: %s",
			      c->id, v6 ? 6 : 7, res.status, res.err);
		/* libtracecmd's line for a hook goes to stderr, not into the results. */
		ck_assert_msg(!strstr(res.out, "start "), "option %u (v%d): stdout: %s",
			      c->id, v6 ? 6 : 7, res.out);
		if (c->id == 6)
			ck_assert_ptr_nonnull(strstr(res.err,
				"start sched:sched_switch:prev_pid ((null)) end sched:sched_switch:next_pid"));
		return;
	}
	snprintf(want, sizeof(want), "fgdecode: trace.dat: corrupt: offset %ld: option %u: %s\n",
		 at + c->delta, c->id, c->why);
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err, want);
}
END_TEST

/*
 * libtracecmd reads a version 7 options section to its DONE option,
 * whatever size its header gives: a fuzzed file whose section said 0 bytes
 * hid a BUFFER name without its NUL from a check that stopped there
 * (tests/fuzz/regress/fuzz_tracedat/options-size-0-buffer-name-without-nul.dat).
 */
START_TEST(options_section_size_does_not_hide_an_option)
{
	static const char name[] = "\0\0\0\0\0\0\0\0" "abc";
	struct mkt7_option o = { .id = 3, .data = name, .len = sizeof(name) - 1 };
	long at;

	ck_assert_int_eq(mkt7_write_options(trace_path, MKT7_NONE, NULL, 0, NULL, &o, 1, &at), 0);
	ck_assert_int_eq(at, 54);
	zero_options_size();
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: corrupt: offset 62: option 3: buffer name: 3 bytes with no NUL ending its string\n");
}
END_TEST

TCase *bad_input_tcase(void)
{
	TCase *tc = fgd_tcase("bad input", 120);

	tcase_add_test(tc, corrupt_definition_is_counted_and_its_cookie_unknown);
	tcase_add_test(tc, corrupt_fallback_prints_a_corrupt_marker);
	tcase_add_test(tc, stackmap_event_without_a_field_is_an_error);
	tcase_add_test(tc, missing_file_is_one_line_and_exit_1);
	tcase_add_test(tc, file_that_is_not_a_trace_is_one_line_and_exit_1);
	tcase_add_test(tc, truncated_trace_does_not_crash);
	tcase_add_test(tc, v6_trace_cut_inside_its_data_decodes_the_whole_pages);
	tcase_add_test(tc, v7_trace_cut_after_its_data_decodes_the_same);
	tcase_add_test(tc, cpu_data_read_short_is_warned_and_fails_strict);
	tcase_add_test(tc, last_page_not_read_is_warned_and_fails_strict);
	tcase_add_test(tc, page_that_gave_no_record_is_warned_and_fails_strict);
	tcase_add_test(tc, v7_printk_formats_with_a_line_without_colon_are_refused);
	tcase_add_test(tc, v7_kallsyms_size_of_2_gib_or_more_is_refused);
	tcase_add_test(tc, v6_printk_format_too_short_is_refused);
	tcase_add_test(tc, v7_buffer_clock_without_nul_is_refused);
	tcase_add_test(tc, options_section_size_does_not_hide_an_option);
	tcase_add_loop_test(tc, option_read_outside_its_data_is_refused, 0,
			    2 * (int)(sizeof(option_cases) / sizeof(option_cases[0])));
	return tc;
}
