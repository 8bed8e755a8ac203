# stackmap: deduplicated kernel stack traces for ftrace.
#
#   make          build the module (kmod/), the trace-cmd plugin (plugin/)
#                 and fgdecode (decoder/)
#   make demo     install what is missing, build, record a real workload in a
#                 qemu guest running the Debian kernel, print decoded stacks
#   make check    install what is missing, build, run every test suite
#
# The module is built against the newest installed kernel image's headers
# (KVER=... to choose another), never against `uname -r`.

KVER ?= $(shell ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V | tail -n1)
export KVER

all: module plugin decoder

module:
	$(MAKE) -C kmod

plugin:
	$(MAKE) -C plugin

decoder:
	$(MAKE) -C decoder

deps:
	tests/install-deps.sh

check: deps
	$(MAKE) all
	tests/run-tests.sh

demo: deps
	$(MAKE) all
	tests/vm/demo.sh

clean:
	-$(MAKE) -C kmod clean
	-$(MAKE) -C plugin clean
	-$(MAKE) -C decoder clean
	-$(MAKE) -C tests/kmod clean
	-$(MAKE) -C tests/decoder clean
	-$(MAKE) -C tests/plugin clean
	rm -rf build

.PHONY: all module plugin decoder deps check demo clean
