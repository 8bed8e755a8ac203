/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_block: a compressed block of a version 7 trace.dat (the data of
 * a section whose flags have TRACEDAT_SEC_COMPRESS), uncompressed as
 * libtracecmd does it, for the checks that must see what libtracecmd will
 * hand to libtraceevent.
 */
#ifndef LIBSTACKMAP_TRACEDAT_BLOCK_H
#define LIBSTACKMAP_TRACEDAT_BLOCK_H
#include "sm_err.h"
#include "stackmap/types.h"
#include "tracedat_file.h"

/* The algorithms trace-cmd 3.1.6 and 3.3.1 write (lib/trace-cmd/trace-compress-*.c). */
enum td_algo {
	TD_ALGO_NONE,		/* "none": sections are read as they are */
	TD_ALGO_ZSTD,		/* "zstd": libzstd frames, no checksum */
	TD_ALGO_ZLIB,		/* "zlib": zlib streams (compress2()) */
	TD_ALGO_UNKNOWN,	/* anything else: libtracecmd refuses the file */
};

/**
 * td_algo_of() - the algorithm a trace.dat's header names
 * @name: the compression name after the header's page size ("zstd", "zlib",
 *	"none"; td_fields()' struct tracedat_head compression)
 * @version: the compression version string that follows it ("1.5.4")
 *
 * As trace-cmd 3.1.6 tracecmd_alloc_fd() picks it: "none" for no
 * compression, else the first registered algorithm whose is_supported()
 * takes the name and version (trace-compress-zstd.c zstd_is_supported():
 * the name only; trace-compress-zlib.c zlib_is_supported(): the name, and
 * a major version not above this zlib's).
 *
 * Return: the algorithm, TD_ALGO_UNKNOWN for one libtracecmd has none for.
 */
enum td_algo td_algo_of(const char *name, const char *version);

/**
 * td_block() - uncompress the block at @off
 * @td: the file (td_fields() set its byte order)
 * @algo: the file's algorithm (td_algo_of()), TD_ALGO_ZSTD or TD_ALGO_ZLIB
 * @off: where the block starts: a u32 compressed size C, a u32
 *	uncompressed size U (both in the file's byte order), then C bytes
 * @max: the most bytes this reads in or uncompresses into
 * @out: set to a malloc()ed buffer with the uncompressed bytes and a NUL
 *	after them (free() it)
 * @len: set to their count
 * @err: set on failure: "PATH: offset N: compressed block: why"
 *
 * What trace-cmd 3.1.6 lib/trace-cmd/trace-compress.c
 * tracecmd_uncompress_block() does for trace-input.c in_uncompress_block():
 * it reads C bytes from the file (however large the section says it is)
 * and uncompresses them into a buffer of max(C, U) bytes (an int:
 * 2 GiB or more is a failed malloc()), ZSTD_decompress() or zlib's
 * uncompress(); what came out is the section's data, however much it is.
 * zstd frames trace-cmd writes carry no checksum: a damaged byte in a
 * frame can come out as other bytes rather than as an error.
 *
 * Return: 0; -EBADMSG when libtracecmd could not uncompress it either (the
 * block beyond the end of the file, max(C, U) of 2 GiB or more, the
 * algorithm's error); -E2BIG when C or the uncompressed bytes are more
 * than @max; -ENOMEM; -errno when the file cannot be read.
 */
int td_block(struct tracedat *td, enum td_algo algo, sm_u64 off, sm_u64 max,
	     char **out, sm_u64 *len, struct sm_err *err);

#endif /* LIBSTACKMAP_TRACEDAT_BLOCK_H */
