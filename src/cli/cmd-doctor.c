/* cmd-doctor.c: `supernode doctor`: is the node what it should be? Runs
 * the health probes and prints a checklist (or JSON); exit 1 when any
 * check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "sn/health.h"

extern const struct sn_cmd sn_cmd_doctor;

/* "--name VALUE" or "--name=VALUE": returns the value and advances *i, or
 * NULL when argv[*i] is not this option. *missing is set when the value
 * is absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *name,
                             bool *missing)
{
    size_t n = strlen(name);
    const char *a = argv[*i];

    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
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
    const char *spec_path = NULL, *matrix_path = NULL;
    struct sn_health_matrix *matrix = NULL;
    bool have_root = false, have_spec = false;
    int status = SN_EXIT_OK;
    int rc;

    memset(&spec, 0, sizeof(spec));
    sn_health_config_init(&cfg);
    /* the environment can point at another NVML (a test double, a driver
     * outside the loader path); --nvml wins over it */
    if (getenv("SN_NVML_LIBRARY"))
        cfg.nvml_library = getenv("SN_NVML_LIBRARY");
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v;

        if ((v = opt_value(argc, argv, &i, "--fsroot", &missing))) {
            cfg.fsroot = v;
            have_root = true;
        } else if ((v = opt_value(argc, argv, &i, "--spec", &missing))) {
            spec_path = v;
        } else if ((v = opt_value(argc, argv, &i, "--matrix", &missing))) {
            matrix_path = v;
        } else if ((v = opt_value(argc, argv, &i, "--nvml", &missing))) {
            cfg.nvml_library = strcmp(v, "none") ? v : "";
        } else if ((v = opt_value(argc, argv, &i, "--format", &missing))) {
            if (cli_parse_format(v, "text,json", &format))
                return cli_usage_hint(&sn_cmd_doctor);
        } else if (missing) {
            cli_usage_error("%s needs a value", argv[i]);
            return cli_usage_hint(&sn_cmd_doctor);
        } else {
            cli_usage_error("doctor: unknown argument '%s'", argv[i]);
            return cli_usage_hint(&sn_cmd_doctor);
        }
    }

    /* hwloc reads its root from HWLOC_FSROOT: keep it and --fsroot the
     * same directory (an HWLOC_FSROOT already set is the default root) */
    if (have_root && strcmp(cfg.fsroot, "/"))
        setenv("HWLOC_FSROOT", cfg.fsroot, 1);
    else if (have_root)
        unsetenv("HWLOC_FSROOT");
    else if (getenv("HWLOC_FSROOT") && *getenv("HWLOC_FSROOT"))
        cfg.fsroot = getenv("HWLOC_FSROOT");

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
    if (matrix_path) {
        rc = sn_health_matrix_load(matrix_path, &matrix, &err);
        if (rc) {
            status = cli_fail(&err);
            goto out;
        }
        cfg.matrix = matrix;
    }
    rc = sn_health_run(&cfg, &rep, &err);
    if (rc) {
        status = cli_fail(&err);
        goto out;
    }
    if (format == SN_FORMAT_JSON)
        sn_health_report_json(&rep, &out);
    else
        sn_health_report_text(&rep, &out);
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
    "[--format text|json]",
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
    "  --format F        text (default) or json (supernode.doctor/1)\n\n"
    "Exit status 1 when any check fails, 2 for a bad spec or matrix.\n",
    doctor_run,
};
