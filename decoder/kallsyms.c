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

/* Parse one "ADDR NAME [MOD]" line into @k. */
static int parse_line(char *line, struct ksym *k)
{
	char name[512], mod[256];
	unsigned long long addr;
	int n;

	n = sscanf(line, "%llx %511s [%255[^]]]", &addr, name, mod);
	if (n < 2)
		return 1;
	k->addr = addr;
	k->name = strdup(name);
	k->mod = n == 3 ? strdup(mod) : NULL;
	if (!k->name || (n == 3 && !k->mod))
		return -ENOMEM;
	return 0;
}

static int add_line(struct kallsyms *ks, char *line, size_t *alloc)
{
	struct ksym k;
	int ret;

	if (ks->nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 4096;
		void *p = realloc(ks->syms, n * sizeof(*ks->syms));

		if (!p)
			return -ENOMEM;
		ks->syms = p;
		*alloc = n;
	}
	ret = parse_line(line, &k);
	if (ret < 0) {
		free(k.name);
		return ret;
	}
	if (!ret)
		ks->syms[ks->nr++] = k;
	return 0;
}

int kallsyms_load(struct kallsyms *ks, struct tep_handle *tep)
{
	FILE *tmp = tmpfile();
	char line[1024];
	size_t alloc = 0;
	int ret;

	memset(ks, 0, sizeof(*ks));
	if (!tmp)
		return -errno;
	ret = print_into(tep, tmp);
	while (!ret && fgets(line, sizeof(line), tmp))
		ret = add_line(ks, line, &alloc);
	fclose(tmp);
	if (ret)
		kallsyms_free(ks);
	return ret;
}

void kallsyms_free(struct kallsyms *ks)
{
	size_t i;

	for (i = 0; i < ks->nr; i++) {
		free(ks->syms[i].name);
		free(ks->syms[i].mod);
	}
	free(ks->syms);
	memset(ks, 0, sizeof(*ks));
}
