// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the stack map (kmod/stackmap_map.c, compiled as is in user
 * space): lookup and insert by full comparison, cookies and generations,
 * fallbacks when memory or probes run out, reset, definitions per epoch.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../kmod/stackmap_map.h"

#define SEED	0x12345678u

static struct sm_map map;

static void make_stack(unsigned long *ips, u32 depth, unsigned long id)
{
	for (u32 i = 0; i < depth; i++)
		ips[i] = 0xffffffff81000000ul + id * 0x1000 + i * 8;
}

static u32 hash_of(const unsigned long *ips, u32 depth)
{
	u32 h = jhash2((const u32 *)ips, depth * 2, SEED);

	return h ? h : 1;
}

static void setup_small(u32 entries, u32 frames)
{
	ck_assert_int_eq(sm_map_init(&map, entries, frames, SEED, 7), 0);
}

static void teardown(void)
{
	sm_map_destroy(&map);
}

START_TEST(test_insert_then_hit_same_cookie)
{
	unsigned long ips[10];
	u64 c1 = 0, c2 = 0;

	setup_small(16, 256);
	make_stack(ips, 10, 1);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 10, 0, &c1), SM_LOOKUP_INSERTED);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 10, 0, &c2), SM_LOOKUP_HIT);
	ck_assert_uint_eq(c1, c2);
	ck_assert_uint_eq(stackmap_cookie_generation(c1), 7);
	ck_assert_uint_lt(stackmap_cookie_slot(c1), map.nr_slots);
	ck_assert(stackmap_cookie_valid(c1));
	teardown();
}
END_TEST

START_TEST(test_stack_reads_back_exactly)
{
	const unsigned long *got;
	unsigned long ips[5];
	u32 hits = 0;
	u64 c;

	setup_small(16, 256);
	make_stack(ips, 5, 3);
	sm_map_get_cookie(&map, ips, 5, 0, &c);
	sm_map_get_cookie(&map, ips, 5, 0, &c);
	sm_map_get_cookie(&map, ips, 5, 0, &c);
	ck_assert_uint_eq(sm_map_slot_stack(&map, stackmap_cookie_slot(c), &got, &hits, NULL), 5);
	ck_assert_mem_eq(got, ips, sizeof(ips));
	ck_assert_uint_eq(hits, 3);
	teardown();
}
END_TEST

START_TEST(test_prefix_and_depth_differ)
{
	unsigned long a[8], b[8];
	u64 ca, cb, cc;

	setup_small(16, 256);
	make_stack(a, 8, 1);
	memcpy(b, a, sizeof(a));
	b[7] ^= 1;
	ck_assert_int_eq(sm_map_get_cookie(&map, a, 8, 0, &ca), SM_LOOKUP_INSERTED);
	ck_assert_int_eq(sm_map_get_cookie(&map, b, 8, 0, &cb), SM_LOOKUP_INSERTED);
	ck_assert_int_eq(sm_map_get_cookie(&map, a, 7, 0, &cc), SM_LOOKUP_INSERTED);
	ck_assert_uint_ne(ca, cb);
	ck_assert_uint_ne(ca, cc);
	ck_assert_uint_ne(cb, cc);
	teardown();
}
END_TEST

static int cmp_pair(const void *x, const void *y)
{
	const u64 *a = x, *b = y;

	return (*a > *b) - (*a < *b);
}

/* Find two depth-2 stacks whose full 32-bit jhash is equal (birthday search). */
static void find_hash_collision(unsigned long *a, unsigned long *b)
{
	const u32 n = 400000;
	u64 *keys = malloc(n * sizeof(*keys));
	unsigned long s[2];

	ck_assert_ptr_nonnull(keys);
	for (u32 i = 0; i < n; i++) {
		make_stack(s, 2, i);
		keys[i] = (u64)hash_of(s, 2) << 32 | i;
	}
	qsort(keys, n, sizeof(*keys), cmp_pair);
	for (u32 i = 1; i < n; i++) {
		if (keys[i] >> 32 == keys[i - 1] >> 32) {
			make_stack(a, 2, (u32)keys[i - 1]);
			make_stack(b, 2, (u32)keys[i]);
			free(keys);
			return;
		}
	}
	free(keys);
	ck_abort_msg("no jhash collision among %u stacks", n);
}

START_TEST(test_same_hash_different_stacks_both_stored)
{
	unsigned long a[2], b[2];
	const unsigned long *got;
	u64 ca, cb, again;

	find_hash_collision(a, b);
	ck_assert_uint_eq(hash_of(a, 2), hash_of(b, 2));
	ck_assert_mem_ne(a, b, sizeof(a));
	setup_small(16, 64);
	ck_assert_int_eq(sm_map_get_cookie(&map, a, 2, 0, &ca), SM_LOOKUP_INSERTED);
	ck_assert_int_eq(sm_map_get_cookie(&map, b, 2, 0, &cb), SM_LOOKUP_INSERTED);
	ck_assert_uint_ne(ca, cb);
	ck_assert_int_eq(sm_map_get_cookie(&map, b, 2, 0, &again), SM_LOOKUP_HIT);
	ck_assert_uint_eq(again, cb);
	sm_map_slot_stack(&map, stackmap_cookie_slot(ca), &got, NULL, NULL);
	ck_assert_mem_eq(got, a, sizeof(a));
	sm_map_slot_stack(&map, stackmap_cookie_slot(cb), &got, NULL, NULL);
	ck_assert_mem_eq(got, b, sizeof(b));
	teardown();
}
END_TEST

static u32 claimed_slots(void)
{
	u32 n = 0;

	for (u32 i = 0; i < map.nr_slots; i++)
		n += map.slots[i].hash != 0;
	return n;
}

START_TEST(test_full_entries_falls_back_without_claiming)
{
	unsigned long ips[4];
	u64 c, keep;

	setup_small(2, 256);
	make_stack(ips, 4, 1);
	sm_map_get_cookie(&map, ips, 4, 0, &keep);
	make_stack(ips, 4, 2);
	sm_map_get_cookie(&map, ips, 4, 0, &c);
	make_stack(ips, 4, 3);
	c = 42;
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 4, 0, &c), STACKMAP_FALLBACK_FULL);
	ck_assert_uint_eq(c, 42);
	ck_assert_uint_eq(claimed_slots(), 2);
	/* Stored stacks still hit when the map is full. */
	make_stack(ips, 4, 1);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 4, 0, &c), SM_LOOKUP_HIT);
	ck_assert_uint_eq(c, keep);
	teardown();
}
END_TEST

START_TEST(test_full_frames_falls_back_and_returns_entry)
{
	unsigned long ips[8];
	u64 c;

	setup_small(16, 12);
	make_stack(ips, 8, 1);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 8, 0, &c), SM_LOOKUP_INSERTED);
	make_stack(ips, 8, 2);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 8, 0, &c), STACKMAP_FALLBACK_FULL);
	ck_assert_int_eq(atomic_read(&map.entries_used), 1);
	ck_assert_int_eq(atomic_read(&map.frames_used), 8);
	/* A shorter stack still fits in the 4 frames left. */
	make_stack(ips, 4, 3);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 4, 0, &c), SM_LOOKUP_INSERTED);
	ck_assert_uint_eq(claimed_slots(), 2);
	teardown();
}
END_TEST

START_TEST(test_inflight_slot_falls_back)
{
	unsigned long ips[3];
	u64 c;

	setup_small(16, 64);
	make_stack(ips, 3, 9);
	/* What a writer interrupted between claim and publish leaves behind. */
	map.slots[hash_of(ips, 3) & (map.nr_slots - 1)].hash = hash_of(ips, 3);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 3, 0, &c), STACKMAP_FALLBACK_INFLIGHT);
	ck_assert_int_eq(atomic_read(&map.entries_used), 0);
	ck_assert_int_eq(atomic_read(&map.frames_used), 0);
	teardown();
}
END_TEST

START_TEST(test_probe_limit_falls_back)
{
	unsigned long ips[2];
	u32 home = 5, stored = 0, id;
	u64 c;
	int ret = 0;

	setup_small(128, 1024);	/* 256 slots */
	for (id = 0; stored <= SM_MAX_PROBE && id < 10000000; id++) {
		make_stack(ips, 2, id);
		if ((hash_of(ips, 2) & (map.nr_slots - 1)) != home)
			continue;
		ret = sm_map_get_cookie(&map, ips, 2, 0, &c);
		stored++;
		if (stored <= SM_MAX_PROBE)
			ck_assert_int_eq(ret, SM_LOOKUP_INSERTED);
	}
	ck_assert_int_eq(ret, STACKMAP_FALLBACK_PROBE);
	ck_assert_int_eq(atomic_read(&map.entries_used), SM_MAX_PROBE);
	teardown();
}
END_TEST

START_TEST(test_bad_depth_falls_back)
{
	unsigned long ips[STACKMAP_MAX_DEPTH + 1] = { 0 };
	u64 c;

	setup_small(16, 256);
	ck_assert_int_gt(sm_map_get_cookie(&map, ips, 0, 0, &c), 0);
	ck_assert_int_gt(sm_map_get_cookie(&map, ips, STACKMAP_MAX_DEPTH + 1, 0, &c), 0);
	teardown();
}
END_TEST

START_TEST(test_hits_saturate)
{
	unsigned long ips[2];
	u32 hits;
	u64 c;
	const unsigned long *got;

	setup_small(16, 64);
	make_stack(ips, 2, 4);
	sm_map_get_cookie(&map, ips, 2, 0, &c);
	map.hits[map.slots[stackmap_cookie_slot(c)].entry].counter = (int)(U32_MAX - 1);
	sm_map_get_cookie(&map, ips, 2, 0, &c);
	sm_map_get_cookie(&map, ips, 2, 0, &c);
	sm_map_slot_stack(&map, stackmap_cookie_slot(c), &got, &hits, NULL);
	ck_assert_uint_eq(hits, U32_MAX);
	teardown();
}
END_TEST

START_TEST(test_hits_of_all_cpus_add_up)
{
	const unsigned long *got;
	unsigned long ips[3];
	u32 hits = 0;
	u64 c;

	sm_user_nr_cpus = 3;
	setup_small(16, 64);
	ck_assert_uint_eq(map.nr_cpus, 3);
	make_stack(ips, 3, 5);
	for (unsigned int cpu = 0; cpu < 3; cpu++) {
		sm_user_cpu = cpu;
		for (unsigned int i = 0; i <= cpu; i++)
			sm_map_get_cookie(&map, ips, 3, 0, &c);
	}
	/* One row per CPU: 1 + 2 + 3 hits, none written by another CPU. */
	for (unsigned int cpu = 0; cpu < 3; cpu++)
		ck_assert_int_eq(map.hits[cpu * map.max_entries + map.slots[stackmap_cookie_slot(c)].entry].counter,
				 (int)cpu + 1);
	sm_map_slot_stack(&map, stackmap_cookie_slot(c), &got, &hits, NULL);
	ck_assert_uint_eq(hits, 6);
	ck_assert_uint_eq(sm_map_bytes(&map), map.nr_slots * sizeof(struct sm_slot) +
			  64 * sizeof(long) + 3 * 16 * (sizeof(atomic_t) + 2 * sizeof(u64)));
	sm_user_cpu = 0;
	sm_user_nr_cpus = 1;
	teardown();
}
END_TEST

START_TEST(test_reset_new_generation_forgets_stacks)
{
	const unsigned long *got;
	unsigned long ips[6];
	u64 before, during = 99, after;

	setup_small(16, 256);
	make_stack(ips, 6, 1);
	sm_map_get_cookie(&map, ips, 6, 0, &before);
	sm_map_reset_begin(&map);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 6, 0, &during), STACKMAP_FALLBACK_RESET);
	ck_assert_uint_eq(during, 99);
	sm_map_reset_finish(&map, sm_generation_next(map.generation, 0));
	ck_assert_uint_eq(sm_map_slot_stack(&map, stackmap_cookie_slot(before), &got, NULL, NULL), 0);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 6, 0, &after), SM_LOOKUP_INSERTED);
	ck_assert_uint_eq(stackmap_cookie_generation(after), 8);
	ck_assert_uint_eq(stackmap_cookie_slot(after), stackmap_cookie_slot(before));
	ck_assert_uint_ne(after, before);
	ck_assert_int_eq(atomic_read(&map.entries_used), 1);
	teardown();
}
END_TEST

START_TEST(test_generation_next)
{
	ck_assert_uint_eq(sm_generation_next(0, 0), 1);
	ck_assert_uint_eq(sm_generation_next(5, 3), 6);
	ck_assert_uint_eq(sm_generation_next(5, 1000), 1000);
	ck_assert_uint_eq(sm_generation_next(U32_MAX, 0), 1);
}
END_TEST

START_TEST(test_define_state_round_trip)
{
	struct sm_define d = { .epoch = 7, .consumers = 0x5, .cpu = 1,
			       .at = 123456789012ULL };
	struct sm_define got;

	setup_small(16, 64);
	sm_map_last_define(&map, 3, &got);
	ck_assert_uint_eq(got.epoch, 0);
	ck_assert_uint_eq(got.consumers, 0);
	sm_map_note_define(&map, 3, &d);
	sm_map_last_define(&map, 3, &got);
	ck_assert_uint_eq(got.epoch, 7);
	ck_assert_uint_eq(got.consumers, 0x5);
	ck_assert_uint_eq(got.cpu, 1);
	ck_assert_uint_eq(got.at, 123456789012ULL);
	/* In the same epoch the consumers add up; CPU and time are the last. */
	d.consumers = 0x10;
	d.cpu = 0;
	d.at = 5;
	sm_map_note_define(&map, 3, &d);
	sm_map_last_define(&map, 3, &got);
	ck_assert_uint_eq(got.epoch, 7);
	ck_assert_uint_eq(got.consumers, 0x15);
	ck_assert_uint_eq(got.cpu, 0);
	ck_assert_uint_eq(got.at, 5);
	/* A new epoch starts from its own consumers. */
	d.epoch = 8;
	d.consumers = 0x2;
	sm_map_note_define(&map, 3, &d);
	sm_map_last_define(&map, 3, &got);
	ck_assert_uint_eq(got.epoch, 8);
	ck_assert_uint_eq(got.consumers, 0x2);
	sm_map_last_define(&map, 4, &got);
	ck_assert_uint_eq(got.epoch, 0);
	/* A reset forgets every definition. */
	sm_map_reset_begin(&map);
	sm_map_reset_finish(&map, 2);
	sm_map_last_define(&map, 3, &got);
	ck_assert_uint_eq(got.epoch, 0);
	teardown();
}
END_TEST

/* @cpu's row for @slot holds a definition of @epoch, @consumers and @at. */
static void expect_cpu_define(u32 slot, u32 cpu, u32 epoch, u32 consumers,
			      u64 at)
{
	struct sm_define got;

	sm_map_cpu_define(&map, slot, cpu, &got);
	ck_assert_uint_eq(got.cpu, cpu);
	ck_assert_uint_eq(got.epoch, epoch);
	if (!epoch)
		return;
	ck_assert_uint_eq(got.consumers, consumers);
	ck_assert_uint_eq(got.at, at);
}

/*
 * Each CPU keeps the last definition it wrote of each stack: a note on one
 * CPU leaves another's row alone, consumers add up per CPU within an epoch,
 * a new epoch replaces them, and a reset forgets every row.
 */
START_TEST(test_cpu_define_rows)
{
	struct sm_define d = { .epoch = 4, .consumers = 0x1, .cpu = 0,
			       .at = 1000 };
	struct sm_define got;
	unsigned long a[6], b[6];
	u32 sa, sb;
	u64 c;

	sm_user_nr_cpus = 2;
	setup_small(16, 256);
	make_stack(a, 6, 1);
	make_stack(b, 6, 2);
	ck_assert_int_eq(sm_map_get_cookie(&map, a, 6, 0, &c), SM_LOOKUP_INSERTED);
	sa = stackmap_cookie_slot(c);
	ck_assert_int_eq(sm_map_get_cookie(&map, b, 6, 0, &c), SM_LOOKUP_INSERTED);
	sb = stackmap_cookie_slot(c);
	expect_cpu_define(sa, 1, 0, 0, 0);

	sm_map_note_define(&map, sa, &d);
	d.cpu = 1;
	d.consumers = 0x2;
	d.at = 2000;
	sm_map_note_define(&map, sa, &d);
	/* The slot's last definition is CPU 1's; CPU 0 keeps its own. */
	sm_map_last_define(&map, sa, &got);
	ck_assert_uint_eq(got.cpu, 1);
	ck_assert_uint_eq(got.consumers, 0x3);
	expect_cpu_define(sa, 0, 4, 0x1, 1000);
	expect_cpu_define(sa, 1, 4, 0x2, 2000);
	/* Another stack's rows are its own. */
	expect_cpu_define(sb, 0, 0, 0, 0);

	/* Same epoch: consumers add up on the CPU; a new one replaces them. */
	d.consumers = 0x8;
	d.at = 3000;
	sm_map_note_define(&map, sa, &d);
	expect_cpu_define(sa, 1, 4, 0xa, 3000);
	d.epoch = 5;
	d.consumers = 0x4;
	sm_map_note_define(&map, sa, &d);
	expect_cpu_define(sa, 1, 5, 0x4, 3000);
	expect_cpu_define(sa, 0, 4, 0x1, 1000);

	/* A CPU the map has no row for changes nothing but the slot. */
	d.cpu = 2;
	d.epoch = 6;
	sm_map_note_define(&map, sa, &d);
	sm_map_last_define(&map, sa, &got);
	ck_assert_uint_eq(got.epoch, 6);
	expect_cpu_define(sa, 1, 5, 0x4, 3000);

	/* After a reset the entries are handed out again with no definition. */
	sm_map_reset_begin(&map);
	sm_map_reset_finish(&map, 9);
	ck_assert_int_eq(sm_map_get_cookie(&map, b, 6, 0, &c), SM_LOOKUP_INSERTED);
	expect_cpu_define(stackmap_cookie_slot(c), 0, 0, 0, 0);
	expect_cpu_define(stackmap_cookie_slot(c), 1, 0, 0, 0);
	teardown();
	sm_user_nr_cpus = 1;
}
END_TEST

/*
 * The refresh's state (stackmap_refresh.c): a cookie's reuse marks only its
 * CPU's row, a new definition clears the mark, a replacing note keeps only
 * its own consumers, and the reserved bit never shows as a consumer.
 */
START_TEST(test_cpu_reuse_and_replace)
{
	struct sm_define d = { .epoch = 3, .consumers = 0x5, .cpu = 1,
			       .at = 700 };
	struct sm_define got;
	unsigned long a[5];
	u32 slot;
	u64 c;

	sm_user_nr_cpus = 2;
	setup_small(16, 256);
	make_stack(a, 5, 9);
	ck_assert_int_eq(sm_map_get_cookie(&map, a, 5, 0, &c), SM_LOOKUP_INSERTED);
	slot = stackmap_cookie_slot(c);
	sm_map_note_define(&map, slot, &d);
	sm_map_cpu_define(&map, slot, 1, &got);
	ck_assert_uint_eq(got.flags, 0);

	sm_map_cpu_reuse(&map, slot, 1);
	sm_map_cpu_define(&map, slot, 1, &got);
	ck_assert_uint_eq(got.flags, SM_DEFINE_REUSED);
	ck_assert_uint_eq(got.consumers, 0x5);
	ck_assert_uint_eq(got.epoch, 3);
	ck_assert_uint_eq(got.at, 700);
	sm_map_cpu_define(&map, slot, 0, &got);
	ck_assert_uint_eq(got.flags, 0);
	sm_map_last_define(&map, slot, &got);
	ck_assert_uint_eq(got.consumers, 0x5);

	/* A refresh that one consumer missed: only its takers are noted. */
	d.consumers = 0x4;
	d.flags = SM_DEFINE_REPLACE;
	d.at = 900;
	sm_map_note_define(&map, slot, &d);
	sm_map_cpu_define(&map, slot, 1, &got);
	ck_assert_uint_eq(got.flags, 0);
	ck_assert_uint_eq(got.consumers, 0x4);
	ck_assert_uint_eq(got.at, 900);
	sm_map_last_define(&map, slot, &got);
	ck_assert_uint_eq(got.consumers, 0x4);

	/* Expiring another definition's time changes nothing; its own, the time. */
	sm_map_cpu_expire(&map, slot, 1, 899);
	sm_map_cpu_define(&map, slot, 1, &got);
	ck_assert_uint_eq(got.at, 900);
	sm_map_cpu_expire(&map, slot, 1, 900);
	sm_map_cpu_define(&map, slot, 1, &got);
	ck_assert_uint_eq(got.at, 0);
	ck_assert_uint_eq(got.epoch, 3);
	ck_assert_uint_eq(got.consumers, 0x4);

	/* Expiring a whole row leaves the other CPU's alone. */
	d.cpu = 0;
	d.at = 1234;
	sm_map_note_define(&map, slot, &d);
	d.cpu = 1;
	d.at = 1300;
	sm_map_note_define(&map, slot, &d);
	sm_map_cpu_expire_all(&map, 1);
	sm_map_cpu_define(&map, slot, 1, &got);
	ck_assert_uint_eq(got.at, 0);
	sm_map_cpu_define(&map, slot, 0, &got);
	ck_assert_uint_eq(got.at, 1234);

	/* Without it they add up again, and a mark never leaks into them. */
	sm_map_cpu_reuse(&map, slot, 1);
	d.consumers = 0x1;
	d.flags = 0;
	sm_map_note_define(&map, slot, &d);
	sm_map_cpu_define(&map, slot, 1, &got);
	ck_assert_uint_eq(got.consumers, 0x5);
	ck_assert_uint_eq(got.flags, 0);
	teardown();
}
END_TEST

/*
 * sm_map_cookie_stack() reads a cookie's stack only in its own generation
 * and never during a reset.
 */
START_TEST(test_cookie_stack)
{
	const unsigned long *ips;
	unsigned long a[7];
	u32 info = 0;
	u64 c;

	setup_small(16, 256);
	make_stack(a, 7, 4);
	ck_assert_int_eq(sm_map_get_cookie(&map, a, 7, sm_info(12, 1), &c),
			 SM_LOOKUP_INSERTED);
	ck_assert_uint_eq(sm_map_cookie_stack(&map, c, &ips, &info), 7);
	ck_assert_mem_eq(ips, a, sizeof(a));
	ck_assert_uint_eq(info, sm_info(12, 1));
	ck_assert_uint_eq(sm_map_cookie_stack(&map, c + (1ULL << 32), &ips,
					      &info), 0);
	ck_assert_uint_eq(sm_map_cookie_stack(&map, c ^ 1, &ips, &info), 0);
	ck_assert_uint_eq(sm_map_cookie_stack(&map, (c & ~0xffffffffULL) |
					      0xffffffffULL, &ips, &info), 0);
	sm_map_reset_begin(&map);
	ck_assert_uint_eq(sm_map_cookie_stack(&map, c, &ips, &info), 0);
	sm_map_reset_finish(&map, stackmap_cookie_generation(c) + 1);
	ck_assert_uint_eq(sm_map_cookie_stack(&map, c, &ips, &info), 0);
	teardown();
}
END_TEST

/* The owner and the flags are part of the key: same frames, other cookie. */
START_TEST(test_info_is_part_of_the_key)
{
	unsigned long ips[6];
	u64 a, b, t, again;
	const unsigned long *got;
	u32 info;

	setup_small(16, 64);
	make_stack(ips, 6, 1);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 6, sm_info(314, 0), &a),
			 SM_LOOKUP_INSERTED);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 6, sm_info(315, 0), &b),
			 SM_LOOKUP_INSERTED);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 6,
					   sm_info(314, STACKMAP_FLAG_TRUNCATED), &t),
			 SM_LOOKUP_INSERTED);
	ck_assert_uint_ne(a, b);
	ck_assert_uint_ne(a, t);
	ck_assert_int_eq(sm_map_get_cookie(&map, ips, 6, sm_info(315, 0), &again),
			 SM_LOOKUP_HIT);
	ck_assert_uint_eq(again, b);
	ck_assert_uint_eq(sm_map_slot_stack(&map, stackmap_cookie_slot(t), &got,
					    NULL, &info), 6);
	ck_assert_uint_eq(sm_info_owner(info), 314);
	ck_assert_uint_eq(sm_info_flags(info), STACKMAP_FLAG_TRUNCATED);
	teardown();
}
END_TEST

START_TEST(test_init_rejects_bad_sizes)
{
	ck_assert_int_eq(sm_map_init(&map, 0, 10, SEED, 1), -EINVAL);
	ck_assert_int_eq(sm_map_init(&map, 10, 0, SEED, 1), -EINVAL);
	ck_assert_int_eq(sm_map_init(&map, 10, 10, SEED, 0), -EINVAL);
	ck_assert_int_eq(sm_map_init(&map, 1000, 10, SEED, 1), 0);
	ck_assert_uint_eq(map.nr_slots, 2048);
	ck_assert_uint_eq(sm_map_bytes(&map), 2048 * sizeof(struct sm_slot) + 10 * sizeof(long) +
			  1000 * (sizeof(atomic_t) + 2 * sizeof(u64)));
	teardown();
}
END_TEST

static Suite *map_suite(void)
{
	Suite *s = suite_create("stackmap_map");
	TCase *tc = tcase_create("map");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_insert_then_hit_same_cookie);
	tcase_add_test(tc, test_stack_reads_back_exactly);
	tcase_add_test(tc, test_prefix_and_depth_differ);
	tcase_add_test(tc, test_same_hash_different_stacks_both_stored);
	tcase_add_test(tc, test_full_entries_falls_back_without_claiming);
	tcase_add_test(tc, test_full_frames_falls_back_and_returns_entry);
	tcase_add_test(tc, test_inflight_slot_falls_back);
	tcase_add_test(tc, test_probe_limit_falls_back);
	tcase_add_test(tc, test_bad_depth_falls_back);
	tcase_add_test(tc, test_hits_saturate);
	tcase_add_test(tc, test_hits_of_all_cpus_add_up);
	tcase_add_test(tc, test_reset_new_generation_forgets_stacks);
	tcase_add_test(tc, test_generation_next);
	tcase_add_test(tc, test_define_state_round_trip);
	tcase_add_test(tc, test_cpu_define_rows);
	tcase_add_test(tc, test_cpu_reuse_and_replace);
	tcase_add_test(tc, test_cookie_stack);
	tcase_add_test(tc, test_info_is_part_of_the_key);
	tcase_add_test(tc, test_init_rejects_bad_sizes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(map_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
