# SLQB for Linux 6.1: thin entry points, each a script under harness/.
#   make setup                      install what is needed (Debian packages)
#   make compose                    compose build/linux (tarball + patches + new files)
#   make kernel [ALLOC=slqb] [FLAVOUR="debug up"]   build one kernel (ALLOC: slqb once
#                                   the tree has it, else slub)
#   make run  [ALLOC=slub]          build, boot on numa2, show the allocator at work
#   make shell [ALLOC=slub]         the same kernel, at the guest's shell
#   make check [TESTS='slub-*'] [NOBUILD=1] [FULL=1] [DEBUG=1] [LONG=1]   make series's checks,
#                                   then the tests (harness/check/tests.list) on the slqb, slqb-up
#                                   and slqb-debug kernels; FULL=1 adds those on the other
#                                   kernels (slub, slub-up, slab, slab-up, bench) and SLUB's
#                                   reference boots, DEBUG=1 the tests on debug kernels, LONG=1 those that
#                                   take over an hour
#   make check LIST=1 [TESTS=...]   only list the tests, with their fields (nothing built)
#   make lint                       shellcheck the harness
#   make series                     the git format-patch mails, git am and checkpatch checks
#   make bisect                     build every prefix of the series (long)
#   make bench [ROUNDS=3] [TOPO=numa2] [QUICK=1] [ALLOCS="slqb slub slab"]
#                                   SLQB, SLUB, SLAB side by side (harness/bench/run.sh)
#   make bench-uml [ROUNDS=9] [QUICK=1] [ALLOCS=...]   the same microbenchmark natively,
#                                   built into user-mode Linux, UP (harness/bench/uml.sh)
#   make soak [SECS=600] [TOPOS="up smp4 numa2 numa4 fakenuma"] [ALLOC=slqb] [SHORT=1]
#                                   debug kernels under stress, hotplug, failslab, memory
#                                   pressure (harness/check/soak.sh; SHORT=1: 60 s on numa2, numa4)
#   make lkdtm-compare [NOBUILD=1]  lkdtm's slab crash types: slqb_debug vs slub_debug
#   make configs [CONFIGS="nonuma up ..."]   SLQB's mm/ and lib/ compiled without NUMA, SMP,
#                                   sysfs, memcg, statistics, debugging; preemptible; all
#                                   off at once: no warning (harness/build/configs.sh)
#   make fastpath [NOBUILD=1]       the fast paths' code with slqb_debug compiled in
#                                   (off) and out (harness/dev/fastpath.sh)
#   make scale [ALLOCS=...] [TOPOS="smp4 ... numa8-64"] [NOBUILD=1]   SLQB, SLUB, SLAB from
#                                   4 to 64 CPUs: memory, its growth, queue counts
#                                   (harness/bench/scale.sh)
ALLOC ?=
FLAVOUR ?=
TESTS ?=
FULL ?=
DEBUG ?=
LONG ?=
LIST ?=
ROUNDS ?= 3
TOPO ?= numa2
QUICK ?=
SECS ?=
TOPOS ?=
SHORT ?=
ALLOCS ?= slqb slub slab
CONFIGS ?=
SHELL := /bin/bash

.PHONY: help setup compose kernel run shell check lint series bisect bench bench-uml soak lkdtm-compare fastpath scale configs
# A bare make only says what there is (it never installs anything).
help:
	@sed -n '/^# SLQB/,/^[A-Z]/{/^#/s/^# \{0,1\}//p}' Makefile
setup:
	harness/setup.sh
compose:
	bash -c '. harness/lib.sh && with_build_lock harness/build/compose.sh'
kernel:
	harness/build/build.sh $(ALLOC) $(FLAVOUR)
run:
	harness/boot/run.sh $(ALLOC) $(if $(ALLOC),$(FLAVOUR))
shell:
	harness/boot/run.sh -i $(ALLOC) $(if $(ALLOC),$(FLAVOUR))
# A full check also exports the series and checks it (git am, checkpatch,
# kernel-doc) before booting the tests; the tests' summary stays the last line.
# LIST=1 only lists the tests (check.sh --list).
check:
	@if [ -n "$(LIST)" ]; then exec harness/check/check.sh --list $(TESTS); fi; \
	rc=0; if [ -z "$(TESTS)" ]; then harness/dev/series.sh --check || rc=1; fi; \
	CHECK_FULL=$(FULL) CHECK_DEBUG=$(DEBUG) CHECK_LONG=$(LONG) harness/check/check.sh $(TESTS) || rc=1; \
	if [ $$rc != 0 ]; then echo "make check: FAILED (see above: series checks or tests)"; fi; exit $$rc
lint:
	shellcheck -S warning -x $$(git ls-files harness .ci | grep -E '\.sh$$|/init$$|^\.ci/run$$')
series:
	harness/dev/series.sh --check
bisect:
	harness/dev/bisect.sh
bench:
	harness/bench/run.sh -r $(ROUNDS) -t $(TOPO) $(if $(QUICK),-q) -a "$(ALLOCS)"
bench-uml:
	harness/bench/uml.sh $(if $(filter command line environment,$(origin ROUNDS)),-r $(ROUNDS)) $(if $(QUICK),-q) -a "$(ALLOCS)"
soak:
	SECS=$(SECS) TOPOS="$(TOPOS)" SHORT=$(SHORT) harness/check/soak.sh $(ALLOC)
lkdtm-compare:
	harness/check/lkdtm-compare.sh
fastpath:
	harness/dev/fastpath.sh
configs:
	harness/build/configs.sh $(CONFIGS)
scale:
	harness/bench/scale.sh -a "$(ALLOCS)" $(if $(TOPOS),-t "$(TOPOS)")
