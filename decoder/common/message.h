/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's one way to print errors and warnings: one line on standard
 * error, "fgdecode: MESSAGE" or "fgdecode: warning: MESSAGE".  What went
 * wrong comes from a struct sm_err (sm_err.h) or is said here; a message
 * names the file, offset, event or option it is about.
 */
#ifndef FGDECODE_MESSAGE_H
#define FGDECODE_MESSAGE_H

/** fg_error() - print "fgdecode: MESSAGE\n" on stderr (printf @fmt) */
void fg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** fg_warn() - print "fgdecode: warning: MESSAGE\n" on stderr */
void fg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * fg_file_error() - print "fgdecode: PATH: MESSAGE\n" on stderr
 * @path: the file the error is about
 * @fmt: printf() format of the message, without the newline
 */
void fg_file_error(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* FGDECODE_MESSAGE_H */
