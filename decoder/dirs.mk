# SPDX-License-Identifier: GPL-2.0
#
# The folders of decoder/, one per floor of fgdecode (see decoder/Makefile),
# and the preprocessor flags of code that uses their headers (the decoder, its
# tests, fuzzers and benchmarks).  Set ROOT (the top of the tree) first.
# Top floor first: a file includes headers of its own folder and of those
# after it, never of one before it (tests/decoder/check_floors.sh).
DECODER_DIRS := commands outputs analyses pipeline symbols common
DECODER_CPPFLAGS := -I$(ROOT)/decoder $(addprefix -I$(ROOT)/decoder/,$(DECODER_DIRS))

# trace-cmd 3.3 and later (built with libtracecmd 1.5.0 or later: trixie's
# 3.3.1) print the latency flags ("d..2.") after the CPU in report's event
# lines (trace-cmd commit 1e713bfc); 3.1.6 (bookworm) does not.  fgdecode's
# event lines are those of the trace-cmd its libtracecmd came with
# (outputs/format.c).
PKG_CONFIG ?= pkg-config
ifeq ($(shell $(PKG_CONFIG) --atleast-version=1.5.0 libtracecmd && echo y),y)
DECODER_CPPFLAGS += -DFG_REPORT_LATENCY=1
endif
