# stackmap: deduplicated kernel stack traces for ftrace.
#
#   make          build the module (kmod/), the trace-cmd plugin (plugin/),
#                 the record tools (record/) and fgdecode (decoder/); the
#                 KernelShark plugin (kshark/) where libkshark-dev is installed
#   make demo     install what is missing, build, record a real workload in a
#                 qemu guest running the Debian kernel, print decoded stacks
#   make check    install what is missing, build, run every test suite
#                 (SUITES="..." runs only those, names of tests/run-tests.sh);
#                 the module's build and the qemu suites on the kernels of
#                 tests/run-tests.sh's table (6.1, 6.12, 6.12-rt, newest;
#                 make check KERNELS=6.12 runs them all on 6.12 only),
#                 then on a debug kernel built once per machine (KASAN,
#                 lockdep; DEBUG_KERNEL= leaves it out; tests/README.md "Debug kernel")
#   make check-fresh  the README's two commands in a fresh debootstrap root
#                 (tests/test_fresh_root.sh; before changing the build)
#   make bench    run the benchmarks (tests/bench/RESULTS.md); bench-quick
#                 runs them at tiny sizes, as make check does
#   make fuzz     run every fuzz harness for FUZZ_SECONDS (default 60) each
#   make install  fgdecode, the plugin, the trace-cmd front end (as
#                 PREFIX/bin/trace-cmd), man pages, and the module's source
#                 for DKMS (PREFIX, DESTDIR, PLUGINDIR, FRONTENDDIR, ...; see
#                 below)
#   make uninstall  all of it; trace-cmd is the stock one again
#   make deb      the Debian packages (debian/) in build/deb/, lintian-clean
#                 (mk/deb.sh); make check-deb installs them on fresh roots;
#                 DEB_HOST_ARCH=arm64 cross-builds arm64's into build/deb-arm64/
#
# The module is built for KVER=... if given, else for the running kernel if
# its headers are installed, else for the newest installed kernel image
# (kmod/kver.mk; `make` prints which and why). make check tests it on the
# kernels of tests/kernels.sh (6.1, 6.12, 6.12-rt, newest).

# KVER is resolved again by each make that needs it (kmod/Makefile includes
# kver.mk itself), never exported from here: `make check` and `make demo`
# parse this file before `deps` has installed linux-image-amd64 on a fresh
# machine, and an empty KVER exported then would stick to every sub-make.
# Only install's DKMS step reads it here, after the build.
include kmod/kver.mk
VERSION := $(shell sed -n 's/^\#define STACKMAP_VERSION\t*"\(.*\)"/\1/p' include/stackmap/version.h)

# Install locations. The plugin goes where libtraceevent looks for plugins
# of the system, whatever PREFIX is (override PLUGINDIR for
# ~/.local/lib/traceevent/plugins or a TRACEEVENT_PLUGIN_DIR).
PREFIX ?= /usr/local
# The target's pkg-config in a cross build (mk/build.mk).
PKG_CONFIG ?= pkg-config
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PLUGINDIR ?= $(shell $(PKG_CONFIG) --variable=libdir libtraceevent)/traceevent/plugins
DKMSDIR ?= /usr/src/stackmap-$(VERSION)
# The trace-cmd front end (record/trace-cmd) and its stackmap-snapshot.  In
# BINDIR it is "trace-cmd" for everyone: /usr/local/bin comes before
# /usr/bin on the default PATH, and it hands every command it does not
# handle to the next trace-cmd on PATH.  A directory off PATH (for example
# FRONTENDDIR=$(PREFIX)/libexec/stackmap) makes it opt-in.  It never
# replaces a trace-cmd that is not a front end (PREFIX=/usr would replace
# the real /usr/bin/trace-cmd) and uninstall removes only a front end.
FRONTENDDIR ?= $(BINDIR)
FE := $(DESTDIR)$(FRONTENDDIR)/trace-cmd
# The front end's third line (record/trace-cmd: is_front_end).
is_front_end = [ "$$(sed -n 3p $(1) 2>/dev/null)" = "\# stackmap trace-cmd front end" ]
# Where make install put the front end before it was installed as trace-cmd
# (uninstall removes what is left there).
OLD_FRONTENDDIR := $(PREFIX)/libexec/stackmap
# Run dkms add/build/install when installing to the live system.
DKMS ?= $(if $(DESTDIR),,$(shell command -v dkms))
KMOD_SOURCES := $(filter-out %.mod.c,$(wildcard kmod/*.c)) $(wildcard kmod/*.h) kmod/Kbuild kmod/Makefile kmod/kver.mk
# The KernelShark plugin (kshark/), built and installed only where
# libkshark-dev is installed (KSHARK= leaves it out), into the directory
# KernelShark's "-p stackmap" loads plugin-stackmap.so from.
KSHARK ?= $(if $(wildcard $(shell $(PKG_CONFIG) --variable=pcfiledir libtraceevent 2>/dev/null)/libkshark.pc),kshark)
KSHARK_PLUGINDIR ?= $(shell $(PKG_CONFIG) --variable=libdir libtraceevent)/kernelshark/plugins

all: module plugin record decoder $(KSHARK)

module:
	$(MAKE) -C kmod

plugin:
	$(MAKE) -C plugin

record:
	$(MAKE) -C record

decoder:
	$(MAKE) -C decoder

kshark:
	$(MAKE) -C kshark

deps:
	tests/install-deps.sh

check: deps
	$(MAKE) all
	tests/run-tests.sh $(SUITES)

# The README's two commands on fresh debootstrap roots (FRESH_SUITES, default
# bookworm): run before every change to the build, the install or the
# dependencies (tests/test_fresh_root.sh).
check-fresh: deps
	tests/test_fresh_root.sh $(or $(FRESH_SUITES),bookworm)

# Debian packages: dpkg-buildpackage on a copy of the tree, then lintian
# (mk/deb.sh); check-deb builds, installs and purges them in fresh roots of
# DEB_SUITES (default bookworm trixie) and records in the guest with them
# (tests/test_deb.sh).
deb:
	mk/deb.sh

check-deb: deps
	tests/test_deb.sh $(or $(DEB_SUITES),bookworm trixie)

# Fuzz every harness for FUZZ_SECONDS (default 60) each.
fuzz: deps
	$(MAKE) -C tests/fuzz run SECONDS=$(or $(FUZZ_SECONDS),60)
	$(MAKE) -C tests/fuzz regress

# Benchmarks: every figure beside its baseline measured in the same run
# (tests/bench/README.md); bench-quick runs them all at tiny sizes.
bench: deps
	$(MAKE) all
	tests/bench/run.sh

bench-quick: deps
	$(MAKE) all
	tests/bench/run.sh --quick

demo: deps
	$(MAKE) all
	tests/vm/demo.sh

# What a machine that only reads traces needs (Debian: the fgdecode,
# libtraceevent1-plugin-stackmap and kernelshark-plugin-stackmap packages).
install-decoder: decoder plugin $(KSHARK)
	install -D -m 0755 decoder/fgdecode $(DESTDIR)$(BINDIR)/fgdecode
	install -D -m 0644 plugin/plugin_stackmap.so $(DESTDIR)$(PLUGINDIR)/plugin_stackmap.so
	$(if $(KSHARK),install -D -m 0644 kshark/plugin-stackmap.so $(DESTDIR)$(KSHARK_PLUGINDIR)/plugin-stackmap.so)
	install -D -m 0644 man/fgdecode.1 $(DESTDIR)$(MANDIR)/man1/fgdecode.1
	install -D -m 0644 man/plugin_stackmap.7 $(DESTDIR)$(MANDIR)/man7/plugin_stackmap.7

# Everything or nothing: what can refuse (a trace-cmd that is not the front
# end where it would go) is checked before a file is installed.
install: decoder plugin record
	@if [ -e "$(FE)" ] && ! $(call is_front_end,"$(FE)"); then \
		echo "make install: $(FE) is not the stackmap front end (the real trace-cmd?); not replacing it: use another PREFIX or FRONTENDDIR" >&2; \
		exit 1; \
	fi
	$(MAKE) --no-print-directory install-decoder
	install -D -m 0644 man/stackmap.7 $(DESTDIR)$(MANDIR)/man7/stackmap.7
	install -D -m 0755 record/trace-cmd $(FE)
	install -D -m 0755 record/stackmap-snapshot $(DESTDIR)$(FRONTENDDIR)/stackmap-snapshot
	install -D -m 0644 man/stackmap-record.1 $(DESTDIR)$(MANDIR)/man1/stackmap-record.1
	ln -sf stackmap-record.1 $(DESTDIR)$(MANDIR)/man1/stackmap-snapshot.1
	install -d $(DESTDIR)$(DKMSDIR)/kmod $(DESTDIR)$(DKMSDIR)/include/stackmap
	install -m 0644 $(KMOD_SOURCES) $(DESTDIR)$(DKMSDIR)/kmod/
	install -m 0644 include/stackmap/*.h $(DESTDIR)$(DKMSDIR)/include/stackmap/
	sed 's/#MODULE_VERSION#/$(VERSION)/' kmod/dkms.conf >$(DESTDIR)$(DKMSDIR)/dkms.conf
	$(if $(DKMS),$(DKMS) install -m stackmap -v $(VERSION) -k $(KVER))
	@if [ -z "$(DESTDIR)" ] && [ "$$(command -v trace-cmd)" != "$(FE)" ]; then \
		echo "make install: note: trace-cmd on this PATH is $$(command -v trace-cmd), not $(FE): put $(FRONTENDDIR) first on PATH for trace-cmd record -O stackmap" >&2; \
	fi

uninstall:
	$(if $(DKMS),-$(DKMS) remove -m stackmap -v $(VERSION) --all)
	rm -f $(DESTDIR)$(BINDIR)/fgdecode $(DESTDIR)$(PLUGINDIR)/plugin_stackmap.so
	rm -f $(DESTDIR)$(KSHARK_PLUGINDIR)/plugin-stackmap.so
	rm -f $(DESTDIR)$(MANDIR)/man1/fgdecode.1 $(DESTDIR)$(MANDIR)/man7/stackmap.7
	if $(call is_front_end,"$(FE)"); then rm -f "$(FE)"; fi
	rm -f $(DESTDIR)$(FRONTENDDIR)/stackmap-snapshot
	rm -f $(DESTDIR)$(OLD_FRONTENDDIR)/trace-cmd $(DESTDIR)$(OLD_FRONTENDDIR)/stackmap-snapshot
	rmdir $(DESTDIR)$(OLD_FRONTENDDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(MANDIR)/man1/stackmap-record.1 $(DESTDIR)$(MANDIR)/man1/stackmap-snapshot.1
	rm -f $(DESTDIR)$(MANDIR)/man7/plugin_stackmap.7
	rm -rf $(DESTDIR)$(DKMSDIR)

clean:
	-$(MAKE) -C kmod clean
	-$(MAKE) -C lib clean
	-$(MAKE) -C plugin clean
	-$(MAKE) -C record clean
	-$(MAKE) -C decoder clean
	-$(MAKE) -C kshark clean
	-$(MAKE) -C tests/kmod clean
	-$(MAKE) -C tests/decoder clean
	-$(MAKE) -C tests/plugin clean
	-$(MAKE) -C tests/fuzz clean
	-$(MAKE) -C tests/bench clean
	rm -rf build

.PHONY: all module plugin record decoder kshark deps check check-fresh deb check-deb fuzz bench bench-quick demo install install-decoder uninstall clean
