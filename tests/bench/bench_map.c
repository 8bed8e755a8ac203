// SPDX-License-Identifier: GPL-2.0
/*
 * B4: cost of the stack map in user space, next to its own baseline in the
 * same binary: jhash2 over exactly the same stacks (what sm_hash() does).
 *
 *   hash     jhash2 over each stack, nothing else
 *   lookup   sm_map_get_cookie() on stacks already stored (hits)
 *   insert   sm_map_get_cookie() on an empty map (every call inserts)
 *   scaling  lookups (and hashes) by 1 and by 2 threads, on disjoint stack
 *            sets (thread i owns half the stacks) and on overlapping ones
 *            (both threads walk all stacks, so they share slots and hit
 *            counters)
 *
 * kmod/stackmap_map.c is compiled as is (-O2, no sanitizers).  Each figure
 * is the median of RUNS runs.  Output: "key value" lines on stdout.
 *
 * Usage: bench_map [--quick]
 * Exit: 0, or 1 when the map misbehaves (a lookup that does not hit, an
 * insert that does not insert) or memory cannot be allocated.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../kmod/stackmap_map.h"

#define NSTACKS		4096
#define DEPTH_MIN	8
#define DEPTH_SPAN	17	/* depths 8..24, mean 16 */
#define MAX_RUNS	9
#define MAX_THREADS	2
#define WALK_STRIDE	2654435761u	/* odd: visits every stack once */

enum op { OP_HASH, OP_LOOKUP };

struct config {
	int runs;
	u32 ops;		/* operations per thread per run */
};

struct worker {
	pthread_t thread;
	enum op op;
	u32 first, count;	/* stack index range walked */
	u32 stride;		/* walk order: first + (i * stride) % count */
	/* count is a power of two and stride odd: a permutation, no division */
	u32 ops;
	u64 sink;
	u32 misses;
	unsigned int cpu;	/* row of per-CPU hit counters, as a CPU in the kernel */
};

static unsigned long stacks[NSTACKS][DEPTH_MIN + DEPTH_SPAN];
static u32 depths[NSTACKS];
static struct sm_map map;
static pthread_barrier_t start_line;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Kernel-looking return addresses, every stack distinct. */
static void make_stacks(void)
{
	unsigned int seed = 42;

	for (u32 i = 0; i < NSTACKS; i++) {
		depths[i] = DEPTH_MIN + i % DEPTH_SPAN;
		for (u32 f = 0; f < depths[i]; f++)
			stacks[i][f] = 0xffffffff81000000ul +
				       (rand_r(&seed) % 0x1000000);
		stacks[i][0] = 0xffffffff80000000ul + i;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static u32 hash_stack(u32 id)
{
	return jhash2((const u32 *)stacks[id],
		      depths[id] * (sizeof(unsigned long) / sizeof(u32)),
		      map.seed);
}

static void run_ops(struct worker *w)
{
	for (u32 i = 0; i < w->ops; i++) {
		u32 id = w->first + ((i * w->stride) & (w->count - 1));
		u64 cookie = 0;

		if (w->op == OP_HASH) {
			w->sink += hash_stack(id);
			continue;
		}
		if (sm_map_get_cookie(&map, stacks[id], depths[id], 0, &cookie) !=
		    SM_LOOKUP_HIT)
			w->misses++;
		w->sink += cookie;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	sm_user_cpu = w->cpu;
	pthread_barrier_wait(&start_line);
	run_ops(w);
	return NULL;
}

/* Start the workers together; return the wall time of the slowest in ns. */
static double run_workers(struct worker *w, int n)
{
	double t0;

	pthread_barrier_init(&start_line, NULL, n + 1);
	for (int i = 0; i < n; i++)
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	pthread_barrier_wait(&start_line);
	t0 = now_ns();
	for (int i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	t0 = now_ns() - t0;
	pthread_barrier_destroy(&start_line);
	return t0;
}

/*
 * Operations per microsecond of @op by @nthreads threads, median of runs.
 * @overlap: every thread walks all stacks (in its own order) instead of
 * its own share.
 */
static int measure_rate(const struct config *c, enum op op, int nthreads,
			bool overlap, double *rate)
{
	double v[MAX_RUNS];

	for (int r = 0; r < c->runs; r++) {
		struct worker w[MAX_THREADS];
		u32 misses = 0;

		for (int i = 0; i < nthreads; i++) {
			u32 share = NSTACKS / nthreads;

			w[i] = (struct worker){ .op = op, .ops = c->ops,
				.first = overlap ? 0 : i * share,
				.count = overlap ? NSTACKS : share,
				.stride = WALK_STRIDE + 2 * i, .cpu = (unsigned int)i };
		}
		v[r] = (double)nthreads * c->ops * 1e3 / run_workers(w, nthreads);
		for (int i = 0; i < nthreads; i++)
			misses += w[i].misses;
		if (misses) {
			fprintf(stderr, "bench_map: %u lookups did not hit\n", misses);
			return -1;
		}
	}
	*rate = median(v, c->runs);
	return 0;
}

static void reset_map(void)
{
	sm_map_reset_begin(&map);
	sm_map_reset_finish(&map, sm_generation_next(map.generation, 0));
}

/* Nanoseconds per insert into an emptied map, median of runs. */
static int measure_insert(const struct config *c, double *ns)
{
	double v[MAX_RUNS];

	for (int r = 0; r < c->runs; r++) {
		u32 inserts = 0, bad = 0;
		double t = 0;

		while (inserts < c->ops) {
			double t0;

			reset_map();
			t0 = now_ns();
			for (u32 i = 0; i < NSTACKS; i++) {
				u32 id = (i * WALK_STRIDE) & (NSTACKS - 1);
				u64 cookie;

				if (sm_map_get_cookie(&map, stacks[id], depths[id], 0, &cookie) != SM_LOOKUP_INSERTED)
					bad++;
			}
			t += now_ns() - t0;
			inserts += NSTACKS;
		}
		if (bad) {
			fprintf(stderr, "bench_map: %u inserts did not insert\n", bad);
			return -1;
		}
		v[r] = t / inserts;
	}
	*ns = median(v, c->runs);
	return 0;
}

static int fill_map(void)
{
	reset_map();
	for (u32 id = 0; id < NSTACKS; id++) {
		u64 cookie;

		if (sm_map_get_cookie(&map, stacks[id], depths[id], 0, &cookie) > 0)
			return -1;
	}
	return 0;
}

/*
 * 1-thread and 2-thread rates measured in alternation, so that load from
 * elsewhere on the machine hits both alike; medians of the rates and of the
 * per-pair ratios.
 */
static int report_scaling(const struct config *c, enum op op, const char *name,
			  bool overlap)
{
	const struct config once = { .runs = 1, .ops = c->ops };
	double r1[MAX_RUNS], r2[MAX_RUNS], ratio[MAX_RUNS];
	const char *set = overlap ? "overlap" : "disjoint";

	for (int r = 0; r < c->runs; r++) {
		if (measure_rate(&once, op, 1, overlap, &r1[r]) ||
		    measure_rate(&once, op, 2, overlap, &r2[r]))
			return -1;
		ratio[r] = r2[r] / r1[r];
	}
	printf("%s_%s_1t_mops %.2f\n", name, set, median(r1, c->runs));
	printf("%s_%s_2t_mops %.2f\n", name, set, median(r2, c->runs));
	printf("%s_%s_scaling %.2f\n", name, set, median(ratio, c->runs));
	return 0;
}

static int run_all(const struct config *c)
{
	double hash_rate, lookup_rate, insert_ns;

	if (measure_insert(c, &insert_ns) || fill_map() ||
	    measure_rate(c, OP_HASH, 1, true, &hash_rate) ||
	    measure_rate(c, OP_LOOKUP, 1, true, &lookup_rate))
		return -1;
	printf("stacks %d\nmean_depth %.1f\nruns %d\nops_per_thread %u\n",
	       NSTACKS, DEPTH_MIN + (DEPTH_SPAN - 1) / 2.0, c->runs, c->ops);
	printf("hash_ns %.2f\nlookup_ns %.2f\ninsert_ns %.2f\n",
	       1e3 / hash_rate, 1e3 / lookup_rate, insert_ns);
	return report_scaling(c, OP_HASH, "hash", false) ||
	       report_scaling(c, OP_HASH, "hash", true) ||
	       report_scaling(c, OP_LOOKUP, "lookup", false) ||
	       report_scaling(c, OP_LOOKUP, "lookup", true);
}

int main(int argc, char **argv)
{
	struct config c = { .runs = 7, .ops = 4000000 };
	u32 frames = NSTACKS * (DEPTH_MIN + DEPTH_SPAN);
	int ret;

	if (argc > 1 && !strcmp(argv[1], "--quick"))
		c = (struct config){ .runs = 3, .ops = 200000 };
	make_stacks();
	sm_user_nr_cpus = MAX_THREADS;
	if (sm_map_init(&map, NSTACKS, frames, 0x5eed, 1)) {
		fprintf(stderr, "bench_map: cannot allocate the map\n");
		return 1;
	}
	ret = run_all(&c) ? 1 : 0;
	sm_map_destroy(&map);
	return ret;
}
