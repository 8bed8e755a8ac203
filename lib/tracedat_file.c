// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_file: a trace.dat read as bytes: fields at offsets in the file's
 * byte order, its header, option payloads (see tracedat_file.h).  Moved out
 * of the option walker (tracedat_options.c) for a second reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat_file.h"
#include "tracedat_options.h"

int td_open(struct tracedat *td, const char *path, struct sm_err *err)
{
	struct stat st;
	int ret;

	memset(td, 0, sizeof(*td));
	td->path = path;
	td->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (td->fd < 0 || fstat(td->fd, &st)) {
		ret = -errno;
		sm_err_set(err, "%s: %s", path, strerror(errno));
		if (td->fd >= 0)
			close(td->fd);
		return ret;
	}
	td->size = st.st_size;
	return 0;
}

/* Set @err to the message, after "PATH: " when @td has a path. */
void td_fail(const struct tracedat *td, struct sm_err *err,
	    const char *fmt, ...)
{
	char msg[SM_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sm_err_set(err, "%s%s%s", td->path ? td->path : "",
		   td->path ? ": " : "", msg);
}

int td_read(struct tracedat *td, sm_u64 off, void *buf, size_t len,
	    const char *field, struct sm_err *err)
{
	ssize_t n;

	if (off > td->size || len > td->size - off) {
		td_fail(td, err, "offset %" PRIu64 ": %s: beyond end of file (%" PRIu64 " bytes)",
			off, field, td->size);
		return -EBADMSG;
	}
	n = pread(td->fd, buf, len, (off_t)off);
	if (n != (ssize_t)len) {
		td_fail(td, err, "offset %" PRIu64 ": %s: read failed", off,
			field);
		return n < 0 ? -errno : -EBADMSG;
	}
	return 0;
}

sm_u64 td_bytes_num(const struct tracedat *td, const void *p, int bytes)
{
	const unsigned char *b = p;
	sm_u64 val = 0;
	int i;

	for (i = 0; i < bytes; i++)
		val |= (sm_u64)b[td->big_endian ? i : bytes - 1 - i] <<
			(8 * (bytes - 1 - i));
	return val;
}

/* Read an unsigned number of @bytes (2, 4 or 8) in the file's byte order. */
int td_num(struct tracedat *td, sm_u64 off, int bytes, sm_u64 *val,
	   const char *field, struct sm_err *err)
{
	unsigned char b[8];
	int ret;

	ret = td_read(td, off, b, bytes, field, err);
	if (ret)
		return ret;
	*val = td_bytes_num(td, b, bytes);
	return 0;
}

/* Skip a NUL-terminated string at *off (at most 64 bytes). */
int td_string(struct tracedat *td, sm_u64 *off, char *out, size_t max,
	      const char *field, struct sm_err *err)
{
	size_t i;
	int ret;

	for (i = 0; i < max; i++) {
		ret = td_read(td, *off + i, &out[i], 1, field, err);
		if (ret)
			return ret;
		if (!out[i]) {
			*off += i + 1;
			return 0;
		}
	}
	td_fail(td, err, "offset %" PRIu64 ": %s: unterminated string", *off,
		field);
	return -EBADMSG;
}

/*
 * The file header, as tracecmd_alloc_fd() reads it: magic, version string,
 * endianness, long size and page size, and from version 7 the compression
 * name and version and the first options offset.
 */
int td_fields(struct tracedat *td, struct tracedat_head *h,
	      struct sm_err *err)
{
	char buf[64];
	sm_u64 off = TRACEDAT_MAGIC_LEN, page;
	int ret;

	memset(h, 0, sizeof(*h));
	ret = td_read(td, 0, buf, TRACEDAT_MAGIC_LEN, "magic", err);
	if (ret)
		return ret;
	if (memcmp(buf, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN)) {
		td_fail(td, err, "offset 0: magic: not a trace.dat file");
		return -EBADMSG;
	}
	ret = td_string(td, &off, h->version, sizeof(h->version), "version",
			err);
	if (!ret)
		ret = td_read(td, off, buf, 1 + 1 + 4,
			      "endianness, long size and page size", err);
	if (ret)
		return ret;
	td->big_endian = buf[0];
	ret = td_num(td, off + 2, 4, &page, "page size", err);
	if (ret)
		return ret;
	h->page_size = page;
	h->file_version = strtoul(h->version, NULL, 10);
	td->file_version = h->file_version;
	off += 1 + 1 + 4;
	h->end = off;
	if (h->file_version < 7)
		return 0;
	ret = td_string(td, &off, h->compression, sizeof(h->compression),
			"compression name", err);
	if (!ret)
		ret = td_string(td, &off, h->compression_version,
				sizeof(h->compression_version),
				"compression version", err);
	if (!ret)
		ret = td_num(td, off, 8, &h->options, "first options offset",
			     err);
	h->end = off + 8;
	return ret;
}

/*
 * The @size bytes of the option @what at @off, at most @max of them, in a
 * malloc()ed buffer with a NUL byte after them (*@out; free() it).
 * Return: 0; -EBADMSG when @size is over @max or the bytes lie beyond the
 * file; -ENOMEM; -errno.
 */
int td_payload(struct tracedat *td, sm_u64 off, sm_u64 size,
	       sm_u64 max, const char *what, char **out,
	       struct sm_err *err)
{
	char *buf;
	int ret;

	if (size > max) {
		td_fail(td, err, "offset %" PRIu64 ": %s: size %" PRIu64 " too large",
			off, what, size);
		return -EBADMSG;
	}
	buf = malloc(size + 1);
	if (!buf) {
		td_fail(td, err, "out of memory");
		return -ENOMEM;
	}
	ret = td_read(td, off, buf, size, what, err);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[size] = '\0';
	*out = buf;
	return 0;
}

/* Expect @len bytes of @tag at *@off, then skip them. */
static int td6_tag(struct tracedat *td, sm_u64 *off, const char *tag,
		   size_t len, struct sm_err *err)
{
	char buf[16];
	int ret;

	ret = td_read(td, *off, buf, len, tag, err);
	if (ret)
		return ret;
	if (strncmp(buf, tag, strlen(tag))) {
		td_fail(td, err, "offset %" PRIu64 ": expected \"%s\"", *off,
			tag);
		return -EBADMSG;
	}
	*off += len;
	return 0;
}

/* Skip a part that starts with its size in @bytes bytes. */
static int td6_sized(struct tracedat *td, sm_u64 *off, int bytes,
		     const char *what, struct sm_err *err)
{
	sm_u64 size;
	int ret;

	ret = td_num(td, *off, bytes, &size, what, err);
	if (ret)
		return ret;
	*off += bytes;
	if (size > td->size - *off) {
		td_fail(td, err, "offset %" PRIu64 ": %s: %" PRIu64 " bytes, beyond end of file (%" PRIu64 " bytes)",
			*off, what, size, td->size);
		return -EBADMSG;
	}
	*off += size;
	return 0;
}

/* Skip @count parts sized by a u64 each; in @systems, each after a name. */
static int td6_files(struct tracedat *td, sm_u64 *off, bool systems,
		     const char *what, struct sm_err *err)
{
	sm_u64 n, i, count, j;
	char name[256];
	int ret;

	ret = td_num(td, *off, 4, &n, what, err);
	*off += 4;
	for (i = 0; !ret && i < n; i++) {
		count = 1;
		if (systems) {
			ret = td_string(td, off, name, sizeof(name),
					"event system name", err);
			if (!ret)
				ret = td_num(td, *off, 4, &count,
					     "event count", err);
			*off += 4;
		}
		for (j = 0; !ret && j < count; j++)
			ret = td6_sized(td, off, 8, what, err);
	}
	return ret;
}

int td6_headers(struct tracedat *td, sm_u64 *off, sm_u64 *cpus,
		struct td6_text *text, struct sm_err *err)
{
	int ret;

	if (text)
		memset(text, 0, sizeof(*text));
	ret = td6_tag(td, off, "header_page", 12, err);
	if (!ret)
		ret = td6_sized(td, off, 8, "header_page", err);
	if (!ret)
		ret = td6_tag(td, off, "header_event", 13, err);
	if (!ret)
		ret = td6_sized(td, off, 8, "header_event", err);
	if (!ret)
		ret = td6_files(td, off, false, "ftrace event format", err);
	if (!ret)
		ret = td6_files(td, off, true, "event format", err);
	if (!ret && text)
		text->kallsyms = *off;
	if (!ret)
		ret = td6_sized(td, off, 4, "kallsyms", err);
	if (!ret && text)
		text->printk = *off;
	if (!ret)
		ret = td6_sized(td, off, 4, "printk formats", err);
	if (!ret)
		ret = td6_sized(td, off, 8, "saved cmdlines", err);
	if (!ret)
		ret = td_num(td, *off, 4, cpus, "CPU count", err);
	*off += 4;
	return ret;
}

int td6_options(struct tracedat *td, sm_u64 *off, int max, td_visit_fn visit,
		void *ctx, struct sm_err *err)
{
	sm_u64 id, size;
	int ret, n;

	for (n = 0; n < max; n++) {
		ret = td_num(td, *off, 2, &id, "option id", err);
		if (ret)
			return ret;
		*off += 2;
		if (id == TRACEDAT_OPTION_DONE)
			return 0;
		ret = td_num(td, *off, 4, &size, "option size", err);
		if (ret)
			return ret;
		*off += 4;
		ret = visit(td, id, *off, size, ctx, err);
		if (ret)
			return ret;
		*off += size;
	}
	td_fail(td, err, "more than %d options", max);
	return -EBADMSG;
}

int td_buffer(struct tracedat *td, sm_u64 off, struct td_buffer *b,
	      struct sm_err *err)
{
	int ret;

	memset(b, 0, sizeof(*b));
	ret = td_num(td, off, 8, &b->section, "buffer option: offset", err);
	off += 8;
	if (!ret)
		ret = td_string(td, &off, b->name, sizeof(b->name),
				"buffer option: name", err);
	if (!ret)
		ret = td_string(td, &off, b->clock, sizeof(b->clock),
				"buffer option: clock", err);
	/* then the page size (u32), skipped: the header's is used */
	if (!ret)
		ret = td_num(td, off + 4, 4, &b->cpus, "buffer option: CPUs",
			     err);
	b->table = off + 8;
	return ret;
}

int td_buffer_cpu(struct tracedat *td, const struct td_buffer *b, sm_u64 i,
		  sm_u64 *cpu, sm_u64 *data, sm_u64 *size, struct sm_err *err)
{
	sm_u64 off = b->table + 20 * i;
	int ret;

	ret = td_num(td, off, 4, cpu, "buffer option: CPU id", err);
	if (!ret)
		ret = td_num(td, off + 4, 8, data, "buffer option: data offset",
			     err);
	if (!ret)
		ret = td_num(td, off + 12, 8, size, "buffer option: data size",
			     err);
	return ret;
}

int td_chunks(struct tracedat *td, sm_u64 off, sm_u64 end, sm_u64 *count,
	      td_chunk_fn fn, void *ctx, struct sm_err *err)
{
	sm_u64 csize, usize, q = off + 4;
	unsigned int k;
	int ret;

	ret = td_num(td, off, 4, count, "CPU data: chunk count", err);
	for (k = 0; !ret && k < *count && q + 8 <= end; k++) {
		ret = td_num(td, q, 4, &csize, "CPU data: chunk size", err);
		if (!ret)
			ret = td_num(td, q + 4, 4, &usize,
				     "CPU data: chunk's uncompressed size", err);
		if (!ret)
			ret = fn(td, k, q, csize, usize, ctx, err);
		q += 8 + csize;
	}
	return ret;
}

/* td6_options() visitor of td6_tables(): each instance's BUFFER option. */
struct td6_walk {
	td6_table_fn visit;
	void *ctx;
};

static int td6_buffer(struct tracedat *td, sm_u64 id, sm_u64 off,
		      sm_u64 size, void *ctx, struct sm_err *err)
{
	struct td6_walk *w = ctx;
	char name[64];
	sm_u64 table, p = off + 8;
	int ret;

	(void)size;	/* the table's offset, then the name */
	if (id != 3)	/* TRACECMD_OPTION_BUFFER */
		return 0;
	ret = td_num(td, off, 8, &table, "buffer option: offset", err);
	if (!ret)
		ret = td_string(td, &p, name, sizeof(name),
				"buffer option: name", err);
	/* The option places "flyrecord\0", the table follows it. */
	return ret ? ret : w->visit(td, name, table + 10, off - 6, w->ctx,
				    err);
}

int td6_tables(struct tracedat *td, const struct tracedat_head *h,
	       sm_u64 *cpus, int max, td6_table_fn visit, void *ctx,
	       struct sm_err *err)
{
	struct td6_walk w = { .visit = visit, .ctx = ctx };
	sm_u64 off = h->end;
	char kind[10];
	int ret;

	ret = td6_headers(td, &off, cpus, NULL, err);
	if (!ret)
		ret = td_read(td, off, kind, sizeof(kind), "data kind", err);
	if (!ret && !strncmp(kind, "options", 7)) {
		off += sizeof(kind);
		ret = td6_options(td, &off, max, td6_buffer, &w, err);
		if (!ret)
			ret = td_read(td, off, kind, sizeof(kind),
				      "data kind", err);
	}
	if (ret)
		return ret;
	if (!strncmp(kind, "latency", 7)) {
		td_fail(td, err, "offset %" PRIu64 ": a latency trace: no CPU data to place",
			off);
		return -ENOTSUP;
	}
	if (strncmp(kind, "flyrecord", 9)) {
		td_fail(td, err, "offset %" PRIu64 ": data kind: not \"options\", \"flyrecord\" or \"latency\" (a damaged size before it)",
			off);
		return -EBADMSG;
	}
	return visit(td, "", off + sizeof(kind), 0, ctx, err);
}
