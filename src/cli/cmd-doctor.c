/* cmd-doctor.c: `supernode doctor`: is the node what it should be? Runs
 * the health probes and prints a checklist (or JSON); exit 1 when any
 * check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-health.h"
#include "cli-nccl.h"
#include "cmd.h"
#include "sn/health.h"

extern const struct sn_cmd sn_cmd_doctor;

/* Past the deadline: say so and end, as check does for its hosts. */
static void doctor_expired(void *ctx)
{
    const long long *seconds = ctx;

    fprintf(stderr,
            "supernode: doctor: the checks did not finish within %lld s "
            "(a probe is stuck: a FIFO or a hung device under the root, or "
            "the driver); giving up\n",
            *seconds);
    fflush(stderr);
    _exit(SN_EXIT_RUN);
}

static int doctor_run(int argc, char **argv)
{
    struct sn_health_config cfg;
    struct sn_health_report rep;
    struct sn_health_node node;
    struct sn_spec spec;
    struct sn_error err;
    struct sn_buf out;
    enum sn_format format = SN_FORMAT_TABLE;
    struct cli_health_opts hopts = {NULL, NULL, NULL};
    const char *spec_path = NULL, *nccl_topo = NULL;
    struct sn_health_matrix *matrix = NULL;
    long long timeout = CLI_HEALTH_TIMEOUT;
    bool have_spec = false;
    int status = SN_EXIT_OK;
    int rc = SN_EXIT_OK;

    memset(&spec, 0, sizeof(spec));
    sn_health_config_init(&cfg);
    for (int i = 1; i < argc; i++) {
        const char *v;

        if (cli_health_opt(argc, argv, &i, &hopts, &rc)) {
            continue;
        } else if ((v = cli_opt_value(argc, argv, &i, "--spec", NULL, &rc))) {
            spec_path = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--format", NULL, &rc))) {
            if (cli_parse_format(v, "text,json", &format))
                return cli_usage_hint(&sn_cmd_doctor);
        } else if ((v = cli_opt_value(argc, argv, &i, "--nccl-topo", NULL,
                                      &rc))) {
            nccl_topo = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--timeout", NULL,
                                      &rc))) {
            if (cli_parse_long("--timeout", v, 1, 86400, &timeout))
                return cli_usage_hint(&sn_cmd_doctor);
        } else if (rc) {
            return cli_usage_hint(&sn_cmd_doctor);
        } else {
            cli_usage_error("doctor: unknown argument '%s'", argv[i]);
            return cli_usage_hint(&sn_cmd_doctor);
        }
    }

    /* NCCL's dump against the design, without probing this node */
    if (nccl_topo)
        return cli_nccl_topo(nccl_topo, spec_path, format, NULL);
    sn_health_report_init(&rep);
    sn_buf_init(&out);
    if (spec_path) {
        rc = sn_spec_load(spec_path, &spec, &err);
        if (rc) {
            status = cli_fail(&err);
            goto out;
        }
        have_spec = true;
        rc = sn_health_node_from_spec(&spec, &node, &err);
        if (rc) {
            status = cli_fail(&err);
            goto out;
        }
        cfg.node = &node;
    }
    rc = cli_health_setup(&hopts, &cfg, &matrix, &err);
    if (rc) {
        status = cli_fail(&err);
        goto out;
    }
    cfg.matrix = matrix;
    rc = cli_health_run_bounded(&cfg, &rep, timeout, doctor_expired, &timeout,
                                &err);
    if (rc) {
        status = cli_fail(&err);
        goto out;
    }
    if (format == SN_FORMAT_JSON)
        sn_render_health_json(&rep, &out);
    else
        sn_render_health_text(&rep, &out);
    cli_print(&out);
    if (sn_health_report_worst(&rep) == SN_HEALTH_FAIL)
        status = SN_EXIT_CHECK;
out:
    sn_buf_release(&out);
    sn_health_report_release(&rep);
    if (have_spec)
        sn_spec_release(&spec);
    sn_health_matrix_free(matrix);
    return status;
}

const struct sn_cmd sn_cmd_doctor = {
    "doctor",
    "[--spec SPEC] [--matrix FILE] [--fsroot DIR] [--nvml LIB|none] "
    "[--format text|json] [--timeout S] | --nccl-topo DUMP.xml [--spec SPEC]",
    "check that this node is what it should be",
    "Probes one node in the field's troubleshooting order and prints a\n"
    "checklist: PASS, WARN, FAIL or SKIP for each check, with the evidence\n"
    "read and the remedy.\n\n"
    "  topo.*     expected against found (hwloc): accelerators and model,\n"
    "             NICs, NUMA placement, each accelerator's nearest NIC\n"
    "  pcie.*     link speed and width of every accelerator, NIC and NVMe\n"
    "             device against what both ends support; AER counters\n"
    "  nvml.*     per GPU: ECC, row remapping, throttle reasons, power\n"
    "             limit, memory clock, temperature, NVLink, processes\n"
    "             holding memory (dead or idle), XID events\n"
    "  version.*  kernel, driver, CUDA, NCCL, MPI, BLAS, firmware; the\n"
    "             compatibility matrix\n"
    "  cpu.*      frequency governor, NUMA balancing, huge pages\n"
    "  kernel.log XID, AER, link-down and limited-link lines\n\n"
    "  --spec SPEC       what the node should be: the spec's node section\n"
    "                    and its defaults (docs/doctor.md)\n"
    "  --matrix FILE     allowed version combinations (YAML)\n"
    "  --fsroot DIR      read sysfs and procfs under DIR instead of / (a\n"
    "                    tree captured with scripts/capture-fixture.sh);\n"
    "                    hwloc follows through HWLOC_FSROOT\n"
    "  --nvml LIB        the NVML library to dlopen() (default\n"
    "                    libnvidia-ml.so.1, or $SN_NVML_LIBRARY); none\n"
    "                    skips the GPU checks\n"
    "  --format F        text (default) or json (" SN_SCHEMA_DOCTOR ")\n"
    "  --timeout S       give up, exit 3, when the checks take longer (a\n"
    "                    probe stuck on a FIFO or in the driver; 300)\n"
    "  --nccl-topo DUMP  instead of probing: NCCL's detected topology\n"
    "                    (NCCL_TOPO_DUMP_FILE) against the spec: GPUs,\n"
    "                    NVLinks per GPU, NICs and speed, each GPU's NIC\n"
    "                    and its PCIe distance (nccl.topo.*)\n\n"
    "Exit status 1 when any check fails, 2 for a bad spec or matrix, 3 when\n"
    "the checks could not finish.\n",
    doctor_run,
};
