// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_printk: the printk formats and the kallsyms' size of a
 * trace.dat, checked before libtracecmd reads them (see tracedat_printk.h).
 * The sections are found with tracedat_file.c's readers (td_walk_file(),
 * td6_headers()) and a compressed one is uncompressed with
 * tracedat_block.c's td_block().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat_block.h"
#include "tracedat_file.h"
#include "tracedat_printk.h"

#define TRACEDAT_OPTION_KALLSYMS	19	/* TRACECMD_OPTION_KALLSYMS */
#define TRACEDAT_OPTION_PRINTK		20	/* TRACECMD_OPTION_PRINTK */
/* The most bytes read in to check: real printk formats are tens of KB. */
#define PRINTK_READ_MAX			(256ULL << 20)
/* A size libtracecmd 1.3 cannot allocate and copy as it does. */
#define PRINTK_SIZE_LIMIT		(1ULL << 31)

/* The reasons stackmap_printk_check_text() gives. */
static const char no_colon[] = "has no ':' (libtraceevent would read past it)";
static const char ends_at_colon[] = "ends at its ':' (libtraceevent would read past it)";
static const char too_short[] = "has a format of fewer than 3 bytes (libtraceevent would read before it)";

/*
 * One line, [@p, @end): libtraceevent 1.7.1 tep_parse_printk_formats()
 * does strtok_r(line, ":", &fmt), then strdup(fmt + 1), and
 * tep_register_print_string() skips a leading '"' and reads its copy at
 * strlen() - 1 and at strlen() - 3 (the '"' and the "\\n" it strips).
 * Return: NULL, a reason, or @stop (set *@stop: the parse ends here).
 */
static const char *check_line(const char *p, const char *end, bool *stop)
{
	const char *colon, *fmt;

	*stop = false;
	while (p < end && *p == ':')	/* strtok_r() skips leading delimiters */
		p++;
	if (p == end) {			/* "printk format with empty entry" */
		*stop = true;
		return NULL;
	}
	colon = memchr(p, ':', end - p);
	if (!colon)	/* fmt at the line's NUL: fmt + 1 is past it */
		return no_colon;
	fmt = colon + 1;
	if (fmt == end)
		return ends_at_colon;
	fmt++;				/* "fmt still has a space, skip it" */
	if (fmt < end && *fmt == '"')
		fmt++;
	return end - fmt < 3 ? too_short : NULL;
}

const char *stackmap_printk_check_text(const char *text, size_t len,
				       unsigned int *line)
{
	const char *end = memchr(text, '\0', len);
	const char *p = text, *nl, *why;
	bool stop;

	if (!end)
		end = text + len;
	for (*line = 1; p < end; p = nl + 1, ++*line) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (nl == p)		/* strtok_r() skips empty lines */
			continue;
		why = check_line(p, nl, &stop);
		if (why || stop)
			return why;
	}
	return NULL;
}

struct printk_walk {
	enum td_algo algo;
	bool refused;		/* a check refused the file (not a walk error) */
};

static sm_u64 get_u32(const struct tracedat *td, const char *b)
{
	const unsigned char *u = (const unsigned char *)b;

	return td->big_endian ?
		(sm_u64)u[0] << 24 | u[1] << 16 | u[2] << 8 | u[3] :
		(sm_u64)u[3] << 24 | u[2] << 16 | u[1] << 8 | u[0];
}

/*
 * A read of @what (the section at @at) that failed with @ret and @why:
 * 0 when libtracecmd's read fails the same way (-EBADMSG: beyond the end,
 * a block that does not uncompress), else @ret with the message in @err.
 */
static int unread(struct tracedat *td, struct sm_err *err, int ret,
		  sm_u64 at, const char *what, const struct sm_err *why)
{
	if (ret == -EBADMSG)
		return 0;
	if (ret == -E2BIG)
		td_fail(td, err, "offset %" PRIu64 ": %s: %s", at, what,
			sm_err_after_path(why, td->path));
	else
		sm_err_set(err, "%s", why->msg);
	return ret;
}

/*
 * The text part at @data (a u32 size, then the text), in a compressed
 * block or not, for @what ("printk formats" or "kallsyms") of the section
 * at @at: what read_ftrace_printk() and read_proc_kallsyms() read.  *@text
 * is set (free() it) to the printk formats' text when they are read whole;
 * NULL when libtracecmd would not read them either.  Return: 0, or the
 * refusal (-E2BIG, -ENOMEM, -errno).
 */
static int read_part(struct tracedat *td, enum td_algo algo, bool compressed,
		     const char *what, sm_u64 at, sm_u64 data, char **text,
		     sm_u64 *text_len, struct sm_err *err)
{
	bool printk = !strcmp(what, "printk formats");
	char *block = NULL, hdr[4];
	struct sm_err why;
	sm_u64 size, len, have;
	int ret;

	*text = NULL;
	if (compressed) {
		ret = td_block(td, algo, data, PRINTK_READ_MAX, &block, &len,
			       &why);
		if (ret)
			return unread(td, err, ret, at, what, &why);
		if (len < 4) {
			free(block);
			return 0;
		}
		size = get_u32(td, block);
		have = len - 4;
	} else {
		ret = td_read(td, data, hdr, 4, what, &why);
		if (ret)
			return unread(td, err, ret, at, what, &why);
		size = get_u32(td, hdr);
		have = td->size - (data + 4);
	}
	if (size >= PRINTK_SIZE_LIMIT) {
		free(block);
		td_fail(td, err, "offset %" PRIu64 ": %s: size %" PRIu64 ": 2 GiB or more (libtracecmd would overflow its buffer)",
			at, what, size);
		return -E2BIG;
	}
	/* A short read: libtracecmd's do_read_check() fails, reads nothing. */
	if (size > have || !printk) {
		free(block);
		return 0;
	}
	if (block) {
		memmove(block, block + 4, size);
		block[size] = '\0';
		*text = block;
	} else if (size > PRINTK_READ_MAX) {
		td_fail(td, err, "offset %" PRIu64 ": %s: %" PRIu64 " bytes: more than %llu read",
			at, what, size, PRINTK_READ_MAX);
		return -E2BIG;
	} else {
		ret = td_payload(td, data + 4, size, PRINTK_READ_MAX, what,
				 text, &why);
		if (ret)
			return unread(td, err, ret, at, what, &why);
	}
	*text_len = size;
	return 0;
}

/* Check the part of @what at @data, of the section (or v6 part) at @at. */
static int check_part(struct tracedat *td, enum td_algo algo,
		      bool compressed, const char *what, sm_u64 at,
		      sm_u64 data, struct sm_err *err)
{
	const char *why;
	unsigned int line;
	sm_u64 len = 0;
	char *text;
	int ret;

	ret = read_part(td, algo, compressed, what, at, data, &text, &len,
			err);
	if (ret || !text)
		return ret;
	why = stackmap_printk_check_text(text, len, &line);
	free(text);
	if (!why)
		return 0;
	td_fail(td, err, "offset %" PRIu64 ": %s: line %u %s", at, what, line,
		why);
	return -EBADMSG;
}

/*
 * The option chain's visitor: the section each KALLSYMS and PRINTK option
 * places (trace-input.c handle_options(), section_add_or_update(),
 * handle_section()).
 */
static int visit_text(struct tracedat *td, sm_u64 id, sm_u64 off,
		      sm_u64 size, void *ctx, struct sm_err *err)
{
	struct printk_walk *w = ctx;
	sm_u64 section, sid, flags;
	struct sm_err why;
	int ret;

	if ((id != TRACEDAT_OPTION_KALLSYMS && id != TRACEDAT_OPTION_PRINTK) ||
	    size < 8)
		return 0;
	if (td_num(td, off, 8, &section, "section offset", &why) ||
	    !section || td_num(td, section, 2, &sid, "section id", &why) ||
	    sid != id || td_num(td, section + 2, 2, &flags, "section flags",
				&why))
		return 0;
	ret = check_part(td, w->algo,
			 (flags & TRACEDAT_SEC_COMPRESS) && w->algo != TD_ALGO_NONE,
			 id == TRACEDAT_OPTION_PRINTK ? "printk formats" : "kallsyms",
			 section, section + TRACEDAT_SECTION_HDR, err);
	w->refused |= ret != 0;
	return ret;
}

/* Version 6: the kallsyms and the printk formats after the event formats. */
static int check_v6(struct tracedat *td, const struct tracedat_head *h,
		    struct sm_err *err)
{
	struct td6_text at;
	struct sm_err why;
	sm_u64 off = h->end, cpus;
	int ret = 0;

	td6_headers(td, &off, &cpus, &at, &why);
	if (at.kallsyms)
		ret = check_part(td, TD_ALGO_NONE, false, "kallsyms",
				 at.kallsyms, at.kallsyms, err);
	if (!ret && at.printk)
		ret = check_part(td, TD_ALGO_NONE, false, "printk formats",
				 at.printk, at.printk, err);
	return ret;
}

int stackmap_tracedat_check_printk(const char *path, struct sm_err *err)
{
	struct printk_walk w = { .refused = false };
	struct tracedat_head h;
	struct tracedat td;
	struct sm_err why;
	int ret;

	ret = td_open(&td, path, err);
	if (ret)
		return ret;
	if (td_fields(&td, &h, &why)) {
		close(td.fd);
		return 0;
	}
	if (h.file_version < 7) {
		ret = check_v6(&td, &h, err);
		close(td.fd);
		return ret;
	}
	close(td.fd);
	w.algo = td_algo_of(h.compression, h.compression_version);
	if (w.algo == TD_ALGO_UNKNOWN)
		return 0;
	ret = td_walk_file(path, TD_WALK_TO_DONE, visit_text, &w, err);
	return w.refused ? ret : 0;
}
