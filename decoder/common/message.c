// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: printing errors and warnings (see message.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "message.h"

/* "fgdecode: " @kind @path ": " (without @path: neither), the message. */
static void print(const char *kind, const char *path, const char *fmt,
		  va_list ap)
{
	fprintf(stderr, "fgdecode: %s", kind);
	if (path)
		fprintf(stderr, "%s: ", path);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void fg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print("", NULL, fmt, ap);
	va_end(ap);
}

void fg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print("warning: ", NULL, fmt, ap);
	va_end(ap);
}

void fg_file_error(const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print("", path, fmt, ap);
	va_end(ap);
}
