# SPDX-License-Identifier: GPL-2.0-or-later
# libdgrdma (static and shared) and the stack's tools.

STACK_SRCS := $(wildcard stack/src/*.c)
LIBDGRDMA_A := $(BUILD)/lib/libdgrdma.a
LIBDGRDMA_SO := $(BUILD)/lib/libdgrdma.so
LIBRARIES += $(LIBDGRDMA_A) $(LIBDGRDMA_SO)
STACK_LIBS := -lpthread

$(LIBDGRDMA_A): $(call objs,$(STACK_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIBDGRDMA_SO): $(call pic_objs,$(STACK_SRCS))
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libdgrdma.so.0 $(ALL_LDFLAGS) -o $@ $^ $(STACK_LIBS)

# dgrdma-wire: fragmentation plans and frame decoding from the command line.
PROGRAMS += $(BUILD)/bin/dgrdma-wire
$(BUILD)/bin/dgrdma-wire: $(call objs,stack/tools/dgrdma-wire.c) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(STACK_LIBS)

INSTALL_TARGETS += install-stack
.PHONY: install-stack
install-stack: $(LIBRARIES) $(BUILD)/bin/dgrdma-wire
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/dgrdma
	install -m 0755 $(BUILD)/bin/dgrdma-wire $(DESTDIR)$(BINDIR)/
	install -m 0644 $(LIBDGRDMA_A) $(DESTDIR)$(LIBDIR)/
	install -m 0755 $(LIBDGRDMA_SO) $(DESTDIR)$(LIBDIR)/libdgrdma.so.0
	ln -sf libdgrdma.so.0 $(DESTDIR)$(LIBDIR)/libdgrdma.so
	install -m 0644 stack/include/dgrdma/*.h $(DESTDIR)$(INCDIR)/dgrdma/

.PHONY: stack
stack: $(LIBDGRDMA_A) $(LIBDGRDMA_SO) $(BUILD)/bin/dgrdma-wire
