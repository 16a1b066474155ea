# nvengine: fio external ioengine (libnvengine.so) and nvanalyze.
#
#   make            build ./libnvengine.so and ./nvanalyze
#   make check      build, run every test (installs nothing; says when make deps is needed)
#   make asan       the same suite built with ASan+UBSan
#   make fuzz       libFuzzer targets (tests/fuzz, clang), FUZZ_SECONDS (60) each;
#                   FUZZ_TARGETS="fuzz_names ..." builds and runs only those
#   make deps       install the Debian packages (idempotent)
#   make install    nvanalyze into $(PREFIX)/bin (on PATH: `nvanalyze a.json b.json`),
#                   the engine into $(PREFIX)/lib/nvengine/, the figures' style into
#                   $(PREFIX)/share/nvanalyze/plots/, the man pages nvanalyze(1),
#                   nvengine(7) and nvengine-run(1) into $(PREFIX)/share/man/, the
#                   job files into $(PREFIX)/share/nvengine/jobs/ with jobs/run as
#                   $(PREFIX)/bin/nvengine-run; PREFIX=/usr/local, DESTDIR for staging
#   make deb        the Debian package nvengine_VERSION_ARCH.deb (tools/deb.sh)
#   make FIO_SRC=/path/to/fio   build against your own configured fio tree
#   make FIO_SRC=DIR FIO=PATH   ... for the fio binary at PATH (default: fio on PATH)
#   make O=DIR                  build into DIR (DIR/libnvengine.so, DIR/nvanalyze)
#   make compat                 build fio 3.41, the engine for 3.33 and 3.41, run
#                               the engine tests with each (tools/compat.sh)
#
# Layout (README "Layout"): engine/*.c is the fio glue (the only code with
# fio's headers); sys/ (the ring, target kinds), nvme/ (NVMe, with its system
# layer) and trace/ (the trace format and clock) are plain C in
# build/libnvcore.a (engine and analyzer), analyze/ but cli/main.c is
# build/libnvanalyze.a; the unit tests in tests/unit/ link against both.

CC      ?= cc
O       ?= build
V       ?= 0
CFLAGS  ?= -O2 -g
FIO_SRC ?= build/fio-src
FIO_SRC_DEFAULT := build/fio-src
FIO     ?= fio
export FIO

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wformat=2 -Wvla
ifneq ($(CI),)
WERROR ?= 1
endif
ifeq ($(WERROR),1)
WARN += -Werror
endif
ifeq ($(SAN),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(SAN),fuzz)	# clang: libraries instrumented for libFuzzer (make fuzz)
CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -fPIC -pthread $(WARN) $(CFLAGS) -I. -MMD -MP
FIO_CFLAGS := -isystem $(FIO_SRC) -include $(FIO_SRC)/config-host.h

ifeq ($(V),0)
Q = @
say = @printf '  %-7s %s\n' $(1) $(2);
else
Q =
say =
endif

ENGINE_GLUE := $(wildcard engine/*.c)
CORE_SRC    := $(wildcard sys/*.c) $(wildcard nvme/*.c) $(wildcard trace/*.c)
ANA_SRC     := $(filter-out analyze/cli/main.c,$(wildcard analyze/*.c analyze/*/*.c))
UNIT_SRC    := $(wildcard tests/unit/test_*.c)

CORE_OBJ    := $(CORE_SRC:%.c=$(O)/%.o)
ANA_OBJ     := $(ANA_SRC:%.c=$(O)/%.o)
GLUE_OBJ    := $(ENGINE_GLUE:%.c=$(O)/%.o)
UNIT_BIN    := $(UNIT_SRC:%.c=$(O)/%)
UNIT_HELP   := $(patsubst %.c,$(O)/%,$(wildcard tests/unit/gen_*.c))	# helpers, not tests
FUZZ_SRC    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_TEST   := $(FUZZ_SRC:tests/fuzz/%.c=$(O)/tests/unit/test_%)	# replay regress/ + corpus/
FUZZ_BIN    := $(FUZZ_SRC:tests/fuzz/%.c=$(O)/tests/fuzz/%)		# libFuzzer (make fuzz)
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_CC     ?= clang

ENGINE_LIBS  := -luring -lz -lzstd -lpthread
# libmicrohttpd: the HTTP server of `nvanalyze watch --listen` (analyze/live/live_http.c)
MHD_CFLAGS   := $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
MHD_LIBS     := $(or $(shell pkg-config --libs libmicrohttpd 2>/dev/null),-lmicrohttpd)
ANALYZE_LIBS := -ljansson -lexpat $(MHD_LIBS) -lz -lzstd -lm -lpthread

ENGINE_SO := libnvengine.so
ANALYZER  := nvanalyze
PNGFAST   := libnvpngfast.so
ifneq ($(O),build)
ENGINE_SO := $(O)/libnvengine.so
ANALYZER  := $(O)/nvanalyze
PNGFAST   := $(O)/libnvpngfast.so
endif

.PHONY: all deps fio-src compat check unit asan clean distclean bench demo fuzz fuzz-build bench-trace bench-analyze \
	soak install uninstall deb FORCE
all: $(ENGINE_SO) $(ANALYZER) $(PNGFAST)

PREFIX  ?= /usr/local
MANDIR  ?= $(PREFIX)/share/man
INSTALLED := $(DESTDIR)$(PREFIX)/bin/nvanalyze $(DESTDIR)$(PREFIX)/lib/nvengine/libnvengine.so \
	     $(DESTDIR)$(PREFIX)/lib/nvanalyze/libnvpngfast.so \
	     $(DESTDIR)$(PREFIX)/share/nvanalyze/plots/style.gp \
	     $(DESTDIR)$(MANDIR)/man1/nvanalyze.1 $(DESTDIR)$(MANDIR)/man7/nvengine.7 \
	     $(DESTDIR)$(MANDIR)/man1/nvengine-run.1 $(DESTDIR)$(PREFIX)/bin/nvengine-run
JOBS_DIR  := $(DESTDIR)$(PREFIX)/share/nvengine/jobs
JOB_FILES := $(shell cd jobs && find . -type f \( -name '*.fio' -o -name '*.awk' -o -name '*.md' -o -name '*.sh' \))

# nvanalyze finds style.gp in ../share/nvanalyze/plots/ and libnvpngfast.so in
# ../lib/nvanalyze/ from its own directory (analyze/figures/plot.h); fio
# loads the engine from the path given to it; nvengine-run (jobs/run) finds
# the engine in ../../lib/nvengine/ from its own directory,
# PREFIX/share/nvengine/jobs.
install: all
	install -D -m 0755 $(ANALYZER) $(DESTDIR)$(PREFIX)/bin/nvanalyze
	install -D -m 0755 $(ENGINE_SO) $(DESTDIR)$(PREFIX)/lib/nvengine/libnvengine.so
	install -D -m 0644 $(PNGFAST) $(DESTDIR)$(PREFIX)/lib/nvanalyze/libnvpngfast.so
	install -D -m 0644 plots/style.gp $(DESTDIR)$(PREFIX)/share/nvanalyze/plots/style.gp
	install -D -m 0644 docs/man/nvanalyze.1 $(DESTDIR)$(MANDIR)/man1/nvanalyze.1
	install -D -m 0644 docs/man/nvengine.7 $(DESTDIR)$(MANDIR)/man7/nvengine.7
	install -D -m 0644 docs/man/nvengine-run.1 $(DESTDIR)$(MANDIR)/man1/nvengine-run.1
	for f in $(JOB_FILES); do install -D -m 0644 jobs/$$f $(JOBS_DIR)/$$f || exit 1; done
	install -m 0755 jobs/run $(JOBS_DIR)/run
	ln -sf ../share/nvengine/jobs/run $(DESTDIR)$(PREFIX)/bin/nvengine-run

uninstall:
	rm -f $(INSTALLED) $(addprefix $(JOBS_DIR)/,$(JOB_FILES) run)
	-cd $(JOBS_DIR) 2>/dev/null && find . -depth -type d -exec rmdir {} + 2>/dev/null
	-rmdir $(DESTDIR)$(PREFIX)/lib/nvengine $(DESTDIR)$(PREFIX)/lib/nvanalyze \
	       $(DESTDIR)$(PREFIX)/share/nvanalyze/plots \
	       $(DESTDIR)$(PREFIX)/share/nvanalyze $(JOBS_DIR) $(DESTDIR)$(PREFIX)/share/nvengine \
	       2>/dev/null

# The package: make install into a staging root, plus the docs
# (packaging/deb/, tools/deb.sh).
deb: all
	$(Q)O=$(O) tools/deb.sh

deps:
	$(Q)tools/deps.sh

# The default tree is fetched and configured from Debian's fio source; a
# user's FIO_SRC is only checked (the check explains what is missing).
ifeq ($(FIO_SRC),$(FIO_SRC_DEFAULT))
$(FIO_SRC)/config-host.h:
	$(Q)tools/fio-src.sh $(FIO_SRC_DEFAULT)
else
$(FIO_SRC)/config-host.h:
	$(Q)tools/fio-src.sh --check $(FIO_SRC)
endif

fio-src: $(FIO_SRC)/config-host.h
	$(Q)tools/fio-src.sh --check $(FIO_SRC)

# Checked once per fio tree and binary (the stamp names both); again when
# the binary changes.
FIO_BIN   := $(shell command -v $(FIO))
FIO_STAMP := $(O)/.fio-checked$(subst /,_,$(abspath $(FIO_SRC))_$(FIO_BIN))
$(FIO_STAMP): $(FIO_SRC)/config-host.h tools/fio-src.sh $(FIO_BIN)
	$(Q)tools/fio-src.sh --check $(FIO_SRC)
	$(Q)mkdir -p $(@D) && touch $@

$(O)/engine/%.o: engine/%.c $(FIO_STAMP)
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(FIO_CFLAGS) -c -o $@ $<

$(O)/%.o: %.c
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/libnvcore.a: $(CORE_OBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(O)/libnvanalyze.a: $(ANA_OBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(ENGINE_SO): $(GLUE_OBJ) $(O)/libnvcore.a engine/libnvengine.map
	$(call say,LD,$@)
	$(Q)$(CC) -shared -pthread $(LDFLAGS) -Wl,--version-script=engine/libnvengine.map -o $@ \
		$(GLUE_OBJ) $(O)/libnvcore.a $(ENGINE_LIBS)

# The version (tools/version.sh) as a header only main.c includes; rewritten
# only when it changes, so that only main.o is rebuilt then.
$(O)/gen/nv_version.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)printf '#define NV_VERSION "%s"\n' "$$(tools/version.sh)" >$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
FORCE:
$(O)/analyze/cli/main.o: $(O)/gen/nv_version.h
$(O)/analyze/cli/main.o: ALL_CFLAGS += -I$(O)/gen
$(O)/analyze/live/live_http.o: ALL_CFLAGS += $(MHD_CFLAGS)

# Preloaded into the gnuplot that renders -o's figures (plots/pngfast.c):
# built without the sanitizers (an ASan runtime must come first in a
# process; gnuplot's has none) and linked against nothing but libc.
$(PNGFAST): plots/pngfast.c
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -fPIC -shared -O2 $(WARN) -o $@ $<

$(ANALYZER): $(O)/analyze/cli/main.o $(O)/libnvanalyze.a $(O)/libnvcore.a
	$(call say,LD,$@)
	$(Q)$(CC) -pthread $(LDFLAGS) -o $@ $^ $(ANALYZE_LIBS)

# test_oom_*: the library's allocations go through tests/unit/failalloc.h,
# which fails the one a test names.
FAILALLOC_LDFLAGS := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup \
		     -Wl,--wrap=free
$(O)/tests/unit/test_oom_%: UNIT_LDFLAGS = $(FAILALLOC_LDFLAGS)
# test_trace_buffer holds the producer inside the allocation of a chunk.
$(O)/tests/unit/test_trace_buffer: UNIT_LDFLAGS = -Wl,--wrap=malloc

$(O)/tests/unit/%: tests/unit/%.c $(O)/libnvanalyze.a $(O)/libnvcore.a tests/unit/check.h
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libnvanalyze.a $(O)/libnvcore.a $(ENGINE_LIBS) $(ANALYZE_LIBS) \
		$(LDFLAGS) $(UNIT_LDFLAGS)

# A fuzz target with tests/fuzz/driver.c as main is the unit test test_fuzz_*.
$(O)/tests/unit/test_fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c tests/fuzz/util.c tests/fuzz/fuzz.h \
			     $(O)/libnvanalyze.a $(O)/libnvcore.a
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -o $@ $< tests/fuzz/driver.c tests/fuzz/util.c \
	    $(O)/libnvanalyze.a $(O)/libnvcore.a $(ENGINE_LIBS) $(ANALYZE_LIBS) $(LDFLAGS)

$(O)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/util.c tests/fuzz/fuzz.h $(O)/libnvanalyze.a $(O)/libnvcore.a
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -fsanitize=fuzzer -o $@ $< tests/fuzz/util.c \
	    $(O)/libnvanalyze.a $(O)/libnvcore.a $(ENGINE_LIBS) $(ANALYZE_LIBS) $(LDFLAGS)

unit: $(UNIT_BIN) $(UNIT_HELP) $(FUZZ_TEST)

# libFuzzer targets built with clang in build/fuzz, each run FUZZ_SECONDS from
# the seeds (tests/fuzz/run); crashes land in build/fuzz/artifacts/.
fuzz:
	$(Q)command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz: needs $(FUZZ_CC) with libFuzzer (apt-get install clang)" >&2; exit 1; }
	$(Q)$(MAKE) --no-print-directory O=build/fuzz CC=$(FUZZ_CC) SAN=fuzz WERROR=0 \
		FUZZ_TARGETS="$(FUZZ_TARGETS)" fuzz-build
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run build/fuzz $(FUZZ_TARGETS)

# FUZZ_TARGETS empty: every target
fuzz-build: $(if $(strip $(FUZZ_TARGETS)),$(addprefix $(O)/tests/fuzz/,$(FUZZ_TARGETS)),$(FUZZ_BIN)) \
	    $(O)/tests/unit/gen_trace

# The suite: unit binaries, then tests/integration/*.sh, then the VM tests.
check:
	$(Q)tools/deps.sh --check
	$(Q)$(MAKE) --no-print-directory all unit
	$(Q)NVENGINE_SO=$(abspath $(ENGINE_SO)) NVANALYZE=$(abspath $(ANALYZER)) \
	    UNIT_DIR=$(abspath $(O))/tests/unit tests/run $(TESTS)

asan:
	$(Q)$(MAKE) --no-print-directory O=build/asan SAN=1 check

# fio 3.41 built from Debian's source (cached in build/fio), the engine built
# for it and for the installed fio, the engine tests run with each.
compat:
	$(Q)MAKE="$(MAKE)" tools/compat.sh

bench: all
	$(Q)tools/bench.sh

# Tracing at saturation for SOAK_SECONDS (default 3600; not in make check):
# RSS, counts, complete traces, writer CPU per record; rows into BENCHMARKS.md.
soak: all
	$(Q)SOAK_SECONDS=$(or $(SOAK_SECONDS),3600) tools/soak.py --engine $(abspath $(ENGINE_SO)) \
		--nvanalyze $(abspath $(ANALYZER))

# Packages, build, emulated-NVMe guest: the instance suite four times and a QD sweep;
# demo/report.md opening with the load curve.
demo:
	$(Q)MAKE="$(MAKE)" tools/demo.sh

# Trace writer throughput and bytes per IO (tools/bench_trace.c).
$(O)/tools/bench_trace: tools/bench_trace.c $(O)/libnvcore.a
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libnvcore.a $(ENGINE_LIBS) $(LDFLAGS)

bench-trace: $(O)/tools/bench_trace
	$(Q)$(O)/tools/bench_trace $(BENCH_TRACE_ARGS)

# Analyzer throughput: decode, exact percentiles, nvanalyze stat (tools/bench_analyze.c).
$(O)/tools/bench_analyze: tools/bench_analyze.c $(O)/libnvcore.a $(O)/libnvanalyze.a
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libnvanalyze.a $(O)/libnvcore.a $(ANALYZE_LIBS) $(LDFLAGS)

bench-analyze: $(O)/tools/bench_analyze all
	$(Q)$(O)/tools/bench_analyze -a $(abspath $(ANALYZER)) $(BENCH_ANALYZE_ARGS)

clean:
	rm -rf $(O)/engine $(O)/sys $(O)/nvme $(O)/trace $(O)/analyze $(O)/tests $(O)/tools \
	       $(O)/libnvcore.a $(O)/libnvanalyze.a $(O)/asan $(O)/gen $(O)/deb libnvengine.so nvanalyze \
	       $(O)/libnvpngfast.so libnvpngfast.so

distclean:
	rm -rf build libnvengine.so nvanalyze libnvpngfast.so

-include $(shell find $(O) -name '*.d' -type f 2>/dev/null)
