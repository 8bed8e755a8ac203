# The kernel stackmap.ko is built for, shared by kmod/Makefile and the top
# Makefile. Each make evaluates it when it parses: the top Makefile does not
# export the result, since on a fresh machine it parses before `deps` has
# installed a kernel (a KVER given on the command line reaches every sub-make
# anyway):
#   KVER=...   given on the command line (or by DKMS: KVER=${kernelver})
#   else       the running kernel, `uname -r`, when its headers are installed
#              (/lib/modules/$(uname -r)/build): a user building for the
#              machine they run
#   else       the newest installed kernel image, /boot/vmlinuz-*: a build
#              host or CI runs another kernel, without headers, than the one
#              the module is for
# KVER_WHY says which of these it was.
ifndef KVER_WHY
ifneq ($(origin KVER),undefined)
KVER_WHY := given ($(origin KVER))
else
KVER_RUNNING := $(shell uname -r)
ifneq ($(wildcard /lib/modules/$(KVER_RUNNING)/build/Makefile),)
KVER := $(KVER_RUNNING)
KVER_WHY := the running kernel (uname -r), whose headers are installed
else
KVER := $(shell ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V | tail -n1)
KVER_WHY := the newest installed kernel image: no headers for the running $(KVER_RUNNING)
endif
endif
endif
