# SPDX-License-Identifier: GPL-2.0-or-later
# hostprep — plain Makefile, pkg-config for every library.
#
#   make              build build/hostprep (the build dependencies: make run installs them)
#   make check        install test deps if missing, unit + fake-host + VM tests
#   make check-fast   unit + fake-host tests only (no QEMU)
#   make check-crash  crash consistency: kills, full disk, read-only records (tests/crash)
#   make check-pkg    build the .deb and .rpm, lint them, check their contents
#   make check-fresh  make run + make check in a fresh minimal Debian 12 root (what CI runs;
#                     FRESH_TARGETS= other targets; tests/fresh/run.sh)
#   make run          install runtime deps if missing, apply --dry-run + check on this host
#   make install DESTDIR= PREFIX=
#   make deb / make rpm   packages from a clean export, into build/deb, build/rpm
#   make bench        speed/memory targets (never asserted by tests; BENCH_QUICK=1 fast)
#   make fuzz         libFuzzer targets, FUZZ_SECONDS each (tests/fuzz/README.md); a short
#                     run of each (check-fuzz) is part of make check
#   make man          build/man/hostprep.8, build/man/hostprep.conf.5 (scdoc)

# The one version: packaging/build.sh carries it into debian/changelog (checked)
# and the rpm spec, -DHOSTPREP_VERSION into `hostprep --version`.
VERSION    := 0.1.0
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
# Vendor config and units live in /usr/lib like systemd's, whatever PREFIX is:
# the binary searches /usr/lib/hostprep, and systemd only reads its own unit dirs.
LIBDIR_HP  ?= /usr/lib/hostprep
UNITDIR    ?= /usr/lib/systemd/system
CATALOGDIR ?= /usr/lib/systemd/catalog
DOCDIR     ?= $(PREFIX)/share/doc/hostprep
SYSCONFDIR ?= /etc
MANDIR     ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
UDEVRULESDIR ?= /usr/lib/udev/rules.d
SLEEPDIR   ?= /usr/lib/systemd/system-sleep
SYSTEMCTL  ?= /usr/bin/systemctl

CC       ?= cc
PKGS     := libpci inih json-c zlib nettle
# dlopen()ed when first needed (src/kmod/kmod-dlopen.c, src/rdma/rdma-verbs.c,
# src/core/sd-dlopen.c, src/snapshot/snapshot-tar.c):
# headers only, not linked
PKGS_DL  := libkmod libibverbs libsystemd libarchive
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
	    -Wno-unused-parameter -Wno-format-nonliteral
ifeq ($(CI),true)
WARN     += -Werror
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(PKGS_DL) 2>/dev/null)
PKG_OK     := $(shell pkg-config --exists $(PKGS) $(PKGS_DL) 2>/dev/null && echo yes)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# Includes name their folder ("run/run.h", "acs/plan.h"). -iquote, not -I: src/pci/pci.h
# must not shadow libpci's <pci/pci.h>.
ALL_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -DHOSTPREP_VERSION=\"$(VERSION)\" \
	      -iquote src $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS)

B        := build
SRCS     := $(sort $(wildcard src/*.c src/*/*.c))
FMT_SRCS  = $(wildcard src/*.[ch] src/*/*.[ch])
OBJS     := $(SRCS:src/%.c=$(B)/%.o)
LIBOBJS  := $(filter-out $(B)/main.o,$(OBJS))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
# One scdoc source per page in doc/; the roff is generated, never edited.
MAN_PAGES := $(B)/man/hostprep.8 $(B)/man/hostprep.conf.5

.PHONY: all build-deps clean check check-fast check-unit check-fake check-fleet check-crash check-vm check-asan check-doc run \
	install deps deps-test bench format format-check man deb rpm check-pkg \
	fuzz fuzz-build check-fuzz check-fresh

all: $(B)/hostprep

$(B)/%.o: src/%.c | $(B) build-deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/hostprep: $(OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(B)/tests/%: tests/unit/%.c $(LIBOBJS) | $(B)/tests
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka) $(LDFLAGS) -o $@ $< $(LIBOBJS) \
		$(PKG_LIBS) $(shell pkg-config --libs cmocka)

$(B) $(B)/tests:
	mkdir -p $@

# The test tier's libnvidia-ml.so.1 (tests/nvml/shim.c): the record parser of the product
# answers NVML's calls from a description file. test_nvml loads it through LD_LIBRARY_PATH.
NVML_SHIM := $(B)/tests/nvml/libnvidia-ml.so.1
$(NVML_SHIM): tests/nvml/shim.c src/nvml/nvml.c src/nvml/nvml.h src/nvml/nvml-api.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -fvisibility=hidden -Wl,-soname,libnvidia-ml.so.1 \
		-o $@ tests/nvml/shim.c src/nvml/nvml.c
$(B)/tests/test_nvml: $(NVML_SHIM)
$(B)/tests/test_nvml: ALL_CFLAGS += -DNVML_SHIM_DIR='"$(abspath $(dir $(NVML_SHIM)))"'

# A plain build installs nothing (it runs inside dpkg-buildpackage and rpmbuild too);
# it says what is missing and how to get it.
build-deps:
ifneq ($(PKG_OK),yes)
	@echo "build dependencies missing (pkg-config: $(PKGS) $(PKGS_DL)):" \
		"'make run' or 'tests/deps.sh runtime' installs them" >&2; exit 1
endif

man:
	@tests/deps.sh runtime
	@$(MAKE) --no-print-directory $(MAN_PAGES)

$(B)/man/%: doc/%.scd
	@mkdir -p $(dir $@)
	scdoc < $< > $@.tmp && mv $@.tmp $@

-include $(OBJS:.o=.d)

deps:
	@tests/deps.sh runtime

deps-test:
	@tests/deps.sh test

run: deps
	$(MAKE) -j$$(nproc) all
	@echo "== hostprep apply --dry-run (the shipped default, as installed: --vendor-config) =="
	@$(B)/hostprep --vendor-config conf/hostprep.conf apply --dry-run; true
	@echo "== hostprep check =="
	@$(B)/hostprep --vendor-config conf/hostprep.conf check; rc=$$?; \
		echo "hostprep check exit status: $$rc (0 ready, 1 not ready, 2 config, 3 internal)"; \
		[ $$rc -le 1 ]

check-unit:
	@tests/deps.sh test
	@$(MAKE) --no-print-directory all $(UNIT_BINS)
	@tests/run-unit.sh $(UNIT_BINS)

check-fake:
	@tests/deps.sh test
	@$(MAKE) --no-print-directory all
	@tests/fake/run.sh $(B)/hostprep

# Crash consistency: apply and revert killed at every write, fsync, rename and unlink
# (before and after), a full disk and a read-only directory under the records; revert
# must give back the original tree byte for byte (tests/crash/README.md).
check-crash:
	@tests/deps.sh test
	@$(MAKE) --no-print-directory all
	@tests/crash/run.py $(B)/hostprep

# Man pages lint-clean and complete against the program and the shipped
# config; bash completion against a --config file.
check-doc:
	@tests/deps.sh test
	@$(MAKE) --no-print-directory all $(MAN_PAGES)
	@tests/doc/run.sh $(B)/hostprep $(MAN_PAGES)

# Sanitizer flavour: the same unit and fake-host tiers against an ASan+UBSan
# build in build-asan/. libpci 3.9's own leak is suppressed (tests/lsan.supp).
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	       -fno-omit-frame-pointer
# exitcode=86: a sanitizer report is an exit status no hostprep run gives (0-3), so a
# case that expects exit 1 cannot pass on a memory error.
ASAN_ENV := ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:exitcode=86 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86

check-asan:
	@tests/deps.sh test
	$(MAKE) B=build-asan CFLAGS="$(ASAN_CFLAGS)" LDFLAGS="-fsanitize=address,undefined" \
		build-asan/hostprep $(UNIT_SRCS:tests/unit/%.c=build-asan/tests/%)
	@$(ASAN_ENV) HOSTPREP_TIER=unit-asan tests/run-unit.sh build-asan/tests/test_*
	@# 30 publish-race rounds, not 60 (check-fake's): under the sanitizers a round costs
	@# 3x, and make check runs the fake tier only here (below)
	@$(ASAN_ENV) RACE_ROUNDS=30 HOSTPREP_TIER=fake-asan tests/fake/run.sh build-asan/hostprep

# libFuzzer targets (tests/fuzz/README.md): the product objects built with clang, ASan and
# UBSan into build-fuzz/. check-fuzz runs each target briefly over its checked-in corpus,
# fuzz runs each FUZZ_SECONDS; both fail on any crash, leak or timeout and print the
# executions per target.
# FUZZ_CC: clang-14 (Debian 12) when there is one, else clang; chosen once deps are installed
FUZZ_CC    ?=
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	       -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRCS  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 600
FUZZ_CHECK_SECONDS ?= 6

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/fuzz -fsanitize=fuzzer,address,undefined -o $@ $< \
		$(LIBOBJS) $(PKG_LIBS)

# Warnings are errors here too: clang sees what gcc does not (an unused _cleanup_ variable).
fuzz-build:
	@tests/deps.sh fuzz
	@cc="$(FUZZ_CC)"; cc=$${cc:-$$(command -v clang-14 || echo clang)}; \
	$(MAKE) --no-print-directory B=build-fuzz CI=true CC=$$cc CFLAGS="$(FUZZ_CFLAGS)" \
		$(FUZZ_SRCS:tests/fuzz/%.c=build-fuzz/fuzz/%)

# Two targets at once: make check has the machine to itself.
check-fuzz: fuzz-build
	@FUZZ_JOBS=$${FUZZ_JOBS:-2} tests/fuzz/run.sh $(FUZZ_CHECK_SECONDS) build-fuzz/fuzz

fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_SECONDS) build-fuzz/fuzz

# Fleet tier: the adapters under fleet/ against each engine's own offline tools
# (promtool test rules, the Kubernetes schemas ...): tests/fleet/run.sh.
check-fleet:
	@tests/deps.sh fleet
	@tests/fleet/run.sh

check-fast: deps-test
	$(MAKE) check-unit check-doc check-fake

# Package tier: .deb and .rpm from a clean export, lintian/rpmlint, contents.
check-pkg:
	@tests/deps.sh pkg
	@tests/pkg/run.sh $(B)/pkg-test

# pkg deps too: the HOSTPREP_INSTALL=deb scenarios install the .deb built here
check-vm:
	@tests/deps.sh pkg vm
	@$(MAKE) --no-print-directory all
	@tests/vm/run.sh

# The QEMU tier runs whenever QEMU and the image tools can be installed; a
# machine where they cannot says so loudly instead of failing the fast tiers,
# except in CI (CI=true): there a tier that cannot run fails make check.
# Each tier prints its wall time ("time: TIER N s") so CI's budget can be watched.
# The fake tier runs once, on the ASan/UBSan build (check-asan): the same cases and
# assertions as check-fake, plus every memory error and undefined behaviour they reach.
# Running it twice (plain, then sanitized) cost CI 14 minutes of its 90 for nothing that
# the sanitized run does not also prove; the release build is what the fleet, crash,
# package and QEMU tiers run. check-fake stays the developer's quick tier.
check: deps-test
	@for t in check-unit check-doc check-asan check-fleet check-crash check-fuzz check-pkg; do \
		s=$$(date +%s); \
		$(MAKE) --no-print-directory $$t || exit 1; \
		echo "time: $$t $$(( $$(date +%s) - s )) s"; done
	@s=$$(date +%s); \
	if tests/deps.sh vm; then $(MAKE) --no-print-directory check-vm || exit 1; \
	elif [ "$(CI)" = true ]; then \
		echo "vm: FAILED: QEMU or the guest-image tools could not be installed (CI=true)"; \
		echo "vm: 0 passed, 1 failed"; exit 1; \
	else echo "vm: SKIPPED: QEMU or the guest-image tools could not be installed"; fi; \
	echo "time: check-vm $$(( $$(date +%s) - s )) s"

# The README's commands on a minimal Debian 12 root (mmdebstrap minbase + make + git) with
# a clean export of HEAD: proves that every target installs what it needs (.ci/run).
FRESH_TARGETS ?= run check
check-fresh:
	@tests/fresh/run.sh $(FRESH_TARGETS)

# tests/bench/: the launcher that measures a run, the raw-read floor, the
# tree generator; strace and pciutils (the NCCL loop): tests/deps.sh bench.
$(B)/bench-spawn: tests/bench/spawn.c | $(B)
	$(CC) -O2 -Wall -o $@ $<

$(B)/bench-floor: tests/bench/floor.c | $(B)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE -o $@ $<

bench:
	@tests/deps.sh bench
	$(MAKE) --no-print-directory all $(B)/bench-spawn $(B)/bench-floor
	@python3 tests/bench/bench.py $(B)/hostprep $(B)/bench-spawn $(B)/bench-floor

UNIT_SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@LIBDIR_HP@|$(LIBDIR_HP)|g' \
	-e 's|@SYSTEMCTL@|$(SYSTEMCTL)|g'

install: all $(MAN_PAGES)
	install -Dm755 $(B)/hostprep $(DESTDIR)$(BINDIR)/hostprep
	install -Dm644 conf/hostprep.conf $(DESTDIR)$(LIBDIR_HP)/hostprep.conf
	install -d $(DESTDIR)$(LIBDIR_HP)/hostprep.conf.d
	sed 's|@BINDIR@|$(BINDIR)|g' units/hostprep.service.in > $(B)/hostprep.service
	install -Dm644 $(B)/hostprep.service $(DESTDIR)$(UNITDIR)/hostprep.service
	install -Dm644 units/hostprep.catalog $(DESTDIR)$(CATALOGDIR)/hostprep.catalog
	$(UNIT_SUBST) units/hostprep-reapply.service.in > $(B)/hostprep-reapply.service
	$(UNIT_SUBST) units/hostprep-reapply@.service.in > $(B)/hostprep-reapply@.service
	$(UNIT_SUBST) units/hostprep-reapply-condition > $(B)/hostprep-reapply-condition
	$(UNIT_SUBST) units/70-hostprep.rules > $(B)/70-hostprep.rules
	$(UNIT_SUBST) units/hostprep.sleep > $(B)/hostprep.sleep
	install -Dm644 $(B)/hostprep-reapply.service $(DESTDIR)$(UNITDIR)/hostprep-reapply.service
	install -Dm644 $(B)/hostprep-reapply@.service $(DESTDIR)$(UNITDIR)/hostprep-reapply@.service
	install -Dm755 $(B)/hostprep-reapply-condition $(DESTDIR)$(LIBDIR_HP)/hostprep-reapply-condition
	# Slurm's HealthCheckProgram (fleet/slurm/README.md)
	install -Dm755 fleet/slurm/slurm-health-check $(DESTDIR)$(LIBDIR_HP)/slurm-health-check
	install -Dm644 $(B)/70-hostprep.rules $(DESTDIR)$(UDEVRULESDIR)/70-hostprep.rules
	install -Dm755 $(B)/hostprep.sleep $(DESTDIR)$(SLEEPDIR)/hostprep
	install -Dm644 README.md $(DESTDIR)$(DOCDIR)/README.md
	for d in report-schema topology-schema gpus-schema p2p-schema; do \
		install -Dm644 docs/$$d.md $(DESTDIR)$(DOCDIR)/$$d.md || exit 1; done
	install -d $(DESTDIR)$(SYSCONFDIR)/hostprep/hostprep.conf.d
	# whole drop-ins for a host type, tested in tests/fake/cases/run/440-conf-examples.sh
	for f in conf/examples/*.conf; do \
		install -Dm644 "$$f" "$(DESTDIR)$(DOCDIR)/examples/$${f#conf/examples/}" || exit 1; done
	install -Dm644 fleet/kubernetes/npd/hostprep-plugin.json \
		$(DESTDIR)$(DOCDIR)/examples/npd/hostprep-plugin.json
	install -Dm644 fleet/kubernetes/kubelet-10-hostprep.conf \
		$(DESTDIR)$(DOCDIR)/examples/kubelet.service.d/10-hostprep.conf
	# the engines' adapters as shipped examples (fleet/*/README.md); the Slurm
	# health check is installed above as a program, not copied here
	cd fleet && for f in $$(find . -type f ! -name slurm-health-check -printf '%P\n' | sort); do \
		install -Dm644 "$$f" "$(DESTDIR)$(DOCDIR)/examples/fleet/$$f" || exit 1; done
	install -Dm644 $(B)/man/hostprep.8 $(DESTDIR)$(MANDIR)/man8/hostprep.8
	install -Dm644 $(B)/man/hostprep.conf.5 $(DESTDIR)$(MANDIR)/man5/hostprep.conf.5
	install -Dm644 completion/hostprep.bash $(DESTDIR)$(BASHCOMPDIR)/hostprep
	install -Dm644 completion/_hostprep $(DESTDIR)$(ZSHCOMPDIR)/_hostprep

# Packages from a clean export of the tracked files (packaging/build.sh).
deb:
	@tests/deps.sh pkg
	packaging/build.sh deb $(B)/deb
	@ls $(B)/deb/*.deb $(B)/deb/*.dsc

rpm:
	@tests/deps.sh pkg
	packaging/build.sh rpm $(B)/rpm
	@ls $(B)/rpm/RPMS/*/*.rpm $(B)/rpm/SRPMS/*.rpm

format:
	clang-format -i $(FMT_SRCS)

format-check:
	clang-format --dry-run -Werror $(FMT_SRCS)

clean:
	rm -rf $(B) build-asan build-fuzz
