/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every thread of a connection shares (conn_priv.h): its role and name,
 * its start (scheduling applied, read back and traced), its CPU time, the
 * first failure that stops the others, and the end of its path. conn.c starts
 * the threads; rx.c, tx.c and worker.c run them; all of them call here.
 */
#include <stdio.h>
#include <sys/resource.h>

#include "conn_priv.h"

/* The role of thread t (the thread_start tracepoint's field, the name the tools print). */
static uint8_t role_of(const struct dgr_conn *c, int t)
{
	switch (t) {
	case DGR_T_RX:
		return DGR_ROLE_RX;
	case DGR_T_TX:
		return DGR_ROLE_TX;
	case DGR_T_WORKER:
		return c->o.direction == DGR_DIR_TX ? DGR_ROLE_PRODUCER : DGR_ROLE_CONSUMER;
	case DGR_T_WORKER2:
		return DGR_ROLE_PRODUCER;
	default:
		return DGR_ROLE_CONTROL;
	}
}

/* Records the first error (code and text) and asks every thread to stop. */
void dgr_conn_fail(struct dgr_conn *c, int code, const char *msg)
{
	int zero = 0;

	pthread_mutex_lock(&c->err_lock);
	if (__atomic_compare_exchange_n(&c->result, &zero, code < 0 ? code : -DGR_E_STATE, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		snprintf(c->errbuf, sizeof(c->errbuf), "%s", msg);
	}
	pthread_mutex_unlock(&c->err_lock);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	dgr_event_notify(&c->ev_worker);
	dgr_event_notify(&c->ev_tx);
	dgr_event_notify(&c->ev_done);
	dgr_event_notify(&c->ev_dcp);
}

/* Marks a path ended; once every path has, the stream, and wakes dgr_conn_wait(). */
void dgr_conn_mark_ended(struct dgr_conn *c, enum dgr_direction path)
{
	int all = (c->rxp ? 1 << DGR_DIR_RX : 0) | (c->txp ? 1 << DGR_DIR_TX : 0);
	int now = __atomic_or_fetch(&c->paths_ended, 1 << path, __ATOMIC_SEQ_CST);

	if ((now & all) != all) {
		return;
	}
	__atomic_store_n(&c->ended, 1, __ATOMIC_RELEASE);
	dgr_event_notify(&c->ev_done);
}

/* Stores the calling thread's CPU time so far (user and system) in ts. */
void dgr_thread_cpu(struct dgr_thread_stats *ts)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		__atomic_store_n(&ts->cpu_user_ns,
				 (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
				     (uint64_t)ru.ru_utime.tv_usec * 1000ull,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&ts->cpu_sys_ns,
				 (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
				     (uint64_t)ru.ru_stime.tv_usec * 1000ull,
				 __ATOMIC_RELAXED);
	}
}

/* Returns the name of thread t ("rx", "tx", "consumer"/"producer", "control"). */
const char *dgr_conn_thread_name(const struct dgr_conn *c, int t)
{
	if (t < 0 || t >= DGR_T_COUNT) {
		return "unknown";
	}
	return dgr_thread_role_name((enum dgr_thread_role)role_of(c, t));
}

/* Returns true when the connection runs thread t. */
bool dgr_conn_thread_used(const struct dgr_conn *c, int t)
{
	if (t < 0 || t >= DGR_T_COUNT) {
		return false;
	}
	return t != DGR_T_WORKER2 || c->o.direction == DGR_DIR_BOTH;
}

/* Applies the thread's scheduling; returns false (after reporting) when refused. */
bool dgr_thread_begin(struct dgr_conn *c, int t)
{
	char err[DGR_ERRBUF_SIZE];
	int rc;
	struct dgr_sched_info si;

	rc = dgr_sched_apply_self(&c->o.sched[t], dgr_conn_thread_name(c, t), err);
	if (rc < 0) {
		dgr_conn_fail(c, rc, err);
	}
	dgr_sched_read_self(&si);
	c->si[t] = si;
	DGR_TP(thread_start, role_of(c, t), c->o.conn_index, si.tid, si.policy, si.priority,
	       si.nice, si.cpuset);
	__atomic_add_fetch(&c->sched_reported, 1, __ATOMIC_SEQ_CST);
	dgr_event_notify(&c->ev_done);
	return rc == 0;
}
