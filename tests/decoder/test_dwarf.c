// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of fgdecode's DWARF symbolizer (decoder/symbols/dwsym.c) and of
 * fgdecode --vmlinux, on a small ELF the test builds itself: three C files
 * with always_inline and noinline functions, -O2 -g, linked at a kernel
 * address.  Every address of its text is checked against
 * `eu-addr2line -f -i` on the unshifted file, and the symbolizer's index
 * against the straightforward libdw calls it replaces.
 */
#define _GNU_SOURCE	/* strverscmp */
#include <check.h>
#include <errno.h>
#include <elfutils/libdwfl.h>
#include <elfutils/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dwsym.h"
#include "kallsyms.h"
#include "mktrace.h"
#include "profile_read.h"
#include "stackmap/events.h"
#include "tep_fixture.h"

#ifndef FGDECODE
#define FGDECODE "fgdecode_san"
#endif

/*
 * LeakSanitizer: dwarf_getscopes() of elfutils 0.188 leaks its scope array
 * when it finds the innermost scope but not the abstract origin of an
 * inlined instance in the unit (LTO); the reference path of the LTO test
 * calls it there.  The frames above malloc are libdw's own.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libdw.so\n";
}

#define LINK_BASE	0xffffffff81000000ULL
#define BIAS		0x4600000ULL	/* the "KASLR" shift, 2 MiB aligned */

static char dir[64];
static char elf[128];
/* Added to the recorded _text by kallsyms_text(). */
static unsigned long long text_skew;

static const char src_a[] =
	"extern int fx_b_outer(int x);\n"
	"static inline __attribute__((always_inline)) int fx_a_leaf(int x)\n"
	"{\n"
	"\treturn fx_b_outer(x * 3) + 1;\n"			/* line 4 */
	"}\n"
	"static inline __attribute__((always_inline)) int fx_a_mid(int x)\n"
	"{\n"
	"\treturn fx_a_leaf(x + 7) * 2;\n"			/* line 8 */
	"}\n"
	"__attribute__((noinline)) int fx_a_top(int x)\n"
	"{\n"
	"\treturn fx_a_mid(x) - 5;\n"				/* line 12 */
	"}\n"
	"void fx_entry(void)\n"
	"{\n"
	"\tfx_a_top(1);\n"
	"\tfor (;;)\n"
	"\t\t;\n"
	"}\n";

static const char src_b[] =
	"extern int fx_c_sink(int);\n"
	"static inline __attribute__((always_inline)) int fx_b_twice(int x)\n"
	"{\n"
	"\treturn fx_c_sink(x) + fx_c_sink(x + 1);\n"		/* line 4 */
	"}\n"
	"__attribute__((noinline)) int fx_b_outer(int x)\n"
	"{\n"
	"\treturn fx_b_twice(x) ^ 0x55;\n"			/* line 8 */
	"}\n";

static const char src_c[] =
	"volatile int fx_c_state;\n"
	"__attribute__((noinline)) int fx_c_sink(int x)\n"
	"{\n"
	"\tfx_c_state += x;\n"
	"\treturn fx_c_state;\n"
	"}\n"
	"__attribute__((noinline)) int fx_c_other(int x)\n"
	"{\n"
	"\treturn x * fx_c_state;\n"
	"}\n";

static void put_file(const char *name, const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

/* Run @cmd in the test directory; return its first 64 KiB of stdout. */
static char *capture(const char *cmd)
{
	char full[1024];
	char *out = calloc(1, 1 << 16);
	size_t n;
	FILE *p;

	ck_assert_ptr_nonnull(out);
	snprintf(full, sizeof(full), "cd '%s' && %s", dir, cmd);
	p = popen(full, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, (1 << 16) - 1, p);
	out[n] = '\0';
	ck_assert_int_eq(pclose(p), 0);
	return out;
}

static void build_fixture(void)
{
	char cmd[512];

	snprintf(dir, sizeof(dir), "/tmp/fgdecode-dwarf.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	put_file("a.c", src_a);
	put_file("b.c", src_b);
	put_file("c.c", src_c);
	snprintf(elf, sizeof(elf), "%s/fx.elf", dir);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gcc -O2 -g -mcmodel=kernel -fno-pic -no-pie -nostdlib -static "
		 "-fno-asynchronous-unwind-tables -Wl,-Ttext-segment=0x%llx "
		 "-Wl,-e,fx_entry -Wl,--build-id=none -Wl,--defsym=_text=0x%llx "
		 "-o fx.elf a.c b.c c.c",
		 dir, LINK_BASE, LINK_BASE);
	ck_assert_int_eq(system(cmd), 0);
}

static void remove_fixture(void)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* Moves fx_c_other alone in kallsyms_text(): one function of five. */
static unsigned long long one_skew;

/*
 * kallsyms text for the fixture: its symbols from nm, each shifted by
 * @bias, and 1, 2 and 3 times @skew added to fx_b_outer, fx_c_sink and
 * fx_c_other (three of the five functions, each at its own offset).
 */
static char *kallsyms_text(unsigned long long bias, unsigned long long skew)
{
	char *nm = capture("nm fx.elf");
	char *text = calloc(1, 1 << 16), *line, *save = NULL;
	unsigned long long addr;
	char type, name[128];

	ck_assert_ptr_nonnull(text);
	for (line = strtok_r(nm, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3)
			continue;
		addr += bias;
		if (!strcmp(name, "fx_b_outer"))
			addr += skew;
		else if (!strcmp(name, "fx_c_sink"))
			addr += 2 * skew;
		else if (!strcmp(name, "fx_c_other"))
			addr += 3 * skew + one_skew;
		else if (!strcmp(name, "_text"))
			addr += text_skew;
		sprintf(text + strlen(text), "%llx %c %s\n", addr, type, name);
	}
	free(nm);
	return text;
}

/* struct kallsyms from kallsyms text, as kallsyms_load() would give. */
static void to_kallsyms(const char *text, struct kallsyms *ks)
{
	char name[128];
	unsigned long long addr;
	const char *p;
	char type;
	int used;

	memset(ks, 0, sizeof(*ks));
	ks->syms = calloc(64, sizeof(*ks->syms));
	ck_assert_ptr_nonnull(ks->syms);
	for (p = text; sscanf(p, "%llx %c %127s%n", &addr, &type, name, &used) == 3;
	     p += used) {
		ck_assert_uint_lt(ks->nr, 64);
		ks->syms[ks->nr].addr = addr;
		ks->syms[ks->nr].name = strdup(name);
		ks->nr++;
	}
}

/* Free a struct kallsyms built by this file (its names strdup()ed one by one). */
static void drop_kallsyms(struct kallsyms *ks)
{
	size_t i;

	for (i = 0; i < ks->nr; i++) {
		free((char *)ks->syms[i].name);
		free((char *)ks->syms[i].mod);
	}
	free(ks->syms);
	memset(ks, 0, sizeof(*ks));
}

static struct dwsym *open_with(unsigned long long bias,
			       unsigned long long skew, struct sm_err *err)
{
	struct kallsyms ks;
	struct dwsym *d = NULL;
	char *text = kallsyms_text(bias, skew);

	to_kallsyms(text, &ks);
	free(text);
	if (dwsym_open(&d, &ks, elf, NULL, err))
		d = NULL;
	drop_kallsyms(&ks);
	return d;
}

/* Start and end of the fixture's text (fx_a_top .. end of fx_c_other). */
static void text_range(unsigned long long *lo, unsigned long long *hi)
{
	char *out = capture("nm -S fx.elf | awk '$4 == \"fx_a_top\" { print $1 } "
			    "$4 == \"fx_c_other\" { print $1, $2 }'");
	unsigned long long a, b, size;

	ck_assert_int_eq(sscanf(out, "%llx %llx %llx", &a, &b, &size), 3);
	*lo = a;
	*hi = b + size;
	free(out);
}

/*
 * The "NAME[ inlined at ...]\nFILE:LINE:COL\n" pairs eu-addr2line prints for
 * one address, up to a blank line, as "NAME FILE:LINE;..." in @out.
 */
static void addr2line_chain(char **cursor, char *out, size_t len)
{
	char *p = *cursor, *nl, *name_end, *colon;
	size_t used = 0;

	out[0] = '\0';
	/* A chain ends where the next address's output begins: a blank line. */
	while (*p && *p != '\n') {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		*nl = '\0';
		name_end = strchr(p, ' ');
		if (name_end)
			*name_end = '\0';
		used += snprintf(out + used, len - used, "%s ", p);
		p = nl + 1;
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		*nl = '\0';
		colon = strrchr(p, ':');
		/* file:line:col -> file:line */
		if (colon && strchr(p, ':') != colon)
			*colon = '\0';
		used += snprintf(out + used, len - used, "%s;", p);
		p = nl + 1;
	}
	if (*p == '\n')
		p++;
	*cursor = p;
}

/* The same shape from our lookup ("?? ??:0;" or "FUNC ??:0;" without
 * DWARF, as eu-addr2line prints it). */
static void our_chain(const struct dw_loc *loc, char *out, size_t len)
{
	size_t used = 0;
	int i;

	out[0] = '\0';
	if (!loc || !loc->nr) {
		snprintf(out, len, "%s ??:0;", loc && loc->func ? loc->func : "??");
		return;
	}
	for (i = 0; loc && i < loc->nr; i++)
		used += snprintf(out + used, len - used, "%s %s:%d;",
				 loc->chain[i].name ? loc->chain[i].name : "??",
				 loc->chain[i].file ? loc->chain[i].file : "??",
				 loc->chain[i].line);
}

/* The hex number the shell command @cmd prints first. */
static unsigned long long hex_from(const char *cmd)
{
	char *out = capture(cmd);
	unsigned long long addr;

	ck_assert_int_eq(sscanf(out, "%llx", &addr), 1);
	free(out);
	return addr;
}

/* Address after fx_a_top's call of fx_b_outer (link address). */
static unsigned long long ret_in_a_top(void)
{
	return hex_from("objdump -d fx.elf | awk '/<fx_a_top>:/ { f = 1 } "
			"f && /call/ { c = 1; next } c { sub(\":\", \"\", $1); print $1; exit }'");
}

static unsigned long long symbol_addr(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "nm fx.elf | awk '$3 == \"%s\" { print $1 }'",
		 name);
	return hex_from(cmd);
}

/* Address of the symbol after @name in fx.elf: its kallsyms end. */
static unsigned long long symbol_end(const char *name)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd),
		 "nm -n fx.elf | awk 'f { print $1; exit } $3 == \"%s\" { f = 1 }'",
		 name);
	return hex_from(cmd);
}

START_TEST(bias_is_the_majority_of_recorded_minus_link_addresses)
{
	struct sm_err err = { "" };
	struct dwsym *d;

	build_fixture();
	d = open_with(BIAS, 0, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_uint_eq(dwsym_bias(d), BIAS);
	dwsym_free(d);
	remove_fixture();
}
END_TEST

/*
 * Compare every address of [@lo, @hi) of @file (as eu-addr2line places it),
 * as a first frame and as a return address, with our lookup of it shifted
 * by @shift.  Return: the number of lookups that gave an inline chain.
 */
static int compare_range(struct dwsym *d, const char *file,
			 unsigned long long lo, unsigned long long hi,
			 unsigned long long shift)
{
	char ours[1024], theirs[1024], one[256], *out, *cursor;
	unsigned long long a;
	int is_return, checked = 0, inlined = 0;

	for (is_return = 0; is_return <= 1; is_return++) {
		for (a = lo + is_return; a < hi; a++) {
			snprintf(one, sizeof(one),
				 "eu-addr2line -f -i -e %s 0x%llx; echo",
				 file, a - is_return);
			out = capture(one);
			cursor = out;
			addr2line_chain(&cursor, theirs, sizeof(theirs));
			our_chain(dwsym_lookup(d, a + shift, is_return), ours,
				  sizeof(ours));
			ck_assert_msg(!strcmp(ours, theirs),
				      "%s 0x%llx%s: ours '%s', eu-addr2line '%s'",
				      file, a, is_return ? " (return)" : "",
				      ours, theirs);
			/* More than one frame: an inline chain. */
			inlined += strchr(ours, ';') != strrchr(ours, ';');
			checked++;
			free(out);
		}
	}
	ck_assert_int_gt(checked, 2 * (int)(hi - lo) - 2);
	return inlined;
}

START_TEST(every_text_address_matches_eu_addr2line)
{
	unsigned long long lo, hi;
	struct sm_err err = { "" };
	char ours[1024];
	const struct dw_loc *loc;
	struct dwsym *d;
	int with_inline = 0;

	build_fixture();
	d = open_with(BIAS, 0, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	text_range(&lo, &hi);
	ck_assert_uint_gt(hi - lo, 50);
	compare_range(d, "fx.elf", lo, hi, BIAS);
	/* The range holds inlined code: fx_a_leaf, fx_a_mid, fx_b_twice. */
	for (; lo < hi; lo++) {
		loc = dwsym_lookup(d, lo + BIAS, false);
		our_chain(loc, ours, sizeof(ours));
		with_inline += loc && loc->nr > 1 && loc->chain[0].inlined;
	}
	ck_assert_int_gt(with_inline, 4);
	dwsym_free(d);
	remove_fixture();
}
END_TEST

#define MOD_TEXT	0xffffffffc0a01000ULL
#define MOD_BSS		0xffffffffc0a07000ULL

/*
 * Build DIR/mods/extra/fx-mod.ko (ET_REL from b.c and c.c) and the kallsyms
 * of module fx_mod: .text at MOD_TEXT, .bss at MOD_BSS, fx_c_sink and
 * fx_c_other moved by @skew and 2 * @skew.
 */
static void build_module(struct kallsyms *ks, unsigned long long skew)
{
	char cmd[512], *nm, *line, *save = NULL, type, name[128];
	unsigned long long value;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p mods/extra && gcc -c -O2 -g -mcmodel=kernel -fno-pic "
		 "-fno-asynchronous-unwind-tables b.c c.c && ld -r -o mods/extra/fx-mod.ko b.o c.o",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	nm = capture("nm mods/extra/fx-mod.ko");
	memset(ks, 0, sizeof(*ks));
	ks->syms = calloc(16, sizeof(*ks->syms));
	ck_assert_ptr_nonnull(ks->syms);
	for (line = strtok_r(nm, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llx %c %127s", &value, &type, name) != 3 ||
		    ks->nr >= 16)
			continue;
		ks->syms[ks->nr].addr = value +
			(type == 'T' || type == 't' ? MOD_TEXT : MOD_BSS) +
			(!strcmp(name, "fx_c_sink") ? skew : 0) +
			(!strcmp(name, "fx_c_other") ? 2 * skew : 0);
		ks->syms[ks->nr].name = strdup(name);
		ks->syms[ks->nr++].mod = strdup("fx_mod");
	}
	free(nm);
}

START_TEST(module_is_placed_from_its_recorded_symbols)
{
	struct sm_err err = { "" };
	char want[256];
	struct kallsyms ks;
	struct dwsym *d;
	char *size;
	unsigned long long text_size;

	build_fixture();
	build_module(&ks, 0);
	snprintf(want, sizeof(want), "%s/mods", dir);
	ck_assert_msg(!dwsym_open(&d, &ks, NULL, want, &err),
		      "%s", err.msg);
	size = capture("size -A mods/extra/fx-mod.ko | awk '$1 == \".text\" { print $2 }'");
	ck_assert_int_eq(sscanf(size, "%llu", &text_size), 1);
	free(size);
	ck_assert_int_gt(compare_range(d, "mods/extra/fx-mod.ko", 0, text_size,
				       MOD_TEXT), 0);
	ck_assert_str_eq(dwsym_lookup(d, MOD_TEXT, false)->func, "fx_b_outer");
	/* Below the module: not ours. */
	ck_assert_ptr_null(dwsym_lookup(d, MOD_TEXT - 0x100, false));
	dwsym_free(d);

	/*
	 * The same module as .ko.xz (how Debian 6.12 ships every module) in
	 * a directory reached through a symbolic link: found, placed, and
	 * its DWARF read.
	 */
	snprintf(want, sizeof(want),
		 "cd '%s' && mkdir -p xzmods/kernel && xz -c mods/extra/fx-mod.ko >xzmods/kernel/fx-mod.ko.xz && ln -sfn xzmods xzlink",
		 dir);
	ck_assert_int_eq(system(want), 0);
	snprintf(want, sizeof(want), "%s/xzlink", dir);
	ck_assert_msg(!dwsym_open(&d, &ks, NULL, want, &err), "%s", err.msg);
	ck_assert_str_eq(dwsym_lookup(d, MOD_TEXT, false)->func, "fx_b_outer");
	ck_assert_int_gt(dwsym_lookup(d, MOD_TEXT, false)->nr, 0);
	ck_assert_ptr_nonnull(dwsym_lookup(d, MOD_TEXT, false)->chain[0].file);
	dwsym_free(d);

	/*
	 * Another file of the module's name in an unrelated tree beside it
	 * (an empty fx-mod.ko): passed over, whichever the search meets
	 * first.  Only such files: refused, saying how many were tried.
	 */
	snprintf(want, sizeof(want),
		 "cd '%s' && mkdir -p both/other && cp -r mods both/ && : >both/other/fx-mod.ko && "
		 "mkdir -p bad/a bad/b && : >bad/a/fx-mod.ko && : >bad/b/fx-mod.ko", dir);
	ck_assert_int_eq(system(want), 0);
	snprintf(want, sizeof(want), "%s/both", dir);
	ck_assert_msg(!dwsym_open(&d, &ks, NULL, want, &err), "%s", err.msg);
	ck_assert_str_eq(dwsym_lookup(d, MOD_TEXT, false)->func, "fx_b_outer");
	dwsym_free(d);
	snprintf(want, sizeof(want), "%s/bad", dir);
	ck_assert_int_eq(dwsym_open(&d, &ks, NULL, want, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, ": not a kernel module (ELF ET_REL) (nor do the 1 other files of fx_mod under "),
		      "%s", err.msg);
	drop_kallsyms(&ks);

	/* Two of the three functions elsewhere: refused, naming the section. */
	build_module(&ks, 0x40);
	snprintf(want, sizeof(want), "%s/mods", dir);
	ck_assert_int_ne(dwsym_open(&d, &ks, NULL, want, &err), 0);
	snprintf(want, sizeof(want),
		 "%s/mods/extra/fx-mod.ko: does not match the recorded module fx_mod: 2 of the 3 symbols of its section .text are not where the recording has them (at most 1 in 1000 may differ)",
		 dir);
	ck_assert_str_eq(err.msg, want);
	drop_kallsyms(&ks);
	remove_fixture();
}
END_TEST

START_TEST(return_address_is_looked_up_at_the_call)
{
	struct sm_err err = { "" };
	const struct dw_loc *loc;
	struct dwsym *d;
	unsigned long long ret_addr;

	build_fixture();
	d = open_with(BIAS, 0, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ret_addr = ret_in_a_top();
	loc = dwsym_lookup(d, ret_addr + BIAS, true);
	ck_assert_ptr_nonnull(loc);
	ck_assert_str_eq(loc->func, "fx_a_top");
	ck_assert_int_eq(loc->nr, 3);
	ck_assert_str_eq(loc->chain[0].name, "fx_a_leaf");
	ck_assert(loc->chain[0].inlined);
	ck_assert_int_eq(loc->chain[0].line, 4);
	ck_assert_str_eq(loc->chain[1].name, "fx_a_mid");
	ck_assert(loc->chain[1].inlined);
	ck_assert_int_eq(loc->chain[1].line, 8);
	ck_assert_str_eq(loc->chain[2].name, "fx_a_top");
	ck_assert(!loc->chain[2].inlined);
	ck_assert_int_eq(loc->chain[2].line, 12);
	ck_assert(strstr(loc->chain[2].file, "/a.c"));
	/* Outside the vmlinux: no answer, the caller keeps kallsyms. */
	ck_assert_ptr_null(dwsym_lookup(d, 0xffffffffc0001000ULL, false));
	dwsym_free(d);
	remove_fixture();
}
END_TEST

START_TEST(vmlinux_that_does_not_match_is_refused)
{
	struct sm_err err = { "" };
	char want[512];
	struct dwsym *d;

	build_fixture();
	/* Three of five functions at another offset: no majority. */
	d = open_with(BIAS, 0x1000, &err);
	ck_assert_ptr_null(d);
	snprintf(want, sizeof(want),
		 "%s: does not match the recorded kernel: 3 of 5 functions are not where the recording has them (e.g. ",
		 elf);
	ck_assert_msg(!strncmp(err.msg, want, strlen(want)), "%s", err.msg);
	/* One of five moved: a majority, still refused, and named. */
	one_skew = 0x40;
	d = open_with(BIAS, 0, &err);
	one_skew = 0;
	ck_assert_ptr_null(d);
	snprintf(want, sizeof(want),
		 "%s: does not match the recorded kernel: 1 of 5 functions are not where the recording has them (e.g. fx_c_other: recorded at 0x%llx, this file puts it at 0x%llx); at most 1 in 1000 may differ",
		 elf, symbol_addr("fx_c_other") + BIAS + 0x40,
		 symbol_addr("fx_c_other") + BIAS);
	ck_assert_str_eq(err.msg, want);
	d = open_with(BIAS, 0, &err);
	ck_assert_ptr_nonnull(d);
	dwsym_free(d);
	/* Every function agrees, _text does not. */
	text_skew = 0x200000;
	d = open_with(BIAS, 0, &err);
	text_skew = 0;
	ck_assert_ptr_null(d);
	snprintf(want, sizeof(want),
		 "%s: does not match the recorded kernel: _text is at 0x%llx, its symbols say 0x%llx",
		 elf, symbol_addr("_text") + BIAS + 0x200000,
		 symbol_addr("_text") + BIAS);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(dwsym_open(&d, &(struct kallsyms){ 0 }, "/nonexistent/vmlinux",
				    NULL, &err), -ENOENT);
	ck_assert_str_eq(err.msg, "/nonexistent/vmlinux: No such file or directory");
	ck_assert_int_eq(dwsym_open(&d, &(struct kallsyms){ 0 }, "/etc/hostname",
				    NULL, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "/etc/hostname: not an ELF file");
	remove_fixture();
}
END_TEST

/* dwsym_open() of DIR/@name as the vmlinux: its error, "" when accepted. */
static const char *vmlinux_error(const char *name, struct sm_err *err)
{
	char path[256];
	struct dwsym *d;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!dwsym_open(&d, &(struct kallsyms){ 0 }, path, NULL, err)) {
		dwsym_free(d);
		return "";
	}
	/* One line naming the file, after the directory. */
	ck_assert_ptr_null(strchr(err->msg, '\n'));
	ck_assert_msg(!strncmp(err->msg, path, strlen(path)), "%s", err->msg);
	return err->msg + strlen(path);
}

/*
 * An ELF that lacks what a vmlinux has (a stripped program or library, a
 * stripped kernel, an object file) is refused saying that it is not one,
 * its type and what it lacks.
 */
START_TEST(vmlinux_that_is_no_vmlinux_says_what_it_is)
{
	struct sm_err err = { "" };
	char cmd[512];

	build_fixture();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && strip -o fx-stripped.elf fx.elf && "
		 "gcc -shared -fPIC -o lib.so c.c && strip lib.so && gcc -c -o c.o c.c",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_str_eq(vmlinux_error("fx-stripped.elf", &err),
			 ": not a vmlinux: ET_EXEC with no symbol table");
	ck_assert_str_eq(vmlinux_error("lib.so", &err),
			 ": not a vmlinux: ET_DYN with no symbol table");
	ck_assert_str_eq(vmlinux_error("c.o", &err),
			 ": not a vmlinux: ET_REL with no loadable segment (a kernel module? --modules DIR reads those)");
	remove_fixture();
}
END_TEST

/* Write DIR/trace.dat: a tick with a fallback stack in the fixture. */
static void write_fixture_trace(const sm_u64 *frames, int depth)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
		{ NULL, NULL },
	};
	struct mktrace *mt = mkt_new(1);
	char *ks = kallsyms_text(BIAS, 0), path[128];
	struct fx_buf b;

	fx_buf_init(&b, 8, false);
	fx_tick(&b, 1);
	mkt_add(mt, 0, 1000000000ULL, b.data, b.len);
	fx_fallback(&b, STACKMAP_FALLBACK_FULL, depth, frames, depth);
	mkt_add(mt, 0, 1000001000ULL, b.data, b.len);
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	ck_assert_int_eq(mkt_write(mt, path, formats, ks, "42 worker\n"), 0);
	free(ks);
}

/* linux_banner's release must be the recorded one; no banner: nothing to say. */
START_TEST(banner_names_the_release)
{
	struct sm_err err = { "" };
	char path[512], cmd[1024];
	FILE *f;

	build_fixture();

	snprintf(path, sizeof(path), "%s/banner.c", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("const char linux_banner[] = \"Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP\\n\";\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cc -c -o '%s/banner.o' '%s'", dir, path);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/banner.o", dir);
	ck_assert_int_eq(dwsym_check_banner(path, "6.1.0-57-amd64", &err), 0);
	ck_assert_int_eq(dwsym_check_banner(path, NULL, &err), 0);
	ck_assert_int_eq(dwsym_check_banner(path, "6.12.117+deb12-amd64", &err), -EINVAL);
	snprintf(cmd, sizeof(cmd),
		 "%s: its linux_banner says release 6.1.0-57-amd64, the trace was recorded on 6.12.117+deb12-amd64",
		 path);
	ck_assert_str_eq(err.msg, cmd);
	/* The fixture vmlinux has no banner: nothing to compare. */
	ck_assert_int_eq(dwsym_check_banner(elf, "6.12.117+deb12-amd64", &err), 0);
	remove_fixture();
}
END_TEST

/* A vmlinux without DWARF is used for placement only, and fgdecode says so. */
START_TEST(fgdecode_says_a_vmlinux_has_no_dwarf)
{
	char fg[4096], cmd[8192], *out;
	sm_u64 frames[1];

	ck_assert_ptr_nonnull(realpath(FGDECODE, fg));
	build_fixture();
	frames[0] = ret_in_a_top() + BIAS;
	write_fixture_trace(frames, 1);
	snprintf(cmd, sizeof(cmd),
		 "objcopy --strip-debug fx.elf fx-nodw.elf && '%s' --no-summary --vmlinux fx-nodw.elf trace.dat 2>&1 >/dev/null",
		 fg);
	out = capture(cmd);
	ck_assert_str_eq(out, "fgdecode: fx-nodw.elf: no DWARF (.debug_info; a stripped file): its frames keep the kallsyms symbols, with no file:line or inlined frames\n");
	free(out);
	/* zstd-compressed DWARF, which libdw before 0.189 cannot read. */
	if (strverscmp(dwfl_version(NULL), "0.189") < 0) {
		snprintf(cmd, sizeof(cmd),
			 "objcopy --compress-debug-sections=zstd fx.elf fx-zstd.elf && '%s' --no-summary --vmlinux fx-zstd.elf trace.dat 2>&1 >/dev/null",
			 fg);
		out = capture(cmd);
		ck_assert_msg(strstr(out, "fgdecode: fx-zstd.elf: its DWARF is zstd-compressed, which this libdw cannot read"),
			      "%s", out);
		free(out);
	}
	remove_fixture();
}
END_TEST

START_TEST(fgdecode_vmlinux_prints_lines_and_inlined_frames)
{
	char fg[4096], cmd[8192], want[1024], *out;
	unsigned long long ret;
	sm_u64 frames[3];

	ck_assert_ptr_nonnull(realpath(FGDECODE, fg));
	build_fixture();
	ret = ret_in_a_top();
	/*
	 * Frame 0 is a return address like every other (events.h): the one
	 * after an instruction at fx_c_sink's start, looked up there.
	 */
	frames[0] = symbol_addr("fx_c_sink") + 1 + BIAS;
	frames[1] = ret + BIAS;
	frames[2] = 0xffffffffc0001234ULL;	/* outside: no symbol */
	write_fixture_trace(frames, 3);

	snprintf(cmd, sizeof(cmd), "'%s' --no-summary --vmlinux fx.elf trace.dat", fg);
	out = capture(cmd);
	/*
	 * The physical frame keeps its kallsyms name, offset and size (as
	 * without --vmlinux); DWARF adds the inlined frames and file:line.
	 */
	snprintf(want, sizeof(want),
		 "    => fx_a_leaf (inlined) %s/a.c:4\n"
		 "    => fx_a_mid (inlined) %s/a.c:8\n"
		 "    => fx_a_top+0x%llx/0x20 (%llx) %s/a.c:12\n"
		 "    => 0xffffffffc0001234\n",
		 dir, dir, ret - symbol_addr("fx_a_top"), ret + BIAS, dir);
	ck_assert_msg(strstr(out, want), "output:\n%s\nwanted:\n%s", out, want);
	snprintf(want, sizeof(want), "    => fx_c_sink+0x1/0x20 (%llx) %s/c.c:",
		 (unsigned long long)frames[0], dir);
	ck_assert_msg(strstr(out, want), "output:\n%s", out);
	free(out);

	/* Without --vmlinux: kallsyms only, as before. */
	snprintf(cmd, sizeof(cmd), "'%s' --no-summary trace.dat", fg);
	out = capture(cmd);
	snprintf(want, sizeof(want), "    => fx_a_top+0x%llx/0x%llx (%llx)\n",
		 ret - symbol_addr("fx_a_top"),
		 symbol_end("fx_a_top") - symbol_addr("fx_a_top"), ret + BIAS);
	ck_assert_msg(strstr(out, want), "output:\n%s\nwanted:\n%s", out, want);
	ck_assert(!strstr(out, "inlined"));
	free(out);

	snprintf(cmd, sizeof(cmd), "'%s' --no-summary --folded --vmlinux fx.elf trace.dat", fg);
	out = capture(cmd);
	ck_assert_str_eq(out, "tick;0xffffffffc0001234;fx_a_top;fx_a_mid;fx_a_leaf;fx_c_sink 1\n");
	free(out);

	snprintf(cmd, sizeof(cmd), "'%s' --no-summary --json --vmlinux fx.elf trace.dat", fg);
	out = capture(cmd);
	snprintf(want, sizeof(want),
		 "{\"addr\":\"0x%llx\",\"symbol\":\"fx_a_leaf\",\"file\":\"%s/a.c\",\"line\":4,\"inlined\":true}",
		 ret + BIAS, dir);
	ck_assert_msg(strstr(out, want), "output:\n%s", out);
	free(out);
	remove_fixture();
}
END_TEST

START_TEST(fgdecode_pprof_gives_an_address_its_inlined_frames_as_lines)
{
	static const char *const want[3][2] = {
		{ "fx_a_leaf", "4" }, { "fx_a_mid", "8" }, { "fx_a_top", "12" },
	};
	PrProfile *p;
	PrLocation *loc;
	char fg[4096], cmd[8192], file[128], path[128];
	unsigned long long ret;
	sm_u64 frames[2];
	size_t i;

	ck_assert_ptr_nonnull(realpath(FGDECODE, fg));
	build_fixture();
	ret = ret_in_a_top();
	frames[0] = ret + BIAS;
	frames[1] = 0xffffffffc0001234ULL;	/* outside: no symbol */
	write_fixture_trace(frames, 2);
	snprintf(cmd, sizeof(cmd), "'%s' --no-summary --pprof p.pb.gz --vmlinux fx.elf trace.dat", fg);
	free(capture(cmd));
	snprintf(path, sizeof(path), "%s/p.pb.gz", dir);
	p = profile_read(path);
	ck_assert_uint_eq(p->n_sample, 1);
	ck_assert_uint_eq(p->sample[0]->n_location_id, 2);
	ck_assert_int_eq(p->sample[0]->value[0], 1);

	/* Innermost first, the function they are inlined into last. */
	loc = profile_location_at(p, ret + BIAS);
	ck_assert_ptr_nonnull(loc);
	ck_assert_uint_eq(p->sample[0]->location_id[0], loc->id);
	ck_assert_uint_eq(loc->n_line, 3);
	snprintf(file, sizeof(file), "%s/a.c", dir);
	for (i = 0; i < 3; i++) {
		ck_assert_str_eq(profile_line_function(p, loc, i), want[i][0]);
		ck_assert_int_eq(loc->line[i]->line, atoi(want[i][1]));
		ck_assert_str_eq(p->string_table[p->function[loc->line[i]->function_id - 1]->filename],
				 file);
	}
	ck_assert_uint_ge(loc->mapping_id, 1);
	ck_assert_str_eq(p->string_table[p->mapping[loc->mapping_id - 1]->filename], "fx.elf");
	ck_assert(p->mapping[loc->mapping_id - 1]->has_inline_frames);

	/* No symbol: the function is the address. */
	loc = profile_location_at(p, 0xffffffffc0001234ULL);
	ck_assert_ptr_nonnull(loc);
	ck_assert_uint_eq(loc->n_line, 1);
	ck_assert_str_eq(profile_line_function(p, loc, 0), "0xffffffffc0001234");
	profile_free(p);
	remove_fixture();
}
END_TEST

/*
 * Run the shell command @cmd, which runs fgdecode with its stderr in
 * ./err of the fixture directory: it must exit 1 with one line there.
 * Return: that line (free it).
 */
static char *refused_in_one_line(const char *cmd)
{
	char cat[256];
	char *err;
	int status = system(cmd);

	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 1);
	snprintf(cat, sizeof(cat), "cat '%s/err'", dir);
	err = capture(cat);
	ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);
	return err;
}

START_TEST(fgdecode_refuses_a_vmlinux_that_does_not_match)
{
	char fg[4096], cmd[8192], want[512], *err;
	sm_u64 frame;

	ck_assert_ptr_nonnull(realpath(FGDECODE, fg));
	build_fixture();
	frame = symbol_addr("fx_c_sink") + BIAS;
	write_fixture_trace(&frame, 1);
	/* Another build: every function at another link address. */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gcc -O2 -g -mcmodel=kernel -fno-pic -no-pie -nostdlib -static "
		 "-Wl,-Ttext-segment=0xffffffff81000000 -Wl,-e,fx_entry -o other.elf c.c b.c a.c",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && '%s' --vmlinux other.elf trace.dat >out 2>err", dir, fg);
	err = refused_in_one_line(cmd);
	snprintf(want, sizeof(want),
		 "fgdecode: other.elf: does not match the recorded kernel: 3 of 5 functions are not where ");
	ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
	free(err);
	/*
	 * A program that shares one function name with the recording (it was
	 * taken as the vmlinux, 1 vote of 1 agreeing): not a vmlinux.
	 */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && printf 'void fx_c_sink(void) {}\\nvoid p1(void) {}\\nvoid p2(void) {}\\n"
		 "void p3(void) {}\\nint main(void) { return 0; }\\n' >prog.c && "
		 "gcc -O0 -g -o prog.elf prog.c && "
		 "'%s' --vmlinux prog.elf trace.dat >out 2>err", dir, fg);
	err = refused_in_one_line(cmd);
	ck_assert_msg(strstr(err, "fgdecode: prog.elf: not a vmlinux of the recorded kernel: only 1 of its "),
		      "%s", err);
	free(err);
	remove_fixture();
}
END_TEST

START_TEST(fgdecode_modules_prints_module_lines_and_inlined_frames)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
		{ NULL, NULL },
	};
	char fg[4096], cmd[8192], want[1024], ktext[2048] = "", *out;
	unsigned long long off;
	struct kallsyms ks;
	struct mktrace *mt;
	struct fx_buf b;
	sm_u64 frames[2];
	size_t i;

	ck_assert_ptr_nonnull(realpath(FGDECODE, fg));
	build_fixture();
	build_module(&ks, 0);
	for (i = 0; i < ks.nr; i++)
		sprintf(ktext + strlen(ktext), "%llx t %s\t[%s]\n",
			(unsigned long long)ks.syms[i].addr, ks.syms[i].name,
			ks.syms[i].mod);
	drop_kallsyms(&ks);
	/* The return address of fx_b_outer's first call (inlined fx_b_twice). */
	out = capture("objdump -d mods/extra/fx-mod.ko | awk '/<fx_b_outer>:/ { f = 1 } "
		      "f && /call/ { c = 1; next } c { sub(\":\", \"\", $1); print $1; exit }'");
	ck_assert_int_eq(sscanf(out, "%llx", &off), 1);
	free(out);
	frames[0] = MOD_TEXT + 0x30;
	frames[1] = MOD_TEXT + off;
	mt = mkt_new(1);
	fx_buf_init(&b, 8, false);
	fx_tick(&b, 1);
	mkt_add(mt, 0, 1000000000ULL, b.data, b.len);
	fx_fallback(&b, STACKMAP_FALLBACK_FULL, 2, frames, 2);
	mkt_add(mt, 0, 1000001000ULL, b.data, b.len);
	snprintf(cmd, sizeof(cmd), "%s/trace.dat", dir);
	ck_assert_int_eq(mkt_write(mt, cmd, formats, ktext, "42 worker\n"), 0);

	snprintf(cmd, sizeof(cmd), "'%s' --no-summary --modules mods trace.dat", fg);
	out = capture(cmd);
	snprintf(want, sizeof(want),
		 "    => fx_b_twice (inlined) %s/b.c:4\n"
		 "    => fx_b_outer+0x%llx/0x30 [fx_mod] (%llx) %s/b.c:8\n",
		 dir, off, MOD_TEXT + off, dir);
	ck_assert_msg(strstr(out, want), "output:\n%s\nwanted:\n%s", out, want);
	free(out);
	snprintf(cmd, sizeof(cmd), "'%s' --no-summary --modules nonexistent trace.dat 2>&1; echo rc=$?", fg);
	out = capture(cmd);
	ck_assert_str_eq(out, "fgdecode: nonexistent: cannot search it for modules\nrc=1\n");
	free(out);
	/* A directory without the recorded module: one warning, decoded. */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p empty && '%s' --no-summary --modules empty trace.dat 2>&1 >/dev/null; echo rc=$?",
		 fg);
	out = capture(cmd);
	ck_assert_str_eq(out, "fgdecode: warning: empty: none of the recorded modules (1) is under it as NAME.ko, .ko.xz, .ko.gz or .ko.zst: their frames keep the kallsyms symbols\nrc=0\n");
	free(out);
	/* A trace that records no module: nothing to look for, said so. */
	frames[0] = ret_in_a_top() + BIAS;
	write_fixture_trace(frames, 1);
	snprintf(cmd, sizeof(cmd),
		 "'%s' --no-summary --modules mods trace.dat 2>&1 >/dev/null; echo rc=$?",
		 fg);
	out = capture(cmd);
	ck_assert_str_eq(out, "fgdecode: warning: mods: the recording names no module to look for there\nrc=0\n");
	free(out);
	remove_fixture();
}
END_TEST

/* @loc as one line: symbol, offset, and every frame with its flag. */
static void describe(const struct dw_loc *loc, char *out, size_t len)
{
	size_t used;
	int i;

	if (!loc) {
		snprintf(out, len, "(none)");
		return;
	}
	used = snprintf(out, len, "%s+0x%llx|", loc->func ? loc->func : "??",
			(unsigned long long)loc->offset);
	for (i = 0; i < loc->nr && used < len; i++)
		used += snprintf(out + used, len - used, "%s%s %s:%d;",
				 loc->chain[i].inlined ? "^" : "",
				 loc->chain[i].name ? loc->chain[i].name : "??",
				 loc->chain[i].file ? loc->chain[i].file : "??",
				 loc->chain[i].line);
}

/*
 * Look every address of [@lo, @hi) up (as a first frame and as a return
 * address) through the index of @fast and through the straightforward
 * libdw calls of @slow; they must agree byte for byte.  Return: the number
 * of addresses compared.
 */
static int compare_index(struct dwsym *fast, struct dwsym *slow,
			 unsigned long long lo, unsigned long long hi)
{
	char a[2048], b[2048];
	unsigned long long addr;
	int is_return, n = 0;

	for (is_return = 0; is_return <= 1; is_return++)
		for (addr = lo; addr < hi; addr++, n++) {
			describe(dwsym_lookup(fast, addr, is_return), a, sizeof(a));
			describe(dwsym_lookup(slow, addr, is_return), b, sizeof(b));
			ck_assert_msg(!strcmp(a, b), "0x%llx%s: index '%s', libdw '%s'",
				      addr, is_return ? " (return)" : "", a, b);
		}
	return n;
}

START_TEST(index_gives_what_the_libdw_calls_give_on_every_address)
{
	unsigned long long lo, hi;
	struct dwsym_stats st;
	struct dwsym *fast, *slow;
	struct sm_err err = { "" };

	build_fixture();
	fast = open_with(BIAS, 0, &err);
	slow = open_with(BIAS, 0, &err);
	ck_assert_msg(fast && slow, "%s", err.msg);
	dwsym_set_naive(slow, true);
	text_range(&lo, &hi);
	ck_assert_int_gt(compare_index(fast, slow, lo + BIAS, hi + BIAS), 100);
	dwsym_get_stats(fast, &st);
	ck_assert_uint_eq(st.modules, 1);
	ck_assert_uint_ge(st.units, 3);
	ck_assert_uint_gt(st.scopes, 5);
	ck_assert_uint_eq(st.naive_scopes, 0);
	/* Only the padding between functions has no sized symbol. */
	ck_assert_uint_lt(st.naive_symbols, st.lookups / 4);
	/* Before the text (headers, no symbol) and past its end. */
	compare_index(fast, slow, lo + BIAS - 64, lo + BIAS);
	compare_index(fast, slow, hi + BIAS, hi + BIAS + 64);
	dwsym_get_stats(slow, &st);
	ck_assert_uint_eq(st.units + st.modules + st.naive_scopes, 0);
	dwsym_free(fast);
	dwsym_free(slow);
	remove_fixture();
}
END_TEST

START_TEST(index_gives_what_the_libdw_calls_give_in_a_module)
{
	struct sm_err err = { "" };
	char mods[160];
	struct kallsyms ks;
	struct dwsym_stats st;
	struct dwsym *fast, *slow;

	build_fixture();
	build_module(&ks, 0);
	snprintf(mods, sizeof(mods), "%s/mods", dir);
	ck_assert_msg(!dwsym_open(&fast, &ks, NULL, mods, &err), "%s", err.msg);
	ck_assert_msg(!dwsym_open(&slow, &ks, NULL, mods, &err), "%s", err.msg);
	dwsym_set_naive(slow, true);
	ck_assert_int_gt(compare_index(fast, slow, MOD_TEXT - 16, MOD_TEXT + 0x200), 100);
	dwsym_get_stats(fast, &st);
	ck_assert_uint_ge(st.units, 2);
	ck_assert_uint_eq(st.naive_scopes, 0);
	dwsym_free(fast);
	dwsym_free(slow);
	drop_kallsyms(&ks);
	remove_fixture();
}
END_TEST

/*
 * Symbols sharing an address with every mix of binding and size, aliases,
 * a sizeless label after them and one inside a sized function: the index
 * must pick what dwfl_module_addrinfo() picks.
 */
static const char src_ties[] =
	"asm(\".text\\n\"\n"
	"    \".globl t_entry\\n.type t_entry,@function\\nt_entry: ret\\n.size t_entry,1\\n\"\n"
	"    \".type t_local,@function\\n.weak t_weak\\n.type t_weak,@function\\n\"\n"
	"    \".globl t_glob\\n.type t_glob,@function\\n\"\n"
	"    \"t_local: t_weak: t_glob: .fill 24,1,0x90\\n\"\n"
	"    \".size t_local,24\\n.size t_weak,16\\n.size t_glob,8\\n\"\n"
	"    \".type t_w2,@function\\n.weak t_w2\\n.type t_l2,@function\\n\"\n"
	"    \"t_w2: t_l2: .fill 16,1,0x90\\n.size t_w2,8\\n.size t_l2,16\\n\"\n"
	"    \".globl t_label\\nt_label: .fill 8,1,0x90\\n\"\n"
	"    \"t_local_label: .fill 8,1,0x90\\n\"\n"
	"    \".globl t_big\\n.type t_big,@function\\nt_big: .fill 8,1,0x90\\n\"\n"
	"    \".globl t_inner\\nt_inner: .fill 8,1,0x90\\n.size t_big,16\\n\"\n"
	"    \".type t_l3,@function\\nt_l3: .fill 8,1,0x90\\n.size t_l3,8\\n\"\n"
	"    \".type t_l4,@function\\nt_l4: .fill 8,1,0x90\\n.size t_l4,4\\n\");\n";

/*
 * Open DIR/@name twice, placed from its own nm listing shifted by BIAS: *@fast
 * with the index, *@slow with the straightforward libdw calls.  @lo_sym and
 * @hi_sym: *@lo is the address of the first, *@hi that of the second + 16.
 */
static void open_both(const char *name, const char *lo_sym, const char *hi_sym,
		      struct dwsym **fast, struct dwsym **slow,
		      unsigned long long *lo, unsigned long long *hi)
{
	struct sm_err err = { "" };
	char cmd[256], *nm, *line, *save = NULL, type, sym[128];
	struct kallsyms ks = { 0 };
	unsigned long long addr;
	size_t cap = 256;

	snprintf(cmd, sizeof(cmd), "nm -n %s", name);
	nm = capture(cmd);
	ks.syms = calloc(cap, sizeof(*ks.syms));
	ck_assert_ptr_nonnull(ks.syms);
	*lo = *hi = 0;
	for (line = strtok_r(nm, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, sym) != 3 ||
		    ks.nr >= cap)
			continue;
		ks.syms[ks.nr].addr = addr + BIAS;
		ks.syms[ks.nr++].name = strdup(sym);
		if (!strcmp(sym, lo_sym))
			*lo = addr;
		if (!strcmp(sym, hi_sym))
			*hi = addr + 16;
	}
	free(nm);
	snprintf(cmd, sizeof(cmd), "%s/%s", dir, name);
	ck_assert_msg(!dwsym_open(fast, &ks, cmd, NULL, &err), "%s", err.msg);
	ck_assert_msg(!dwsym_open(slow, &ks, cmd, NULL, &err), "%s", err.msg);
	dwsym_set_naive(*slow, true);
	drop_kallsyms(&ks);
	ck_assert_uint_gt(*hi, *lo);
}

START_TEST(symbol_ties_are_broken_like_dwfl_module_addrinfo)
{
	unsigned long long lo, hi;
	struct dwsym *fast, *slow;
	struct dwsym_stats st;
	char cmd[512], a[512];

	build_fixture();
	put_file("ties.c", src_ties);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gcc -g -nostdlib -static -no-pie -Wl,-e,t_entry "
		 "-Wl,-Ttext-segment=0x%llx -o ties.elf ties.c", dir, LINK_BASE);
	ck_assert_int_eq(system(cmd), 0);
	open_both("ties.elf", "t_entry", "t_l4", &fast, &slow, &lo, &hi);
	compare_index(fast, slow, lo + BIAS - 8, hi + BIAS + 8);
	/* The ties themselves, as libdwfl's rules say. */
	describe(dwsym_lookup(fast, lo + 1 + BIAS, false), a, sizeof(a));
	ck_assert_str_eq(a, "t_glob+0x0|");
	describe(dwsym_lookup(fast, lo + 1 + 8 + BIAS, false), a, sizeof(a));
	ck_assert_str_eq(a, "t_weak+0x8|");
	describe(dwsym_lookup(fast, lo + 1 + 20 + BIAS, false), a, sizeof(a));
	ck_assert_str_eq(a, "t_local+0x14|");
	describe(dwsym_lookup(fast, lo + 1 + 24 + BIAS, false), a, sizeof(a));
	ck_assert_str_eq(a, "t_w2+0x0|");
	describe(dwsym_lookup(fast, lo + 1 + 24 + 12 + BIAS, false), a, sizeof(a));
	ck_assert_str_eq(a, "t_l2+0xc|");
	/* The sizeless labels were left to dwfl_module_addrinfo(). */
	dwsym_get_stats(fast, &st);
	ck_assert_uint_gt(st.naive_symbols, 0);
	dwsym_free(fast);
	dwsym_free(slow);
	remove_fixture();
}
END_TEST

/*
 * With -flto the inlined instances' abstract origins live in other units,
 * where dwarf_getscopes() never finds them: it returns no scope (and, in
 * 0.188, leaks its array, which the index path no longer calls).  The
 * index must say the same without asking it.
 */
START_TEST(index_gives_what_the_libdw_calls_give_with_lto)
{
	unsigned long long lo, hi;
	struct dwsym *fast, *slow;
	struct dwsym_stats st;
	char cmd[512];

	build_fixture();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gcc -O2 -g -flto -mcmodel=kernel -fno-pic -no-pie -nostdlib -static "
		 "-fno-asynchronous-unwind-tables -Wl,-Ttext-segment=0x%llx "
		 "-Wl,-e,fx_entry -o lto.elf a.c b.c c.c", dir, LINK_BASE);
	ck_assert_int_eq(system(cmd), 0);
	open_both("lto.elf", "fx_c_sink.isra.0", "fx_entry", &fast, &slow, &lo, &hi);
	ck_assert_int_gt(compare_index(fast, slow, lo + BIAS - 64, hi + BIAS + 64), 100);
	dwsym_get_stats(fast, &st);
	ck_assert_uint_ge(st.units, 1);
#if _ELFUTILS_PREREQ(0, 189)
	/* The inlined instances whose origin is in another unit (dwindex.c
	 * ORIGIN_FOREIGN) are left to dwarf_getscopes(). */
	ck_assert_uint_gt(st.naive_scopes, 0);
#else
	ck_assert_uint_eq(st.naive_scopes, 0);
#endif
	dwsym_free(fast);
	dwsym_free(slow);
	remove_fixture();
}
END_TEST

static Suite *dwarf_suite(void)
{
	Suite *s = suite_create("dwarf");
	TCase *tc = tcase_create("symbolizer");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, bias_is_the_majority_of_recorded_minus_link_addresses);
	tcase_add_test(tc, every_text_address_matches_eu_addr2line);
	tcase_add_test(tc, return_address_is_looked_up_at_the_call);
	tcase_add_test(tc, module_is_placed_from_its_recorded_symbols);
	tcase_add_test(tc, vmlinux_that_does_not_match_is_refused);
	tcase_add_test(tc, vmlinux_that_is_no_vmlinux_says_what_it_is);
	tcase_add_test(tc, fgdecode_vmlinux_prints_lines_and_inlined_frames);
	tcase_add_test(tc, fgdecode_pprof_gives_an_address_its_inlined_frames_as_lines);
	tcase_add_test(tc, fgdecode_says_a_vmlinux_has_no_dwarf);
	tcase_add_test(tc, banner_names_the_release);
	tcase_add_test(tc, fgdecode_refuses_a_vmlinux_that_does_not_match);
	tcase_add_test(tc, fgdecode_modules_prints_module_lines_and_inlined_frames);
	tcase_add_test(tc, index_gives_what_the_libdw_calls_give_on_every_address);
	tcase_add_test(tc, index_gives_what_the_libdw_calls_give_in_a_module);
	tcase_add_test(tc, symbol_ties_are_broken_like_dwfl_module_addrinfo);
	tcase_add_test(tc, index_gives_what_the_libdw_calls_give_with_lto);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dwarf_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
