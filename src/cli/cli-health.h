/* cli-health.h: what `doctor` and `check` share about the node-health
 * probes: the options that point them (--fsroot, --nvml, --matrix), the
 * environment hwloc reads its root from, and a report as the store's
 * rows. */
#ifndef SN_CLI_HEALTH_H
#define SN_CLI_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/health.h"
#include "sn/store.h"

/* The probe options as given; NULL when absent. */
struct cli_health_opts {
    const char *fsroot; /* --fsroot DIR */
    const char *nvml;   /* --nvml LIB|none */
    const char *matrix; /* --matrix FILE */
};

/* Take argv[*i] when it is --fsroot, --nvml or --matrix ("--opt V" or
 * "--opt=V"), advancing *i past its value, and return true. A missing
 * value prints the usage error, sets *rc and returns false. */
bool cli_health_opt(int argc, char **argv, int *i, struct cli_health_opts *o,
                    int *rc);

/* Point cfg (initialised by the caller) as doctor does: NVML from --nvml
 * ("none": no GPU checks), else $SN_NVML_LIBRARY, else the driver's; the
 * root from --fsroot, else $HWLOC_FSROOT, else "/". Loads the matrix
 * named by --matrix into *matrix (NULL when none; the caller frees it
 * with sn_health_matrix_free(), after the last use of cfg). Returns SN_OK,
 * or SN_EINPUT for a root that is not a directory or a bad matrix (err
 * says which). */
/* The NVML library an --nvml value names ("none": "", turned off), else
 * $SN_NVML_LIBRARY, else NULL (the library's default: the driver's). One
 * rule for doctor, check and bench. */
const char *cli_nvml_library(const char *opt);

int cli_health_setup(const struct cli_health_opts *o,
                     struct sn_health_config *cfg,
                     struct sn_health_matrix **matrix, struct sn_error *err);

/* hwloc reads its root from $HWLOC_FSROOT: set it to cfg's root for the
 * probes (unset for "/"), keeping the value it had in *saved (a heap copy
 * or NULL) for cli_health_env_end(), which puts it back. Only around the
 * probes: MPI reads the same variable for its own topology. */
void cli_health_env_begin(const struct sn_health_config *cfg, char **saved);
void cli_health_env_end(char *saved);

/* The probes' deadline by default, seconds: doctor takes a fraction of a
 * second on a node; NVML's start on a large node, seconds. */
#define CLI_HEALTH_TIMEOUT 300

/* sn_health_run() with cfg's root in the environment (above), under a
 * deadline of seconds: past it, expire(ctx) is called from another
 * thread, and must end the process (a stuck probe cannot be stopped). */
int cli_health_run_bounded(const struct sn_health_config *cfg,
                           struct sn_health_report *rep, long long seconds,
                           void (*expire)(void *ctx), void *ctx,
                           struct sn_error *err);

/* The checks of rep as store rows made on host, appended to *rows (*n
 * of them, *cap allocated; release with sn_store_health_release()). */
void cli_health_rows(const struct sn_health_report *rep, const char *host,
                     struct sn_store_health **rows, size_t *n, size_t *cap);

#endif
