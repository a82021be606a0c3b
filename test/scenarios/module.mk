# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario suites (docs/scenarios.md): the tuning guide's regimes run end to end, emulator ->
# stack -> capture -> latency-report -> plots; results under $(BUILD)/scenarios/<name>/.
# The fast, deterministic ones run in `make check`; `make scenarios` runs all of them,
# including the timing-dependent comparisons that must stay out of check.

SCENARIOS_CHECK := test/scenarios/healthy.sh test/scenarios/throughput-bound.sh \
	test/scenarios/tx-path.sh test/scenarios/frame-loss.sh test/scenarios/host-frame-loss.sh \
	test/scenarios/consistency.sh test/scenarios/stall-cause.sh \
	test/scenarios/stall-cause-foreign.sh
SCENARIOS_ALL := $(SCENARIOS_CHECK) test/scenarios/jitter-bound.sh test/scenarios/vicious-cycle.sh \
	test/scenarios/perf-sweep.sh

CHECK_SUITES += $(SCENARIOS_CHECK)

.PHONY: scenarios
scenarios: all
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) SAN=$(SAN) \
		test/run-suites.sh $(if $(SUITES),--only '$(SUITES)') $(SCENARIOS_ALL)

# stall-cause.sh's softirq flood: bounded small UDP datagrams to a veth the suite made itself.
SCN_UDP_FLOOD := $(BUILD)/test/scenarios/udp-flood
$(SCN_UDP_FLOOD): $(BUILD)/obj/test/scenarios/udp-flood.o $(LIBDGRCLI_A) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBDGRCLI_A) $(LIBDGRDMA_A) $(STACK_LIBS)
CHECK_DEPS += $(SCN_UDP_FLOOD)
# stall-cause.sh runs before the test build ends (make check: CHECK_ALONE_DEPS)
CHECK_ALONE_DEPS += $(SCN_UDP_FLOOD)

# make bench-stall-cause: the stall-cause scenario's longer version (30 s runs, 5 disturbances
# each; STALL_CAUSE_SECONDS, STALL_CAUSE_REPEATS), tabulated in build/bench/stall-cause.txt.
BENCH_TARGETS += bench-stall-cause
.PHONY: bench-stall-cause
bench-stall-cause: all $(CHECK_DEPS)
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/scenarios/bench-stall-cause.sh
