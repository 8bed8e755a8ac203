// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_options: a small read-only walker of the trace.dat v7 option
 * chain that finds the map snapshot a trace holds (see tracedat_options.h).
 *
 * The walker mirrors trace-cmd 3.1.6 lib/trace-cmd/trace-input.c:
 * tracecmd_alloc_fd() (file header), read_section_header(),
 * handle_options() and handle_option_done() (option chain); the same
 * functions of trace-cmd 3.3.1 (libtracecmd 1.5.2, trixie) read the same
 * layout (read_section_header() unchanged; tests/test_userland.sh reads a
 * snapshot libtracecmd 1.5.2 stored in 3.3.1's compressed v7 recording).
 * libtracecmd has no public call that returns an unknown option, so this is
 * the one place that knows that layout.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "payload.h"
#include "tracedat_file.h"
#include "tracedat_options.h"

#define TRACEDAT_MAX_SECTIONS	4096

/* A version 6 file has no option sections after the data: say so. */
static int td_no_chain(const struct tracedat *td,
		       const struct tracedat_head *h, struct sm_err *err)
{
	td_fail(td, err, "file version %s has no option sections after the data; record with --file-version 7 or run trace-cmd convert --file-version 7",
		h->version);
	return -ENOTSUP;
}

int stackmap_tracedat_check_header(int fd, struct sm_err *err)
{
	struct tracedat td = { .fd = fd };
	struct tracedat_head h;
	struct stat st;
	int ret;

	if (fstat(fd, &st)) {
		int e = errno;

		sm_err_set(err, "%s", strerror(e));
		return -e;
	}
	td.size = st.st_size;
	ret = td_fields(&td, &h, err);
	/* libtracecmd reads every page at a multiple of it, and reads none
	 * of a file whose page size is damaged: refuse it here. */
	if (!ret && (!h.page_size || (h.page_size & (h.page_size - 1)))) {
		td_fail(&td, err, "offset %zu: page size: %u: not a power of two",
			TRACEDAT_MAGIC_LEN + strlen(h.version) + 1 + 2,
			h.page_size);
		ret = -EBADMSG;
	}
	return ret;
}

/* Copy the payload of a snapshot option into @snap (replacing it). */
static int td_snapshot(struct tracedat *td, sm_u64 off, sm_u64 size,
		       struct stackmap_snapshot *snap,
		       struct sm_err *err)
{
	struct sm_err e2;
	char *buf;
	int ret;

	ret = td_payload(td, off, size, STACKMAP_SNAPSHOT_MAX_SIZE,
			 "snapshot option", &buf, err);
	if (ret)
		return ret;
	stackmap_snapshot_free(snap);
	ret = stackmap_snapshot_decode(buf, size, snap, &e2);
	if (ret)
		td_fail(td, err, "option at offset %" PRIu64 ": %s", off, e2.msg);
	free(buf);
	return ret;
}

/*
 * One options section at @off: every option in it to @visit; *next is set
 * to the next section's offset from its DONE option (0: none).  With
 * @to_done, the options are read up to the DONE option wherever it is, as
 * trace-cmd 3.1.6 handle_options() reads them (it never looks at the
 * section's size), else only inside the size the section's header gives.
 */
static int td_section(struct tracedat *td, sm_u64 off, sm_u64 *next,
		      bool to_done, td_visit_fn visit, void *ctx,
		      struct sm_err *err)
{
	sm_u64 id, flags, size, end, oid, osize;
	int ret;

	ret = td_num(td, off, 2, &id, "section id", err);
	if (!ret)
		ret = td_num(td, off + 2, 2, &flags, "section flags", err);
	if (!ret)
		ret = td_num(td, off + 8, 8, &size, "section size", err);
	if (ret)
		return ret;
	if (id != TRACEDAT_OPTION_DONE) {
		td_fail(td, err, "offset %" PRIu64 ": section id: %" PRIu64 ", expected an options section (0)",
			off, id);
		return -EBADMSG;
	}
	if (flags & TRACEDAT_SEC_COMPRESS) {
		td_fail(td, err, "offset %" PRIu64 ": compressed options section: not supported",
			off);
		return -ENOTSUP;
	}
	off += TRACEDAT_SECTION_HDR;
	end = off + size;
	*next = 0;
	while (to_done || off < end) {
		ret = td_num(td, off, 2, &oid, "option id", err);
		if (!ret)
			ret = td_num(td, off + 2, 4, &osize, "option size", err);
		if (ret)
			return ret;
		off += 6;
		if (oid == TRACEDAT_OPTION_DONE)
			return osize < 8 ? 0 : td_num(td, off, 8, next,
						      "next options offset", err);
		ret = visit(td, oid, off, osize, ctx, err);
		if (ret)
			return ret;
		off += osize;
	}
	td_fail(td, err, "offset %" PRIu64 ": options section ends without a DONE option",
		end);
	return -EBADMSG;
}

/* Most options a version 6 file's list is read for. */
#define TRACEDAT_MAX_V6_OPTIONS	65536

/*
 * Version 6: the one list of options, between the CPU count and the data
 * (trace-input.c read_headers_v6(): read_options_type(), handle_options()),
 * every option to @visit.  None when the data kind that follows the headers
 * is not "options  ".
 */
static int td6_section(struct tracedat *td, const struct tracedat_head *h,
		       td_visit_fn visit, void *ctx, struct sm_err *err)
{
	sm_u64 off = h->end, cpus;
	char kind[10];
	int ret;

	ret = td6_headers(td, &off, &cpus, NULL, err);
	if (!ret)
		ret = td_read(td, off, kind, sizeof(kind), "data kind", err);
	if (ret || strncmp(kind, "options", 7))
		return ret;
	off += sizeof(kind);
	return td6_options(td, &off, TRACEDAT_MAX_V6_OPTIONS, visit, ctx, err);
}

/*
 * Open @path and walk its option chain with @visit; with TD_WALK_V6 in
 * @flags, also the option list of a version 6 file (td6_section()), else
 * -ENOTSUP for one; with TD_WALK_TO_DONE, each section to its DONE option
 * (td_section()).
 * Return: 0; what td_fields(), td_section(), td6_section() or @visit
 * returned; -errno.
 */
int td_walk_file(const char *path, unsigned int flags, td_visit_fn visit,
		 void *ctx, struct sm_err *err)
{
	struct tracedat_head h;
	struct tracedat td;
	sm_u64 off = 0;
	int ret, n;

	ret = td_open(&td, path, err);
	if (ret)
		return ret;
	ret = td_fields(&td, &h, err);
	if (!ret && h.file_version < 7)
		ret = flags & TD_WALK_V6 ?
			td6_section(&td, &h, visit, ctx, err) :
			td_no_chain(&td, &h, err);
	else if (!ret)
		off = h.options;
	for (n = 0; !ret && off; n++) {
		if (n == TRACEDAT_MAX_SECTIONS) {
			sm_err_set(err, "%s: more than %d options sections (loop?)",
				path, TRACEDAT_MAX_SECTIONS);
			ret = -EBADMSG;
			break;
		}
		ret = td_section(&td, off, &off, flags & TD_WALK_TO_DONE,
				 visit, ctx, err);
	}
	close(td.fd);
	return ret;
}

/* td_walk_file() of the version 7 option chain only. */
static int td_walk(const char *path, td_visit_fn visit, void *ctx,
		   struct sm_err *err)
{
	return td_walk_file(path, 0, visit, ctx, err);
}

/* The snapshot reader's visitor: the last snapshot option wins. */
struct td_found {
	struct stackmap_snapshot *snap;
	int found;
};

static int visit_snapshot(struct tracedat *td, sm_u64 id, sm_u64 off,
			  sm_u64 size, void *ctx, struct sm_err *err)
{
	struct td_found *f = ctx;
	int ret;

	if (id != STACKMAP_SNAPSHOT_OPTION)
		return 0;
	ret = td_snapshot(td, off, size, f->snap, err);
	f->found |= !ret;
	return ret;
}

int stackmap_snapshot_read_tracedat(const char *path,
				    struct stackmap_snapshot *out,
				    struct sm_err *err)
{
	struct td_found f = { .snap = out };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = td_walk(path, visit_snapshot, &f, err);
	if (!ret && !f.found) {
		sm_err_set(err, "%s: no stackmap snapshot option (id 0x%x)", path,
			STACKMAP_SNAPSHOT_OPTION);
		ret = -ENOENT;
	}
	if (ret)
		stackmap_snapshot_free(out);
	return ret;
}

/* The generic reader's visitor: the last option of the id wins. */
struct td_option {
	unsigned int id;
	size_t max_size;
	char *buf;
	size_t len;
	int found;
};

static int visit_option(struct tracedat *td, sm_u64 id, sm_u64 off,
			sm_u64 size, void *ctx, struct sm_err *err)
{
	struct td_option *o = ctx;
	char what[32], *buf;
	int ret;

	if (id != o->id)
		return 0;
	snprintf(what, sizeof(what), "option 0x%x", o->id);
	ret = td_payload(td, off, size, o->max_size, what, &buf, err);
	if (ret)
		return ret;
	free(o->buf);
	o->buf = buf;
	o->len = size;
	o->found = 1;
	return 0;
}

int stackmap_tracedat_read_option(const char *path, unsigned int id,
				  size_t max_size, char **buf, size_t *len,
				  struct sm_err *err)
{
	struct td_option o = { .id = id, .max_size = max_size };
	int ret;

	ret = td_walk_file(path, TD_WALK_V6, visit_option, &o, err);
	if (!ret && !o.found) {
		sm_err_set(err, "%s: no option 0x%x", path, id);
		ret = -ENOENT;
	}
	if (ret) {
		free(o.buf);
		return ret;
	}
	*buf = o.buf;
	*len = o.len;
	return 0;
}

/*
 * Does the section at @off, named after option @what, lie inside the
 * file (its 16-byte header, then as many bytes as the header says)?
 */
static int td_section_inside(struct tracedat *td, sm_u64 off,
			     const char *what, struct sm_err *err)
{
	char field[64];
	sm_u64 size;
	int ret;

	snprintf(field, sizeof(field), "%s section size", what);
	ret = td_num(td, off + 8, 8, &size, field, err);
	if (ret)
		return ret;
	if (size > td->size || off + TRACEDAT_SECTION_HDR > td->size - size) {
		td_fail(td, err, "offset %" PRIu64 ": %s section: %" PRIu64 " bytes, beyond end of file (%" PRIu64 " bytes)",
			off, what, size, td->size);
		return -EBADMSG;
	}
	return 0;
}

/* Does the CPU data of the BUFFER option at @off lie inside the file? */
static int td_buffer_inside(struct tracedat *td, sm_u64 off,
			    struct sm_err *err)
{
	sm_u64 cpu, data, size, i;
	struct td_buffer b;
	int ret;

	ret = td_buffer(td, off, &b, err);
	if (!ret)
		ret = td_section_inside(td, b.section, "buffer", err);
	for (i = 0; !ret && i < b.cpus; i++) {
		ret = td_buffer_cpu(td, &b, i, &cpu, &data, &size, err);
		if (!ret && (size > td->size || data > td->size - size)) {
			td_fail(td, err, "buffer \"%s\" CPU %" PRIu64 ": data at offset %" PRIu64 ", %" PRIu64 " bytes: beyond end of file (%" PRIu64 " bytes)",
				b.name, cpu, data, size, td->size);
			ret = -EBADMSG;
		}
	}
	return ret;
}

/* The options that place a section (trace-cmd's enum tracecmd_option_id). */
#define TRACEDAT_OPTION_BUFFER		3
#define TRACEDAT_OPTION_HEADER_INFO	16	/* ... up to CMDLINES, 21 */
#define TRACEDAT_OPTION_CMDLINES	21

/* The extent checker's visitor: every section and CPU data an option places. */
static int visit_extent(struct tracedat *td, sm_u64 id, sm_u64 off,
			sm_u64 size, void *ctx, struct sm_err *err)
{
	sm_u64 section;
	int ret;

	(void)ctx;
	if (id == TRACEDAT_OPTION_BUFFER)
		return td_buffer_inside(td, off, err);
	if (id < TRACEDAT_OPTION_HEADER_INFO || id > TRACEDAT_OPTION_CMDLINES ||
	    size < 8)
		return 0;
	ret = td_num(td, off, 8, &section, "section offset", err);
	return ret ? ret : td_section_inside(td, section, "option's", err);
}

int stackmap_tracedat_check_extent(const char *path, struct sm_err *err)
{
	return td_walk(path, visit_extent, NULL, err);
}

/*
 * What trace-cmd 3.1.6 reads of an option's data without a bound, as
 * lib/trace-cmd/trace-input.c handle_options() hands each option (read into
 * a buffer of exactly its size) to the code that parses it.  Ids from
 * trace-cmd-private.h's enum (TRACECMD_OPTION_*).
 */
#define TRACEDAT_OPTION_DATE		1
#define TRACEDAT_OPTION_CPUSTAT		2
#define TRACEDAT_OPTION_TRACECLOCK	4
#define TRACEDAT_OPTION_HOOK		6
#define TRACEDAT_OPTION_OFFSET		7
#define TRACEDAT_OPTION_CPUCOUNT	8
#define TRACEDAT_OPTION_VERSION		9
#define TRACEDAT_OPTION_PROCMAPS	10
#define TRACEDAT_OPTION_GUEST		13
#define TRACEDAT_OPTION_BUFFER_TEXT	22

/* Largest option read whole to look for its NULs. */
#define TRACEDAT_STRING_MAX	(1 << 20)

/* The string checker's state: set when it refuses an option. */
struct td_strings {
	bool bad;
};

/*
 * Refuse the option: @err says why ("offset N: option ID: ..."), and the
 * walk stops with -EBADMSG.
 */
static int td_refuse(struct tracedat *td, struct td_strings *st,
		     struct sm_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int td_refuse(struct tracedat *td, struct td_strings *st,
		     struct sm_err *err, const char *fmt, ...)
{
	char msg[SM_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	td_fail(td, err, "%s", msg);
	st->bad = true;
	return -EBADMSG;
}

/*
 * The C string @field at *@pos of the option @id whose @size bytes, read
 * from offset @off, are @buf: refused when no NUL ends it inside the
 * option, else *@pos moves past its NUL.
 */
static int td_field_string(struct tracedat *td, struct td_strings *st,
			   sm_u64 id, sm_u64 off, const char *buf,
			   sm_u64 size, sm_u64 *pos, const char *field,
			   struct sm_err *err)
{
	const char *nul = memchr(buf + *pos, 0, size - *pos);

	if (!nul)
		return td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": %s: %" PRIu64 " bytes with no NUL ending its string",
				 off + *pos, id, field, size - *pos);
	*pos = nul - buf + 1;
	return 0;
}

/*
 * A BUFFER or BUFFER_TEXT option, as trace-cmd 3.1.6 handle_buffer_option()
 * reads it: a u64 offset (save_read_number(), bounded), the instance's name
 * (save_read_string(): strdup(), no bound) and, in a version 7 file only
 * (HAS_SECTIONS()), its clock, strdup()ed the same way; then, BUFFER only,
 * the page size, the CPU count and the CPU entries, each through
 * save_read_number(), which stops at the option's end.  A damaged clock
 * string made strdup() read past the option (tests/fuzz/regress/
 * fuzz_tracedat/buffer-clock-without-nul.dat).
 */
static int td_check_buffer(struct tracedat *td, struct td_strings *st,
			   sm_u64 id, sm_u64 off, const char *buf, sm_u64 size,
			   struct sm_err *err)
{
	sm_u64 pos = 8;
	int ret;

	if (size < 8)
		return td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": buffer offset: %" PRIu64 " bytes, fewer than its 8",
				 off, id, size);
	ret = td_field_string(td, st, id, off, buf, size, &pos, "buffer name",
			      err);
	if (!ret && td->file_version >= 7)
		ret = td_field_string(td, st, id, off, buf, size, &pos,
				      "buffer clock", err);
	return ret;
}

/*
 * A GUEST option, as trace-cmd 3.1.6 trace_guest_load() reads it: the
 * guest's name (strndup() then strlen(): with no NUL, the int size left goes
 * negative and its unsigned comparisons let the trace id and the CPU count
 * be read past the option), a u64 trace id, an int CPU count, then (CPU,
 * host PID) int pairs, each CPU used as an index into a table of that many
 * (checked against the count, not against 0: a negative one writes before
 * the table).  The pairs are read while 8 bytes remain, up to the count and
 * the first CPU at or over it, as libtracecmd does.
 */
static int td_check_guest(struct tracedat *td, struct td_strings *st,
			  sm_u64 id, sm_u64 off, const char *buf, sm_u64 size,
			  struct sm_err *err)
{
	sm_u64 pos = 0, count, cpu, i;
	int ret;

	ret = td_field_string(td, st, id, off, buf, size, &pos, "guest name",
			      err);
	if (ret || size - pos < 12)
		return ret;
	count = td_bytes_num(td, buf + pos + 8, 4);
	pos += 12;
	if (count >= 0x80000000u)	/* negative: calloc() fails */
		return 0;
	for (i = 0; i < count && size - pos >= 8; i++, pos += 8) {
		cpu = td_bytes_num(td, buf + pos, 4);
		if (cpu >= 0x80000000u)
			return td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": guest CPU: %" PRId32 ", negative (libtracecmd would write before its table)",
					 off + pos, id, (int32_t)(uint32_t)cpu);
		if (cpu >= count)
			break;
	}
	return 0;
}

/*
 * Does tracecmd_create_event_hook() (trace-cmd 3.1.6
 * lib/trace-cmd/trace-hooks.c) parse @arg, "[SYSTEM:]EVENT,MATCH[,PID]/
 * [SYSTEM:]EVENT,MATCH[,FLAGS]"?  Where it does not, it returns NULL and
 * handle_options() writes through it.  Its strtok() sequence, mirrored on a
 * copy: no public call checks a hook (that one prints each hook it parses to
 * stdout).  Each step takes a token; where the character after it in @arg is
 * the step's @more, one more token must follow.  Its first index counts from
 * the copy's start even after leading delimiters; so does this one.
 */
static bool td_hook_parses(const char *arg)
{
	static const struct {
		const char *delim;	/* the token's delimiters */
		char more;		/* after the token: one more follows */
		const char *more_delim;	/* that one's delimiters */
	} steps[] = {
		{ ":,", ':', "," },	/* [SYSTEM:]EVENT of the start */
		{ ",/", ',', "/" },	/* its MATCH[,PID] */
		{ ":,", ':', "," },	/* [SYSTEM:]EVENT of the end */
		{ ",", ',', "" },	/* its MATCH[,FLAGS] */
	};
	char *str = strdup(arg), *next = NULL, *tok;
	size_t i, end;
	bool ok = false;

	if (!str)
		return true;	/* its own strdup() would fail first */
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		tok = strtok_r(i ? NULL : str, steps[i].delim, &next);
		if (!tok)
			goto out;
		end = (i ? (size_t)(tok - str) : 0) + strlen(tok);
		if (arg[end] == steps[i].more &&
		    !strtok_r(NULL, steps[i].more_delim, &next))
			goto out;
	}
	ok = true;
out:
	free(str);
	return ok;
}

/*
 * Does tracecmd_parse_trace_clock() (trace-cmd 3.1.6
 * lib/trace-cmd/trace-input.c) find a name in @clocks, the trace_clock
 * file's text?  The first space-separated word that starts with '[' is the
 * current clock, and extract_trace_clock() passes what strtok_r(word, "[]")
 * gives to sscanf(): NULL for a word of brackets alone.
 */
static bool td_clock_named(const char *clocks)
{
	const char *w = clocks;
	size_t n;

	for (;;) {
		w += strspn(w, " ");
		if (!*w)
			return true;
		n = strcspn(w, " ");
		if (*w == '[')
			return strspn(w, "[]") < n;
		w += n;
	}
}

/*
 * The string checker's visitor: every option trace-cmd 3.1.6
 * handle_options() (lib/trace-cmd/trace-input.c) would read past, or
 * before, the buffer it reads the option into:
 * - DATE and OFFSET (strtoll()), UNAME and VERSION (strdup()), HOOK
 *   (tracecmd_create_event_hook(): strdup()) and a TRACECLOCK of one byte
 *   or more (tracecmd_parse_trace_clock(): strtok_r()): the whole option is
 *   a C string.  trace-cmd writes each with its NUL.  An empty TRACECLOCK
 *   is what trace-cmd 2.x wrote (its clock followed the CPU data), so it is
 *   let through (libtracecmd 3.1.6 strtok_r()s its malloc(0) buffer).
 * - BUFFER and BUFFER_TEXT: td_check_buffer(); GUEST: td_check_guest().
 * - CPUCOUNT: *(int *)buf, whatever the size.
 * - CPUSTAT (buf[size - 1] = '\n') and PROCMAPS (buf[size - 1] read) with
 *   an unsigned size of 0: 4 GiB past the buffer.
 * - HOOK that does not parse and TRACECLOCK whose current clock is brackets
 *   alone: a NULL dereference (td_hook_parses(), td_clock_named()).
 * The other options are read with their size checked.
 */
static int visit_string(struct tracedat *td, sm_u64 id, sm_u64 off,
			sm_u64 size, void *ctx, struct sm_err *err)
{
	struct td_strings *st = ctx;
	char *buf;
	int ret = 0;

	switch (id) {
	case TRACEDAT_OPTION_CPUCOUNT:
		if (size < 4)
			return td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": CPU count: %" PRIu64 " bytes, fewer than its 4",
					 off, id, size);
		return 0;
	case TRACEDAT_OPTION_CPUSTAT:
		if (!size)
			return td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": CPU stats: empty (libtracecmd would write 4 GiB past it)",
					 off, id);
		return 0;
	case TRACEDAT_OPTION_PROCMAPS:
		if (!size)
			return td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": process maps: empty (libtracecmd would read 4 GiB past it)",
					 off, id);
		return 0;
	case TRACEDAT_OPTION_TRACECLOCK:
		if (!size)
			return 0;
		break;
	case TRACEDAT_OPTION_DATE: case TRACEDAT_OPTION_OFFSET:
	case TRACEDAT_OPTION_UNAME: case TRACEDAT_OPTION_HOOK:
	case TRACEDAT_OPTION_VERSION: case TRACEDAT_OPTION_BUFFER:
	case TRACEDAT_OPTION_BUFFER_TEXT: case TRACEDAT_OPTION_GUEST:
		break;
	default:
		return 0;
	}
	ret = td_payload(td, off, size, TRACEDAT_STRING_MAX, "string option",
			 &buf, err);
	if (ret)
		return ret;
	if (id == TRACEDAT_OPTION_BUFFER || id == TRACEDAT_OPTION_BUFFER_TEXT)
		ret = td_check_buffer(td, st, id, off, buf, size, err);
	else if (id == TRACEDAT_OPTION_GUEST)
		ret = td_check_guest(td, st, id, off, buf, size, err);
	else if (!memchr(buf, 0, size))
		ret = td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": %" PRIu64 " bytes with no NUL ending its string",
				off, id, size);
	else if (id == TRACEDAT_OPTION_HOOK && !td_hook_parses(buf))
		ret = td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": hook: not [SYSTEM:]EVENT,MATCH[,PID]/[SYSTEM:]EVENT,MATCH[,FLAGS] (libtracecmd would write through NULL)",
				off, id);
	else if (id == TRACEDAT_OPTION_TRACECLOCK && !td_clock_named(buf))
		ret = td_refuse(td, st, err, "offset %" PRIu64 ": option %" PRIu64 ": trace clock: the current clock's word is brackets alone (libtracecmd would read through NULL)",
				off, id);
	free(buf);
	return ret;
}

int stackmap_tracedat_check_strings(const char *path, struct sm_err *err)
{
	struct td_strings st = { .bad = false };
	int ret = td_walk_file(path, TD_WALK_V6 | TD_WALK_TO_DONE,
			       visit_string, &st, err);

	return st.bad ? ret : 0;
}
