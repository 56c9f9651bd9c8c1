# mototake — one program, bin/mototake, built from every module folder.
# `make deps` first on a fresh Debian 12 machine (idempotent); then `make`, `make test`,
# `make bench`, `make demo`.

CC       ?= cc
PKGS     := lua5.4 cairo libpng assimp libavcodec libavformat libswscale libavutil sqlite3 lapacke sdl2 zlib \
            jansson fftw3 libmicrohttpd libzstd matio
# Opened when first used, not linked (base/dynlib.h; docs/dependencies.md "Loaded when used"):
# FFmpeg's encoder and muxer, matio and SDL2, by the run-time names of the libraries the build would
# have linked against (read off their development links).
PKGS_DL  := libavcodec libavformat matio sdl2
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(filter-out $(PKGS_DL),$(PKGS)) 2>/dev/null)
soname    = $(shell objdump -p "$$(pkg-config --variable=libdir $(1) 2>/dev/null)/lib$(2).so" 2>/dev/null | sed -n 's/^ *SONAME *//p')
DL_NAMES := -DMT_SONAME_AVCODEC='"$(call soname,libavcodec,avcodec)"' -DMT_SONAME_AVFORMAT='"$(call soname,libavformat,avformat)"' \
            -DMT_SONAME_MATIO='"$(call soname,matio,matio)"' -DMT_SONAME_SDL2='"$(call soname,sdl2,SDL2)"'
WARN     := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE $(WARN) $(PKG_CFLAGS) $(DL_NAMES) -I. -MMD -MP
# One set of objects serves the program and the shared library (bin/libmototake.so, api/): position-
# independent, without semantic interposition so calls inside the library stay direct as in the program.
PIC      := -fPIC -fno-semantic-interposition
# MuJoCo 2.2.2 ships no pkg-config file (see docs/dependencies.md).
LDLIBS   := $(PKG_LIBS) -lmujoco -lpthread -lmvec -lm
GIT_REV  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo +)

# Every .c below the module folders belongs to the program, except the unit tests.
LIB_SRC  := $(wildcard base/*.c sim/*.c rigs/*.c takes/*.c scene/*.c exporters/*.c render/*.c app/*.c)
MAIN_SRC := app/main.c
LIB_SRC  := $(filter-out $(MAIN_SRC),$(LIB_SRC))
TEST_SRC := $(wildcard tests/unit/*.c)
BENCH_SRC := $(wildcard tests/bench/*.c)

OBJ      := $(LIB_SRC:%.c=build/%.o) build/build/blender_addon.o
TEST_OBJ := $(TEST_SRC:%.c=build/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=build/%.o)
ASAN_OBJ := $(LIB_SRC:%.c=build/asan/%.o) $(TEST_SRC:%.c=build/asan/%.o) build/asan/build/blender_addon.o


# One compile job a core unless the caller chose (-jN on the command line or in MAKEFLAGS): the
# build before `make test` is three builds of the program (plain, sanitizers, fuzz replays).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2> /dev/null || echo 1)
endif

.PHONY: replay-bins all deps test test-full test-unit test-blender bench demo lessons clean docs-figures fuzz valgrind FORCE

all: bin/mototake bin/unit_tests bin/mt_bench bin/libmototake.so

# The Blender add-on's files, embedded for `mototake blender-addon` (app/addon_cmd.c).
ADDON_SRC := $(sort $(wildcard blender/mototake_io/*.py))
build/blender_addon.c: $(ADDON_SRC) blender/embed.sh
	@mkdir -p build
	@sh blender/embed.sh $@ $(ADDON_SRC)

# The git revision goes into the binary (takes record it); rebuilt only when it changes.
build/gitrev.h: FORCE
	@mkdir -p build
	@echo '#define MT_GIT_REV "$(GIT_REV)"' > $@.new
	@cmp -s $@.new $@ || mv $@.new $@
	@rm -f $@.new

build/base/mt.o build/asan/base/mt.o: build/gitrev.h

deps:
	@sh tests/deps.sh

build/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(CFLAGS) $(PIC) -c $< -o $@

build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC (asan) $<"
	@$(CC) $(CFLAGS) $(PIC) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -c $< -o $@

bin/mototake: build/$(MAIN_SRC:.c=.o) $(OBJ)
	@mkdir -p bin
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# libmototake: the program's layers below app/ plus api/ (its one public header, api/mototake.h),
# exporting only the mtk_* functions (api/mototake.map); python/mototake loads it with ctypes.
API_SRC  := $(wildcard api/*.c)
API_OBJ  := $(API_SRC:%.c=build/%.o)
bin/libmototake.so: $(API_OBJ) $(OBJ) api/mototake.map
	@mkdir -p bin
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -shared -Wl,--version-script=api/mototake.map -Wl,-soname,libmototake.so -o $@ $(API_OBJ) $(OBJ) $(LDLIBS)

bin/unit_tests: $(TEST_OBJ) $(OBJ)
	@mkdir -p bin
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

bin/mt_bench: $(BENCH_OBJ) $(OBJ)
	@mkdir -p bin
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

bin/unit_tests_asan: $(ASAN_OBJ)
	@mkdir -p bin
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -fsanitize=address,undefined -o $@ $^ $(LDLIBS)

# The packages first, then the build in a make of its own: it reads pkg-config's flags only once
# the packages are there (on a fresh machine, before `make deps`, they are not), and its jobs
# run in parallel without racing the install.
test:
	@sh tests/deps.sh
	@$(MAKE) --no-print-directory all bin/unit_tests_asan bin/mototake_asan bin/libmototake_asan.so replay-bins
	@sh tests/run.sh

# Everything make test runs and what it leaves out for CI's 30 minutes: every command-line script
# under the sanitizers too (ASAN_CLI=all), every valgrind line (VALGRIND_ALL=1) and the Blender
# renders (MT_FULL=1: tests/blender's EEVEE clip and the docs' Blender still).
test-full:
	@ASAN_CLI=all VALGRIND_ALL=1 MT_FULL=1 $(MAKE) --no-print-directory test

# Blender imports of exported rides, and its EEVEE render (installs blender + python3-numpy if
# missing, ~550 MB).
test-blender: all
	@sh tests/deps.sh blender
	@MT_FULL=1 sh tests/blender/run.sh > build/blender.log; rc=$$?; cat build/blender.log; \
	  echo "$$(grep -c '^ok ' build/blender.log) passed, $$(grep -c '^FAIL ' build/blender.log) failed"; \
	  ! grep -q '^FAIL ' build/blender.log && [ $$rc = 0 ]

# Only some command-line scripts: make test-cli T="take export" (tests/one.sh).
test-cli: all
	@sh tests/one.sh $(T)

# Only the unit tests, fast, for the edit-compile loop.
test-unit: bin/unit_tests
	@bin/unit_tests

bench:
	@sh tests/deps.sh
	@$(MAKE) --no-print-directory all
	@sh tests/bench.sh

demo:
	@sh tests/deps.sh
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh

# The lessons (docs/render.md, "Lessons"): each takes/lessons/NAME.render.lua rendered to
# out/lessons/NAME.mp4 with its takes beside it (out/lessons/SCRIPT.lesson.take, reused while they
# recorded the same script). An MP4 newer than the program and every script is not made again.
LESSONS := $(patsubst takes/lessons/%.render.lua,out/lessons/%.mp4,$(wildcard takes/lessons/*.render.lua))
lessons: $(LESSONS)
out/lessons/%.mp4: takes/lessons/%.render.lua $(wildcard takes/lessons/*.lua takes/captions/*.lua takes/*.lua) bin/mototake
	@mkdir -p out/lessons
	bin/mototake render --lesson $* -o $@

clean:
	rm -rf build bin out

#---- sanitizers and fuzzing (docs/hardening.md, "Fuzzing and sanitizers") ----
# The whole program under ASan/UBSan (gcc): make test runs the CLI suite a second time with it.
ASAN_LIB_OBJ := $(LIB_SRC:%.c=build/asan/%.o) build/asan/build/blender_addon.o
bin/mototake_asan: build/asan/$(MAIN_SRC:.c=.o) $(ASAN_LIB_OBJ)
	@mkdir -p bin
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -fsanitize=address,undefined -o $@ $^ $(LDLIBS)

# The same library under ASan/UBSan, for the sanitizer pass of the Python tests (they load it with
# libasan preloaded: tests/cli/python.sh).
bin/libmototake_asan.so: $(API_SRC:%.c=build/asan/%.o) $(ASAN_LIB_OBJ) api/mototake.map
	@mkdir -p bin
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -fsanitize=address,undefined -shared -Wl,--version-script=api/mototake.map -Wl,-soname,libmototake_asan.so -o $@ $(API_SRC:%.c=build/asan/%.o) $(ASAN_LIB_OBJ) $(LDLIBS)

# libFuzzer targets: every tests/fuzz/fuzz_*.c exports LLVMFuzzerTestOneInput and is linked with
# the program's objects (all but app/main.c) built by clang with the same sanitizers.
# `make fuzz FUZZ_SECONDS=N` runs each for N seconds from seeds (tests/fuzz/run.sh).
FUZZ_SECONDS ?= 10
FUZZ_CC    ?= clang
FUZZ_SRC   := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN   := $(FUZZ_SRC:tests/fuzz/%.c=bin/fuzz/%)
FUZZ_OBJ   := $(LIB_SRC:%.c=build/fuzz/%.o) build/fuzz/build/blender_addon.o
FUZZ_CFLAGS := $(filter-out -Werror -O2 -Wno-format-truncation,$(CFLAGS)) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
# Each target also built with gcc against the ASan objects and a plain main (tests/fuzz/replay_main.c):
# make test replays the seeds and every kept finding (tests/fuzz/regress/NAME/) through it.
REPLAY_BIN := $(FUZZ_SRC:tests/fuzz/%.c=bin/fuzz_replay/%)

# (a phony step: make expands a rule's prerequisites where the rule stands, before this line)
replay-bins: $(REPLAY_BIN)

build/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC (fuzz) $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

bin/fuzz/%: build/fuzz/tests/fuzz/%.o $(FUZZ_OBJ)
	@mkdir -p bin/fuzz
	@echo "  LD $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

bin/fuzz_replay/%: build/asan/tests/fuzz/%.o build/asan/tests/fuzz/replay_main.o $(ASAN_LIB_OBJ)
	@mkdir -p bin/fuzz_replay
	@echo "  LD $@"
	@$(CC) $(CFLAGS) -fsanitize=address,undefined -o $@ $^ $(LDLIBS)

.SECONDARY: $(FUZZ_OBJ) $(FUZZ_SRC:%.c=build/fuzz/%.o) $(FUZZ_SRC:%.c=build/asan/%.o) build/asan/tests/fuzz/replay_main.o

# Every command under valgrind memcheck (tests/cli/valgrind.sh with VALGRIND_ALL=1; make test runs
# its lean set): about 15 minutes on the 2-core machine.
valgrind:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@VALGRIND_ALL=1 sh tests/one.sh valgrind

fuzz:
	@sh tests/deps.sh
	@$(MAKE) --no-print-directory all $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

-include $(shell find build -name '*.d' 2>/dev/null)
