/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sm_err: the one error type of libstackmap and fgdecode.
 *
 * A function that can fail takes a struct sm_err * and, when it fails,
 * leaves in it one line (no newline) that names the file, offset, event or
 * field; the caller prints that line once, with its own prefix
 * ("fgdecode: ", "plugin_stackmap: ", or inside the event's output).
 */
#ifndef STACKMAP_SM_ERR_H
#define STACKMAP_SM_ERR_H

#include <stdarg.h>

#define SM_ERR_LEN	512

struct sm_err {
	char msg[SM_ERR_LEN];
};

/**
 * sm_err_set() - set the message of @err
 * @err: the error, or NULL (the message is dropped)
 * @fmt: printf format of the message
 *
 * Return: -1, so a function that returns 0 or -1 can `return sm_err_set(...)`.
 */
int sm_err_set(struct sm_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* sm_err_set() with a va_list, for wrappers that return their own code. */
int sm_err_vset(struct sm_err *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/**
 * sm_err_after_path() - @err's message without the "PATH: " it starts with
 * @err: an error set by a function that names @path first
 * @path: that file's name
 *
 * Return: the text after "@path: " when the message starts so, else the whole
 * message (cut short by SM_ERR_LEN, or not naming @path): never beyond it.
 */
const char *sm_err_after_path(const struct sm_err *err, const char *path);

#endif /* STACKMAP_SM_ERR_H */
