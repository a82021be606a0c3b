# SPDX-License-Identifier: GPL-2.0-or-later
# analysis/: latency-report, dgrdma-plot, and the test capture generator (test/gen/).

# dgrdma-gen: deterministic captures with expected answers (independent of the codec: of the
# archives it takes only the command line's option table, stack/cli/, and the library's
# dgr_errbuf_set; stack/module.mk is read after this file, so the library is named here).
DGRDMA_GEN := $(BUILD)/bin/dgrdma-gen
PROGRAMS += $(DGRDMA_GEN)
$(DGRDMA_GEN): $(call objs,test/gen/dgrdma-gen.c) $(LIBDGRCLI_A) $(BUILD)/lib/libdgrdma.a
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

.PHONY: analysis
analysis: $(DGRDMA_GEN)
# its bash completion (in the build folder only: dgrdma-gen is not installed)
all: $(BUILD)/completion/dgrdma-gen

# latency-report: libpcap + jansson (run.json) + the project's codec and reassembler; and
# libbabeltrace2 through the trace reader's module (below).
CFLAGS_analysis += $(shell $(PKG_CONFIG) --cflags libpcap babeltrace2 jansson 2>/dev/null)
# stack/module.mk is included after this file: name the library directly, after the tools'
# internal archive (stack/cli/: command-line values, the print layer).
ANALYSIS_LIBDGRDMA := $(LIBDGRCLI_A) $(BUILD)/lib/libdgrdma.a
ANALYSIS_LIBDGRTUNE := $(BUILD)/lib/libdgrtune.a
ANALYSIS_LIBS := $(shell $(PKG_CONFIG) --libs libpcap jansson 2>/dev/null) -lz -lm
# The analysis room, by job (docs/architecture.md, "analysis/"): input/ reads captures, traces
# and run folders; engine/ holds the rules the Wireshark plugin shares; verdict/ judges a run;
# output/ prints and writes it. Each folder is on the include path: no source reaches into
# another by a relative path.
ANALYSIS_INCLUDES := -Ianalysis/input -Ianalysis/engine -Ianalysis/verdict -Ianalysis/output
CFLAGS_analysis += $(ANALYSIS_INCLUDES)
# The analysis engine, libdgrengine.a: the rules latency-report and the Wireshark plugin share.
# It sees only its own headers and the protocol library's (-Ianalysis/engine): what it needs of
# the rest of analysis/ would not link into the plugin. Two archives of the same sources: one
# for the programs and the tests, one position-independent for the plugin (dissectors/module.mk).
ANALYSIS_ENGINE_SRCS := analysis/engine/doorbell_match.c analysis/engine/stats.c \
	analysis/engine/loglin_hist.c analysis/engine/spill_file.c analysis/engine/msg_rules.c \
	analysis/engine/reasm_feed.c analysis/engine/seq_track.c analysis/engine/conn_table.c \
	analysis/engine/snap_cut.c
ANALYSIS_ENGINE_CFLAGS := -Ianalysis/engine
$(call objs,$(ANALYSIS_ENGINE_SRCS)) $(call pic_objs,$(ANALYSIS_ENGINE_SRCS)): \
	CFLAGS_analysis := $(ANALYSIS_ENGINE_CFLAGS)
$(patsubst %.c,$(BUILD)/asan-pic/%.o,$(ANALYSIS_ENGINE_SRCS)): CFLAGS_analysis := $(ANALYSIS_ENGINE_CFLAGS)
LIBDGRENGINE_A := $(BUILD)/lib/libdgrengine.a
LIBDGRENGINE_PIC_A := $(BUILD)/lib/libdgrengine_pic.a
LIBRARIES += $(LIBDGRENGINE_A) $(LIBDGRENGINE_PIC_A)
$(LIBDGRENGINE_A): $(call objs,$(ANALYSIS_ENGINE_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(LIBDGRENGINE_PIC_A): $(call pic_objs,$(ANALYSIS_ENGINE_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
analysis: $(LIBDGRENGINE_A) $(LIBDGRENGINE_PIC_A)
ANALYSIS_CORE_SRCS := analysis/verdict/classify.c \
	analysis/input/frame_decode.c analysis/input/wire_analysis.c analysis/input/ip_defrag.c \
	analysis/input/host_events.c \
	analysis/input/join.c analysis/output/csv_output.c analysis/output/plot_columns.c \
	analysis/output/report.c \
	analysis/verdict/headroom.c analysis/verdict/occupancy.c analysis/verdict/vicious.c \
	analysis/input/live.c analysis/input/fpga_counters.c \
	analysis/verdict/kernel_sched.c analysis/verdict/stall_cause.c \
	analysis/verdict/wire_threads.c
ANALYSIS_IO_SRCS := analysis/input/pcap_input.c analysis/input/capture_set.c \
	analysis/input/ctf_input.c analysis/input/ctf_check.c analysis/input/run_info.c \
	analysis/input/run_info_v1.c analysis/input/run_schema.c analysis/input/run_folder.c \
	analysis/input/kernel_input.c analysis/input/trace_loader.c \
	analysis/input/incidents.c
# The trace reader's module (analysis/input/trace_module.h): all of libbabeltrace2's use, in a
# shared object latency-report loads on the first trace it reads, so that a run on captures
# alone does not load libbabeltrace2, glib and pcre2 (docs/architecture.md). It lies at
# lib/dgrdma-tools/ beside bin/, in the build tree as installed, and takes the kernel model's
# functions from the program, which exports them (TRACE_MODULE_DYNLIST).
TRACE_MODULE := $(BUILD)/lib/dgrdma-tools/dgrdma-trace.so
TRACE_MODULE_SRCS := analysis/input/ctf_graph.c analysis/input/kernel_graph.c \
	analysis/input/trace_module.c
TRACE_MODULE_LIBS := $(shell $(PKG_CONFIG) --libs babeltrace2 2>/dev/null)
TRACE_MODULE_DYNLIST := analysis/input/trace_module.dynlist
MODULEDIR := $(PREFIX)/lib/dgrdma-tools
PROGRAMS += $(TRACE_MODULE)
$(TRACE_MODULE): $(call pic_objs,$(TRACE_MODULE_SRCS))
	@mkdir -p $(@D)
	$(CC) -shared $(ALL_LDFLAGS) -o $@ $^ $(TRACE_MODULE_LIBS)
analysis: $(TRACE_MODULE)

LATENCY_REPORT := $(BUILD)/bin/latency-report
PROGRAMS += $(LATENCY_REPORT)
# latency-report itself (analysis/latency-report/): main, the options, the offline pipeline,
# the live view, and what the last two judge alike.
# Its trace reader is built with it: the program refuses a module of another version.
LATENCY_REPORT_SRCS := $(wildcard analysis/latency-report/*.c)
$(LATENCY_REPORT): $(call objs,$(LATENCY_REPORT_SRCS) analysis/verdict/advise.c $(ANALYSIS_CORE_SRCS) \
		$(ANALYSIS_IO_SRCS)) $(LIBDGRENGINE_A) $(ANALYSIS_LIBDGRTUNE) $(ANALYSIS_LIBDGRDMA) \
		$(TRACE_MODULE_DYNLIST) | $(TRACE_MODULE)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -Wl,--dynamic-list=$(TRACE_MODULE_DYNLIST) -o $@ \
		$(filter-out $(TRACE_MODULE_DYNLIST),$^) $(ANALYSIS_LIBS)

analysis: $(LATENCY_REPORT)
# its bash completion, from its option table (stack/cli/module.mk)
all: $(BUILD)/completion/latency-report

CHECK_DEPS += $(DGRDMA_GEN) $(LATENCY_REPORT) $(TRACE_MODULE)
CHECK_SUITES += test/analysis/capture_scenarios.sh test/analysis/summary.sh test/analysis/trace_input.sh test/analysis/plot_kinds.sh test/analysis/real_runs.sh test/analysis/hostile_input.sh test/analysis/advise.sh \
	test/analysis/verdicts.sh test/analysis/roles.sh test/analysis/live.sh test/analysis/live_hosts.sh \
	test/analysis/plot_live.sh test/analysis/run_folder.sh test/analysis/run_facts.sh \
	test/analysis/capture_sets.sh test/analysis/trace_rotation.sh test/analysis/percentiles.sh \
	test/analysis/plot_columns.sh test/analysis/trace_module.sh

# Unit tests of the matcher, statistics + classifier, in-host events + join.
# The unit tests include the analysis' headers by name, through its include path.
$(BUILD)/obj/test/analysis/%.o: CFLAGS_test += $(ANALYSIS_INCLUDES)
ANALYSIS_UNIT := $(BUILD)/test/analysis/test_doorbell_match $(BUILD)/test/analysis/test_classify \
	$(BUILD)/test/analysis/test_ip_defrag $(BUILD)/test/analysis/test_frame_decode \
	$(BUILD)/test/analysis/test_host_events $(BUILD)/test/analysis/test_live \
	$(BUILD)/test/analysis/test_csv_output $(BUILD)/test/analysis/test_stall_cause \
	$(BUILD)/test/analysis/test_wire_threads \
	$(BUILD)/test/analysis/test_stats $(BUILD)/test/analysis/test_plot_columns
$(BUILD)/test/analysis/%: $(BUILD)/obj/test/analysis/%.o $(call objs,$(ANALYSIS_CORE_SRCS)) \
		$(LIBDGRENGINE_A) $(ANALYSIS_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm
analysis: $(ANALYSIS_UNIT)
CHECK_DEPS += $(ANALYSIS_UNIT)
CHECK_SUITES += $(ANALYSIS_UNIT)

# Following a capture file as it is written: libpcap, and dgrdma-gen's captures.
ANALYSIS_FOLLOW_TEST := $(BUILD)/test/analysis/test_pcap_follow
$(ANALYSIS_FOLLOW_TEST): $(BUILD)/obj/test/analysis/test_pcap_follow.o \
		$(call objs,$(ANALYSIS_CORE_SRCS) analysis/input/pcap_input.c) $(LIBDGRENGINE_A) \
		$(ANALYSIS_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ANALYSIS_LIBS)
analysis: $(ANALYSIS_FOLLOW_TEST)
CHECK_DEPS += $(ANALYSIS_FOLLOW_TEST) $(DGRDMA_GEN)
CHECK_SUITES += $(ANALYSIS_FOLLOW_TEST)

# The kernel trace's reader on perf's and LTTng's CTF of one scenario (kernel_ctf.c writes them):
# the module's reader linked in, not loaded.
ANALYSIS_KERNEL_INPUT_TEST := $(BUILD)/test/analysis/test_kernel_input
$(ANALYSIS_KERNEL_INPUT_TEST): $(call objs,test/analysis/test_kernel_input.c \
		test/analysis/kernel_ctf.c analysis/input/kernel_graph.c $(ANALYSIS_CORE_SRCS)) \
		$(LIBDGRENGINE_A) $(ANALYSIS_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ANALYSIS_LIBS) $(TRACE_MODULE_LIBS)
analysis: $(ANALYSIS_KERNEL_INPUT_TEST)
CHECK_DEPS += $(ANALYSIS_KERNEL_INPUT_TEST)
CHECK_SUITES += $(ANALYSIS_KERNEL_INPUT_TEST)

# run.json's reading: facts of a dgrdma-run/2 file, the conversion of a dgrdma-run/1 one;
# its one table of fields (run_schema.c) and its writer (run_writer.c, dgrdma-runinfo).
RUN_INFO_SRCS := analysis/input/run_info.c analysis/input/run_info_v1.c \
	analysis/input/run_schema.c analysis/input/run_writer.c analysis/input/fpga_counters.c
ANALYSIS_RUN_INFO_TEST := $(BUILD)/test/analysis/test_run_info
$(ANALYSIS_RUN_INFO_TEST): $(BUILD)/obj/test/analysis/test_run_info.o \
		$(call objs,$(RUN_INFO_SRCS)) $(ANALYSIS_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ANALYSIS_LIBS)
# The round trip: every field the writer writes, read back by the reader.
ANALYSIS_RUN_JSON_TEST := $(BUILD)/test/analysis/test_run_writer
$(ANALYSIS_RUN_JSON_TEST): $(BUILD)/obj/test/analysis/test_run_writer.o \
		$(call objs,$(RUN_INFO_SRCS)) $(ANALYSIS_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ANALYSIS_LIBS)
# latency-report --live RUN-FOLDER: its live.url, then its run.json (live_folder.c).
ANALYSIS_LIVE_FOLDER_TEST := $(BUILD)/test/analysis/test_live_folder
$(BUILD)/obj/test/analysis/test_live_folder.o: CFLAGS_test += -Ianalysis/latency-report
$(ANALYSIS_LIVE_FOLDER_TEST): $(BUILD)/obj/test/analysis/test_live_folder.o \
		$(call objs,analysis/latency-report/live_folder.c analysis/input/ctf_input.c \
		analysis/input/ctf_check.c analysis/input/trace_loader.c $(ANALYSIS_CORE_SRCS) \
		$(RUN_INFO_SRCS)) $(LIBDGRENGINE_A) $(ANALYSIS_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ANALYSIS_LIBS)
analysis: $(ANALYSIS_RUN_INFO_TEST) $(ANALYSIS_RUN_JSON_TEST) $(ANALYSIS_LIVE_FOLDER_TEST)
CHECK_DEPS += $(ANALYSIS_RUN_INFO_TEST) $(ANALYSIS_RUN_JSON_TEST) $(ANALYSIS_LIVE_FOLDER_TEST)
CHECK_SUITES += $(ANALYSIS_RUN_INFO_TEST) $(ANALYSIS_RUN_JSON_TEST) test/analysis/run_json_fields.sh \
	$(ANALYSIS_LIVE_FOLDER_TEST)

# dgrdma-plot (bash + gnuplot); its templates are copied beside it, as installed.
DGRDMA_PLOT := $(BUILD)/bin/dgrdma-plot
PLOT_TEMPLATES := $(wildcard analysis/plot/*.gp)
PROGRAMS += $(DGRDMA_PLOT) $(patsubst analysis/plot/%,$(BUILD)/share/dgrdma-tools/plot/%,$(PLOT_TEMPLATES))
$(DGRDMA_PLOT): analysis/dgrdma-plot $(VERSION_H)
	$(install_script)
# its option table is served by dgrdma-opts (stack/module.mk: DGRDMA_OPTS), from which come its
# --help, --list-options, man page's OPTIONS and bash completion
all: $(BUILD)/completion/dgrdma-plot
$(BUILD)/completion/dgrdma-plot: $(BUILD)/bin/dgrdma-opts
$(BUILD)/share/dgrdma-tools/plot/%.gp: analysis/plot/%.gp
	@mkdir -p $(@D)
	install -m 0644 $< $@
analysis: $(DGRDMA_PLOT) $(patsubst analysis/plot/%,$(BUILD)/share/dgrdma-tools/plot/%,$(PLOT_TEMPLATES))

# make bench-analysis (not in check): docs/performance/analysis.md
BENCH_TARGETS += bench-analysis
.PHONY: bench-analysis
bench-analysis: analysis
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/analysis/bench/bench_analysis.sh

INSTALL_TARGETS += install-analysis
INSTALLED_FILES += $(BINDIR)/latency-report $(MODULEDIR)/dgrdma-trace.so $(BINDIR)/dgrdma-plot \
	$(patsubst analysis/plot/%,$(DATADIR)/plot/%,$(PLOT_TEMPLATES)) \
	$(MANDIR)/man1/latency-report.1 $(MANDIR)/man1/dgrdma-plot.1 \
	$(COMPLETIONDIR)/latency-report $(COMPLETIONDIR)/dgrdma-plot $(LIBEXECDIR)/dgrdma-opts
INSTALLED_DIRS += $(DATADIR)/plot $(DATADIR) $(LIBEXECDIR) $(MODULEDIR)
.PHONY: install-analysis
install-analysis: $(LATENCY_REPORT) $(TRACE_MODULE) $(DGRDMA_PLOT) $(BUILD)/completion/latency-report \
		$(BUILD)/completion/dgrdma-plot $(BUILD)/bin/dgrdma-opts
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/plot \
		$(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MODULEDIR)
	install -m 0644 $(BUILD)/completion/latency-report $(BUILD)/completion/dgrdma-plot \
		$(DESTDIR)$(COMPLETIONDIR)/
	install -m 0755 $(BUILD)/bin/dgrdma-opts $(DESTDIR)$(LIBEXECDIR)/
	install -m 0755 $(LATENCY_REPORT) $(DGRDMA_PLOT) $(DESTDIR)$(BINDIR)/
	install -m 0755 $(TRACE_MODULE) $(DESTDIR)$(MODULEDIR)/
	install -m 0644 $(PLOT_TEMPLATES) $(DESTDIR)$(DATADIR)/plot/
	install -m 0644 analysis/latency-report/latency-report.1 analysis/dgrdma-plot.1 $(DESTDIR)$(MANDIR)/man1/

# make bench-memory (not in check): latency-report's resident memory and throughput on runs
# of 1 M, 10 M and 100 M transactions streamed through a pipe (docs/performance/analysis.md).
PCAP_REPEAT := $(BUILD)/test/analysis/pcap-repeat
$(PCAP_REPEAT): $(BUILD)/obj/test/analysis/bench/pcap_repeat.o $(ANALYSIS_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^
analysis: $(PCAP_REPEAT)
# make bench-read (not in check): latency-report's capture reading against the bare libpcap
# read loop over the same file, pcap-loop (docs/performance/analysis.md).
PCAP_LOOP := $(BUILD)/test/analysis/pcap-loop
$(PCAP_LOOP): $(BUILD)/obj/test/analysis/bench/pcap_loop.o
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs libpcap 2>/dev/null)
analysis: $(PCAP_LOOP)
BENCH_TARGETS += bench-read
.PHONY: bench-read
bench-read: analysis
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/analysis/bench/bench_read.sh

BENCH_TARGETS += bench-memory
.PHONY: bench-memory
bench-memory: analysis
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/analysis/bench/bench_memory.sh

# make bench-memory-trace (not in check): latency-report's resident memory on recorded run
# folders (trace + capture) of two lengths (docs/performance/analysis.md).
BENCH_TARGETS += bench-memory-trace
.PHONY: bench-memory-trace
bench-memory-trace: all
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/analysis/bench/bench_memory_trace.sh

# make bench-plot (not in check): the plot of a long run from latency-report's columns, 1 M and
# 10 M transactions streamed through a pipe (docs/performance/analysis.md).
BENCH_TARGETS += bench-plot
.PHONY: bench-plot
bench-plot: analysis
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/analysis/bench/bench_plot.sh
