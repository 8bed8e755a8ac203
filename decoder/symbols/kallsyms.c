// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: the kallsyms stored in the trace, as a list (see kallsyms.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kallsyms.h"

/* Run tep_print_funcs() into @tmp. */
static int print_into(struct tep_handle *tep, FILE *tmp)
{
	int saved;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0)
		return -errno;
	if (dup2(fileno(tmp), STDOUT_FILENO) < 0) {
		close(saved);
		return -errno;
	}
	tep_print_funcs(tep);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	return 0;
}

/*
 * Parse one "ADDR NAME" or "ADDR NAME [MOD]" line, as tep_print_funcs()
 * prints it, in place: @k's strings point into @line, which is cut at their
 * ends.  Return 1 for a line of another shape (skipped).  By hand rather
 * than with sscanf(): a kernel has some 150,000 symbols.
 */
static int parse_line(char *line, struct ksym *k)
{
	char *name, *end, *mod = NULL;
	unsigned long long addr;

	addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ')
		return 1;
	name = end + 1;
	end = name + strcspn(name, " \n");
	if (end == name)
		return 1;
	if (end[0] == ' ' && end[1] == '[') {
		mod = end + 2;
		mod[strcspn(mod, "]\n")] = '\0';
	}
	*end = '\0';
	k->addr = addr;
	k->name = name;
	k->mod = mod;
	return 0;
}

/* Read all of @f into a NUL-terminated buffer; NULL on failure (errno). */
static char *read_seekable(FILE *f)
{
	long size;
	char *buf;

	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		return NULL;
	buf = malloc(size + 1);
	if (!buf)
		return NULL;
	if (fread(buf, 1, size, f) != (size_t)size) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[size] = '\0';
	return buf;
}

/* One ksym per line of ks->text, cut into strings in place. */
static int parse_text(struct kallsyms *ks)
{
	size_t lines = 0;
	char *p, *next;

	for (p = ks->text; *p; p++)
		lines += *p == '\n';
	ks->syms = malloc((lines + 1) * sizeof(*ks->syms));
	if (!ks->syms)
		return -ENOMEM;
	for (p = ks->text; *p; p = next) {
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		else
			next = p + strlen(p);
		if (!parse_line(p, &ks->syms[ks->nr]))
			ks->nr++;
	}
	return 0;
}

int kallsyms_load(struct kallsyms *ks, struct tep_handle *tep)
{
	FILE *tmp = tmpfile();
	int ret;

	memset(ks, 0, sizeof(*ks));
	if (!tmp)
		return -errno;
	ret = print_into(tep, tmp);
	if (!ret) {
		ks->text = read_seekable(tmp);
		ret = ks->text ? parse_text(ks) : -(errno ? errno : ENOMEM);
	}
	fclose(tmp);
	if (ret)
		kallsyms_free(ks);
	return ret;
}

const struct ksym *kallsyms_find(const struct kallsyms *ks, sm_u64 addr,
				 sm_u64 *end)
{
	size_t lo = 0, hi;

	*end = 0;
	if (!ks || !ks->nr || addr < ks->syms[0].addr)
		return NULL;
	/* The last symbol at or below @addr: syms[lo].addr <= addr always. */
	hi = ks->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (hi < ks->nr)
		*end = ks->syms[hi].addr;
	return &ks->syms[lo];
}

void kallsyms_free(struct kallsyms *ks)
{
	free(ks->syms);
	free(ks->text);
	memset(ks, 0, sizeof(*ks));
}

size_t kallsyms_vote(const sm_u64 *sorted, size_t n, sm_u64 *value)
{
	size_t i, run = 0, best = 0;

	for (i = 0; i < n; i++) {
		run = i && sorted[i] == sorted[i - 1] ? run + 1 : 1;
		if (run > best) {
			best = run;
			*value = sorted[i];
		}
	}
	return best;
}
