// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: the trace.dat `trace-cmd report` reads, from its command
 * line (/proc/self/cmdline) and the files it has open: where the plugin
 * finds the map snapshot and the definitions later in the file when the
 * "file" option does not name one.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Is @fd a regular file that starts as a trace.dat does ("\027\010Dtracing")? */
static bool is_open_trace(int fd)
{
	static const char magic[10] = "\027\010Dtracing";
	char head[sizeof(magic)];
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) &&
	       !memcmp(head, magic, sizeof(magic));
}

/*
 * The one trace.dat this process has open (/proc/self/fd; pread() leaves
 * its offset alone), as a malloc'ed path; NULL when none or several are.
 */
static char *only_open_trace(void)
{
	struct dirent *d;
	char link[sizeof("/proc/self/fd/") + sizeof(d->d_name)];
	char path[PATH_MAX], *found = NULL;
	ssize_t len;
	int n = 0;
	DIR *dir;

	dir = opendir("/proc/self/fd");
	if (!dir)
		return NULL;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9' ||
		    atoi(d->d_name) == dirfd(dir) || !is_open_trace(atoi(d->d_name)))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%s", d->d_name);
		len = readlink(link, path, sizeof(path) - 1);
		if (len <= 0 || n++)
			continue;
		path[len] = '\0';
		found = strdup(path);
	}
	closedir(dir);
	if (n == 1)
		return found;
	free(found);
	return NULL;
}

/* Do paths @a and @b name the same file? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * The trace.dat `trace-cmd report` was given (/proc/self/cmdline), when this
 * process is trace-cmd (argv[0]'s last component) running "report"; NULL
 * otherwise, so no other program picks up a ./trace.dat by accident.
 * trace-cmd 3.1.6 cuts the value of each -O at its '=' in place
 * (tracecmd/trace-read.c process_plugin_option()), so the command line then shows one
 * word more than it was given ("-O stackmap:addr 0"), which reads as the
 * file: when what the command line names is not the one trace.dat this
 * process has open, that one is.  Returns a malloc'ed path or NULL.
 */
char *cmdline_trace(void)
{
	enum { MAX_ARGS = 256 };
	static char buf[65536];
	char *argv[MAX_ARGS], *p, *prog, *open_trace;
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
	if (!input)
		return NULL;
	open_trace = only_open_trace();
	if (open_trace && !same_file(input, open_trace))
		return open_trace;
	free(open_trace);
	return strdup(input);
}

/*
 * The trace.dat to read the snapshot and the definitions from: the "file"
 * option's, else cmdline_trace()'s; *@named says which (a guessed file that
 * does not exist is no error).  Returns a malloc'ed path or NULL.
 */
char *trace_file(bool *named)
{
	const char *opt = TEP_PLUGIN_OPTIONS[OPT_FILE].value;

	*named = opt && *opt;
	return *named ? strdup(opt) : cmdline_trace();
}
