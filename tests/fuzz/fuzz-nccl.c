/* fuzz-nccl.c: libFuzzer harness for the NCCL parsers (sn/nccl.h): every
 * input is read both as a topology dump (libxml2, NCCL's limits) and as an
 * NCCL_DEBUG=INFO log, and what parses is judged against a design that
 * expects an HGX H100 node. Besides crashes and sanitizer reports it
 * aborts when a contract breaks: an error that is not SN_EINPUT naming
 * "fuzz.xml"/"fuzz.log", or a check whose text is not clean. Built by
 * tests/fuzz/fuzz.mk (`make fuzz FUZZ=nccl`); seeds are
 * tests/fixtures/nccl/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/nccl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void judged(const struct sn_health_report *rep)
{
    for (size_t i = 0; i < rep->nchecks; i++)
        if (!sn_str_is_clean(rep->checks[i].evidence, 0) ||
            !sn_str_is_clean(rep->checks[i].subject, 0))
            abort();
}

static void expect_input_error(int rc, const struct sn_error *err,
                               const char *name)
{
    if (rc != SN_EINPUT || strncmp(err->msg, name, strlen(name)))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sn_nccl_design d;
    struct sn_health_report rep;
    struct sn_nccl_topo *t = NULL;
    struct sn_nccl_log *l = NULL;
    struct sn_error err;
    int rc;

    sn_nccl_design_init(&d);
    d.gpus = d.nics = 8;
    d.nvlinks = 18;
    d.nvswitch = d.nic_near = d.nvls = true;
    d.nic_gbps = 400;
    d.numa_nodes = 2;
    rc = sn_nccl_topo_parse("fuzz.xml", (const char *)data, size, &t, &err);
    if (rc) {
        expect_input_error(rc, &err, "fuzz.xml");
    } else {
        sn_health_report_init(&rep);
        sn_nccl_topo_check(t, &d, &rep);
        judged(&rep);
        sn_health_report_release(&rep);
        sn_nccl_topo_free(t);
    }
    rc = sn_nccl_log_parse("fuzz.log", (const char *)data, size, &l, &err);
    if (rc) {
        expect_input_error(rc, &err, "fuzz.log");
    } else {
        sn_health_report_init(&rep);
        sn_nccl_log_check(l, &d, &rep);
        judged(&rep);
        sn_health_report_release(&rep);
        sn_nccl_log_free(l);
    }
    return 0;
}
