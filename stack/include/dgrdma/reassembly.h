/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transaction reassembly: fragments (messages) -> complete transactions.
 *
 * The one reassembler of the project, used by the host stack's receive path,
 * the FPGA emulator's receive path, latency-report and the Wireshark plugin.
 * It tracks which fragments of each outstanding transaction have arrived, in any order,
 * reports the one that completes it, rejects duplicates and inconsistent
 * fragments, and expires transactions that never complete. It never touches
 * data: a receiver copies each fragment to data_addr itself (zero extra
 * copies) and writes the flag only when dgr_reasm_add() says COMPLETE.
 *
 * One reassembler per connection and direction (transaction ids are per
 * connection). Memory is allocated once by dgr_reasm_new(); adding, completing
 * and expiring never allocate (a growing reassembler's adding may: below). Not
 * thread-safe: owned by one receive thread.
 */
#ifndef DGRDMA_REASSEMBLY_H
#define DGRDMA_REASSEMBLY_H

#include <stdint.h>

#include <dgrdma/wire.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Duplicate fragments are recognised for msg_seq 1..DGR_REASM_SEQ_TRACKED. */
#define DGR_REASM_SEQ_TRACKED 256

struct dgr_reasm;

/* A transaction, complete or (for expiry and the final report) incomplete. */
struct dgr_txn_info {
	uint32_t txn_id;
	uint32_t flag_addr; /* DGR_NO_FLAG when the transaction has no flag write */
	uint32_t flag_value;
	uint32_t data_addr; /* lowest data_addr of the fragments seen */
	uint32_t bytes;	    /* sum of data_len of the fragments seen */
	uint16_t num_msgs;  /* num_msgs_in_txn as on the wire (0: flag-only) */
	uint16_t msgs_seen; /* distinct fragments seen */
	uint64_t first_ts;  /* caller timestamp of the first fragment seen */
	uint64_t last_ts;   /* caller timestamp of the last (completing) fragment */
	uint64_t first_ref; /* caller reference (e.g. frame number) of the first fragment */
	uint64_t last_ref;  /* caller reference of the last (completing) fragment */
};

/* Results of dgr_reasm_add() (non-negative); errors are negative DGR_E_*. */
enum dgr_reasm_result {
	DGR_REASM_PARTIAL = 0,	 /* stored; more fragments needed */
	DGR_REASM_COMPLETE = 1,	 /* *done describes the complete transaction */
	DGR_REASM_DUPLICATE = 2, /* this fragment was already seen; ignore it */
};

/*
 * Creates a reassembler for up to max_outstanding incomplete transactions
 * (1..65536). Returns NULL on failure with errbuf filled.
 */
struct dgr_reasm *dgr_reasm_new(unsigned int max_outstanding, char *errbuf);

/*
 * The same reassembler with a table that starts small and doubles as more
 * transactions wait, up to what dgr_reasm_new() allocates at once: for a reader
 * of captures (latency-report, the plugin), where a stream keeps a few
 * transactions open and every page a table touches costs a fault, while a rare
 * rehash costs little. dgr_reasm_add() allocates when it doubles the table; when
 * that fails it returns -DGR_E_NOSPACE as for a full one. Same contract otherwise.
 */
struct dgr_reasm *dgr_reasm_new_growing(unsigned int max_outstanding, char *errbuf);

/* Frees a reassembler (NULL is accepted). */
void dgr_reasm_free(struct dgr_reasm *r);

/*
 * Feeds one decoded and validated message. ts and ref are the caller's
 * timestamp and reference for it; they come back in dgr_txn_info.
 * Returns DGR_REASM_COMPLETE (with *done filled; the transaction is forgotten),
 * DGR_REASM_PARTIAL or DGR_REASM_DUPLICATE, or
 *  -DGR_E_NUM_MSGS  a fragment disagrees with earlier ones of its transaction
 *                   (num_msgs_in_txn, flag_addr or flag_value) or msg_seq is
 *                   out of range; it is dropped, the transaction is kept;
 *  -DGR_E_NOSPACE   max_outstanding transactions are already incomplete; the
 *                   fragment is dropped (call dgr_reasm_expire() to make room).
 */
int dgr_reasm_add(struct dgr_reasm *r, const struct dgr_msg *m, uint64_t ts, uint64_t ref,
		  struct dgr_txn_info *done);

/*
 * Whether m may be a fragment of txn (as reported by dgr_reasm_add(),
 * expire or foreach; complete or not): the rule dgr_reasm_add() applies to
 * every fragment after the first. Returns 0 when m agrees with txn
 * (num_msgs_in_txn, flag_addr, flag_value) and its msg_seq is in range,
 * -DGR_E_NUM_MSGS when dgr_reasm_add() would drop it. Pure: touches no
 * reassembler and never allocates. Lets a caller that remembers complete
 * transactions (the dissector) tell a late duplicate from a bad fragment.
 */
int dgr_reasm_fragment_check(const struct dgr_txn_info *txn, const struct dgr_msg *m);

/* Called for each incomplete transaction by expire/foreach; ctx is passed through. */
typedef void (*dgr_reasm_cb)(const struct dgr_txn_info *txn, void *ctx);

/*
 * Forgets every incomplete transaction whose first fragment is older than
 * before_ts (first_ts < before_ts), calling cb (if not NULL) for each.
 * Returns the number expired.
 */
unsigned int dgr_reasm_expire(struct dgr_reasm *r, uint64_t before_ts, dgr_reasm_cb cb, void *ctx);

/* Calls cb for every incomplete transaction, oldest first. Returns how many. */
unsigned int dgr_reasm_foreach_incomplete(const struct dgr_reasm *r, dgr_reasm_cb cb, void *ctx);

/* Number of incomplete transactions held. */
unsigned int dgr_reasm_outstanding(const struct dgr_reasm *r);

#ifdef __cplusplus
}
#endif

#endif
