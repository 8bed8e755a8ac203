# SPDX-License-Identifier: GPL-2.0
#
# The user-space code under include/stackmap/ that the libtraceevent plugin
# and fgdecode share.  Include this file from a folder's Makefile; it sets:
#
#   STACKMAP_INCDIR     this directory
#   STACKMAP_USER_SRCS  the shared .c files (compile them into your target)
#   STACKMAP_USER_HDRS  the headers they depend on
STACKMAP_INCDIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
STACKMAP_USER_SRCS := $(STACKMAP_INCDIR)/stacktab.c $(STACKMAP_INCDIR)/tep_stack.c \
		      $(STACKMAP_INCDIR)/snapshot.c
STACKMAP_USER_HDRS := $(wildcard $(STACKMAP_INCDIR)/*.h)
