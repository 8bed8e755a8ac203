// SPDX-License-Identifier: GPL-2.0
/* sm_err: the one error type of libstackmap and fgdecode (sm_err.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sm_err.h"

void sm_err_vset(struct sm_err *err, const char *fmt, va_list ap)
{
	if (err)
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

void sm_err_set(struct sm_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sm_err_vset(err, fmt, ap);
	va_end(ap);
}

int sm_err_code(struct sm_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sm_err_vset(err, fmt, ap);
	va_end(ap);
	return code;
}

const char *sm_err_after_path(const struct sm_err *err, const char *path)
{
	size_t n = strlen(path);

	if (strncmp(err->msg, path, n) == 0 && err->msg[n] == ':' &&
	    err->msg[n + 1] == ' ')
		return err->msg + n + 2;
	return err->msg;
}
