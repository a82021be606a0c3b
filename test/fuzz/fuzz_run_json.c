// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the run folder reader: run.json's text through jansson
 * and the dgrdma-run/1 schema check (analysis/input/run_info.c). Besides memory
 * safety (ASan, UBSan with float-cast-overflow: a fact like 1e300 must be
 * refused, not cast), it checks the contract of run_info_parse(): a refusal
 * fills errbuf and leaves the facts untouched; an acceptance gives facts
 * within the limits of run_info.h, and parsing the same text again gives the
 * same facts. The same text also goes through fpga_counters_parse() (the
 * --fpga-counters reader, same file).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "run_info.h"
#include "headroom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DGR_ERRBUF_SIZE];
	struct run_info ri, again, before;
	struct fpga_counters fc, fc_before;
	int rc;

	/* the FPGA's counters from the same text: a refusal leaves them untouched */
	memset(&fc, 0xA5, sizeof(fc));
	fc_before = fc;
	rc = fpga_counters_parse((const char *)data, size, &fc, err);
	if ((rc < 0 && memcmp(&fc, &fc_before, sizeof(fc)) != 0) ||
	    (rc == 0 &&
	     (fc.trailing_underruns > fc.num_underruns || (!fc.has_adc && !fc.has_dac)))) {
		abort();
	}

	memset(&ri, 0, sizeof(ri));
	/* a fact given on the command line is kept */
	ri.fpga_buffers = size & 1 ? 3 : 0;
	before = ri;
	err[0] = '\0';
	rc = run_info_parse((const char *)data, size, &ri, err);
	if (rc < 0) {
		if (rc != -DGR_E_INVAL || err[0] == '\0' || !memchr(err, '\0', sizeof(err)) ||
		    memcmp(&ri, &before, sizeof(ri)) != 0) {
			abort();
		}
		return 0;
	}
	if (rc != 0 || ri.host_buffers > RUN_INFO_MAX_BUFFERS ||
	    ri.fpga_buffers > RUN_INFO_MAX_BUFFERS || ri.buffer_size > RUN_INFO_MAX_BUFFER_SIZE ||
	    (double)ri.rate_bytes > RUN_INFO_MAX_RATE * 4 || (size & 1 && ri.fpga_buffers != 3)) {
		abort();
	}
	again = before;
	if (run_info_parse((const char *)data, size, &again, NULL) != 0 ||
	    memcmp(&again, &ri, sizeof(ri)) != 0) {
		abort();
	}
	(void)headroom_tolerable_ns(&ri);
	return 0;
}
