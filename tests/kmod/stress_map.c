// SPDX-License-Identifier: GPL-2.0
/*
 * Threaded stress test of the stack map, meant to run under ThreadSanitizer.
 *
 * Keys.  NSTACKS frame sets, each looked up under NINFOS info words (several
 * owners, and one owner with and without STACKMAP_FLAG_TRUNCATED): the info
 * is part of the key, so the same frames under two infos are two stacks with
 * two cookies.  The frame arena holds 7/8 of the frames of all keys, so
 * every generation ends with some STACKMAP_FALLBACK_FULL.
 *
 * Work.  NTHREADS workers each make ITERATIONS lookups.  Half of them look
 * up the key at the front of a sweep (one shuffled order of all keys, from
 * its start in each generation), which moves on once its key has been
 * looked up: until then every worker sweeping looks up that same key, so the
 * same new stack is inserted by several threads at once.  The other half
 * look up a random key among those swept in this generation and the next
 * AHEAD ones: mostly hits, and some inserts of other stacks next to the
 * front.  A resetter thread resets the map (reset_begin, grace period,
 * reset_finish) each time the workers together have made another
 * 1/(RESETS + 1) of all lookups; a worker that gets STACKMAP_FALLBACK_RESET
 * waits for that reset to end, so resets cost about one fallback per worker
 * and the lookups between them are real inserts and hits.
 *
 * Checks.  Inside the read-side section of each lookup, the cookie must be
 * of the current generation and its slot must hold exactly the frames and
 * the info looked up.  After the run, the logs of all cookies must show one
 * key per cookie, one cookie per (generation, key), exactly one
 * SM_LOOKUP_INSERTED per (generation, key), and the hit counters of the
 * last generation's slots must equal the lookups that returned their cookie.
 *
 * Counters.  Every outcome, over all workers, and same-stack races: a
 * lookup that got STACKMAP_FALLBACK_INFLIGHT (the stack was claimed by
 * another insert, not yet published), or that got SM_LOOKUP_HIT with a
 * cookie whose SM_LOOKUP_INSERTED lookup started after this one did (this
 * lookup started while the stack was absent and found it inserted by
 * another thread: it lost the claim, or saw the winner's claim on its way).
 * "Started" is a ticket taken just before sm_map_get_cookie() from one
 * counter; see take_ticket().  The run fails unless each counter reached a
 * minimum (check_minimums()), so a passing run did exercise concurrent
 * inserts, hits, races and resets.  The minimums are absolute: they suit
 * the runs of the Makefile (600000 lookups, 100 resets), not much shorter
 * ones.
 *
 * Usage: stress_map [threads] [iterations per thread] [resets]
 * Exit: 0 and "stress: ... ok" on success, 1 with the first violation or
 * the first counter that fell short.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../kmod/stackmap_map.h"
#include "rcu_standin.h"

#define NSTACKS		256
#define NINFOS		4
#define NKEYS		(NSTACKS * NINFOS)
#define DEPTH_MAX	24
#define AHEAD		32

/* Outcomes counted per worker: the fallback reasons, then these two. */
#define N_INSERTED	STACKMAP_FALLBACK_MAX
#define N_HIT		(STACKMAP_FALLBACK_MAX + 1)
#define N_OUTCOMES	(STACKMAP_FALLBACK_MAX + 2)

struct log_entry {
	u64 cookie;
	u64 ticket;
	u32 key;
	u32 inserted;
};

struct worker {
	pthread_t thread;
	int id;
	u32 iterations;
	atomic_uint done;	/* lookups made; read by the resetter */
	struct log_entry *log;
	u32 nlog;
	u64 count[N_OUTCOMES];
	u64 defines;	/* definitions noted and read back (check_cpu_define()) */
	const char *error;
};

static struct sm_map map;
static struct rcu_standin rcu;
static unsigned long stacks[NSTACKS][DEPTH_MAX];
static u32 depths[NSTACKS];
static u32 infos[NINFOS];
static u32 sweep[NKEYS];
static struct worker workers[RCU_MAX_READERS];
static int nthreads;
static atomic_ullong tickets;
static atomic_uint front;	/* sweep position in this generation */
static atomic_uint reset_active;
static atomic_int stop_resets;

static u32 key_stack(u32 key)
{
	return key / NINFOS;
}

static u32 key_info(u32 key)
{
	return infos[key % NINFOS];
}

static void make_keys(void)
{
	unsigned int seed = 42;

	for (u32 i = 0; i < NSTACKS; i++) {
		depths[i] = 1 + i % DEPTH_MAX;
		for (u32 f = 0; f < depths[i]; f++)
			stacks[i][f] = 0xffffffff81000000ul + i * 0x1000 + f * 8;
	}
	infos[0] = sm_info(STACKMAP_OWNER_NONE, 0);
	infos[1] = sm_info(311, 0);
	infos[2] = sm_info(311, STACKMAP_FLAG_TRUNCATED);
	infos[3] = sm_info(0xffff, 0);
	/* The sweep: all keys in one shuffled order. */
	for (u32 k = 0; k < NKEYS; k++)
		sweep[k] = k;
	for (u32 k = NKEYS - 1; k > 0; k--) {
		u32 j = rand_r(&seed) % (k + 1), t = sweep[k];

		sweep[k] = sweep[j];
		sweep[j] = t;
	}
}

/* Frames of all keys; the arena gets 7/8 of that. */
static u32 all_frames(void)
{
	u32 n = 0;

	for (u32 i = 0; i < NSTACKS; i++)
		n += depths[i];
	return n * NINFOS;
}

/*
 * A ticket orders the starts of lookups.  Relaxed on purpose: a stronger
 * order would give ThreadSanitizer a happens-before edge between every two
 * workers and hide a missing acquire/release in the map.  Tickets come from
 * one location, so they are totally ordered; C11 alone does not order a
 * relaxed ticket before the lookup's loads, but x86 does (the ticket is a
 * lock xadd, in TSan's runtime too, a full barrier).  Only the race counter
 * depends on it, never a check.
 */
static u64 take_ticket(void)
{
	return atomic_fetch_add_explicit(&tickets, 1, memory_order_relaxed);
}

/* Inside the read-side section: the cookie must name exactly this key. */
static const char *check_cookie(u64 cookie, u32 key)
{
	const unsigned long *got;
	u32 depth, info = ~0u, s = key_stack(key);

	if (!stackmap_cookie_valid(cookie))
		return "invalid cookie";
	if (stackmap_cookie_generation(cookie) != READ_ONCE(map.generation))
		return "cookie of another generation inside a read section";
	if (stackmap_cookie_slot(cookie) >= map.nr_slots)
		return "cookie names a slot outside the table";
	depth = sm_map_slot_stack(&map, stackmap_cookie_slot(cookie), &got, NULL, &info);
	if (depth != depths[s] || memcmp(got, stacks[s], depth * sizeof(*got)))
		return "cookie resolves to other frames";
	if (info != key_info(key))
		return "cookie resolves to another owner or flags";
	return NULL;
}

/*
 * Inside the read-side section: note a definition of the cookie's slot on
 * this thread's CPU (epoch @i + 1, time @i) and read the row back.  Other
 * threads note the same slot on their rows at once; no reset can clear the
 * row before the section ends.
 */
static const char *check_cpu_define(u64 cookie, u32 i)
{
	struct sm_define d = { .epoch = i + 1, .consumers = 1u << (sm_user_cpu % 31),
			       .cpu = sm_user_cpu, .at = i };
	struct sm_define got;
	u32 slot = stackmap_cookie_slot(cookie);

	sm_map_note_define(&map, slot, &d);
	sm_map_cpu_define(&map, slot, sm_user_cpu, &got);
	if (got.epoch != d.epoch || got.at != d.at || got.consumers != d.consumers)
		return "a CPU's own definition row reads back another definition";
	return NULL;
}

static void wait_reset(void)
{
	/* Relaxed: the map's own acquire of its reset flag must do the work. */
	while (atomic_load_explicit(&reset_active, memory_order_relaxed))
		sched_yield();
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = 1234 + w->id;

	sm_user_cpu = w->id;	/* this thread's row of hit counters */

	for (u32 i = 0; i < w->iterations && !w->error; i++) {
		u32 key, r = rand_r(&seed), f;
		bool swept = r & 1;
		u64 cookie = 0, ticket;
		int ret;

		/*
		 * Relaxed, like the tickets: the sweep only steers the
		 * workers, it must not order them.
		 */
		f = atomic_load_explicit(&front, memory_order_relaxed);
		if (swept)
			key = sweep[f % NKEYS];
		else
			key = sweep[(r >> 1) % ((f < NKEYS ? f : NKEYS) + AHEAD) % NKEYS];
		rcu_standin_lock(&rcu, w->id);
		ticket = take_ticket();
		ret = sm_map_get_cookie(&map, stacks[key_stack(key)],
					depths[key_stack(key)], key_info(key), &cookie);
		if (ret == SM_LOOKUP_INSERTED || ret == SM_LOOKUP_HIT) {
			w->error = check_cookie(cookie, key);
			if (!w->error && !(r & 6)) {
				w->error = check_cpu_define(cookie, i);
				w->defines++;
			}
		} else if (ret <= 0 || ret >= STACKMAP_FALLBACK_MAX)
			w->error = "unknown return value";
		rcu_standin_unlock(&rcu, w->id);
		if (w->error)
			break;
		/*
		 * The front moves on after a lookup of its key, by whichever
		 * worker gets there first; not on a reset, which restarts it.
		 */
		if (swept && ret != STACKMAP_FALLBACK_RESET)
			atomic_compare_exchange_strong_explicit(&front, &f, f + 1,
								memory_order_relaxed,
								memory_order_relaxed);
		if (ret == SM_LOOKUP_INSERTED || ret == SM_LOOKUP_HIT) {
			w->count[ret == SM_LOOKUP_INSERTED ? N_INSERTED : N_HIT]++;
			w->log[w->nlog++] = (struct log_entry){
				cookie, ticket, key, ret == SM_LOOKUP_INSERTED };
		} else {
			w->count[ret]++;
		}
		atomic_store_explicit(&w->done, i + 1, memory_order_relaxed);
		if (ret == STACKMAP_FALLBACK_RESET)
			wait_reset();
	}
	return NULL;
}

static u64 lookups_done(void)
{
	u64 n = 0;

	for (int i = 0; i < nthreads; i++)
		n += atomic_load_explicit(&workers[i].done, memory_order_relaxed);
	return n;
}

struct resetter {
	u32 resets;	/* wanted */
	u64 every;	/* lookups between resets */
	u32 done;
};

static void *resetter_main(void *arg)
{
	struct resetter *rs = arg;

	while (rs->done < rs->resets && !atomic_load(&stop_resets)) {
		struct timespec ts = { 0, 100 * 1000 };

		if (lookups_done() < (rs->done + 1) * rs->every) {
			nanosleep(&ts, NULL);
			continue;
		}
		atomic_store_explicit(&reset_active, 1, memory_order_relaxed);
		sm_map_reset_begin(&map);
		rcu_standin_synchronize(&rcu);
		atomic_store_explicit(&front, 0, memory_order_relaxed);
		sm_map_reset_finish(&map, sm_generation_next(map.generation, 0));
		atomic_store_explicit(&reset_active, 0, memory_order_relaxed);
		rs->done++;
	}
	return NULL;
}

static int cmp_by_cookie(const void *x, const void *y)
{
	const struct log_entry *a = x, *b = y;

	if (a->cookie != b->cookie)
		return a->cookie < b->cookie ? -1 : 1;
	return (a->key > b->key) - (a->key < b->key);
}

static int cmp_by_gen_key(const void *x, const void *y)
{
	const struct log_entry *a = x, *b = y;
	u32 ga = stackmap_cookie_generation(a->cookie);
	u32 gb = stackmap_cookie_generation(b->cookie);

	if (ga != gb)
		return ga < gb ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->cookie > b->cookie) - (a->cookie < b->cookie);
}

/*
 * One key per cookie; per (generation, key) one cookie and one insert.
 * Counts in *lost the hits that started before the insert they hit.
 */
static int check_logs(struct log_entry *all, size_t n, u64 *lost)
{
	size_t i, j;

	qsort(all, n, sizeof(*all), cmp_by_cookie);
	for (i = 1; i < n; i++)
		if (all[i].cookie == all[i - 1].cookie && all[i].key != all[i - 1].key) {
			fprintf(stderr, "stress: cookie %#llx named keys %u and %u\n",
				(unsigned long long)all[i].cookie, all[i - 1].key, all[i].key);
			return 1;
		}
	qsort(all, n, sizeof(*all), cmp_by_gen_key);
	for (i = 0; i < n; i = j) {
		u32 gen = stackmap_cookie_generation(all[i].cookie), inserts = 0;
		u64 insert_ticket = 0;

		if (gen > map.generation) {
			fprintf(stderr, "stress: cookie %#llx of generation %u after the last, %u\n",
				(unsigned long long)all[i].cookie, gen, map.generation);
			return 1;
		}
		for (j = i; j < n && all[j].key == all[i].key &&
		     stackmap_cookie_generation(all[j].cookie) == gen; j++) {
			if (all[j].cookie != all[i].cookie) {
				fprintf(stderr, "stress: key %u got two cookies in generation %u\n",
					all[i].key, gen);
				return 1;
			}
			if (all[j].inserted) {
				inserts++;
				insert_ticket = all[j].ticket;
			}
		}
		if (inserts != 1) {
			fprintf(stderr, "stress: key %u inserted %u times in generation %u\n",
				all[i].key, inserts, gen);
			return 1;
		}
		for (size_t k = i; k < j; k++)
			if (!all[k].inserted && all[k].ticket < insert_ticket)
				(*lost)++;
	}
	return 0;
}

/* The last generation's hit counters against the lookups that got each cookie. */
static int check_hits(const struct log_entry *all, size_t n)
{
	u32 *expect = calloc(map.nr_slots, sizeof(*expect));
	int ret = 0;

	if (!expect)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (stackmap_cookie_generation(all[i].cookie) == map.generation)
			expect[stackmap_cookie_slot(all[i].cookie)]++;
	for (u32 slot = 0; slot < map.nr_slots && !ret; slot++) {
		const unsigned long *ips;
		u32 hits = 0;

		if (!sm_map_slot_stack(&map, slot, &ips, &hits, NULL))
			hits = 0;
		if (hits != expect[slot]) {
			fprintf(stderr, "stress: slot %u counts %u hits, %u lookups got it\n",
				slot, hits, expect[slot]);
			ret = 1;
		}
	}
	free(expect);
	return ret;
}

/*
 * What a passing run must have done.  Observed on 2 busy CPUs under TSan
 * with the Makefile's runs: about 90000 inserts, 76 % hits, 300 to 6000
 * races, 100 resets and under 0.1 % reset fallbacks.
 */
#define MIN_INSERTED	10000	/* most keys in each generation */
#define MIN_HIT_PCT	50	/* of all lookups */
#define MIN_RACES	100	/* with two threads or more */
#define MIN_RESETS	3
#define MAX_RESET_PCT	10	/* of all lookups, exclusive */

struct bound {
	const char *name;
	u64 got, limit;
	bool below;	/* got must be below limit, not at least limit */
};

/* Fail with the first counter out of its bound, naming it. */
static int check_minimums(const u64 *count, u64 lookups, u64 races, u32 resets)
{
	const struct bound b[] = {
		{ "inserted", count[N_INSERTED], MIN_INSERTED, false },
		{ "hit", count[N_HIT], (lookups * MIN_HIT_PCT + 99) / 100, false },
		{ "races", races, nthreads > 1 ? MIN_RACES : 0, false },
		{ "resets", resets, MIN_RESETS, false },
		{ "full fallbacks (the arena never ran out)",
		  count[STACKMAP_FALLBACK_FULL], 1, false },
		{ "reset fallbacks", count[STACKMAP_FALLBACK_RESET],
		  (lookups * MAX_RESET_PCT + 99) / 100, true },
	};

	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		if (b[i].below && b[i].got >= b[i].limit) {
			fprintf(stderr, "stress: too many %s: %llu, want fewer than %llu\n",
				b[i].name, (unsigned long long)b[i].got,
				(unsigned long long)b[i].limit);
			return 1;
		}
		if (!b[i].below && b[i].got < b[i].limit) {
			fprintf(stderr, "stress: too few %s: %llu, want at least %llu\n",
				b[i].name, (unsigned long long)b[i].got,
				(unsigned long long)b[i].limit);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	u32 iterations;
	struct resetter rs;
	pthread_t resetter;
	struct log_entry *all;
	u64 count[N_OUTCOMES] = { 0 }, lookups, lost = 0, defines = 0;
	size_t n = 0;
	int ret = 0;

	nthreads = argc > 1 ? atoi(argv[1]) : 2;
	iterations = argc > 2 ? (u32)atoi(argv[2]) : 200000;
	rs = (struct resetter){ .resets = argc > 3 ? (u32)atoi(argv[3]) : 30 };
	if (nthreads < 1 || nthreads > RCU_MAX_READERS || !iterations) {
		fprintf(stderr, "stress: threads must be 1..%d, iterations > 0\n",
			RCU_MAX_READERS);
		return 1;
	}
	lookups = (u64)nthreads * iterations;
	rs.every = lookups / (rs.resets + 1);
	make_keys();
	sm_user_nr_cpus = nthreads;
	if (sm_map_init(&map, NKEYS, all_frames() / 8 * 7, 0xabcdef, 1)) {
		fprintf(stderr, "stress: cannot allocate the map\n");
		return 1;
	}
	all = malloc(lookups * sizeof(*all));
	if (!all)
		return 1;
	for (int i = 0; i < nthreads; i++) {
		workers[i].id = i;
		workers[i].iterations = iterations;
		workers[i].log = malloc(iterations * sizeof(*workers[i].log));
		if (!workers[i].log)
			return 1;
	}
	for (int i = 0; i < nthreads; i++)
		pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
	pthread_create(&resetter, NULL, resetter_main, &rs);
	for (int i = 0; i < nthreads; i++)
		pthread_join(workers[i].thread, NULL);
	atomic_store(&stop_resets, 1);
	pthread_join(resetter, NULL);

	for (int i = 0; i < nthreads; i++) {
		struct worker *w = &workers[i];

		if (w->error) {
			fprintf(stderr, "stress: thread %d: %s\n", i, w->error);
			ret = 1;
		}
		memcpy(all + n, w->log, w->nlog * sizeof(*all));
		n += w->nlog;
		for (int r = 0; r < N_OUTCOMES; r++)
			count[r] += w->count[r];
		defines += w->defines;
		free(w->log);
	}
	if (!ret)
		ret = check_hits(all, n);
	if (!ret)
		ret = check_logs(all, n, &lost);
	/* A quarter of the cookies noted a definition: at least an eighth. */
	if (!ret && defines < lookups / 8) {
		fprintf(stderr, "stress: only %llu definitions noted in %llu lookups\n",
			(unsigned long long)defines, (unsigned long long)lookups);
		ret = 1;
	}
	if (!ret)
		ret = check_minimums(count, lookups,
				     lost + count[STACKMAP_FALLBACK_INFLIGHT], rs.done);
	printf("stress: %d threads, %llu lookups: inserted %llu hit %llu, "
	       "fallbacks full %llu probe %llu inflight %llu reset %llu, "
	       "races %llu (lost %llu inflight %llu), resets %u, "
	       "%zu cookies checked, %llu definitions noted on a CPU's row "
	       "and read back, generation %u: %s\n",
	       nthreads, (unsigned long long)lookups,
	       (unsigned long long)count[N_INSERTED],
	       (unsigned long long)count[N_HIT],
	       (unsigned long long)count[STACKMAP_FALLBACK_FULL],
	       (unsigned long long)count[STACKMAP_FALLBACK_PROBE],
	       (unsigned long long)count[STACKMAP_FALLBACK_INFLIGHT],
	       (unsigned long long)count[STACKMAP_FALLBACK_RESET],
	       (unsigned long long)(lost + count[STACKMAP_FALLBACK_INFLIGHT]),
	       (unsigned long long)lost,
	       (unsigned long long)count[STACKMAP_FALLBACK_INFLIGHT],
	       rs.done, n, (unsigned long long)defines, map.generation, ret ? "FAILED" : "ok");
	free(all);
	sm_map_destroy(&map);
	return ret;
}
