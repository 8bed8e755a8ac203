/* SPDX-License-Identifier: GPL-2.0 */
/*
 * duration: a time in nanoseconds as a person reads it ("2.95 s",
 * "840.0 ms", "12.3 us", "999 ns"), for the lines fgdecode prints for people
 * (--top, the off-CPU summary, a flame graph's title).  Machine outputs
 * (--json, --folded, pprof) keep nanoseconds.
 */
#ifndef LIBSTACKMAP_DURATION_H
#define LIBSTACKMAP_DURATION_H

#include <stddef.h>

#include "stackmap/types.h"

/* Room for any sm_duration() text, its NUL included. */
#define SM_DURATION_LEN	32

/**
 * sm_duration() - @ns in the largest unit of s, ms, us, ns it reaches
 * @buf: at least SM_DURATION_LEN bytes
 * @ns: nanoseconds
 *
 * Seconds get two decimals, ms and us one, ns none; values are rounded
 * (printf), so 999999999 ns reads "1000.0 ms".
 *
 * Return: @buf.
 */
const char *sm_duration(char *buf, sm_u64 ns);

/* Room for any sm_duration_ns() text, its NUL included. */
#define SM_DURATION_NS_LEN	64

/**
 * sm_duration_ns() - sm_duration() and the exact figure: "2.95 s (2948778451
 * ns)", as --top and the off-CPU summary print a time
 * @buf: at least SM_DURATION_NS_LEN bytes
 * @ns: nanoseconds
 *
 * Return: @buf.
 */
const char *sm_duration_ns(char *buf, sm_u64 ns);

#endif /* LIBSTACKMAP_DURATION_H */
