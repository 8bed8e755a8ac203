/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sm_err: the one error type of libstackmap and fgdecode.
 *
 * A function that can fail takes a struct sm_err * and, when it fails,
 * leaves in it one line (no newline) that names the file, offset, event or
 * field; the caller prints that line once, with its own prefix
 * ("fgdecode: ", "plugin_stackmap: ", or inside the event's output).
 *
 * Return values (one convention for lib/ and the decoder's stages below
 * decoder/commands/): a function that can fail returns 0 (or a non-negative
 * value) on success and a negative errno on failure, with its message in
 * @err when it takes one: -ENOMEM out of memory, -EINVAL a bad argument or
 * bad input data, -EBADMSG a malformed file or record, -ENOENT something
 * absent, -EIO or the call's own -errno for I/O.  Its docstring's Return:
 * line lists each of them.  A lookup whose "none" is not an error (an index,
 * an id, a tgid) may return -1 for none, and says so.  The top floor
 * (decoder/commands/, record/, the plugin's entry points) prints its own
 * errors and returns -1 after printing, or an exit status.
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
 * Returns nothing: the caller returns its own negative errno, or
 * `return sm_err_code(err, -EINVAL, ...)` does both.
 */
void sm_err_set(struct sm_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* sm_err_set() with a va_list, for wrappers that return their own code. */
void sm_err_vset(struct sm_err *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/**
 * sm_err_code() - set the message of @err and return @code
 * @err: the error, or NULL (the message is dropped)
 * @code: a negative errno (-EINVAL, -ENOMEM, ...)
 * @fmt: printf format of the message
 *
 * Return: @code, so a function can `return sm_err_code(err, -EBADMSG, ...)`.
 */
int sm_err_code(struct sm_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
