// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode map (--map): the module's stack_map listing.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fgdecode_fixture.h"

/* listing7 and the test kallsyms saved as files, for --map. */
static void write_map_files(void)
{
	write_file("listing", listing7);
	write_file("kallsyms", kallsyms);
}

START_TEST(map_prints_each_stack_with_its_hits_cookie_and_frames)
{
	write_map_files();
	run("--map --kallsyms kallsyms listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"# generation 7: 2 stacks, 17 hits\n"
		"hits 12 cookie 0x700000003 gen 7 slot 3 owner test:tick\n"
		STACK3
		"hits 5 cookie 0x700000004 gen 7 slot 4 owner test:tick\n"
		STACK2);
	ck_assert_str_eq(res.err, "");
}
END_TEST

/*
 * Without --kallsyms a saved listing is printed with the names it carries
 * (each frame's %pS: name, offset, size, module), as the kernel wrote them.
 */
START_TEST(map_without_kallsyms_uses_the_names_of_the_listing)
{
	write_map_files();
	run("--map listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"# generation 7: 2 stacks, 17 hits\n"
		"hits 12 cookie 0x700000003 gen 7 slot 3 owner test:tick\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => schedule+0x5a/0xd0 (ffffffff83252e2a)\n"
		"    => kthread+0xda/0x100 (ffffffff828cd41a)\n"
		"hits 5 cookie 0x700000004 gen 7 slot 4 owner test:tick\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => p9_client_rpc+0x14a/0x430 [9pnet] (ffffffffc03e3cca)\n");
	run("--map --folded listing");
	ck_assert_str_eq(res.out,
		"kthread;schedule;__schedule 12\n"
		"p9_client_rpc;__schedule 5\n");
}
END_TEST

/* A listing records no release: --vmlinux is read, not checked against one. */
START_TEST(map_with_a_vmlinux_that_is_no_elf_says_so)
{
	write_map_files();
	write_file("notelf", "not an ELF file\n");
	run("--map --kallsyms kallsyms --vmlinux notelf listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_ptr_nonnull(strstr(res.err, "notelf"));
	ck_assert_int_eq(count_lines(res.err), 1);
}
END_TEST

/* --kallsyms also takes trace-cmd dump --kallsyms's output, and a trace.dat. */
START_TEST(map_kallsyms_from_a_dump_or_a_trace)
{
	char dump[8192], *want;

	write_map_files();
	run("--map --kallsyms kallsyms listing");
	ck_assert_int_eq(res.status, 0);
	want = strdup(res.out);
	ck_assert_ptr_nonnull(want);
	snprintf(dump, sizeof(dump),
		 "\t[Section 19 @ 2907: \"kallsyms\", flags 0x1, 70 bytes]\n"
		 "\t[Kallsyms, 500 bytes]\n%s", kallsyms);
	write_file("dump", dump);
	run("--map --kallsyms dump listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, want);
	write_mixed_trace();
	run("--map --kallsyms trace.dat listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, want);
	free(want);
}
END_TEST

START_TEST(map_top_folded_and_json_count_hits)
{
	write_map_files();
	run("--map --kallsyms kallsyms --top 1 listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 2 stacks over 17 hits, generation 7\n"
		"#1 12 hits 70.59% gen 7 slot 3 owner test:tick\n"
		STACK3);
	run("--map --kallsyms kallsyms --folded listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"kthread;schedule;__schedule 12\n"
		"p9_client_rpc;__schedule 5\n");
	run("--map --kallsyms kallsyms --json listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"gen\":7,\"slot\":3,\"cookie\":\"0x700000003\",\"hits\":12,\"owner\":\"test:tick\",\"owner_id\":900,\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n"
		"{\"gen\":7,\"slot\":4,\"cookie\":\"0x700000004\",\"hits\":5,\"owner\":\"test:tick\",\"owner_id\":900,\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffffc03e3cca\",\"symbol\":\"p9_client_rpc\",\"offset\":330,\"size\":1152,\"module\":\"9pnet\"}]}\n");
}
END_TEST

START_TEST(map_folded_sums_slots_that_fold_alike)
{
	write_file("listing",
		"# generation 2 entries 2/16 frames 2/64 bytes 100\n"
		"slot 1 generation 2 hits 3 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
		"slot 2 generation 2 hits 4 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528d0 __schedule+0x500/0xa00\n");
	write_file("kallsyms", kallsyms);
	run("--map --kallsyms kallsyms --folded listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "__schedule 7\n");
}
END_TEST

/* Run --map on @text; expect exit 1, no output and the one line @err. */
static void expect_bad_listing(const char *text, const char *err)
{
	write_file("listing", text);
	run("--map listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err, err);
}

START_TEST(map_names_owners_and_marks_truncated_stacks)
{
	write_file("listing",
		"# generation 7 entries 1/16384 frames 1/262144 bytes 4096\n"
		"slot 3 generation 7 hits 2 depth 1 owner 0 ? flags 0x1\n"
		" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	run("--map listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"# generation 7: 1 stacks, 2 hits\n"
		"hits 2 cookie 0x700000003 gen 7 slot 3 owner ?\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => ... [truncated]\n");
	run("--map --folded listing");
	ck_assert_str_eq(res.out, "[truncated];__schedule 2\n");
	run("--map --json listing");
	ck_assert_ptr_nonnull(strstr(res.out,
		"\"owner\":\"?\",\"owner_id\":0,\"truncated\":true,\"stack\":["));
	write_file("listing",
		"# generation 7 entries 1/16384 frames 0/262144 bytes 4096\n"
		"slot 3 generation 7 hits 2 depth 0 owner 5 a\"b flags 0x0\n");
	run("--map listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: listing:2: owner name: not \"system:event\" or \"?\"\n");
}
END_TEST

START_TEST(map_bad_listings_are_one_line_naming_file_and_line)
{
	static const char hdr[] =
		"# generation 7 entries 2/16384 frames 5/262144 bytes 4096\n";
	char text[1024];

	/* Truncated in the middle of a stack. */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 7 hits 12 depth 3 owner 900 test:tick flags 0x0\n"
		 " 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	expect_bad_listing(text,
		"fgdecode: listing:3: frame 1 of slot 3: listing truncated\n");
	/* A frame line without an entry line. */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 " 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	expect_bad_listing(text,
		"fgdecode: listing:2: entry: expected \"slot S generation G hits H depth D owner O NAME flags 0xF\"\n");
	/* A hit count above 2^32-1. */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 7 hits 4294967296 depth 0 owner 900 test:tick flags 0x0\n");
	expect_bad_listing(text,
		"fgdecode: listing:2: entry: expected \"slot S generation G hits H depth D owner O NAME flags 0xF\"\n");
	/* The generation changed while the listing was read (a reset). */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 8 hits 1 depth 0 owner 900 test:tick flags 0x0\n");
	expect_bad_listing(text,
		"fgdecode: listing:2: generation: 8, header says 7\n");
	/* No header, an empty file, a deeper stack than the module keeps. */
	expect_bad_listing("slot 3 generation 7 hits 1 depth 0 owner 900 test:tick flags 0x0\n",
		"fgdecode: listing:1: header: expected \"# generation G entries U/C frames U/C bytes B [map_id 0xID]\"\n");
	expect_bad_listing("", "fgdecode: listing: empty listing\n");
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 7 hits 1 depth 65 owner 900 test:tick flags 0x0\n");
	expect_bad_listing(text, "fgdecode: listing:2: depth: 65 exceeds 64\n");
	/* A NUL byte is not text. */
	snprintf(text, sizeof(text), "%s%s", hdr, "slot 3 generation 7 hits 1 depth 0 owner 900 test:tick flags 0x0\n");
	write_file("listing", text);
	ck_assert_int_eq(shell("printf 'slot\\000 4' >> listing"), 0);
	run("--map listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_int_eq(count_lines(res.err), 1);
}
END_TEST

START_TEST(map_listing_cut_at_an_entry_boundary_is_marked)
{
	/* The header announces two entries; one is listed. */
	write_file("listing",
		"# generation 7 entries 2/16384 frames 5/262144 bytes 4096\n"
		"slot 3 generation 7 hits 12 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	run("--map --folded listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "__schedule 12\n");
	ck_assert_str_eq(res.err,
		"fgdecode: warning: listing: header says 2 entries, 1 listed (truncated?)\n");
}
END_TEST

START_TEST(map_missing_listing_or_kallsyms_is_one_line_and_exit_1)
{
	run("--map nosuch");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err, "fgdecode: nosuch: No such file or directory\n");
	write_map_files();
	run("--map --kallsyms nosuch listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err, "fgdecode: nosuch: No such file or directory\n");
	/* The live map, where no module is loaded: what to do about it. */
	if (access("/sys/kernel/debug/stackmap", F_OK)) {
		run("map");
		ck_assert_int_eq(res.status, 1);
		ck_assert_int_eq(count_of(res.err, "\n"), 1);
		ck_assert(strstr(res.err, "(mount -t debugfs none /sys/kernel/debug)") ||
			  strstr(res.err, "(modprobe stackmap)"));
	}
}
END_TEST

START_TEST(map_options_reject_trace_only_and_misplaced_ones)
{
	write_map_files();
	run("--map --cookies listing");
	ck_assert_int_eq(res.status, 2);
	run("--map --pid 1 listing");
	ck_assert_int_eq(res.status, 2);
	run("--map a b");
	ck_assert_int_eq(res.status, 2);
	run("--interval 1 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--kallsyms kallsyms trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--map --count 2 listing");
	ck_assert_int_eq(res.status, 2);
	/* Every usage error ends with the pointer to the command's help. */
	ck_assert_str_eq(res.err,
		"fgdecode: --count needs --interval\n"
		"Try 'fgdecode map --help' for more information.\n");
	run("--map --interval 0 listing");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: --interval: '0' is not a number of seconds from 0.001 to 86400\n"
		"Try 'fgdecode map --help' for more information.\n");
	run("--map --interval 1 --json listing");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: --interval prints text (or --top N), not --json or --folded\n"
		"Try 'fgdecode map --help' for more information.\n");
}
END_TEST

/*
 * --interval 1 on a file replaced (atomically, by rename) half-way between
 * the reads: read 1 sees l1, read 2 l2, read 3 l3 with 0.5 s of margin.
 */
START_TEST(map_interval_prints_rates_of_changed_stacks_and_reports_resets)
{
	write_file("l1",
		"# generation 7 entries 2/16 frames 5/64 bytes 100\n"
		"slot 3 generation 7 hits 12 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 x\n"
		"slot 4 generation 7 hits 5 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffffc03e3cca x\n");
	write_file("l2",
		"# generation 7 entries 2/16 frames 5/64 bytes 100\n"
		"slot 3 generation 7 hits 12 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 x\n"
		"slot 4 generation 7 hits 9 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffffc03e3cca x\n");
	write_file("l3",
		"# generation 8 entries 1/16 frames 1/64 bytes 100\n"
		"slot 3 generation 8 hits 2 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 x\n");
	write_file("kallsyms", kallsyms);
	ck_assert_int_eq(shell("cp l1 map"), 0);
	ck_assert_int_eq(shell("{ sleep 0.5; cp l2 m.tmp && mv m.tmp map; sleep 1; cp l3 m.tmp && mv m.tmp map; } >/dev/null 2>&1 &"), 0);
	run("--map --kallsyms kallsyms --interval 1 --count 2 map");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.err, "");
	ck_assert_ptr_nonnull(strstr(res.out, ", generation 7, 1 stack changed, 4 hits\n#1 "));
	ck_assert_ptr_nonnull(strstr(res.out, " hits/s (4 hits) gen 7 slot 4 owner test:tick\n"
		"    => p9_client_rpc+0x14a/0x480 [9pnet] (ffffffffc03e3cca)\n"
		"fgdecode: map reset: generation 7 -> 8 (hits counted from 0)\n"
		"fgdecode: interval 2: "));
	ck_assert_ptr_nonnull(strstr(res.out, ", generation 8, 1 stack changed, 2 hits\n#1 "));
	ck_assert_ptr_nonnull(strstr(res.out, " hits/s (2 hits) gen 8 slot 3 owner test:tick\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"));
	/* No negative count, whatever the reset did. */
	ck_assert_ptr_null(strstr(res.out, "#1 -"));
	ck_assert_ptr_null(strstr(res.out, "(-"));
	ck_assert_int_eq(count_lines(res.out), 7);
}
END_TEST

/* The test kallsyms of another boot: every address 2 MiB higher (KASLR). */
static const char other_boot_kallsyms[] =
	"ffffffff82acd340 T kthread\n"
	"ffffffff82acd460 T kthread_end\n"
	"ffffffff834523d0 T __schedule\n"
	"ffffffff83452dd0 T schedule\n"
	"ffffffff83452e80 T schedule_end\n"
	"ffffffffc05e3b80 t p9_client_rpc\t[9pnet]\n"
	"ffffffffc05e4000 t fx_last\t[9pnet]\n";

/*
 * --kallsyms of another boot or kernel names every frame wrongly: refused,
 * checked against the names the listing carries; an alias at a function's
 * address agrees.
 */
START_TEST(map_kallsyms_of_another_boot_is_refused)
{
	char *ksyms;

	write_map_files();
	write_file("other", other_boot_kallsyms);
	run("--map --kallsyms other listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: --kallsyms other: not the kallsyms of listing's kernel: 4 of the 4 functions the listing names do not start at its addresses there (e.g. kthread at 0xffffffff828cd340: there no symbol); at most 1 in 1000 may differ\n");
	ck_assert_int_gt(asprintf(&ksyms, "%sffffffff832523d0 T __schedule_alias\n",
				  kallsyms), 0);
	write_file("alias", ksyms);
	free(ksyms);
	run("--map --kallsyms alias listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.err, "");
}
END_TEST

/*
 * Within the tolerance (at most 1 in 1000 functions placed elsewhere), the
 * map is printed and the functions that differ are a warning.
 */
START_TEST(map_kallsyms_that_differs_a_little_is_a_warning)
{
	FILE *listing, *ksyms;
	char path[256];
	int i;

	snprintf(path, sizeof(path), "%s/big", dir);
	listing = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/bigsyms", dir);
	ksyms = fopen(path, "w");
	ck_assert_ptr_nonnull(listing);
	ck_assert_ptr_nonnull(ksyms);
	fprintf(listing, "# generation 7 entries 1000/16384 frames 1000/262144 bytes 4096\n");
	for (i = 0; i < 1000; i++) {
		fprintf(listing, "slot %d generation 7 hits 1 depth 1 owner 900 test:tick flags 0x0\n"
			" 0x%llx f%d+0x10/0x100\n", i,
			0xffffffff81000010ULL + 0x100ULL * i, i);
		/* f999 starts 0x20 further in this kallsyms. */
		fprintf(ksyms, "%llx T f%d\n",
			0xffffffff81000000ULL + 0x100ULL * i + (i == 999) * 0x20, i);
	}
	ck_assert_int_eq(fclose(listing), 0);
	ck_assert_int_eq(fclose(ksyms), 0);
	run("--map --kallsyms bigsyms --top 1 big");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.err,
		"fgdecode: warning: --kallsyms bigsyms: 1 of the 1000 functions big names does not start at its addresses there\n");
}
END_TEST

TCase *map_tcase(void)
{
	TCase *tc = fgd_tcase("stack_map listing", 60);

	tcase_add_test(tc, map_prints_each_stack_with_its_hits_cookie_and_frames);
	tcase_add_test(tc, map_without_kallsyms_uses_the_names_of_the_listing);
	tcase_add_test(tc, map_with_a_vmlinux_that_is_no_elf_says_so);
	tcase_add_test(tc, map_kallsyms_from_a_dump_or_a_trace);
	tcase_add_test(tc, map_kallsyms_of_another_boot_is_refused);
	tcase_add_test(tc, map_kallsyms_that_differs_a_little_is_a_warning);
	tcase_add_test(tc, map_top_folded_and_json_count_hits);
	tcase_add_test(tc, map_folded_sums_slots_that_fold_alike);
	tcase_add_test(tc, map_names_owners_and_marks_truncated_stacks);
	tcase_add_test(tc, map_bad_listings_are_one_line_naming_file_and_line);
	tcase_add_test(tc, map_listing_cut_at_an_entry_boundary_is_marked);
	tcase_add_test(tc, map_missing_listing_or_kallsyms_is_one_line_and_exit_1);
	tcase_add_test(tc, map_options_reject_trace_only_and_misplaced_ones);
	tcase_add_test(tc, map_interval_prints_rates_of_changed_stacks_and_reports_resets);
	return tc;
}
