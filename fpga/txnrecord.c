// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transaction record of the DG-RDMA frame parser (model.h): flags are
 * written strictly in transaction order, so one transaction that never
 * completes holds back every later flag, as on the hardware.
 */
#include <string.h>

#include "model.h"

/* See model.h. */
void fpga_txnrecord_init(struct fpga_txnrecord *r)
{
	memset(r, 0, sizeof(*r));
	r->next_flag_txn_id = 1;
}

static struct fpga_txn_entry *slot_of(struct fpga_txnrecord *r, uint32_t txn_id)
{
	return &r->e[txn_id % FPGA_TXN_IN_FLIGHT];
}

/* See model.h. */
int fpga_txnrecord_msg(struct fpga_txnrecord *r, const struct dgr_msg *m, uint16_t frame_seq,
		       bool usable)
{
	uint32_t ahead = m->txn_id - r->next_flag_txn_id;
	struct fpga_txn_entry *t;

	if (ahead >= FPGA_TXN_IN_FLIGHT) {
		r->txn_id_out_of_range++;
		return -DGR_E_STATE;
	}
	t = slot_of(r, m->txn_id);
	if (t->used) {
		if (t->msgs_remaining == 0 || t->flag_addr != m->flag_addr ||
		    t->flag_value != m->flag_value) {
			r->txn_errors++;
		}
		if (t->msgs_remaining > 0) {
			t->msgs_remaining--;
		}
		if (t->msgs_remaining == 0) {
			t->complete = true;
		}
		if (m->data_len > 0 && m->data_addr < t->data_addr) {
			t->data_addr = m->data_addr;
		}
	} else {
		t->used = true;
		r->nused++;
		t->flag_addr = m->flag_addr;
		t->flag_value = m->flag_value;
		t->data_addr = m->data_len > 0 ? m->data_addr : 0;
		t->msgs_remaining = m->num_msgs_in_txn > 1 ? (uint16_t)(m->num_msgs_in_txn - 1) : 0;
		t->complete = t->msgs_remaining == 0;
	}
	if (r->nused > r->waiting_max) {
		r->waiting_max = r->nused;
	}
	t->frame_seq = frame_seq;
	t->unusable |= !usable;
	return 0;
}

/* See model.h. */
bool fpga_txnrecord_next_flag(struct fpga_txnrecord *r, struct fpga_txn_entry *out)
{
	struct fpga_txn_entry *t = slot_of(r, r->next_flag_txn_id);

	if (!t->used || !t->complete) {
		return false;
	}
	*out = *t;
	memset(t, 0, sizeof(*t));
	r->nused--;
	r->next_flag_txn_id++;
	r->flags_written++;
	return true;
}

/* See model.h. */
unsigned int fpga_txnrecord_waiting(const struct fpga_txnrecord *r)
{
	return r->nused;
}
