/* goodput.h: the share of wall-clock time a training job spends on useful
 * work under failures, checkpoints and restarts.
 */
#ifndef SN_GOODPUT_H
#define SN_GOODPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/spec.h"
#include "sn/util.h"

/* Component classes that fail, and what each rate is counted per. */
enum sn_fail_class {
    SN_FAIL_ACCEL,    /* GPU, HBM, SRAM, GPU processor, thermal, SDC;
                         per accelerator */
    SN_FAIL_NIC,      /* per scale-out NIC */
    SN_FAIL_HOST,     /* host maintenance, SSD, PSU, chassis, CPU, DRAM,
                         IO board; per node */
    SN_FAIL_NETWORK,  /* scale-out switches and cables; per accelerator */
    SN_FAIL_SCALEUP,  /* scale-up switch chips; per chip */
    SN_FAIL_SOFTWARE, /* software bugs, collective timeouts, dependencies;
                         per accelerator; stop the whole job */
    SN_FAIL_COUNT
};

enum sn_fault_domain {
    SN_FAULT_JOB,       /* any failure stops the whole job */
    SN_FAULT_SUPERNODE, /* a hardware failure stops its supernode; the
                           others keep training (elastic data parallelism)
                           until it is replaced */
};

/* The spec's `reliability:` section, defaults from
 * sn_goodput_params_default() (Llama 3's interruption table). */
struct sn_goodput_params {
    double mtbf[SN_FAIL_COUNT]; /* hours per failure of one unit; 0 =
                                   never fails */
    enum sn_fault_domain domain;
    int spares;                /* spare supernodes */
    double restart;            /* s: detect, reschedule, warm up */
    double repair;             /* s: bring a failed supernode back */
    double checkpoint_write;   /* s blocking; 0 = from the storage */
    double checkpoint_restore; /* s; 0 = from the storage */
};

/* What the cluster and the job look like to the goodput model. */
struct sn_goodput_job {
    int accels;        /* in the job */
    int per_supernode; /* accelerators per supernode */
    int per_node;      /* accelerators per node */
    int nics_per_node;
    int scaleup_switches; /* per supernode */
    double checkpoint_bytes;
    double write_bw, read_bw; /* storage bytes/s; 0 = unknown */
};

struct sn_goodput_result {
    double rate[SN_FAIL_COUNT]; /* failures per hour of the job, by class */
    double mtbf;                /* s: between interruptions of the job */
    double mtbf_supernode;      /* s: between failures of one supernode */
    double checkpoint_write;    /* s (delta) */
    double restart;             /* s (R): restart + restore + waiting */
    double young;               /* s: sqrt(2 delta M) */
    double daly;                /* s: Daly's higher-order optimum */
    double interval;            /* s: the interval used (Daly) */
    double waste_checkpoint;    /* fractions of wall time */
    double waste_rework;
    double waste_restart;
    double waste_supernode; /* supernodes out of the job */
    double ettr;            /* effective training time ratio */
    double spare_fraction;  /* spares / (job + spares) */
    double goodput;         /* ettr x (1 - spare_fraction) */
    double p_no_spare;      /* a failure finds no spare */
    /* the assumptions behind the figures, for the reader */
    enum sn_fault_domain domain;
    int spares;    /* -1: unlimited */
    double repair; /* s */
};

/* One line that states the assumptions of a goodput result (fault
 * domain, spares, repair time) and the keys that change them. */
void sn_goodput_assumption(const struct sn_goodput_result *r, char *buf,
                           size_t len);

void sn_goodput_params_default(struct sn_goodput_params *p);
/* Read the spec's reliability section (may be NULL: defaults) over the
 * defaults; errors located in `file`. */
int sn_goodput_parse(const char *file, const struct sn_yaml *section,
                     struct sn_goodput_params *p, struct sn_error *err);
/* Young/Daly checkpoint interval and the effective training time ratio.
 * SN_EINPUT when the checkpoint cost is unknown (no storage bandwidth and
 * no checkpoint_write). */
int sn_goodput_compute(const struct sn_goodput_params *p,
                       const struct sn_goodput_job *job,
                       struct sn_goodput_result *r, struct sn_error *err);
const char *sn_fail_class_name(enum sn_fail_class c);

#endif
