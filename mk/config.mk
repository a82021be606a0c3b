# SPDX-License-Identifier: GPL-2.0-or-later
# Compiler flags, build variants and install paths shared by every fragment.

# Variants get their own folder so objects of different flavours never mix:
#   make            -> build/
#   make SAN=1      -> build/san/   (ASan + UBSan)
#   make OPT=-O0    -> build/O0/    (benchmarks compare against this)
OPT ?= -O2
SAN ?= 0
ifeq ($(SAN),1)
BUILD ?= build/san
else ifneq ($(OPT),-O2)
BUILD ?= build/$(patsubst -%,%,$(OPT))
else
BUILD ?= build
endif

CC ?= cc
PKG_CONFIG ?= pkg-config
WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wconversion -Wno-sign-conversion \
	-Wstrict-prototypes -Wmissing-prototypes -Wundef -Wpointer-arith
BASE_CFLAGS := -std=gnu11 $(OPT) -g $(WARN) -D_GNU_SOURCE -fno-strict-aliasing \
	-Istack/include
BASE_LDFLAGS :=
ifeq ($(SAN),1)
BASE_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BASE_LDFLAGS += -fsanitize=address,undefined
endif
CFLAGS ?=
LDFLAGS ?=
ALL_CFLAGS = $(BASE_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(BASE_LDFLAGS) $(LDFLAGS)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
LIBDIR := $(PREFIX)/lib
INCDIR := $(PREFIX)/include
MANDIR := $(PREFIX)/share/man
DATADIR := $(PREFIX)/share/dgrdma-tools

# Objects: $(BUILD)/obj/<source path>.o, with header dependencies.
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(firstword $(subst /, ,$<))) -MMD -MP -c -o $@ $<

# Position-independent objects for shared libraries and plugins.
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(firstword $(subst /, ,$<))) -fPIC -MMD -MP -c -o $@ $<

# Turn a list of sources into the matching object paths.
objs = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
pic_objs = $(patsubst %.c,$(BUILD)/pic/%.o,$(1))
