/* fuzz-spec.c: libFuzzer harness for the spec loader. Any bytes go to
 * sn_spec_parse(); a spec that loads is also overridden with sn_spec_set()
 * and released. Besides crashes and sanitizer reports, it aborts when an
 * error breaks the contract: a code other than bad input, or a message
 * that does not start "fuzz.yaml:LINE:COL: ". Built by tests/fuzz/fuzz.mk
 * (`make fuzz`); docs/spec.md "Fuzzing" has the command and the result. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(int rc, const struct sn_error *err)
{
    int line = 0, col = 0, n = 0;

    if (rc != SN_EINPUT) {
        fprintf(stderr, "unexpected code %d: %s\n", rc, err->msg);
        abort();
    }
    if (sscanf(err->msg, "fuzz.yaml:%d:%d: %n", &line, &col, &n) != 2 ||
        n == 0 || line < 1 || col < 1) {
        fprintf(stderr, "error without a position: %s\n", err->msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sn_spec spec;
    struct sn_error err;
    int rc;

    rc = sn_spec_parse("fuzz.yaml", (const char *)data, size, &spec, &err);
    if (rc) {
        check_error(rc, &err);
        return 0;
    }
    /* overrides must leave a valid spec valid, whatever they say */
    if (sn_spec_set(&spec, "supernodes", "3", &err) == SN_OK &&
        spec.supernodes != 3)
        abort();
    sn_spec_set(&spec, "supernode.accelerators", "0", &err);
    if (spec.scaleup.accelerators < 1)
        abort();
    sn_spec_set(&spec, "power.headroom", "2", &err);
    (void)sn_spec_total_accels(&spec);
    sn_spec_release(&spec);
    return 0;
}
