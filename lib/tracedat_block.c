// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_block: a compressed block of a version 7 trace.dat, uncompressed
 * as libtracecmd does it (see tracedat_block.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "tracedat_block.h"

enum td_algo td_algo_of(const char *name, const char *version)
{
	const char *zver = zlibVersion();

	if (!strcmp(name, "none"))
		return TD_ALGO_NONE;
	if (!strcmp(name, "zstd"))
		return TD_ALGO_ZSTD;
	/* zlib_is_supported(): "Compare the major version number" */
	if (!strcmp(name, "zlib") && (!version || atoi(version) <= atoi(zver)))
		return TD_ALGO_ZLIB;
	return TD_ALGO_UNKNOWN;
}

/* The block's bytes uncompressed into @out (@cap bytes); their count, or -1. */
static long long uncompress_into(enum td_algo algo, const char *in,
				 sm_u64 in_len, char *out, sm_u64 cap,
				 bool *too_small)
{
	uLongf n = cap;
	size_t r;
	int z;

	*too_small = false;
	if (algo == TD_ALGO_ZSTD) {
		/* trace-compress-zstd.c zstd_decompress() */
		r = ZSTD_decompress(out, cap, in, in_len);
		if (!ZSTD_isError(r))
			return r;
		*too_small = ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall;
		return -1;
	}
	/* trace-compress-zlib.c zlib_decompress() */
	z = uncompress((Bytef *)out, &n, (const Bytef *)in, in_len);
	if (z == Z_OK)
		return n;
	*too_small = z == Z_BUF_ERROR;
	return -1;
}

/*
 * Mirrors trace-cmd 3.1.6 lib/trace-cmd/trace-compress.c
 * tracecmd_uncompress_block(), as trace-input.c in_uncompress_block()
 * calls it when a section's flags say it is compressed.
 */
int td_block(struct tracedat *td, enum td_algo algo, sm_u64 off, sm_u64 max,
	     char **out, sm_u64 *len, struct sm_err *err)
{
	sm_u64 csize, usize, size;
	char *in = NULL, *buf = NULL;
	bool too_small, capped;
	long long n;
	int ret;

	*out = NULL;
	*len = 0;
	if (algo != TD_ALGO_ZSTD && algo != TD_ALGO_ZLIB) {
		td_fail(td, err, "offset %" PRIu64 ": compressed block: the file names no algorithm libtracecmd has",
			off);
		return -EBADMSG;
	}
	ret = td_num(td, off, 4, &csize, "compressed block: compressed size",
		     err);
	if (!ret)
		ret = td_num(td, off + 4, 4, &usize,
			     "compressed block: uncompressed size", err);
	if (ret)
		return ret;
	/* read_fd() reads all C bytes, or fails */
	if (csize > td->size - (off + 8)) {
		td_fail(td, err, "offset %" PRIu64 ": compressed block: %" PRIu64 " bytes, beyond end of file (%" PRIu64 " bytes)",
			off, csize, td->size);
		return -EBADMSG;
	}
	/* int size = max(C, U): malloc() of a negative size fails */
	size = csize > usize ? csize : usize;
	if (size >= 1ULL << 31) {
		td_fail(td, err, "offset %" PRIu64 ": compressed block: %" PRIu64 " bytes: 2 GiB or more",
			off, size);
		return -EBADMSG;
	}
	if (csize > max) {
		td_fail(td, err, "offset %" PRIu64 ": compressed block: %" PRIu64 " bytes: more than %" PRIu64 " read",
			off, csize, max);
		return -E2BIG;
	}
	capped = size > max;
	if (capped)
		size = max;
	in = malloc(csize ? csize : 1);
	buf = malloc(size + 1);
	if (!in || !buf) {
		free(in);
		free(buf);
		td_fail(td, err, "out of memory");
		return -ENOMEM;
	}
	ret = td_read(td, off + 8, in, csize, "compressed block", err);
	n = ret ? -1 : uncompress_into(algo, in, csize, buf, size, &too_small);
	free(in);
	if (n < 0) {
		free(buf);
		if (ret)
			return ret;
		/* Only the smaller buffer here: libtracecmd's may hold it. */
		if (too_small && capped) {
			td_fail(td, err, "offset %" PRIu64 ": compressed block: uncompresses into more than %" PRIu64 " bytes",
				off, max);
			return -E2BIG;
		}
		td_fail(td, err, "offset %" PRIu64 ": compressed block: does not uncompress (%s)",
			off, algo == TD_ALGO_ZSTD ? "zstd" : "zlib");
		return -EBADMSG;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
