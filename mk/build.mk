# SPDX-License-Identifier: GPL-2.0
#
# What the Makefiles of lib/, decoder/, plugin/ and record/ share: flags,
# the object rule, and where libstackmap.a is.  Set ROOT (the top of the
# tree) and PKGS (pkg-config packages) before including it.
#
#   OUT=DIR            objects and products in DIR instead of in place
#   EXTRA_CFLAGS=...   added to every compile and link (the tests' and
#                      fuzzers' sanitizers)
#   SAN=1              AddressSanitizer and UBSan
.DEFAULT_GOAL := all
OUT ?= .

CC ?= gcc
# The pkg-config of the machine the build is for: a cross build names the
# target's (dpkg's buildtools.mk: aarch64-linux-gnu-pkg-config).
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
EXTRA_CFLAGS ?=
WARNFLAGS := -std=gnu11 -Wall -Wextra -Werror
# Objects linked into the plugin's shared object (libstackmap.a, the plugin).
PICFLAGS := -fPIC -fvisibility=hidden
ifeq ($(SAN),1)
EXTRA_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif
# A missing -dev package is named here, not by a compiler that cannot find a
# header (bookworm's libtracecmd.pc requires libtracefs, which
# libtracecmd-dev does not pull in).  Not for clean, nor for print-*
# targets, which say what to install.
ifeq ($(filter clean print-%,$(MAKECMDGOALS)),)
PKGS_MISSING := $(shell $(PKG_CONFIG) --print-errors --exists $(PKGS) 2>&1 | sed -n "s/.*Package '\{0,1\}\([^ ']*\)'\{0,1\}.* not found.*/\1/p" | sort -u)
ifneq ($(strip $(PKGS_MISSING)),)
$(error pkg-config finds no $(PKGS_MISSING) (needed by $(PKGS)): install the -dev packages, tests/install-deps.sh lists them)
endif
endif
CPPFLAGS += -I$(ROOT)/include -I$(ROOT)/lib $(shell $(PKG_CONFIG) --cflags $(PKGS))
LDLIBS += $(shell $(PKG_CONFIG) --libs $(PKGS))

# libstackmap.a: in lib/ for the default build, in OUT/lib otherwise, built
# by lib/Makefile with the same flags.
LIBSTACKMAP_OUT := $(if $(filter .,$(OUT)),$(abspath $(ROOT)/lib),$(abspath $(OUT))/lib)
LIBSTACKMAP := $(LIBSTACKMAP_OUT)/libstackmap.a
ifneq ($(abspath $(CURDIR)),$(abspath $(ROOT)/lib))
$(LIBSTACKMAP): FORCE
	$(MAKE) -C $(ROOT)/lib OUT=$(LIBSTACKMAP_OUT)
endif

# OBJFLAGS: a Makefile's own compile flags (PICFLAGS for PIC objects).
$(OUT)/%.o: %.c | $(OUT)/
	$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) $(WARNFLAGS) $(OBJFLAGS) -MMD -MP -c -o $@ $<

$(OUT)/:
	mkdir -p $@

FORCE:
.PHONY: all clean FORCE
