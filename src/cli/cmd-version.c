/* cmd-version.c: `supernode version`: the tool's version, the versions
 * of the libraries it was built with, and which bench backends it has. */
#include <stdio.h>
#include <yaml.h>

#include "cmd.h"
#include "sn/bench.h"
#include "sn/health.h"
#include "sn/store.h"

static int version_run(int argc, char **argv)
{
    struct sn_bench_versions v;
    struct sn_error err;
    char hw[32];

    (void)argv;
    if (argc > 1)
        return cli_usage_error("version takes no arguments");
    printf("supernode %s\n", SN_VERSION);
    printf("libyaml %s\n", yaml_get_version_string());
    printf("SQLite %s\n", sn_store_sqlite_version());
    sn_health_hwloc_version(hw, sizeof(hw));
    printf("hwloc API %s\n", hw);
    sn_error_clear(&err);
    if (sn_bench_backend_versions(SN_BENCH_CPU, &v, &err) == SN_OK) {
        printf("MPI %s\n", v.mpi[0] ? v.mpi : "(unknown)");
        printf("BLAS %s\n", v.blas[0] ? v.blas : "(unknown)");
        printf("backend cpu: built\n");
    }
    sn_error_clear(&err);
    if (sn_bench_backend_versions(SN_BENCH_CUDA, &v, &err) == SN_OK) {
        printf("backend cuda: built (CUDA runtime %s, NCCL %s, %s; driver "
               "%s)\n",
               v.cuda_runtime[0] ? v.cuda_runtime : "?",
               v.nccl[0] ? v.nccl : "?", v.blas[0] ? v.blas : "cuBLASLt",
               v.cuda_driver[0] && v.cuda_driver[0] != '0' ? v.cuda_driver
                                                           : "none found");
    } else {
        printf("backend cuda: not available (%s)\n", err.msg);
    }
    printf("NVML: loaded at run time with dlopen (doctor, bench --backend "
           "cuda)\n");
    return SN_EXIT_OK;
}

const struct sn_cmd sn_cmd_version = {
    "version",
    "",
    "print the version of supernode, its libraries and its backends",
    "",
    version_run,
};
