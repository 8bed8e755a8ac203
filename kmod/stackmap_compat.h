/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What stackmap_map.c needs from its environment, for the kernel and for
 * user space.  In the kernel this is the kernel's own API; in user space
 * (tests/kmod, tests/bench) it maps the same names onto GCC __atomic builtins
 * with the same ordering guarantees, calloc/free, and the kernel's own jhash
 * (tests/kmod/shim provides the two helpers jhash.h needs).
 */
#ifndef STACKMAP_COMPAT_H
#define STACKMAP_COMPAT_H

#ifdef __KERNEL__

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/jhash.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/vmalloc.h>

static inline void *sm_zalloc(size_t nmemb, size_t size)
{
	return __vcalloc(nmemb, size, GFP_KERNEL | __GFP_NOWARN);
}

static inline void sm_free(void *p)
{
	vfree(p);
}

/* CPUs that may count hits, and the current one (preemption is off). */
static inline unsigned int sm_nr_cpus(void)
{
	return nr_cpu_ids;
}

static inline unsigned int sm_cpu(void)
{
	return raw_smp_processor_id();
}

#else /* user space */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#ifndef U32_MAX
#define U32_MAX		UINT32_MAX
#endif
#ifndef BIT
#define BIT(nr)		(1UL << (nr))
#endif

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
/* Acquire load: what the kernel's smp_load_acquire() orders. */
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
/* Release store: what the kernel's smp_store_release() orders. */
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* WRITE_ONCE() then a full barrier: a sequentially consistent store. */
#define smp_store_mb(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)

/* Kernel cmpxchg(): fully ordered, returns the value found at @p. */
#define cmpxchg(p, o, n)						\
	({								\
		__typeof__(*(p)) __old = (o);				\
		__atomic_compare_exchange_n((p), &__old, (n), false,	\
					    __ATOMIC_SEQ_CST,		\
					    __ATOMIC_SEQ_CST);		\
		__old;							\
	})

/* The kernel's atomic_t: an int only touched through the functions below. */
struct sm_atomic {
	int counter;
};

#define atomic_t struct sm_atomic

#define atomic_read(v)		__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_inc(v)		__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_RELAXED)
#define atomic_dec(v)		__atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_RELAXED)
#define atomic_add(i, v)	__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_cmpxchg(v, o, n)	cmpxchg(&(v)->counter, (o), (n))
#define atomic_inc_return(v)	(__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_RELAXED) + 1)

#include <linux/jhash.h>	/* the kernel's, through tests/kmod/shim */

static inline void *sm_zalloc(size_t nmemb, size_t size)
{
	return calloc(nmemb, size);
}

static inline void sm_free(void *p)
{
	free(p);
}

/*
 * User space has no CPU numbers a thread owns: a test sets sm_user_nr_cpus
 * before sm_map_init() and gives each thread its own sm_user_cpu (defined
 * in stackmap_map.c).
 */
extern unsigned int sm_user_nr_cpus;
extern __thread unsigned int sm_user_cpu;

static inline unsigned int sm_nr_cpus(void)
{
	return sm_user_nr_cpus;
}

static inline unsigned int sm_cpu(void)
{
	return sm_user_cpu;
}

#endif /* __KERNEL__ */

#endif /* STACKMAP_COMPAT_H */
