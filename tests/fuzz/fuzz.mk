# fuzz.mk: the libFuzzer harnesses (`make fuzz`): the spec loader
# (FUZZ=spec, the default), the BMC collector's Redfish parse and walk
# (FUZZ=redfish) and the NCCL dump and log parsers (FUZZ=nccl).
#
#   make fuzz                    build, then fuzz for FUZZ_TIME seconds (300)
#   make fuzz FUZZ_TIME=60       shorter
#   make fuzz FUZZ=redfish       the Redfish harness
#   make -f tests/fuzz/fuzz.mk build/fuzz/fuzz-spec     build only
#
# The spec seed corpus is every spec fixture, good and bad; the Redfish
# one is every document of the Redfish mock's fixtures, alone, plus all
# of them in one input (NUL-separated: the whole service). New inputs the
# fuzzer finds go to build/fuzz/corpus (corpus-redfish; not committed),
# crashes to build/fuzz/crash-*. Needs clang with libFuzzer (Debian:
# clang).

FUZZ      ?= spec
FUZZ_CC   ?= clang
FUZZ_TIME ?= 300
FUZZ_DIR  := build/fuzz
FUZZ_SRC  := $(sort $(wildcard src/lib/spec/*.c src/lib/catalog/*.c \
                               src/lib/util/*.c))
FUZZ_OBJ  := $(FUZZ_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -Iinclude -g -O1 \
              -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=undefined \
              $(shell pkg-config --cflags yaml-0.1 2>/dev/null)
FUZZ_LIBS := $(shell pkg-config --libs yaml-0.1 jansson 2>/dev/null || \
                 echo -lyaml -ljansson) -lm
RF_SRC    := $(sort $(wildcard src/lib/util/*.c)) src/lib/metrics/metrics.c \
             src/lib/watch/obs.c src/lib/watch/col-redfish.c
RF_OBJ    := $(RF_SRC:%.c=$(FUZZ_DIR)/%.o)
RF_LIBS   := $(FUZZ_LIBS) \
             $(shell pkg-config --libs jansson libcurl 2>/dev/null || \
                 echo -ljansson -lcurl) -lpthread

# the NCCL parsers (FUZZ=nccl): the dump through libxml2, the log
NC_SRC    := $(FUZZ_SRC) src/lib/health/report.c src/lib/health/node.c \
             $(sort $(wildcard src/lib/nccl/*.c))
NC_OBJ    := $(NC_SRC:%.c=$(FUZZ_DIR)/%.o)
NC_LIBS   := $(FUZZ_LIBS) \
             $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
$(FUZZ_DIR)/src/lib/nccl/nccl-topo.o: \
    FUZZ_FLAGS += $(shell pkg-config --cflags libxml-2.0 2>/dev/null)

.PHONY: fuzz-run fuzz-run-spec fuzz-run-redfish fuzz-run-nccl
fuzz-run: fuzz-run-$(FUZZ)

fuzz-run-spec: $(FUZZ_DIR)/fuzz-spec
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seed
	@cp tests/fixtures/specs/good/*.yaml tests/fixtures/specs/bad/*.yaml \
	    $(FUZZ_DIR)/seed/
	cd $(FUZZ_DIR) && ./fuzz-spec -max_total_time=$(FUZZ_TIME) \
	    -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	    -dict=../../tests/fuzz/spec.dict -print_final_stats=1 \
	    corpus seed

fuzz-run-redfish: $(FUZZ_DIR)/fuzz-redfish
	@rm -rf $(FUZZ_DIR)/seed-redfish
	@mkdir -p $(FUZZ_DIR)/corpus-redfish $(FUZZ_DIR)/seed-redfish
	@n=0; for f in $$(find tests/fixtures/redfish -name index.json | \
	    sort); do n=$$((n + 1)); cp "$$f" $(FUZZ_DIR)/seed-redfish/$$n.json; \
	    cat "$$f"; printf '\0'; done > $(FUZZ_DIR)/seed-redfish/service
	cd $(FUZZ_DIR) && ./fuzz-redfish -max_total_time=$(FUZZ_TIME) \
	    -max_len=131072 -timeout=10 -rss_limit_mb=2048 \
	    -dict=../../tests/fuzz/redfish.dict -print_final_stats=1 \
	    corpus-redfish seed-redfish

fuzz-run-nccl: $(FUZZ_DIR)/fuzz-nccl
	@mkdir -p $(FUZZ_DIR)/corpus-nccl $(FUZZ_DIR)/seed-nccl
	@cp tests/fixtures/nccl/*.xml tests/fixtures/nccl/*.log \
	    $(FUZZ_DIR)/seed-nccl/
	cd $(FUZZ_DIR) && ./fuzz-nccl -max_total_time=$(FUZZ_TIME) \
	    -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 corpus-nccl seed-nccl

$(FUZZ_DIR)/fuzz-nccl: $(NC_OBJ) tests/fuzz/fuzz-nccl.c
	$(FUZZ_CC) $(FUZZ_FLAGS) -DSN_TESTS -fsanitize=fuzzer -o $@ \
	    tests/fuzz/fuzz-nccl.c $(NC_OBJ) $(NC_LIBS)

$(FUZZ_DIR)/fuzz-redfish: $(RF_OBJ) tests/fuzz/fuzz-redfish.c
	$(FUZZ_CC) $(FUZZ_FLAGS) -DSN_TESTS -fsanitize=fuzzer -o $@ \
	    tests/fuzz/fuzz-redfish.c $(RF_OBJ) $(RF_LIBS)

$(FUZZ_DIR)/fuzz-spec: $(FUZZ_OBJ) tests/fuzz/fuzz-spec.c
	$(FUZZ_CC) $(FUZZ_FLAGS) -DSN_TESTS -fsanitize=fuzzer -o $@ \
	    tests/fuzz/fuzz-spec.c $(FUZZ_OBJ) $(FUZZ_LIBS)

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link \
	    -DSN_MODULE_$(word 3,$(subst /, ,$<)) -c -o $@ $<
