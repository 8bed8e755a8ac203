// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of fgdecode --debuginfo's lookup (decoder/symbols/debuginfo.c): the
 * release taken from a recorded uname, and the search order of vmlinux and
 * module trees, in a scratch directory standing in for /.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debuginfo.h"
#include "symbols.h"

#define REL "6.1.0-56-amd64"

static char root[64];

/* How mkpath() makes a vmlinux. */
enum kind { DIR_, ELF_DWARF, ELF_NO_DWARF };

/*
 * Create @rel under the scratch root: a directory, or a small ELF object
 * with DWARF (cc -g) or without (what a BTF-only vmlinux is to us).
 */
static void mkpath(const char *rel, enum kind kind)
{
	char path[PATH_MAX], cmd[3 * PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	if (kind == DIR_)
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	else
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p \"$(dirname '%s')\" && echo 'int x;' | cc %s -x c -c -o '%s' -",
			 path, kind == ELF_DWARF ? "-g" : "-g0", path);
	ck_assert_int_eq(system(cmd), 0);
}

static void setup(void)
{
	strcpy(root, "/tmp/debuginfo.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(release_is_the_third_uname_field)
{
	char rel[64];

	ck_assert_int_eq(debuginfo_release("Linux (none) " REL " #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-2 (2026-10-01) x86_64",
					   rel, sizeof(rel)), 0);
	ck_assert_str_eq(rel, REL);
	ck_assert_int_eq(debuginfo_release("Linux host", rel, sizeof(rel)), -ENOENT);
	ck_assert_int_eq(debuginfo_release(NULL, rel, sizeof(rel)), -ENOENT);
	ck_assert_int_eq(debuginfo_release("Linux h " REL, rel, 5), -ENAMETOOLONG);
}
END_TEST

START_TEST(debug_package_files_win_over_the_running_system)
{
	struct debuginfo d = { .release = REL };

	mkpath("/boot/vmlinux-" REL, ELF_DWARF);
	mkpath("/usr/lib/debug/boot/vmlinux-" REL, ELF_DWARF);
	mkpath("/lib/modules/" REL, DIR_);
	mkpath("/usr/lib/debug/lib/modules/" REL, DIR_);
	ck_assert_int_eq(debuginfo_find(&d, root), 2);
	ck_assert_str_eq(d.vmlinux + strlen(root), "/usr/lib/debug/boot/vmlinux-" REL);
	ck_assert_str_eq(d.modules + strlen(root), "/usr/lib/debug/lib/modules/" REL);
}
END_TEST

START_TEST(falls_back_to_boot_and_lib_modules)
{
	struct debuginfo d = { .release = REL };

	mkpath("/lib/modules/" REL "/build/vmlinux", ELF_DWARF);
	mkpath("/lib/modules/" REL, DIR_);
	ck_assert_int_eq(debuginfo_find(&d, root), 2);
	ck_assert_str_eq(d.vmlinux + strlen(root), "/lib/modules/" REL "/build/vmlinux");
	ck_assert_str_eq(d.modules + strlen(root), "/lib/modules/" REL);
}
END_TEST

/* Debian 6.12's headers package ships a BTF-only vmlinux: never taken. */
START_TEST(a_vmlinux_without_dwarf_is_passed_over)
{
	struct debuginfo d = { .release = REL };

	mkpath("/lib/modules/" REL "/build/vmlinux", ELF_NO_DWARF);
	mkpath("/lib/modules/" REL, DIR_);
	ck_assert_int_eq(debuginfo_find(&d, root), 1);
	ck_assert_str_eq(d.vmlinux, "");
	ck_assert_str_eq(d.modules + strlen(root), "/lib/modules/" REL);
	/* A later candidate with DWARF is still found. */
	mkpath("/boot/vmlinux-" REL, ELF_NO_DWARF);
	mkpath("/usr/lib/debug/lib/modules/" REL "/vmlinux", ELF_DWARF);
	ck_assert_int_eq(debuginfo_find(&d, root), 2);
	ck_assert_str_eq(d.vmlinux + strlen(root), "/usr/lib/debug/lib/modules/" REL "/vmlinux");
}
END_TEST

START_TEST(nothing_found_for_another_release)
{
	struct debuginfo d = { .release = "5.10.0-1-amd64" };

	mkpath("/boot/vmlinux-" REL, ELF_DWARF);
	mkpath("/lib/modules/" REL, DIR_);
	ck_assert_int_eq(debuginfo_find(&d, root), 0);
	ck_assert_str_eq(d.vmlinux, "");
	ck_assert_str_eq(d.modules, "");
}
END_TEST

/*
 * --debuginfo with the modules of the release but no vmlinux: a warning
 * that names the package to install, before the kallsyms are read.
 */
START_TEST(no_vmlinux_names_the_dbg_package)
{
	struct symbol_options opt = { .debuginfo = true, .debug_root = root };
	struct tep_handle *tep = tep_alloc();
	struct symbols syms = { 0 };
	char path[PATH_MAX], err[1024] = "";
	int saved, fd;
	FILE *f;

	mkpath("/lib/modules/" REL "/kernel", DIR_);
	snprintf(path, sizeof(path), "%s/stderr", root);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	close(fd);
	symbols_open(&syms, tep, &opt, "Linux guest " REL " #1 SMP", true,
		     "trace.dat");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	symbols_close(&syms);
	tep_free(tep);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(err, sizeof(err), f));
	fclose(f);
	ck_assert_str_eq(err, "fgdecode: warning: --debuginfo: no vmlinux of " REL
			 " with DWARF under /usr/lib/debug, /boot or /lib/modules/" REL
			 "/build: install linux-image-" REL "-dbg (Debian; linux-image-" REL
			 "-dbgsym on Ubuntu) or give --vmlinux; vmlinux frames keep their kallsyms symbols\n");
}
END_TEST

START_TEST(a_directory_is_not_a_vmlinux)
{
	struct debuginfo d = { .release = REL };

	mkpath("/boot/vmlinux-" REL, DIR_);
	ck_assert_int_eq(debuginfo_find(&d, root), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("debuginfo");
	TCase *tc = tcase_create("lookup");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, release_is_the_third_uname_field);
	tcase_add_test(tc, no_vmlinux_names_the_dbg_package);
	tcase_add_test(tc, debug_package_files_win_over_the_running_system);
	tcase_add_test(tc, falls_back_to_boot_and_lib_modules);
	tcase_add_test(tc, a_vmlinux_without_dwarf_is_passed_over);
	tcase_add_test(tc, nothing_found_for_another_release);
	tcase_add_test(tc, a_directory_is_not_a_vmlinux);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
