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
	unsigned long file_version;	/* set by td_fields(): 6, 7 */
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
/* The unsigned number of @bytes (1 to 8) at @p, in the file's byte order. */
sm_u64 td_bytes_num(const struct tracedat *td, const void *p, int bytes);
/* A NUL-terminated string of at most @max bytes at *@off; *@off moves past it. */
int td_string(struct tracedat *td, sm_u64 *off, char *out, size_t max,
	      const char *field, struct sm_err *err);
/* The fields of a trace.dat's header that td_fields() reads. */
struct tracedat_head {
	char version[64];		/* "6", "7" */
	unsigned long file_version;	/* its number */
	unsigned int page_size;		/* bytes */
	char compression[64];		/* "zstd", "none"; "" before 7 */
	char compression_version[64];	/* "1.5.4"; "" before 7 */
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
 * moves to the data kind; *@cpus is the CPU count; @text, when not NULL,
 * gets the offsets of the kallsyms' and the printk formats' u32 sizes as
 * the walk reaches them (0 for one it does not reach).
 */
struct td6_text {
	sm_u64 kallsyms;
	sm_u64 printk;
};
int td6_headers(struct tracedat *td, sm_u64 *off, sm_u64 *cpus,
		struct td6_text *text, struct sm_err *err);
/*
 * Version 6: the option list at *@off, after the "options  " data kind
 * (trace-input.c handle_options(); its DONE has no size), every option to
 * @visit; *@off moves past the DONE.  -EBADMSG after @max options.
 */
int td6_options(struct tracedat *td, sm_u64 *off, int max, td_visit_fn visit,
		void *ctx, struct sm_err *err);

/*
 * Version 7: walk the option chain of @path (tracedat_options.c; see
 * stackmap_snapshot_read_tracedat()), every option to @visit.  @flags:
 * TD_WALK_V6, the option list of a version 6 file too, else -ENOTSUP for
 * one; TD_WALK_TO_DONE, each options section read to its DONE option
 * whatever its size says, as trace-cmd 3.1.6 handle_options() reads it
 * (for the checks of what libtracecmd reads), else only inside that size.
 */
#define TD_WALK_V6	1
#define TD_WALK_TO_DONE	2
int td_walk_file(const char *path, unsigned int flags, td_visit_fn visit,
		 void *ctx, struct sm_err *err);

/*
 * A version 7 BUFFER option (trace-cmd trace-input.c
 * handle_buffer_option()): the offset of its data section, its name, its
 * clock, page size and CPU count, then per CPU a u32 id, a u64 data offset
 * and a u64 data size.
 */
struct td_buffer {
	sm_u64 section;		/* the BUFFER section holding the data */
	char name[64];		/* "" for the top buffer */
	char clock[64];
	sm_u64 cpus;
	sm_u64 table;		/* offset of the first CPU's entry */
};
/* The BUFFER option whose data is at @off, up to its CPU entries. */
int td_buffer(struct tracedat *td, sm_u64 off, struct td_buffer *b,
	      struct sm_err *err);
/* Entry @i (< b->cpus) of that option: the CPU's id, data offset and size. */
int td_buffer_cpu(struct tracedat *td, const struct td_buffer *b, sm_u64 i,
		  sm_u64 *cpu, sm_u64 *data, sm_u64 *size, struct sm_err *err);

/*
 * Called for chunk @i of a compressed CPU stream: the offset of its 8-byte
 * header, its compressed and its uncompressed size.  Non-zero stops the
 * walk and is returned.
 */
typedef int (*td_chunk_fn)(struct tracedat *td, unsigned int i, sm_u64 off,
			   sm_u64 csize, sm_u64 usize, void *ctx,
			   struct sm_err *err);
/*
 * A compressed CPU stream at @off (trace-cmd trace-compress.c
 * tracecmd_load_chunks_info()): a u32 chunk count (into *@count), then per
 * chunk a u32 compressed size, a u32 uncompressed size and the compressed
 * bytes.  Each chunk whose header lies before @end goes to @fn, in order;
 * the walk stops at the first that does not.
 */
int td_chunks(struct tracedat *td, sm_u64 off, sm_u64 end, sm_u64 *count,
	      td_chunk_fn fn, void *ctx, struct sm_err *err);

/*
 * Version 6: each CPU table (after "flyrecord"), to @visit: the buffer's
 * name ("" for the top buffer), the table's offset and, for an instance,
 * the offset of the BUFFER option that places it (0 for the top buffer).
 * The parts before it are walked as td6_headers() does, then the option
 * list (td6_options()) for each instance's BUFFER option (trace-input.c
 * read_headers_v6(), read_options_type(), handle_options()); *@cpus is the
 * CPU count every table has.  -ENOTSUP for a latency trace (no table);
 * -EBADMSG for a data kind that is none of the three (the sizes before it
 * are damaged).
 * The instances' tables go to @visit before the top buffer's.
 */
typedef int (*td6_table_fn)(struct tracedat *td, const char *name,
			    sm_u64 table, sm_u64 option, void *ctx,
			    struct sm_err *err);
int td6_tables(struct tracedat *td, const struct tracedat_head *h,
	       sm_u64 *cpus, int max, td6_table_fn visit, void *ctx,
	       struct sm_err *err);

#endif /* LIBSTACKMAP_TRACEDAT_FILE_H */
