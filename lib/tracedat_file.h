/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_file: a trace.dat read as bytes, for the parts of libstackmap
 * that read what libtracecmd has no public call for (the option chain).  Layout: trace-cmd 3.1.6
 * lib/trace-cmd/trace-input.c (tracecmd_alloc_fd(), read_section_header()),
 * unchanged in trace-cmd 3.3.1 (libtracecmd 1.5.2).
 *
 * Every function that fails sets @err to "PATH: offset N: FIELD: why" (no
 * "PATH: " when the struct has no path) and returns a negative errno:
 * -EBADMSG for a field beyond the end of the file or malformed, -ENOMEM,
 * or the read's own errno.
 */
#ifndef LIBSTACKMAP_TRACEDAT_FILE_H
#define LIBSTACKMAP_TRACEDAT_FILE_H
#include <stdbool.h>
#include <stddef.h>
#include "sm_err.h"
#include "stackmap/types.h"

#define TRACEDAT_MAGIC		STACKMAP_TRACEDAT_MAGIC
#define TRACEDAT_MAGIC_LEN	STACKMAP_TRACEDAT_MAGIC_LEN
#define TRACEDAT_OPTION_DONE	0	/* TRACECMD_OPTION_DONE */
#define TRACEDAT_OPTION_UNAME	5	/* TRACECMD_OPTION_UNAME */
#define TRACEDAT_SEC_COMPRESS	1	/* TRACECMD_SEC_FL_COMPRESS */
#define TRACEDAT_SECTION_HDR	16	/* u16 id, u16 flags, u32 desc, u64 size */

/* @path: the file's name, prefixed to every message; NULL for none. */
struct tracedat {
	int fd;
	const char *path;
	bool big_endian;
	sm_u64 size;
};

/* Open @path for reading into @td (close td->fd); "PATH: why" and -errno. */
int td_open(struct tracedat *td, const char *path, struct sm_err *err);
/* Set @err to the message, after "PATH: " when @td has a path; no return. */
void td_fail(const struct tracedat *td, struct sm_err *err,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* @len bytes at @off into @buf; @field names them in the message. */
int td_read(struct tracedat *td, sm_u64 off, void *buf, size_t len,
	    const char *field, struct sm_err *err);
/* An unsigned number of @bytes (2, 4 or 8) at @off in the file's byte order. */
int td_num(struct tracedat *td, sm_u64 off, int bytes, sm_u64 *val,
	   const char *field, struct sm_err *err);
/* A NUL-terminated string of at most @max bytes at *@off; *@off moves past it. */
int td_string(struct tracedat *td, sm_u64 *off, char *out, size_t max,
	      const char *field, struct sm_err *err);
/* The fields of a trace.dat's header that td_fields() reads. */
struct tracedat_head {
	char version[64];		/* "6", "7" */
	unsigned long file_version;	/* its number */
	unsigned int page_size;		/* bytes */
	char compression[64];		/* "zstd", "none"; "" before 7 */
	sm_u64 options;			/* first options offset; 0 before 7 */
	sm_u64 end;			/* offset after the last field */
};

/* The header fields into @h; sets @td's byte order. */
int td_fields(struct tracedat *td, struct tracedat_head *h,
	      struct sm_err *err);
/* @size bytes at @off (at most @max) in a malloc()ed, NUL-ended *@out. */
int td_payload(struct tracedat *td, sm_u64 off, sm_u64 size,
	       sm_u64 max, const char *what, char **out,
	       struct sm_err *err);

/*
 * Called for each option but DONE: its id, the offset and size of its data.
 * Non-zero stops the walk and is returned.
 */
typedef int (*td_visit_fn)(struct tracedat *td, sm_u64 id, sm_u64 off,
			   sm_u64 size, void *ctx, struct sm_err *err);

/*
 * Version 6: the parts between the header (td_fields()' end, in *@off) and
 * the 10-byte data kind ("options  ", "latency  ", "flyrecord"), in the
 * order trace-input.c read_headers_v6() reads them (read_header_files(),
 * read_ftrace_files(), read_event_files(), read_proc_kallsyms(),
 * read_ftrace_printk(), read_and_parse_cmdlines(), read_cpus()).  *@off
 * moves to the data kind; *@cpus is the CPU count.
 */
int td6_headers(struct tracedat *td, sm_u64 *off, sm_u64 *cpus,
		struct sm_err *err);
/*
 * Version 6: the option list at *@off, after the "options  " data kind
 * (trace-input.c handle_options(); its DONE has no size), every option to
 * @visit; *@off moves past the DONE.  -EBADMSG after @max options.
 */
int td6_options(struct tracedat *td, sm_u64 *off, int max, td_visit_fn visit,
		void *ctx, struct sm_err *err);

#endif /* LIBSTACKMAP_TRACEDAT_FILE_H */
