// SPDX-License-Identifier: GPL-2.0
/*
 * Reading back fgdecode --pprof's profiles (see profile_read.h).
 */
#include <check.h>
#include <zlib.h>

#include "profile_read.h"

PrProfile *profile_read(const char *path)
{
	static unsigned char buf[1 << 20];
	PrProfile *p;
	gzFile gz;
	int n;

	gz = gzopen(path, "rb");
	ck_assert_ptr_nonnull(gz);
	n = gzread(gz, buf, sizeof(buf));
	gzclose(gz);
	ck_assert_int_gt(n, 0);
	p = perftools__profiles__profile__unpack(NULL, n, buf);
	ck_assert_ptr_nonnull(p);
	return p;
}

void profile_free(PrProfile *p)
{
	perftools__profiles__profile__free_unpacked(p, NULL);
}

PrLocation *profile_location_at(const PrProfile *p, sm_u64 addr)
{
	size_t i;

	for (i = 0; i < p->n_location; i++)
		if (p->location[i]->address == addr)
			return p->location[i];
	return NULL;
}

PrLocation *profile_location(const PrProfile *p, sm_u64 id)
{
	size_t i;

	for (i = 0; i < p->n_location; i++)
		if (p->location[i]->id == id)
			return p->location[i];
	ck_abort_msg("no location %llu", (unsigned long long)id);
	return NULL;
}

const char *profile_line_function(const PrProfile *p, const PrLocation *loc,
				  size_t i)
{
	ck_assert_uint_lt(i, loc->n_line);
	ck_assert_uint_ge(loc->line[i]->function_id, 1);
	ck_assert_uint_le(loc->line[i]->function_id, p->n_function);
	return p->string_table[p->function[loc->line[i]->function_id - 1]->name];
}
