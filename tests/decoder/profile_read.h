/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back what fgdecode --pprof wrote (profile_read.c), for the tests
 * that check its profiles: test_dwarf (inlined frames as lines) and
 * test_fgdecode (--off-cpu --wakers).  Failures are check assertions.
 */
#ifndef TESTS_DECODER_PROFILE_READ_H
#define TESTS_DECODER_PROFILE_READ_H

#include <stddef.h>

#include "profile.pb-c.h"
#include "stackmap/types.h"

typedef Perftools__Profiles__Profile PrProfile;
typedef Perftools__Profiles__Location PrLocation;

/* The gzip-compressed profile at @path, unpacked (free it with profile_free()). */
PrProfile *profile_read(const char *path);

void profile_free(PrProfile *p);

/* The location of address @addr in @p, or NULL. */
PrLocation *profile_location_at(const PrProfile *p, sm_u64 addr);

/* The location of id @id in @p (asserted to exist). */
PrLocation *profile_location(const PrProfile *p, sm_u64 id);

/* The name of the function of line @i of @loc. */
const char *profile_line_function(const PrProfile *p, const PrLocation *loc,
				  size_t i);

#endif /* TESTS_DECODER_PROFILE_READ_H */
