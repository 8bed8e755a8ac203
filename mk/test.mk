# SPDX-License-Identifier: GPL-2.0
#
# What the unit-test Makefiles (tests/lib, tests/decoder, tests/plugin)
# share: AddressSanitizer and UBSan on every object, the shared fixtures of
# tests/fixtures/, and the components rebuilt with the same sanitizers into
# san/ (each component's Makefile with OUT=san).  Set ROOT and PKGS before
# including it.
.DEFAULT_GOAL := all

CC ?= gcc
CFLAGS ?= -O1 -g
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
WARNFLAGS := -std=gnu11 -Wall -Wextra -Werror
FIXTURES := $(ROOT)/tests/fixtures
CPPFLAGS += -I$(ROOT)/include -I$(ROOT)/lib -I$(FIXTURES) $(shell pkg-config --cflags $(PKGS))
LDLIBS += $(shell pkg-config --libs $(PKGS))

SANDIR := $(CURDIR)/san
SANMAKE = $(MAKE) OUT=$(SANDIR) CFLAGS='$(CFLAGS)' EXTRA_CFLAGS='$(SANFLAGS)'

vpath %.c $(FIXTURES)

%.o: %.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SANFLAGS) $(WARNFLAGS) -MMD -MP -c -o $@ $<

# Shell text for a check recipe: run each of $(TESTS), rc=1 if any failed.
RUN_TESTS = rc=0; for t in $(TESTS); do echo "== $$t"; ./$$t || rc=1; done

FORCE:
.PHONY: all check clean FORCE

-include $(wildcard *.d)
