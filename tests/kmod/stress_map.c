// SPDX-License-Identifier: GPL-2.0
/*
 * Threaded stress test of the stack map, meant to run under ThreadSanitizer.
 *
 * NTHREADS workers look up overlapping sets of stacks in random order while
 * a resetter thread resets the map now and then (reset_begin, grace period,
 * reset_finish).  Each worker checks, inside the same read-side section,
 * that every cookie it is handed resolves to exactly the stack it inserted,
 * and logs (cookie, stack id).  After the run, the logs must show, within
 * one generation, one cookie per stack and one stack per cookie.
 *
 * Usage: stress_map [threads] [iterations per thread] [resets]
 * Exit: 0 and "stress: ... ok" on success, 1 with the first violation.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../kmod/stackmap_map.h"
#include "rcu_standin.h"

#define NSTACKS		2048
#define DEPTH_MAX	24

struct log_entry {
	u64 cookie;
	u32 stack;
};

struct worker {
	pthread_t thread;
	int id;
	u32 iterations;
	struct log_entry *log;
	u32 nlog;
	u64 fallbacks[STACKMAP_FALLBACK_MAX];
	const char *error;
};

static struct sm_map map;
static struct rcu_standin rcu;
static unsigned long stacks[NSTACKS][DEPTH_MAX];
static u32 depths[NSTACKS];
static atomic_int stop_resets;

static void make_stacks(void)
{
	for (u32 i = 0; i < NSTACKS; i++) {
		depths[i] = 1 + i % DEPTH_MAX;
		for (u32 f = 0; f < depths[i]; f++)
			stacks[i][f] = 0xffffffff81000000ul + i * 0x1000 + f * 8;
	}
}

/* Inside the read-side section: the cookie must name exactly this stack. */
static const char *check_cookie(u64 cookie, u32 id)
{
	const unsigned long *got;
	u32 depth;

	if (!stackmap_cookie_valid(cookie))
		return "invalid cookie";
	if (stackmap_cookie_generation(cookie) != READ_ONCE(map.generation))
		return "cookie of another generation inside a read section";
	depth = sm_map_slot_stack(&map, stackmap_cookie_slot(cookie), &got, NULL, NULL);
	if (depth != depths[id] || memcmp(got, stacks[id], depth * sizeof(*got)))
		return "cookie resolves to another stack";
	return NULL;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = 1234 + w->id;

	sm_user_cpu = w->id;	/* this thread's row of hit counters */

	for (u32 i = 0; i < w->iterations && !w->error; i++) {
		/* Overlapping sets: each worker uses 3/4 of the stacks. */
		u32 id = (rand_r(&seed) % (NSTACKS * 3 / 4) + w->id * NSTACKS / 4) % NSTACKS;
		u64 cookie;
		int ret;

		rcu_standin_lock(&rcu, w->id);
		ret = sm_map_get_cookie(&map, stacks[id], depths[id], 0, &cookie);
		if (ret > 0)
			w->fallbacks[ret]++;
		else
			w->error = check_cookie(cookie, id);
		rcu_standin_unlock(&rcu, w->id);
		if (ret <= 0 && !w->error)
			w->log[w->nlog++] = (struct log_entry){ cookie, id };
	}
	return NULL;
}

static void *resetter_main(void *arg)
{
	u32 *resets = arg;

	for (u32 n = 0; n < *resets && !atomic_load(&stop_resets); n++) {
		struct timespec ts = { 0, 2 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		sm_map_reset_begin(&map);
		rcu_standin_synchronize(&rcu);
		sm_map_reset_finish(&map, sm_generation_next(map.generation, 0));
	}
	return NULL;
}

static int cmp_by_cookie(const void *x, const void *y)
{
	const struct log_entry *a = x, *b = y;

	if (a->cookie != b->cookie)
		return a->cookie < b->cookie ? -1 : 1;
	return (a->stack > b->stack) - (a->stack < b->stack);
}

static int cmp_by_gen_stack(const void *x, const void *y)
{
	const struct log_entry *a = x, *b = y;
	u32 ga = stackmap_cookie_generation(a->cookie);
	u32 gb = stackmap_cookie_generation(b->cookie);

	if (ga != gb)
		return ga < gb ? -1 : 1;
	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return (a->cookie > b->cookie) - (a->cookie < b->cookie);
}

/* One stack per cookie, and one cookie per (generation, stack). */
static int check_logs(struct log_entry *all, size_t n)
{
	qsort(all, n, sizeof(*all), cmp_by_cookie);
	for (size_t i = 1; i < n; i++)
		if (all[i].cookie == all[i - 1].cookie && all[i].stack != all[i - 1].stack) {
			fprintf(stderr, "stress: cookie %#llx named stacks %u and %u\n",
				(unsigned long long)all[i].cookie, all[i - 1].stack, all[i].stack);
			return 1;
		}
	qsort(all, n, sizeof(*all), cmp_by_gen_stack);
	for (size_t i = 1; i < n; i++)
		if (all[i].stack == all[i - 1].stack &&
		    stackmap_cookie_generation(all[i].cookie) ==
		    stackmap_cookie_generation(all[i - 1].cookie) &&
		    all[i].cookie != all[i - 1].cookie) {
			fprintf(stderr, "stress: stack %u got two cookies in one generation\n",
				all[i].stack);
			return 1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 2;
	u32 iterations = argc > 2 ? (u32)atoi(argv[2]) : 200000;
	u32 resets = argc > 3 ? (u32)atoi(argv[3]) : 20;
	struct worker w[RCU_MAX_READERS];
	pthread_t resetter;
	struct log_entry *all;
	u64 fallbacks[STACKMAP_FALLBACK_MAX] = { 0 };
	size_t n = 0;
	int ret = 0;

	if (nthreads < 1 || nthreads > RCU_MAX_READERS) {
		fprintf(stderr, "stress: threads must be 1..%d\n", RCU_MAX_READERS);
		return 1;
	}
	make_stacks();
	sm_user_nr_cpus = nthreads;
	/* Frames for 3/4 of the stacks: the pool runs out between resets. */
	if (sm_map_init(&map, NSTACKS, NSTACKS * DEPTH_MAX * 3 / 8, 0xabcdef, 1)) {
		fprintf(stderr, "stress: cannot allocate the map\n");
		return 1;
	}
	for (int i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .id = i, .iterations = iterations };
		w[i].log = malloc(iterations * sizeof(*w[i].log));
		if (!w[i].log)
			return 1;
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	}
	pthread_create(&resetter, NULL, resetter_main, &resets);
	for (int i = 0; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);
	atomic_store(&stop_resets, 1);
	pthread_join(resetter, NULL);

	all = malloc((size_t)nthreads * iterations * sizeof(*all));
	for (int i = 0; i < nthreads; i++) {
		if (w[i].error) {
			fprintf(stderr, "stress: thread %d: %s\n", i, w[i].error);
			ret = 1;
		}
		memcpy(all + n, w[i].log, w[i].nlog * sizeof(*all));
		n += w[i].nlog;
		for (int r = 0; r < STACKMAP_FALLBACK_MAX; r++)
			fallbacks[r] += w[i].fallbacks[r];
		free(w[i].log);
	}
	if (!ret)
		ret = check_logs(all, n);
	printf("stress: %d threads, %zu cookies checked, fallbacks full %llu probe %llu inflight %llu reset %llu, generation %u: %s\n",
	       nthreads, n, (unsigned long long)fallbacks[STACKMAP_FALLBACK_FULL],
	       (unsigned long long)fallbacks[STACKMAP_FALLBACK_PROBE],
	       (unsigned long long)fallbacks[STACKMAP_FALLBACK_INFLIGHT],
	       (unsigned long long)fallbacks[STACKMAP_FALLBACK_RESET],
	       map.generation, ret ? "FAILED" : "ok");
	free(all);
	sm_map_destroy(&map);
	return ret;
}
