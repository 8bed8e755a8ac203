// SPDX-License-Identifier: GPL-2.0
/*
 * The outputs of fgdecode report (output.h): the table that selects one by
 * its option, and what every output shares.  An output is one file defining
 * its struct output_ops and one line here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "output.h"

extern const struct output_ops text_output;		/* text.c */
extern const struct output_ops json_output;		/* json.c */
extern const struct output_ops folded_output;		/* folded.c */
extern const struct output_ops top_output;		/* top.c */
extern const struct output_ops pprof_output;		/* pprof.c */
extern const struct output_ops flamegraph_output;	/* flamegraph.c */
extern const struct output_ops perf_script_output;	/* perf_script.c */

static const struct output_ops *const outputs[] = {
	&text_output,
	&json_output,
	&folded_output,
	&top_output,
	&pprof_output,
	&flamegraph_output,
	&perf_script_output,
	NULL,
};

const struct output_ops *const *output_table(void)
{
	return outputs;
}

const char *output_name(const struct output_ops *ops)
{
	static char name[64];

	if (!ops->option)
		return "the text output";
	snprintf(name, sizeof(name), "--%s", ops->option);
	return name;
}

const char *output_list(unsigned int flags, const char *sep, char *buf,
			size_t size)
{
	const struct output_ops *const *o;
	size_t len = 0, n = 0, i = 0;

	for (o = outputs; *o; o++)
		n += (*o)->option && ((*o)->flags & flags) == flags;
	buf[0] = '\0';
	for (o = outputs; *o && len < size; o++) {
		if (!(*o)->option || ((*o)->flags & flags) != flags)
			continue;
		i++;
		len += snprintf(buf + len, size - len, "%s--%s",
				i == 1 ? "" : i == n ? sep : ", ",
				(*o)->option);
	}
	return buf;
}

int output_new(struct output *out, const struct output_ops *ops)
{
	out->ops = ops;
	out->state = calloc(1, ops->size ? ops->size : 1);
	return out->state ? 0 : -ENOMEM;
}

void output_free(struct output *out)
{
	free(out->state);
	out->state = NULL;
}

int output_parse_count(const char *option, const char *arg, size_t *n)
{
	char *end;

	errno = 0;
	*n = strtoul(arg, &end, 10);
	if (errno || *end || !*arg || arg[0] == '-' || !*n) {
		fg_error("--%s: '%s' is not a positive number", option, arg);
		return -1;
	}
	return 0;
}

int output_failed(int ret, const char *path, struct sm_err *err)
{
	if (!ret)
		return 0;
	if (ret == -ENOMEM)
		sm_err_set(err, "%s: out of memory", path);
	fg_error("%s", err->msg);
	return -EIO;
}
