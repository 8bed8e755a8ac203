// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the snapshot code in lib/: the payload format of payload.c (round
 * trip, truncation at every length, crc, magic, version, depth, counts,
 * owner and flags), filling a stacktab and the resolve rule of
 * snapshot_table.c, the stack_map listing parser of listing.c (an excerpt
 * of a real listing, stack_map.sample, and broken ones) and the trace.dat
 * option-chain reader of tracedat_options.c on hand-built v7 files.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stackmap/cookie.h"
#include "listing.h"
#include "payload.h"
#include "map_id.h"
#include "snapshot_table.h"
#include "tracedat_options.h"

/* The first three stacks of a listing recorded on the Debian 6.1 guest. */
#ifndef SAMPLE_LISTING
#define SAMPLE_LISTING "stack_map.sample"
#endif

static struct stackmap_snapshot two;	/* generation 7, slots 3 and 9 */
static void *payload;
static size_t payload_len;
static struct sm_err err;

static void setup(void)
{
	static struct stackmap_snap_entry e[2] = {
		{ .slot = 3, .depth = 2, .hits = 10, .owner = 0x1234,
		  .flags = STACKMAP_FLAG_TRUNCATED,
		  .ips = { 0xffffffff81000010ULL, 0xffffffff81000020ULL } },
		{ .slot = 9, .depth = 1, .hits = 0xffffffffu,
		  .ips = { 0xffffffffc0001234ULL } },
	};

	two.map_id = 0x1122334455667788ULL;
	two.generation = 7;
	two.long_size = 8;
	two.nr = 2;
	two.entries = e;
	ck_assert_int_eq(stackmap_snapshot_encode(&two, &payload, &payload_len,
						  &err), 0);
}

static void teardown(void)
{
	free(payload);
	payload = NULL;
}

/* Rewrite the crc after editing the payload body. */
static void fix_crc(unsigned char *p, size_t len)
{
	sm_u32 crc = stackmap_crc32(p + STACKMAP_SNAPSHOT_HDR_SIZE,
				    len - STACKMAP_SNAPSHOT_HDR_SIZE);

	p[28] = crc;
	p[29] = crc >> 8;
	p[30] = crc >> 16;
	p[31] = crc >> 24;
}

START_TEST(crc32_matches_zlib)
{
	ck_assert_uint_eq(stackmap_crc32("123456789", 9), 0xcbf43926u);
	ck_assert_uint_eq(stackmap_crc32("", 0), 0);
}
END_TEST

START_TEST(payload_round_trips_with_exact_layout)
{
	struct stackmap_snapshot got;
	unsigned char *p = payload;

	ck_assert_uint_eq(payload_len, 40 + 16 + 2 * 8 + 16 + 8);
	ck_assert_mem_eq(p, "STKMAPS\0", 8);
	ck_assert_uint_eq(p[8], 3);		/* version, little-endian */
	ck_assert_uint_eq(p[16], 7);		/* generation */
	ck_assert_uint_eq(p[20], 2);		/* nr_entries */
	ck_assert_uint_eq(p[24], 8);		/* long size */
	ck_assert_uint_eq(p[32], 0x88);		/* map id, low byte first */
	ck_assert_uint_eq(p[39], 0x11);
	ck_assert_uint_eq(p[40], 3);		/* first slot */
	ck_assert_uint_eq(p[52], 0x34);		/* owner, u16 little-endian */
	ck_assert_uint_eq(p[53], 0x12);
	ck_assert_uint_eq(p[54], STACKMAP_FLAG_TRUNCATED);	/* flags */
	ck_assert_uint_eq(p[55], 0);
	ck_assert_uint_eq(p[56], 0x10);		/* first ip, low byte first */
	ck_assert_uint_eq(p[63], 0xff);
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), 0);
	ck_assert_uint_eq(got.generation, 7);
	ck_assert_uint_eq(got.map_id, 0x1122334455667788ULL);
	ck_assert_uint_eq(got.nr, 2);
	ck_assert_uint_eq(got.entries[0].slot, 3);
	ck_assert_uint_eq(got.entries[0].hits, 10);
	ck_assert_uint_eq(got.entries[0].depth, 2);
	ck_assert_uint_eq(got.entries[0].ips[1], 0xffffffff81000020ULL);
	ck_assert_uint_eq(got.entries[0].owner, 0x1234);
	ck_assert_uint_eq(got.entries[0].flags, STACKMAP_FLAG_TRUNCATED);
	ck_assert_uint_eq(got.entries[1].owner, 0);
	ck_assert_uint_eq(got.entries[1].flags, 0);
	ck_assert_uint_eq(got.entries[1].hits, 0xffffffffu);
	ck_assert_uint_eq(got.entries[1].ips[0], 0xffffffffc0001234ULL);
	stackmap_snapshot_free(&got);
}
END_TEST

/* A version 2 payload (stackmap 0.2): no map id, read as map id 0. */
START_TEST(version_2_is_read_without_map_id)
{
	struct stackmap_snapshot got;
	unsigned char *p = payload, *v2;
	size_t len = payload_len - 8;
	sm_u32 crc;

	v2 = malloc(len);
	ck_assert_ptr_nonnull(v2);
	memcpy(v2, p, 32);
	memcpy(v2 + 32, p + 40, payload_len - 40);
	v2[8] = 2;
	crc = stackmap_crc32(v2 + 32, len - 32);
	v2[28] = crc;
	v2[29] = crc >> 8;
	v2[30] = crc >> 16;
	v2[31] = crc >> 24;
	ck_assert_int_eq(stackmap_snapshot_decode(v2, len, &got, &err), 0);
	ck_assert_uint_eq(got.map_id, 0);
	ck_assert_uint_eq(got.generation, 7);
	ck_assert_uint_eq(got.nr, 2);
	ck_assert_uint_eq(got.entries[1].ips[0], 0xffffffffc0001234ULL);
	stackmap_snapshot_free(&got);
	free(v2);
}
END_TEST

START_TEST(every_truncation_is_refused)
{
	struct stackmap_snapshot got;
	size_t len;

	for (len = 0; len < payload_len; len++) {
		ck_assert_int_eq(stackmap_snapshot_decode(payload, len, &got,
							  &err), -EBADMSG);
		ck_assert_ptr_null(got.entries);
	}
}
END_TEST

START_TEST(wrong_crc_is_refused_naming_the_field)
{
	struct stackmap_snapshot got;
	unsigned char *p = payload;

	p[payload_len - 1] ^= 1;
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 28: crc32"));
}
END_TEST

START_TEST(wrong_magic_and_version_are_refused)
{
	struct stackmap_snapshot got;
	unsigned char *p = payload;

	p[8] = 4;
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), -EPROTONOSUPPORT);
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 8: version: 4"));
	/* Version 1 names no owners: refused with what to do about it. */
	p[8] = 1;
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), -EPROTONOSUPPORT);
	ck_assert_str_eq(err.msg,
		"snapshot offset 8: version: 1 (stackmap 0.1) names no stack owners; re-record with stackmap 0.2");
	p[8] = 3;
	p[0] = 'X';
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err.msg, "magic"));
}
END_TEST

START_TEST(depth_above_max_is_refused)
{
	struct stackmap_snapshot got;
	unsigned char *p = payload;

	p[40 + 4] = STACKMAP_MAX_DEPTH + 1;	/* first entry's depth */
	fix_crc(p, payload_len);
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), -E2BIG);
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 44: depth: 65"));
}
END_TEST

START_TEST(unknown_flag_bits_are_refused)
{
	struct stackmap_snapshot got;
	unsigned char *p = payload;

	p[54] = 0x3;				/* first entry: bit 1 unknown */
	fix_crc(p, payload_len);
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), -EBADMSG);
	ck_assert_str_eq(err.msg,
		"snapshot offset 54: flags: 0x3 has unknown bits (known: 0x1)");
	ck_assert_ptr_null(got.entries);
}
END_TEST

START_TEST(huge_entry_count_and_trailing_bytes_are_refused)
{
	struct stackmap_snapshot got;
	unsigned char *p = payload, *longer;

	p[23] = 0x10;				/* nr_entries = 0x10000002 */
	ck_assert_int_eq(stackmap_snapshot_decode(payload, payload_len, &got,
						  &err), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err.msg, "nr_entries"));
	p[23] = 0;
	longer = calloc(1, payload_len + 1);
	memcpy(longer, payload, payload_len);
	fix_crc(longer, payload_len + 1);
	ck_assert_int_eq(stackmap_snapshot_decode(longer, payload_len + 1, &got,
						  &err), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err.msg, "1 trailing bytes"));
	free(longer);
}
END_TEST

START_TEST(encode_refuses_bad_snapshots)
{
	struct stackmap_snapshot bad = two;
	void *buf;
	size_t len;

	bad.generation = 0;
	ck_assert_int_eq(stackmap_snapshot_encode(&bad, &buf, &len, &err),
			 -EINVAL);
	bad.generation = 7;
	bad.long_size = 5;
	ck_assert_int_eq(stackmap_snapshot_encode(&bad, &buf, &len, &err),
			 -EINVAL);
	bad.long_size = 8;
	bad.entries = (struct stackmap_snap_entry[]){ { .owner = 0x10000 } };
	bad.nr = 1;
	ck_assert_int_eq(stackmap_snapshot_encode(&bad, &buf, &len, &err),
			 -EINVAL);
	bad.entries[0].owner = 1;
	bad.entries[0].flags = 2;
	ck_assert_int_eq(stackmap_snapshot_encode(&bad, &buf, &len, &err),
			 -EINVAL);
}
END_TEST

START_TEST(fill_defines_exact_cookies)
{
	struct stacktab *tab = stacktab_new();
	struct stacktab_stack st;

	ck_assert_int_eq(stackmap_snapshot_fill(&two, tab), 0);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(7, 3), &st),
			 STACKTAB_FOUND);
	ck_assert_uint_eq(st.depth, 2);
	ck_assert_uint_eq(st.owner, 0x1234);
	ck_assert_uint_eq(st.flags, STACKMAP_FLAG_TRUNCATED);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(6, 3), &st),
			 STACKTAB_STALE);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(7, 4), &st),
			 STACKTAB_UNKNOWN);
	stacktab_free(tab);
}
END_TEST

START_TEST(table_holds_the_snapshot_or_says_why_not)
{
	struct stackmap_snap_entry twice[2];
	struct stackmap_snapshot bad = two;
	struct stacktab_stack st;
	struct stacktab *tab;
	int ret = 1;

	tab = stackmap_snapshot_table(&two, &ret);
	ck_assert_ptr_nonnull(tab);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(stacktab_count(tab), 2);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(7, 9), &st),
			 STACKTAB_FOUND);
	ck_assert_uint_eq(st.frames[0], 0xffffffffc0001234ULL);
	stacktab_free(tab);
	/* Slot 3 twice, with other frames: no table, and why. */
	twice[0] = two.entries[0];
	twice[1] = two.entries[0];
	twice[1].ips[1]++;
	bad.entries = twice;
	ck_assert_ptr_null(stackmap_snapshot_table(&bad, &ret));
	ck_assert_int_eq(ret, -EEXIST);
}
END_TEST

START_TEST(resolve_prefers_definitions_then_exact_snapshot_entries)
{
	static const sm_u64 a[] = { 0xa }, b[] = { 0xb }, c[] = { 0xc };
	struct stacktab *defs = stacktab_new(), *snap = stacktab_new();
	const struct stacktab *from;
	struct stacktab_stack st;

	stacktab_define(defs, stackmap_cookie_make(7, 3), 1, a);
	stacktab_define(snap, stackmap_cookie_make(7, 3), 1, b);
	stacktab_define(snap, stackmap_cookie_make(8, 5), 1, c);
	ck_assert_int_eq(stackmap_snapshot_resolve(defs, snap, stackmap_cookie_make(7, 3), &st,
						   &from),
			 STACKTAB_FOUND);
	ck_assert_uint_eq(st.frames[0], 0xa);
	ck_assert_ptr_eq(from, defs);
	ck_assert_int_eq(stackmap_snapshot_resolve(defs, snap, stackmap_cookie_make(8, 5), &st,
						   &from),
			 STACKTAB_FOUND);
	ck_assert_uint_eq(st.frames[0], 0xc);
	ck_assert_ptr_eq(from, snap);
	ck_assert_int_eq(stackmap_snapshot_resolve(defs, snap, stackmap_cookie_make(7, 5), &st,
						   &from),
			 STACKTAB_STALE);
	ck_assert_ptr_eq(from, snap);	/* only the snapshot knows slot 5 */
	ck_assert_int_eq(stackmap_snapshot_resolve(defs, snap, stackmap_cookie_make(8, 3), &st,
						   &from),
			 STACKTAB_STALE);
	ck_assert_ptr_eq(from, defs);	/* both know slot 3: definitions answer */
	ck_assert_int_eq(stackmap_snapshot_resolve(defs, snap, stackmap_cookie_make(9, 99), &st,
						   &from),
			 STACKTAB_UNKNOWN);
	ck_assert_ptr_eq(from, defs);
	ck_assert_int_eq(stackmap_snapshot_resolve(defs, NULL, stackmap_cookie_make(8, 5), &st,
						   &from),
			 STACKTAB_UNKNOWN);
	ck_assert_ptr_eq(from, defs);
	/* @from is optional. */
	ck_assert_int_eq(stackmap_snapshot_resolve(defs, snap, stackmap_cookie_make(8, 5), &st,
						   NULL),
			 STACKTAB_FOUND);
	stacktab_free(defs);
	stacktab_free(snap);
}
END_TEST

/* ---- listing parser ---- */

static int parse_text(const char *text, struct stackmap_snapshot *out)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	ck_assert_ptr_nonnull(f);
	ret = stackmap_snapshot_parse_listing(f, "t", 8, out, &err);
	fclose(f);
	return ret;
}

#define HDR "# generation 5 entries 1/16 frames 2/64 bytes 100\n"

START_TEST(sample_listing_parses_with_real_values)
{
	struct stackmap_snapshot s;
	unsigned long long hits = 0;
	FILE *f = fopen(SAMPLE_LISTING, "r");
	sm_u32 i;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(stackmap_snapshot_parse_listing(f, SAMPLE_LISTING, 8,
							 &s, &err), 0);
	fclose(f);
	ck_assert_uint_eq(s.generation, 3233);
	ck_assert_uint_eq(s.nr, 3);
	ck_assert_uint_eq(s.entries[0].slot, 96);
	ck_assert_uint_eq(s.entries[0].hits, 38);
	ck_assert_uint_eq(s.entries[0].depth, 14);
	ck_assert_uint_eq(s.entries[0].ips[0], 0xffffffff832528c8ULL);
	ck_assert_uint_eq(s.entries[0].ips[13], 0xffffffff83400126ULL);
	ck_assert_uint_eq(s.entries[0].owner, 900);
	ck_assert_str_eq(s.entries[0].owner_name, "test:tick");
	ck_assert_uint_eq(s.entries[0].flags, 0);
	ck_assert_uint_eq(s.entries[1].ips[2], 0xffffffffc03e3ccaULL);
	for (i = 0; i < s.nr; i++)
		hits += s.entries[i].hits;
	ck_assert_uint_eq(s.entries[2].slot, 489);
	ck_assert_uint_eq(s.entries[2].depth, 12);
	ck_assert_uint_eq(hits, 38 + 4 + 2);
	stackmap_snapshot_free(&s);
}
END_TEST

START_TEST(listing_with_no_entries_is_an_empty_map)
{
	struct stackmap_snapshot s;

	ck_assert_int_eq(parse_text(HDR, &s), 0);
	ck_assert_uint_eq(s.generation, 5);
	ck_assert_uint_eq(s.nr, 0);
	stackmap_snapshot_free(&s);
}
END_TEST

/* stackmap 0.3 listings name their map; 0.2 ones do not (map id 0). */
START_TEST(listing_map_id_is_read)
{
	struct stackmap_snapshot s;

	ck_assert_int_eq(parse_text("# generation 5 entries 1/16 frames 2/64 bytes 100 map_id 0x00c0ffee12345678\n",
				    &s), 0);
	ck_assert_uint_eq(s.map_id, 0x00c0ffee12345678ULL);
	ck_assert_uint_eq(s.generation, 5);
	stackmap_snapshot_free(&s);
	ck_assert_int_eq(parse_text(HDR, &s), 0);
	ck_assert_uint_eq(s.map_id, 0);
	stackmap_snapshot_free(&s);
	ck_assert_int_eq(parse_text("# generation 5 entries 1/16 frames 2/64 bytes 100 map_id 0x0\n", &s),
			 -EINVAL);
	ck_assert_int_eq(parse_text("# generation 5 entries 1/16 frames 2/64 bytes 100 map_id 0x1 x\n", &s),
			 -EINVAL);
	ck_assert_int_eq(parse_text("# generation 5 entries 1/16 frames 2/64 bytes 100 x\n", &s),
			 -EINVAL);
	ck_assert_str_eq(err.msg,
		"t:1: header: expected \"# generation G entries U/C frames U/C bytes B [map_id 0xID]\"");
}
END_TEST

/* A listing or snapshot of another load is refused naming both ids. */
START_TEST(map_id_check_refuses_another_load)
{
	struct stackmap_map_ids ids = { .nr = 0 };

	/* Nothing known on either side: generation and slot alone. */
	ck_assert_int_eq(stackmap_map_id_check(&ids, 0, "f", 0x5, &err), 0);
	stackmap_map_ids_add(&ids, 0);
	ck_assert_uint_eq(ids.nr, 0);
	/* The snapshot's id stands in for a trace without one. */
	ck_assert_int_eq(stackmap_map_id_check(&ids, 0x6, "f", 0x5, &err), -ESTALE);
	stackmap_map_ids_add(&ids, 0xa);
	stackmap_map_ids_add(&ids, 0xa);
	stackmap_map_ids_add(&ids, 0xb);
	ck_assert_uint_eq(ids.nr, 2);
	ck_assert_int_eq(stackmap_map_id_check(&ids, 0x6, "f", 0xb, &err), 0);
	ck_assert_int_eq(stackmap_map_id_check(&ids, 0, "f", 0, &err), 0);
	ck_assert_int_eq(stackmap_map_id_check(&ids, 0, "--stack-map m.txt", 0xc, &err),
			 -ESTALE);
	ck_assert_str_eq(err.msg,
		"--stack-map m.txt: map id 0x000000000000000c is not the trace's (0x000000000000000a, 0x000000000000000b): the map of another load of the stackmap module");
}
END_TEST

START_TEST(truncated_listing_names_the_line)
{
	struct stackmap_snapshot s;

	ck_assert_int_eq(parse_text(HDR "slot 1 generation 5 hits 2 depth 2 owner 900 test:tick flags 0x0\n"
				    " 0xffffffff81000000 a+0x0/0x10\n", &s),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "t:3: frame 1 of slot 1: listing truncated");
	ck_assert_ptr_null(s.entries);
}
END_TEST

START_TEST(listing_depth_above_max_is_refused)
{
	struct stackmap_snapshot s;

	ck_assert_int_eq(parse_text(HDR "slot 1 generation 5 hits 2 depth 65 owner 900 test:tick flags 0x0\n",
				    &s), -E2BIG);
	ck_assert_str_eq(err.msg, "t:2: depth: 65 exceeds 64");
}
END_TEST

START_TEST(malformed_listings_are_refused)
{
	struct stackmap_snapshot s;

	ck_assert_int_eq(parse_text("", &s), -EINVAL);
	ck_assert_int_eq(parse_text("# generation 0 entries 1/16 frames 2/64 bytes 100\n", &s),
			 -EINVAL);
	ck_assert_int_eq(parse_text(HDR "slot 1 generation 4 hits 2 depth 0 owner 900 test:tick flags 0x0\n", &s),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "t:2: generation: 4, header says 5");
	ck_assert_int_eq(parse_text(HDR "slot x generation 5 hits 2 depth 0\n", &s),
			 -EINVAL);
	ck_assert_int_eq(parse_text(HDR "slot 1 generation 5 hits 2 depth 1 owner 900 test:tick flags 0x0\nffff\n", &s),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "t:3: frame 0 of slot 1: expected \" 0xADDRESS ...\"");
}
END_TEST

START_TEST(listing_owner_and_flags_are_read_and_checked)
{
	static const char *const bad[] = {
		/* stackmap 0.1's line: no owner, no flags */
		HDR "slot 1 generation 5 hits 2 depth 0\n",
		HDR "slot 1 generation 5 hits 2 depth 0 owner 900 flags 0x0\n",
		HDR "slot 1 generation 5 hits 2 depth 0 owner 900 test:tick\n",
		HDR "slot 1 generation 5 hits 2 depth 0 owner x test:tick flags 0x0\n",
		HDR "slot 1 generation 5 hits 2 depth 0 owner 900test:tick flags 0x0\n",
		HDR "slot 1 generation 5 hits 2 depth 0 owner 900 a b flags 0x0\n",
		HDR "slot 1 generation 5 hits 2 depth 0 owner 900 test:tick flags 0x0 x\n",
	};
	struct stackmap_snapshot s;
	size_t i;

	ck_assert_int_eq(parse_text(HDR "slot 1 generation 5 hits 2 depth 1 owner 317 sched:sched_switch flags 0x1\n"
				    " 0xffffffff81000000 a+0x0/0x10\n", &s), 0);
	ck_assert_uint_eq(s.entries[0].owner, 317);
	ck_assert_str_eq(s.entries[0].owner_name, "sched:sched_switch");
	ck_assert_uint_eq(s.entries[0].flags, STACKMAP_FLAG_TRUNCATED);
	stackmap_snapshot_free(&s);
	ck_assert_int_eq(parse_text(HDR "slot 1 generation 5 hits 2 depth 0 owner 12 ? flags 0x0\n", &s), 0);
	ck_assert_str_eq(s.entries[0].owner_name, "?");
	stackmap_snapshot_free(&s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(parse_text(bad[i], &s), -EINVAL);
		ck_assert_str_eq(err.msg,
			"t:2: entry: expected \"slot S generation G hits H depth D owner O NAME flags 0xF\"");
	}
	ck_assert_int_eq(parse_text(HDR "slot 1 generation 5 hits 2 depth 0 owner 65536 test:tick flags 0x0\n", &s),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "t:2: owner: 65536 is not an event id (0..65535)");
	ck_assert_int_eq(parse_text(HDR "slot 1 generation 5 hits 2 depth 0 owner 9 test:tick flags 0x6\n", &s),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "t:2: flags: 0x6 has unknown bits (known: 0x1)");
}
END_TEST

/* ---- trace.dat option chain ---- */

static char tmpl[64];

/* Write a minimal v7 file: header, then the given sections verbatim. */
static const char *write_tracedat(const char *version, const void *tail,
				  size_t tail_len)
{
	FILE *f;
	int fd;

	strcpy(tmpl, "/tmp/test_snapshot.XXXXXX");
	fd = mkstemp(tmpl);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fwrite("\027\010\104tracing", 1, 10, f);
	fwrite(version, 1, strlen(version) + 1, f);
	fwrite("\0\010\0\020\0\0", 1, 6, f);	/* LE, long 8, page 4096 */
	fwrite("none\0\0", 1, 6, f);		/* compression, version */
	fwrite(tail, 1, tail_len, f);
	fclose(f);
	return tmpl;
}

#define FIRST_SECTION	(10 + 2 + 6 + 6 + 8)	/* offset after the header */

static size_t put(unsigned char *p, sm_u64 v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = v >> (8 * i);
	return bytes;
}

/*
 * Tail: u64 first offset, one options section holding the snapshot option
 * and a DONE pointing to @next (0: end).  Returns its length.
 */
static size_t build_tail(unsigned char *t, sm_u64 next, int flags)
{
	size_t n = 0, body = 6 + payload_len + 6 + 8;

	n += put(t + n, FIRST_SECTION, 8);
	n += put(t + n, 0, 2);			/* section id: options */
	n += put(t + n, flags, 2);
	n += put(t + n, 0, 4);			/* description string id */
	n += put(t + n, body, 8);
	n += put(t + n, STACKMAP_SNAPSHOT_OPTION, 2);
	n += put(t + n, payload_len, 4);
	memcpy(t + n, payload, payload_len);
	n += payload_len;
	n += put(t + n, 0, 2);			/* DONE */
	n += put(t + n, 8, 4);
	n += put(t + n, next, 8);
	return n;
}

START_TEST(tracedat_snapshot_is_found)
{
	unsigned char t[512];
	struct stackmap_snapshot got;
	const char *path = write_tracedat("7", t, build_tail(t, 0, 0));

	ck_assert_int_eq(stackmap_snapshot_read_tracedat(path, &got, &err), 0);
	ck_assert_uint_eq(got.generation, 7);
	ck_assert_uint_eq(got.nr, 2);
	stackmap_snapshot_free(&got);
	unlink(path);
}
END_TEST

START_TEST(tracedat_problems_are_named)
{
	unsigned char t[512];
	struct stackmap_snapshot got;
	size_t n = build_tail(t, 0, 0);
	const char *path;

	path = write_tracedat("6", t, n);
	ck_assert_int_eq(stackmap_snapshot_read_tracedat(path, &got, &err), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "file version 6"));
	unlink(path);

	n = build_tail(t, 0, 1);
	path = write_tracedat("7", t, n);
	ck_assert_int_eq(stackmap_snapshot_read_tracedat(path, &got, &err), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "compressed options section"));
	unlink(path);

	n = build_tail(t, FIRST_SECTION, 0);	/* DONE points to itself */
	path = write_tracedat("7", t, n);
	ck_assert_int_eq(stackmap_snapshot_read_tracedat(path, &got, &err), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err.msg, "loop"));
	unlink(path);

	n = build_tail(t, 0, 0);
	path = write_tracedat("7", t, n - 10);	/* truncated DONE */
	ck_assert_int_eq(stackmap_snapshot_read_tracedat(path, &got, &err), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err.msg, "beyond end of file"));
	unlink(path);

	n = build_tail(t, 0, 0);
	t[8 + 16 + 6 + 40] ^= 1;		/* payload byte: crc mismatch */
	path = write_tracedat("7", t, n);
	ck_assert_int_eq(stackmap_snapshot_read_tracedat(path, &got, &err), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err.msg, "crc32"));
	unlink(path);

	ck_assert_int_eq(stackmap_snapshot_read_tracedat("/nonexistent/x.dat", &got, &err),
			 -ENOENT);
}
END_TEST

START_TEST(tracedat_without_snapshot_is_enoent)
{
	unsigned char t[64];
	size_t n = 0;
	struct stackmap_snapshot got;
	const char *path;

	n += put(t + n, FIRST_SECTION, 8);
	n += put(t + n, 0, 2);
	n += put(t + n, 0, 2);
	n += put(t + n, 0, 4);
	n += put(t + n, 14, 8);
	n += put(t + n, 0, 2);
	n += put(t + n, 8, 4);
	n += put(t + n, 0, 8);
	path = write_tracedat("7", t, n);
	ck_assert_int_eq(stackmap_snapshot_read_tracedat(path, &got, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "no stackmap snapshot"));
	unlink(path);
}
END_TEST

static Suite *snapshot_suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *tc = tcase_create("format");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, crc32_matches_zlib);
	tcase_add_test(tc, payload_round_trips_with_exact_layout);
	tcase_add_test(tc, version_2_is_read_without_map_id);
	tcase_add_test(tc, every_truncation_is_refused);
	tcase_add_test(tc, wrong_crc_is_refused_naming_the_field);
	tcase_add_test(tc, wrong_magic_and_version_are_refused);
	tcase_add_test(tc, depth_above_max_is_refused);
	tcase_add_test(tc, unknown_flag_bits_are_refused);
	tcase_add_test(tc, huge_entry_count_and_trailing_bytes_are_refused);
	tcase_add_test(tc, encode_refuses_bad_snapshots);
	tcase_add_test(tc, fill_defines_exact_cookies);
	tcase_add_test(tc, table_holds_the_snapshot_or_says_why_not);
	tcase_add_test(tc, resolve_prefers_definitions_then_exact_snapshot_entries);
	tcase_add_test(tc, sample_listing_parses_with_real_values);
	tcase_add_test(tc, listing_with_no_entries_is_an_empty_map);
	tcase_add_test(tc, listing_map_id_is_read);
	tcase_add_test(tc, map_id_check_refuses_another_load);
	tcase_add_test(tc, truncated_listing_names_the_line);
	tcase_add_test(tc, listing_depth_above_max_is_refused);
	tcase_add_test(tc, malformed_listings_are_refused);
	tcase_add_test(tc, listing_owner_and_flags_are_read_and_checked);
	tcase_add_test(tc, tracedat_snapshot_is_found);
	tcase_add_test(tc, tracedat_problems_are_named);
	tcase_add_test(tc, tracedat_without_snapshot_is_enoent);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(snapshot_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
