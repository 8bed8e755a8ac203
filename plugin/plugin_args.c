// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: the trace.dat `trace-cmd report` reads, from its command
 * line (/proc/self/cmdline): where the plugin finds the map snapshot when
 * the "file" option does not name one.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_stackmap.h"

/* trace-cmd 3.1.6 report's options that take a value (tracecmd/trace-read.c). */
static const char report_short_args[] = "iHrnFO";
static const char *const report_long_args[] = {
	"cpu", "event", "kallsyms", "pid", "comm", "ts-offset", "ts2secs",
};

static bool long_takes_value(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(report_long_args) / sizeof(report_long_args[0]); i++)
		if (!strcmp(name, report_long_args[i]))
			return true;
	return false;
}

/*
 * The input file of `trace-cmd report` given its arguments after "report"
 * (@argv, @argc), read the way its getopt_long("+...") does: the -i value,
 * else the first word that is not an option, else "trace.dat".  NULL when
 * -i is given more than once (several traces, one tep handle each: which
 * one this handle reads is unknown).
 */
static const char *report_input(char **argv, int argc)
{
	const char *arg, *p, *input = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "--"))
			return input ? input : i + 1 < argc ? argv[i + 1] : "trace.dat";
		if (arg[0] != '-' || !arg[1])
			return input ? input : arg;
		if (arg[1] == '-') {
			if (!strchr(arg, '=') && long_takes_value(arg + 2))
				i++;
			continue;
		}
		for (p = arg + 1; *p; p++) {
			if (*p == 'V')		/* optional value, attached only */
				break;
			if (!strchr(report_short_args, *p))
				continue;
			if (p[1] == '\0' && ++i >= argc)
				return NULL;	/* value missing: report fails */
			if (*p == 'i') {
				if (input)
					return NULL;
				input = p[1] ? p + 1 : argv[i];
			}
			break;
		}
	}
	return input ? input : "trace.dat";
}

/*
 * The trace.dat `trace-cmd report` was given (/proc/self/cmdline), when this
 * process is trace-cmd (argv[0]'s last component) running "report"; NULL
 * otherwise, so no other program picks up a ./trace.dat by accident.
 * Returns a malloc'ed path or NULL.
 */
char *cmdline_trace(void)
{
	enum { MAX_ARGS = 256 };
	static char buf[65536];
	char *argv[MAX_ARGS], *p, *prog;
	const char *input;
	int argc = 0;
	size_t n;
	FILE *f;

	f = fopen("/proc/self/cmdline", "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (!n || n == sizeof(buf) || buf[n - 1] != '\0')
		return NULL;		/* empty or too long to trust */
	for (p = buf; p < buf + n && argc < MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	if (argc == MAX_ARGS || argc < 2 || strcmp(argv[1], "report"))
		return NULL;
	prog = strrchr(argv[0], '/');
	if (strcmp(prog ? prog + 1 : argv[0], "trace-cmd"))
		return NULL;
	input = report_input(argv + 2, argc - 2);
	return input ? strdup(input) : NULL;
}
