// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's command line: `fgdecode [COMMAND] [options] ARGS`, in the manner
 * of bpftool's cmds[] and cmd_select().  The first word picks the command;
 * without one it is report, so `fgdecode trace.dat` works as it always did.
 * The old spelling `fgdecode --map ...` stays an alias of `fgdecode map ...`.
 * A trace file literally named like a command is read with `fgdecode report
 * NAME`.  A first word that is no file, no command and no option but
 * looks like a command or an option mistyped ("dif", "mapp", "top") is a
 * usage error that names what it looks like.  A new command is one more
 * entry in cmds[] and its function in commands.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

struct cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *out);
};

static int do_help(int argc, char **argv);
static const struct cmd *find_cmd(const char *name);

static const struct cmd cmds[] = {
	{ "report", fgdecode_report, fgdecode_report_usage },
	{ "map", fgdecode_map, fgdecode_map_usage },
	{ "diff", fgdecode_diff, fgdecode_diff_usage },
	{ "help", do_help, fgdecode_report_usage },
	{ NULL, NULL, NULL },
};

/* fgdecode help [COMMAND]: exit 0, or 2 for an unknown command. */
static int do_help(int argc, char **argv)
{
	const struct cmd *c = argc > 1 ? find_cmd(argv[1]) : find_cmd("report");

	if (argc > 2 || !c) {
		fprintf(stderr, "fgdecode help: no command '%s' (commands: report, map, diff, help)\n"
			"Try 'fgdecode --help' for more information.\n",
			argc > 1 ? argv[1] : "");
		return 2;
	}
	c->usage(stdout);
	return 0;
}

static const struct cmd *find_cmd(const char *name)
{
	const struct cmd *c;

	for (c = cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/*
 * Edit distance of @a and @b (insertions, deletions, substitutions), as
 * Levenshtein's; words longer than 31 bytes are as far as can be.
 */
static int distance(const char *a, const char *b)
{
	int row[32], i, j, diag, up;
	int la = strlen(a), lb = strlen(b);

	if (la > 31 || lb > 31)
		return 32;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

/*
 * A first word @word that names no file: report's option spelled without
 * its dashes ("top"), or the command it looks like mistyped (the start of
 * its name, or at most 2 edits and fewer than its length; the nearest);
 * -1 after saying so, 0 when it looks like neither (report then says the
 * file is missing).
 */
static int mistyped(const char *word)
{
	const struct cmd *c, *best = NULL;
	int d, best_d = 3;

	if (*word == '-' || !access(word, F_OK))
		return 0;
	if (fgdecode_report_option(word)) {
		fprintf(stderr, "fgdecode: unknown command '%s' (did you mean --%s?)\n",
			word, word);
		return -1;
	}
	for (c = cmds; c->name; c++) {
		d = strlen(word) >= 2 && !strncmp(c->name, word, strlen(word)) ?
		    1 : distance(word, c->name);
		if (d < best_d && d < (int)strlen(c->name)) {
			best = c;
			best_d = d;
		}
	}
	if (!best)
		return 0;
	fprintf(stderr, "fgdecode: unknown command '%s' (did you mean %s?)\n",
		word, best->name);
	return -1;
}

/*
 * The alias: drop "--map" from the options (before any "--") and say so.
 * Return: true when it was there.
 */
static bool take_map_alias(int *argc, char **argv)
{
	int i;

	for (i = 1; i < *argc && strcmp(argv[i], "--"); i++) {
		if (strcmp(argv[i], "--map"))
			continue;
		memmove(&argv[i], &argv[i + 1], (*argc - i) * sizeof(*argv));
		(*argc)--;
		return true;
	}
	return false;
}

int main(int argc, char **argv)
{
	const struct cmd *c = argc > 1 ? find_cmd(argv[1]) : NULL;
	static char name[32];

	if (c) {
		/* getopt_long() names the command in its messages. */
		snprintf(name, sizeof(name), "fgdecode %s", c->name);
		argv[1] = name;
		return c->run(argc - 1, argv + 1);
	}
	if (argc > 1 && mistyped(argv[1])) {
		fputs("Try 'fgdecode --help' for more information.\n", stderr);
		return 2;
	}
	/* getopt_long() names argv[0]: "fgdecode", not the path it ran by. */
	argv[0] = "fgdecode";
	if (take_map_alias(&argc, argv))
		return fgdecode_map(argc, argv);
	return fgdecode_report(argc, argv);
}
