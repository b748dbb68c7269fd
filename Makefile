# supernode: one non-recursive GNU Makefile.
#
#   make            release build: build/supernode
#   make run        install missing packages (as root), build, plan the default
#   make test       sanitizer build (ASan+UBSan, -Werror) and every test
#   make fuzz       libFuzzer harness for the spec loader (clang)
#   make bench      our own speed benchmarks (bench/)
#   make format     lay out every C source as .clang-format says
#   make format-check  list the sources that differ (tests/format does
#                   this in `make test`)
#
# Sources are found by wildcard: a new src/lib/<module>/*.c, src/cli/*.c or
# tests/unit/test-*.c needs no edit here.

CC      ?= cc
Q       ?= @
NVCC    ?= nvcc
PKGS    := yaml-0.1 sqlite3 hwloc openblas ompi-c libmicrohttpd libcurl \
           jansson
# libxml2: NCCL's topology dump (src/lib/nccl/nccl-topo.c)
PKGS    += libxml-2.0
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# empty when every package is there; read once, when make starts, which is
# why `run` and `test` install first and then build in a second make
PKG_MISSING := $(shell pkg-config --exists $(PKGS) 2>/dev/null || echo 1)

WARN    := -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -Iinclude $(WARN) $(PKG_CFLAGS) -MMD -MP
LIBS    := $(PKG_LIBS) -lm -lpthread -ldl

# CUDA: built when nvcc is found (PATH or CUDA_HOME) and NCCL's header is
# there; code tests HAVE_CUDA. `make HAVE_CUDA=0` turns it off. The cuda
# bench backend is a plugin, supernode-cuda.so beside the binary, loaded
# with dlopen() when asked for: no other command pays for loading the
# CUDA libraries (seconds under ASan), and the binary still starts on a
# host without them.
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null))
ifeq ($(HAVE_CUDA),)
HAVE_CUDA := $(if $(and $(CUDA_HOME),$(wildcard $(CUDA_HOME)/include/nccl.h $(CUDA_HOME)/include/cuda_runtime.h)),1,0)
endif
CU_SRC  := $(sort $(wildcard src/lib/bench/cuda/*.cu))
CUC_SRC := $(sort $(wildcard src/lib/bench/cuda/*.c))
ifeq ($(HAVE_CUDA),1)
BASE_CFLAGS += -DHAVE_CUDA=1
CUDA_CFLAGS := -isystem $(CUDA_HOME)/include
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 \
             -lcudart -lcublasLt -lcublas -lnccl
NVCCFLAGS ?= -O2 -std=c++17 -Iinclude -Xcompiler -fPIC
else
CU_SRC  :=
CUC_SRC :=
endif

LIB_SRC  := $(sort $(wildcard src/lib/*/*.c))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test-*.c))
HELP_SRC := $(sort $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c)))
TESTLIB_SRC := $(sort $(wildcard tests/lib/*.c))

# Each library source is compiled with -DSN_MODULE_<module> (its folder
# under src/lib), each test source with -DSN_TESTS: a private header
# (*-int.h) stops any other includer with #error. tests/layers/table says
# which headers are lent to which modules.
SN_MODULE = $(if $(filter src/lib/%,$<),\
                -DSN_MODULE_$(word 3,$(subst /, ,$<)),\
                $(if $(filter tests/%,$<),-DSN_TESTS))

# Two builds side by side: release (build/) and test (build/test/).
REL := build/rel
TST := build/test
REL_CFLAGS := $(BASE_CFLAGS) -O2 -g
TST_CFLAGS := $(BASE_CFLAGS) -O1 -g -fno-omit-frame-pointer \
              -fsanitize=address,undefined -fno-sanitize-recover=undefined \
              -Werror
TST_LDFLAGS := -fsanitize=address,undefined

REL_LIB_OBJ := $(LIB_SRC:%.c=$(REL)/%.o)
TST_LIB_OBJ := $(LIB_SRC:%.c=$(TST)/%.o)
PLUGIN_OBJ   = $(CUC_SRC:%.c=$(1)/%.o) $(CU_SRC:%.cu=$(1)/%.cu.o)
REL_PLUGIN  := $(if $(CU_SRC)$(CUC_SRC),$(REL)/supernode-cuda.so)
TST_PLUGIN  := $(if $(CU_SRC)$(CUC_SRC),$(TST)/supernode-cuda.so)
REL_CLI_OBJ := $(CLI_SRC:%.c=$(REL)/%.o)
TST_CLI_OBJ := $(CLI_SRC:%.c=$(TST)/%.o)
UNIT_BIN    := $(UNIT_SRC:tests/unit/%.c=$(TST)/unit/%)
HELP_OBJ    := $(HELP_SRC:%.c=$(TST)/%.o)
TESTLIB_SO  := $(TESTLIB_SRC:tests/lib/%.c=$(TST)/lib/%.so)

.SECONDARY:
.PHONY: all run test test-build unit fuzz bench clean deps check-deps \
        need-pkgs format format-check
.DEFAULT_GOAL := all

all: build/supernode

build/supernode: $(REL)/supernode $(REL_PLUGIN)
	@ln -sf rel/supernode $@

# -rdynamic: the cuda plugin calls back into the library linked here
$(REL)/supernode: $(REL_CLI_OBJ) $(REL)/libsupernode.a
	$(CC) -rdynamic -o $@ $(REL_CLI_OBJ) $(REL)/libsupernode.a $(LIBS)

$(REL)/supernode-cuda.so: $(call PLUGIN_OBJ,$(REL))
	$(CC) -shared -o $@ $^ $(CUDA_LIBS) $(LIBS)

$(TST)/supernode-cuda.so: $(call PLUGIN_OBJ,$(TST))
	$(CC) $(TST_LDFLAGS) -shared -o $@ $^ $(CUDA_LIBS) $(LIBS)

# the cpu bench backend's STREAM kernels vectorised, as STREAM's own builds
# are (-O3): a memory figure must not depend on the loop's code
$(REL)/src/lib/bench/cpu.o: CFLAGS += -O3

# the plugin's C files see the CUDA headers and are position-independent
$(REL)/src/lib/bench/cuda/%.o $(TST)/src/lib/bench/cuda/%.o: \
    CFLAGS += $(CUDA_CFLAGS) -fPIC

$(REL)/libsupernode.a: $(REL_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(TST)/supernode: $(TST_CLI_OBJ) $(TST)/libsupernode.a
	$(CC) $(TST_LDFLAGS) -rdynamic -o $@ $(TST_CLI_OBJ) \
	    $(TST)/libsupernode.a $(LIBS)

$(TST)/libsupernode.a: $(TST_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# a build without the packages stops at once with what to do, instead of
# a compiler error about mpi.h
need-pkgs:
ifneq ($(PKG_MISSING),)
	@echo "supernode: the build packages are missing (pkg-config:" \
	    "$(PKGS)); 'make run' or 'make test' installs them, or run" \
	    "'bash scripts/deps.sh' as root" >&2
	@exit 2
endif

$(REL)/%.o: %.c | need-pkgs
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(REL_CFLAGS) $(CFLAGS) $(SN_MODULE) -c -o $@ $<

$(TST)/%.o: %.c | need-pkgs
	@mkdir -p $(@D)
	@echo "  CC      $< (test)"
	$(Q)$(CC) $(TST_CFLAGS) $(CFLAGS) $(SN_MODULE) -c -o $@ $<

# two rules, not one with two targets: a pattern rule with two targets
# is one recipe making both, so the second object would never be built
$(REL)/%.cu.o: %.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(SN_MODULE) -c -o $@ $<

$(TST)/%.cu.o: %.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(SN_MODULE) -c -o $@ $<

$(TST)/unit/%: $(TST)/tests/unit/%.o $(HELP_OBJ) $(TST)/libsupernode.a
	@mkdir -p $(@D)
	$(CC) $(TST_LDFLAGS) -o $@ $< $(HELP_OBJ) $(TST)/libsupernode.a $(LIBS)

# test-only shared libraries (a fake NVML, for example), no sanitizers:
# they are dlopen()ed into sanitized binaries.
$(TST)/lib/%.so: tests/lib/%.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE -Iinclude -O1 -g -fPIC -shared -Wall \
	    -Wextra -Werror -o $@ $< -lyaml

# `make run`: what a newcomer types first on a fresh Debian 12 machine.
# The packages are installed first and the build runs in a second make:
# this make read pkg-config's flags when it started, before they existed.
run: check-deps
	@$(MAKE) --no-print-directory all
	./build/supernode plan

check-deps:
	@bash scripts/deps.sh --if-missing

deps:
	bash scripts/deps.sh

unit: $(UNIT_BIN)

test: check-deps
	@$(MAKE) --no-print-directory test-build
	@bash tests/run.sh $(TST)

test-build: $(TST)/supernode $(TST_PLUGIN) $(UNIT_BIN) $(TESTLIB_SO) \
            build/supernode

fuzz:
	$(MAKE) -f tests/fuzz/fuzz.mk

bench: all
	@bash bench/run.sh

# the house layout: .clang-format, checked by clang-format 14 (Debian
# 12's); every C source, header and CUDA file of the tree
FORMAT_SRC = $(shell find src include tests bench \( -name '*.c' -o \
                 -name '*.h' -o -name '*.cu' \) -type f | sort)

format:
	clang-format -i --style=file $(FORMAT_SRC)

format-check:
	@bash tests/format/suite.sh

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
