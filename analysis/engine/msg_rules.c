// SPDX-License-Identifier: GPL-2.0-or-later
/* Message rules shared by latency-report and the dissector (see msg_rules.h). */

#include "msg_rules.h"

int eng_msg_check(const struct dgr_msg *m, uint64_t mem_size, char *errbuf)
{
	return dgr_msg_validate(m, mem_size ? mem_size : ENG_ADDR_SPACE, false, errbuf);
}

int eng_frame_check(const struct dgr_frame *f, size_t captured, uint64_t mem_size)
{
	struct dgr_frame cursor = *f;
	struct dgr_msg m;

	for (;;) {
		size_t at = cursor.next_off;
		int rc = dgr_frame_next_msg(&cursor, &m, NULL);

		if (rc == 0 || (captured < f->len && at + DGR_MSG_HDR_LEN > captured)) {
			return 0; /* the end, or a header the capture cut */
		}
		if (rc < 0) {
			return rc;
		}
		rc = eng_msg_check(&m, mem_size, NULL);
		if (rc < 0) {
			return rc;
		}
	}
}

/* See msg_rules.h. */
enum eng_ack_trap eng_ack_only_trap(bool udp, size_t len)
{
	/* the parser's stream: 6 bytes (source MAC, or IP address and port), then the frame */
	size_t n = udp || len >= ENG_ETH_MIN_PAYLOAD ? len : ENG_ETH_MIN_PAYLOAD;

	if (n <= DGR_FRAME_HDR_LEN) {
		return ENG_ACK_TRAP_TRUNCATED; /* its header's last beat carries TLAST */
	}
	/* read on: the next header is 16 bytes of the stream, taken when a byte follows it */
	return n > DGR_FRAME_HDR_LEN + 16 ? ENG_ACK_TRAP_PADDING : ENG_ACK_TRAP_NONE;
}
