# fuzz.mk: the libFuzzer harness for the spec loader (`make fuzz`).
#
#   make fuzz                    build, then fuzz for FUZZ_TIME seconds (300)
#   make fuzz FUZZ_TIME=60       shorter
#   make -f tests/fuzz/fuzz.mk build/fuzz/fuzz-spec     build only
#
# The seed corpus is every spec fixture, good and bad; new inputs the
# fuzzer finds go to build/fuzz/corpus (not committed), crashes to
# build/fuzz/crash-*. Needs clang with libFuzzer (Debian: clang).

FUZZ_CC   ?= clang
FUZZ_TIME ?= 300
FUZZ_DIR  := build/fuzz
FUZZ_SRC  := $(sort $(wildcard src/lib/spec/*.c src/lib/util/*.c))
FUZZ_OBJ  := $(FUZZ_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -Iinclude -g -O1 \
              -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=undefined \
              $(shell pkg-config --cflags yaml-0.1 2>/dev/null)
FUZZ_LIBS := $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml) \
             -lm

.PHONY: fuzz-run
fuzz-run: $(FUZZ_DIR)/fuzz-spec
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seed
	@cp tests/fixtures/specs/good/*.yaml tests/fixtures/specs/bad/*.yaml \
	    $(FUZZ_DIR)/seed/
	cd $(FUZZ_DIR) && ./fuzz-spec -max_total_time=$(FUZZ_TIME) \
	    -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	    -dict=../../tests/fuzz/spec.dict -print_final_stats=1 \
	    corpus seed

$(FUZZ_DIR)/fuzz-spec: $(FUZZ_OBJ) tests/fuzz/fuzz-spec.c
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ \
	    tests/fuzz/fuzz-spec.c $(FUZZ_OBJ) $(FUZZ_LIBS)

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
