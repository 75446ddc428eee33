# dcfg-tools. `make demo` and `make check` install what is missing first.
PREFIX   ?= /usr/local
BINDIR    = $(PREFIX)/bin
LIBDIR    = $(PREFIX)/lib
INCDIR    = $(PREFIX)/include
MANDIR    = $(PREFIX)/share/man
VERSION   = 0.1.0

CC       ?= cc
CFLAGS   ?= -O2 -g
# lib/ is grouped by concept (README, Library). A header of the same group is
# included by its bare name, one of another group by GROUP/NAME.h, and the
# public ones (include/dcfg) as <dcfg/NAME.h>, as a user includes them.
LIB_DIRS  = common dcfg trace stream info expand count encode convert check profile regions cli \
            record
DCFG_CFLAGS = -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L \
              -DDCFG_VERSION='"$(VERSION)"' -Iinclude -Ilib -pthread
DCFG_LIBS = -lyajl -lz -lbz2 -pthread
# One set of position-independent objects makes both libdcfg.a and
# libdcfg.so. Everything is hidden unless a public header (include/dcfg)
# declares it, under "#pragma GCC visibility push(default)": the headers
# are then the one list of what the shared library exports, a new internal
# function cannot leak out as a version script forgotten in step would let
# it, and calls inside the library bind directly rather than through the
# PLT. -fno-semantic-interposition lets the compiler inline the exported
# functions too, as it did before they were position-independent.
LIB_PIC   = -fPIC -fvisibility=hidden -fno-semantic-interposition
SONAME    = libdcfg.so.0

# BUILD=build-asan SAN=1 gives the sanitizer build that `make check` also tests.
BUILD    ?= build
ifeq ($(SAN),1)
CFLAGS    = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
            -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

CMDS     = dcfg-info dcfg-expand dcfg-encode dcfg-edges dcfg-blocks dcfg-count dcfg-check \
           dcfg-convert dcfg-profile dcfg-regions dcfg-record
LIB_SRC  = $(foreach d,$(LIB_DIRS),$(wildcard lib/$(d)/*.c))
# lib/cli is the commands' glue, never installed: the commands and test
# tools link it from libdcfg-cli.a, in front of libdcfg.a, which holds the
# same objects as libdcfg.so.
ALL_OBJ  = $(LIB_SRC:lib/%.c=$(BUILD)/lib/%.o)
CLI_OBJ  = $(filter $(BUILD)/lib/cli/%,$(ALL_OBJ))
# lib/record is dcfg-record's: it alone needs elfutils, so it is kept out
# of libdcfg (as lib/cli is) and linked from libdcfg-record.a.
REC_OBJ  = $(filter $(BUILD)/lib/record/%,$(ALL_OBJ))
LIB_OBJ  = $(filter-out $(CLI_OBJ) $(REC_OBJ),$(ALL_OBJ))
REC_LIBS = -lelf -ldw
# The QEMU plugin (plugin/) is loaded into qemu-user, which is built
# without sanitizers, so it never takes the sanitizer flags; it is
# installed beside the library, where dcfg-record looks for it.
PLUGIN_DIR = $(LIBDIR)/dcfg-tools
PLUGIN   = $(BUILD)/plugin/dcfg-record-plugin.so
PLUGIN_SRC = $(wildcard plugin/*.c)
PLUGIN_CFLAGS = -std=c11 -Wall -Wextra -D_GNU_SOURCE -O2 -g -fPIC -fvisibility=hidden -pthread
SO_FILES = $(BUILD)/libdcfg.so.$(VERSION) $(BUILD)/$(SONAME) $(BUILD)/libdcfg.so
HEADERS  = $(foreach d,$(LIB_DIRS),$(wildcard lib/$(d)/*.h)) $(wildcard include/dcfg/*.h)
BINS     = $(CMDS:%=$(BUILD)/bin/%)
MANPAGES = $(wildcard man/man*/*.[0-9])
MAN_DIRS = $(sort $(patsubst man/%/,%,$(dir $(MANPAGES))))
# What a user of the library builds against: only these are installed.
PUBLIC_HEADERS = $(wildcard include/dcfg/*.h)

TEST_TOOLS = $(BUILD)/t/lookup $(BUILD)/t/gen-trace $(BUILD)/t/gen-pair \
             $(BUILD)/t/webgrind-dump $(BUILD)/t/dcpi-dump $(BUILD)/t/csi-paths \
             $(BUILD)/t/progress-meter $(BUILD)/t/dcfg-unrun $(BUILD)/t/table-write \
             $(BUILD)/t/rec-write $(BUILD)/t/record-build \
             $(FUZZ_TARGETS:%=$(BUILD)/t/fuzz-%) $(BUILD)/t/fuzz-mutate

# Fuzzing with clang's libFuzzer (t/fuzz, scripts/fuzz.sh). `make check`
# runs every target CHECK_FUZZ_SECONDS; the same targets built with a
# replaying main (t/fuzz/replay.c) are test tools: t/fuzz.bats replays
# every reproducer kept in t/fuzz-regressions and every seed. The
# structure-aware mutator (t/fuzz/mutate*.c) is linked into the libFuzzer
# builds without coverage instrumentation, and into fuzz-mutate for tests.
FUZZ_TARGETS = dcfg trace stream sequence convert merge routes regions parts looppoint spool
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= -1
CHECK_FUZZ_SECONDS ?= 20
FUZZ_CC  ?= clang
FUZZ_SAN  = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_DEFS = -DFUZZ_DATA='"$(CURDIR)/t/data"'
FUZZ_MUT  = t/fuzz/mutate.c t/fuzz/mutate-text.c t/fuzz/mutate-lines.c
FUZZ_MUT_H = t/fuzz/mutate.h t/fuzz/mutate-text.h
FUZZ_MUT_OBJ = $(FUZZ_MUT:t/fuzz/%.c=build-fuzz/%.o)

all: $(BINS) $(SO_FILES) $(PLUGIN)

$(BUILD)/lib/%.o: lib/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(LIB_PIC) $(CFLAGS) -c $< -o $@

$(BUILD)/cmd/%.o: cmd/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(CFLAGS) -c $< -o $@

# The Makefile decides which objects each library holds: one that moves
# leaves a stale library unless its change rebuilds them.
$(BUILD)/libdcfg.a: $(LIB_OBJ) Makefile
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(BUILD)/libdcfg-cli.a: $(CLI_OBJ) Makefile
	rm -f $@
	$(AR) rcs $@ $(CLI_OBJ)

$(BUILD)/libdcfg.so.$(VERSION): $(LIB_OBJ) Makefile
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs $(LIB_OBJ) \
	    $(DCFG_LIBS) -o $@

$(BUILD)/$(SONAME) $(BUILD)/libdcfg.so: $(BUILD)/libdcfg.so.$(VERSION)
	ln -sf libdcfg.so.$(VERSION) $@

$(BUILD)/bin/%: $(BUILD)/cmd/%.o $(BUILD)/libdcfg-cli.a $(BUILD)/libdcfg.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/libdcfg-cli.a $(BUILD)/libdcfg.a $(DCFG_LIBS) -o $@

$(BUILD)/libdcfg-record.a: $(REC_OBJ) Makefile
	rm -f $@
	$(AR) rcs $@ $(REC_OBJ)

$(BUILD)/cmd/dcfg-record.o: DCFG_CFLAGS += -DDCFG_PLUGIN_PATH='"$(PLUGIN_DIR)/dcfg-record-plugin.so"'

# dcfg-convert reads binaries for --to bolt with lib/record's ELF reader.
$(BUILD)/bin/dcfg-record $(BUILD)/bin/dcfg-convert: $(BUILD)/bin/%: $(BUILD)/cmd/%.o \
    $(BUILD)/libdcfg-record.a $(BUILD)/libdcfg-cli.a $(BUILD)/libdcfg.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/libdcfg-record.a $(BUILD)/libdcfg-cli.a \
	    $(BUILD)/libdcfg.a $(DCFG_LIBS) $(REC_LIBS) -o $@

$(PLUGIN): $(PLUGIN_SRC) $(wildcard plugin/*.h) lib/record/spool.h Makefile
	@mkdir -p $(@D)
	$(CC) $(PLUGIN_CFLAGS) $(filter-out -O% -g -fsanitize% -fno-sanitize%,$(CFLAGS)) -Ilib -shared \
	    $(PLUGIN_SRC) -o $@

$(BUILD)/t/%: t/tools/%.c $(BUILD)/libdcfg-cli.a $(BUILD)/libdcfg.a $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/libdcfg-cli.a $(BUILD)/libdcfg.a \
	    $(DCFG_LIBS) -o $@

# rec-write tests lib/record's DCFG writer, record-build its spool reader: linked as dcfg-record is.
$(BUILD)/t/rec-write $(BUILD)/t/record-build: $(BUILD)/t/%: t/tools/%.c $(BUILD)/libdcfg-record.a $(BUILD)/libdcfg-cli.a \
    $(BUILD)/libdcfg.a $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/libdcfg-record.a $(BUILD)/libdcfg-cli.a \
	    $(BUILD)/libdcfg.a $(DCFG_LIBS) $(REC_LIBS) -o $@

# gen-pair is in parts by concept (t/tools/gen-pair.h), compiled together;
# like csi-paths (two files) it uses nothing of the library.
GEN_PAIR_SRC = $(wildcard t/tools/gen-pair*.c)
$(BUILD)/t/gen-pair: $(GEN_PAIR_SRC) t/tools/gen-pair.h
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(CFLAGS) $(LDFLAGS) $(GEN_PAIR_SRC) -o $@

$(BUILD)/t/csi-paths: t/tools/csi-paths.c t/tools/csi-numbering.c t/tools/csi-paths.h
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(CFLAGS) $(LDFLAGS) $(filter %.c,$^) -o $@

# The targets link lib/cli as the commands do: dcfg-count's stream wiring
# (count_stream.c), which the stream and routes targets drive, lives there.
$(BUILD)/t/fuzz-%: t/fuzz/fuzz-%.c t/fuzz/fuzz.h t/fuzz/seqref.h t/fuzz/planref.h t/fuzz/replay.c \
    $(BUILD)/libdcfg-cli.a $(BUILD)/libdcfg.a $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(FUZZ_DEFS) $(CFLAGS) $(LDFLAGS) $< t/fuzz/replay.c \
	    $(FUZZ_REC) $(BUILD)/libdcfg-cli.a $(BUILD)/libdcfg.a $(DCFG_LIBS) -o $@

# The binary-profile readers share their input and output (t/tools/dump.h).
$(BUILD)/t/dcpi-dump $(BUILD)/t/webgrind-dump: t/tools/dump.h

# The spool target is dcfg-record's spool reader and builder: lib/record, elfutils.
$(BUILD)/t/fuzz-spool: $(BUILD)/libdcfg-record.a
$(BUILD)/t/fuzz-spool: FUZZ_REC = $(BUILD)/libdcfg-record.a $(REC_LIBS)
build-fuzz/fuzz-spool: FUZZ_REC = build-fuzz/libdcfg-record.a $(REC_LIBS)

# The routes target reads back files and streams with t/fuzz/routes.h, and
# windows through the library's pull APIs with t/fuzz/routes-window.h.
$(BUILD)/t/fuzz-routes build-fuzz/fuzz-routes: t/fuzz/routes.h t/fuzz/routes-window.h

# dcfg-unrun's expansion of runs is the stream fuzz target's too.
$(BUILD)/t/dcfg-unrun $(BUILD)/t/fuzz-stream build-fuzz/fuzz-stream: t/tools/unrun.h

$(BUILD)/t/fuzz-mutate: t/fuzz/mutate-main.c $(FUZZ_MUT) $(FUZZ_MUT_H)
	@mkdir -p $(@D)
	$(CC) $(DCFG_CFLAGS) $(CFLAGS) $(LDFLAGS) t/fuzz/mutate-main.c $(FUZZ_MUT) -o $@

test-tools: $(TEST_TOOLS)

# FUZZ_PLANT=-DFUZZ_PLANT_RUNS builds the library with an off-by-one planted
# for the routes target to find (README, Fuzzing); rm -rf build-fuzz first,
# and after. FUZZ_PLANT=-DFUZZ_PLANT_LINES plants the issue 35 line bug (a
# piece gives an instruction to no line) in dcfg-count's route only, for the
# routes target to find. FUZZ_PLANT=-DFUZZ_PLANT_LOOPPOINT plants an
# off-by-one in dcfg-profile --summary's queue (a threshold that an eligible
# entry starts exactly at is not reached: < for <=) for the looppoint target.
# FUZZ_PLANT=-DFUZZ_PLANT_BOLT cuts a block's count to 32 bits in dcfg-convert
# --to bolt, for the convert target to find. FUZZ_PLANT=-DFUZZ_PLANT_WINDOW
# takes the edge at exactly --to-icount in dcfg_chunk_window_next's cut (>
# for >=), for the routes target's pullwin check to find.
fuzz-lib: deps
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) \
	    CFLAGS="-g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(FUZZ_PLANT)" build-fuzz/libdcfg.a \
	    build-fuzz/libdcfg-cli.a build-fuzz/libdcfg-record.a

$(FUZZ_MUT_OBJ): build-fuzz/%.o: t/fuzz/%.c $(FUZZ_MUT_H)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(DCFG_CFLAGS) -g -O1 $(FUZZ_SAN) -c $< -o $@

build-fuzz/fuzz-%: t/fuzz/fuzz-%.c t/fuzz/fuzz.h t/fuzz/seqref.h t/fuzz/planref.h $(FUZZ_MUT_OBJ) fuzz-lib
	$(FUZZ_CC) $(DCFG_CFLAGS) $(FUZZ_DEFS) -DFUZZ_MUTATOR -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) \
	    $< $(FUZZ_MUT_OBJ) $(FUZZ_REC) build-fuzz/libdcfg-cli.a build-fuzz/libdcfg.a $(DCFG_LIBS) -o $@

fuzz: $(FUZZ_TARGETS:%=build-fuzz/fuzz-%)
	@FUZZ_RUNS=$(FUZZ_RUNS) sh scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

deps:
	@sh scripts/deps.sh check

deps-demo:
	@sh scripts/deps.sh demo

lint-man: deps
	mandoc -Tlint -Wwarning $(MANPAGES)

# Ends with a plain "bats: N passed, N failed" line that CI logs can be read by.
# The files run side by side, one a core (bats --jobs, through GNU parallel);
# a file's tests run in order, as they are written.
TEST_JOBS = $$(nproc 2> /dev/null || echo 2)
test: all test-tools
	@{ PATH="$(CURDIR)/$(BUILD)/bin:$(CURDIR)/$(BUILD)/t:$$PATH" DCFG_SANITIZED="$(SAN)" \
	    bats --tap --jobs $(TEST_JOBS) --no-parallelize-within-files --timing t/; \
	    echo $$? > $(BUILD)/bats.status; } | tee $(BUILD)/bats.log
	@awk -f scripts/tap-summary.awk $(BUILD)/bats.log
	@exit $$(cat $(BUILD)/bats.status)

# The builds use every core too, unless make was given its own -j.
CHECK_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS))
check: deps
	$(MAKE) $(CHECK_JOBS) all test-tools CFLAGS="$(CFLAGS) -Werror"
	$(MAKE) lint-man
	$(MAKE) test
	$(MAKE) $(CHECK_JOBS) BUILD=build-asan SAN=1 all test-tools
	$(MAKE) BUILD=build-asan SAN=1 test
	$(MAKE) $(CHECK_JOBS) fuzz FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS)

demo: deps-demo all
	@sh scripts/demo.sh $(BUILD)/bin $(BUILD)/demo

bench: deps all $(BUILD)/t/gen-pair $(BUILD)/t/gen-trace
	@sh scripts/bench.sh $(BUILD)/bin

# Line coverage of lib/ and cmd/ under the whole test suite, and the error
# paths no test reaches (scripts/coverage.sh says how they are found).
coverage: deps
	@sh scripts/coverage.sh

# Users include <dcfg/dcfg.h>: the headers go to $(INCDIR)/dcfg and dcfg.pc
# puts $(INCDIR) on the path, so a <dcfg/error.h> never hides the system's
# <error.h>. No ldconfig: a packager or the user runs it for the prefix.
# The directories it makes under PREFIX are listed in INSTALLED_DIRS, so
# that uninstall removes them, once empty, and no directory that was there.
INSTALLED_DIRS = $(PLUGIN_DIR)/installed-dirs
install: all
	DESTDIR='$(DESTDIR)' sh scripts/installdirs.sh make $(INSTALLED_DIRS) $(PREFIX) \
	    $(BINDIR) $(LIBDIR)/pkgconfig $(INCDIR)/dcfg $(MAN_DIRS:%=$(MANDIR)/%) $(PLUGIN_DIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(BUILD)/libdcfg.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(BUILD)/libdcfg.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(PLUGIN) $(DESTDIR)$(PLUGIN_DIR)/
	ln -sf libdcfg.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libdcfg.so
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCDIR)/dcfg/
	for m in $(MANPAGES); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/; done
	sed -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    dcfg.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/dcfg.pc

# Removes what install put there, then the directories it made that are
# left empty; a directory that was there before install stays.
uninstall:
	rm -f $(CMDS:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(DESTDIR)$(LIBDIR)/libdcfg.a $(DESTDIR)$(LIBDIR)/libdcfg.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libdcfg.so \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/dcfg.pc
	rm -f $(DESTDIR)$(PLUGIN_DIR)/dcfg-record-plugin.so
	rm -f $(PUBLIC_HEADERS:include/%=$(DESTDIR)$(INCDIR)/%)
	for m in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	DESTDIR='$(DESTDIR)' sh scripts/installdirs.sh remove $(INSTALLED_DIRS)

clean:
	rm -rf build build-asan build-fuzz build-cov

.PHONY: all test-tools deps deps-demo lint-man test check demo bench install uninstall clean fuzz fuzz-lib coverage
.SUFFIXES:

# The Python package (python/dcfg, README "Python"): installed where
# Debian's python3 looks for PREFIX's packages, with the path of the
# installed libdcfg.so.0 written beside it (dcfg/_installed.py).
PYTHON     ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
PYTHON_VER  = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYTHONDIR  ?= $(PREFIX)/lib/python$(or $(PYTHON_VER),3)/dist-packages
PY_FILES    = $(wildcard python/dcfg/*.py)

install: install-python
uninstall: uninstall-python

# Its directories are listed as install's are; those under PREFIX that
# are not empty when it is removed (lib) are handed to install's list.
PY_INSTALLED_DIRS = $(PYTHONDIR)/dcfg/installed-dirs
install-python: all
	DESTDIR='$(DESTDIR)' sh scripts/installdirs.sh make $(PY_INSTALLED_DIRS) $(PREFIX) $(PYTHONDIR)/dcfg
	install -m 644 $(PY_FILES) $(DESTDIR)$(PYTHONDIR)/dcfg/
	printf 'LIBRARY = "%s"\n' '$(LIBDIR)/$(SONAME)' > $(DESTDIR)$(PYTHONDIR)/dcfg/_installed.py

uninstall-python:
	rm -f $(PY_FILES:python/%=$(DESTDIR)$(PYTHONDIR)/%) $(DESTDIR)$(PYTHONDIR)/dcfg/_installed.py
	rm -rf $(DESTDIR)$(PYTHONDIR)/dcfg/__pycache__
	DESTDIR='$(DESTDIR)' sh scripts/installdirs.sh remove $(PY_INSTALLED_DIRS) $(INSTALLED_DIRS)
	if [ -d $(DESTDIR)$(PYTHONDIR)/dcfg ]; then rmdir --ignore-fail-on-non-empty $(DESTDIR)$(PYTHONDIR)/dcfg; fi

.PHONY: install-python uninstall-python
