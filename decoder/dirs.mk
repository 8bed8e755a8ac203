# SPDX-License-Identifier: GPL-2.0
#
# The folders of decoder/, one per stage of fgdecode (see decoder/Makefile),
# and the include flags of code that uses their headers (the decoder, its
# tests, fuzzers and benchmarks).  Set ROOT (the top of the tree) first.
DECODER_DIRS := commands pipeline analyses symbols outputs
DECODER_CPPFLAGS := -I$(ROOT)/decoder $(addprefix -I$(ROOT)/decoder/,$(DECODER_DIRS))
