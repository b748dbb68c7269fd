/* cmd-bench-kernels.c: `supernode bench kernels`: the kernel efficiency
 * table measured on this machine, in the file `sim train --kernels`
 * reads. cmd-bench.c hands over when the first word is "kernels"; the
 * measurement is the library's (src/lib/bench/kernels.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "sn/kernels.h"

int cli_bench_kernels(int argc, char **argv)
{
    struct sn_bench_kernels_opts o;
    struct sn_kernel_table *t = NULL;
    struct sn_buf out = SN_BUF_INIT;
    struct sn_error err;
    const char *output = NULL, *v;
    int rc = SN_EXIT_OK;

    sn_bench_kernels_opts_init(&o);
    for (int i = 1; i < argc; i++) {
        long long x;
        if ((v = cli_opt_value(argc, argv, &i, "--scale", NULL, &rc))) {
            if (sn_parse_long(v, 1, 1024, &x, NULL))
                return cli_usage_error("--scale: '%s' (expected 1 to 1024)", v);
            o.scale = (int)x;
        } else if ((v = cli_opt_value(argc, argv, &i, "-n", NULL, &rc))) {
            if (sn_parse_long(v, 1, SN_BENCH_KERNELS_MAX_ITERS, &x, NULL))
                return cli_usage_error("-n: '%s' (expected 1 to %d)", v,
                                       SN_BENCH_KERNELS_MAX_ITERS);
            o.iters = (int)x;
        } else if ((v = cli_opt_value(argc, argv, &i, "--backend", NULL,
                                      &rc))) {
            /* the cpu backend only, so far: cuda is a usage error, not
             * a failure after the run starts */
            if (!strcmp(v, "cpu"))
                o.backend = SN_BENCH_CPU;
            else if (!strcmp(v, "cuda"))
                return cli_usage_error("bench kernels --backend cuda: not "
                                       "measured yet (the cpu backend only)");
            else
                return cli_usage_error("--backend: unknown value '%s' "
                                       "(expected cpu)",
                                       v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--output", "-o", &rc))) {
            output = v;
        } else if (rc) {
            return rc;
        } else {
            return cli_unknown_option("bench", argv[i], "bench kernels");
        }
        if (rc)
            return rc;
    }
    /* the output is checked before the run: no measuring for a file
     * that cannot be written */
    if (output && (rc = cli_outputs_check(&output, 1)))
        return rc;
    if (sn_bench_kernels(&o, &t, &err))
        return cli_fail(&err);
    sn_kernels_format(t, &out);
    if (output)
        rc = cli_write(output, &out);
    else
        cli_print(&out);
    sn_kernels_free(t);
    sn_buf_release(&out);
    return rc;
}
