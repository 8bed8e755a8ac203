/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal RCU stand-in for the user-space map tests: each reader thread has
 * a counter that is odd while it is inside a read-side section; a grace
 * period waits until every reader seen inside has left.  Built only on C11
 * atomics so ThreadSanitizer understands it (liburcu's barriers it does not).
 */
#ifndef RCU_STANDIN_H
#define RCU_STANDIN_H
#include <sched.h>
#include <stdatomic.h>

#define RCU_MAX_READERS 64

struct rcu_standin {
	atomic_ulong ctr[RCU_MAX_READERS];
};

static inline void rcu_standin_lock(struct rcu_standin *r, int reader)
{
	atomic_fetch_add(&r->ctr[reader], 1);	/* odd: inside */
}

static inline void rcu_standin_unlock(struct rcu_standin *r, int reader)
{
	atomic_fetch_add(&r->ctr[reader], 1);	/* even: outside */
}

static inline void rcu_standin_synchronize(struct rcu_standin *r)
{
	for (int i = 0; i < RCU_MAX_READERS; i++) {
		unsigned long c = atomic_load(&r->ctr[i]);

		if (!(c & 1))
			continue;
		while (atomic_load(&r->ctr[i]) == c)
			sched_yield();
	}
}
#endif
