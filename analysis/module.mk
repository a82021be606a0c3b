# SPDX-License-Identifier: GPL-2.0-or-later
# analysis/: latency-report, dgrdma-plot, and the test capture generator (test/gen/).

# dgrdma-gen: deterministic captures with expected answers (independent of the codec).
DGRDMA_GEN := $(BUILD)/bin/dgrdma-gen
PROGRAMS += $(DGRDMA_GEN)
$(DGRDMA_GEN): $(call objs,test/gen/dgrdma-gen.c)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

.PHONY: analysis
analysis: $(DGRDMA_GEN)
