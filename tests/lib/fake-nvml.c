/* fake-nvml.c: a stand-in for libnvidia-ml.so.1 that exports the NVML
 * entry points doctor, bench and the node agent use and answers them from
 * a YAML fixture (the path in $SN_FAKE_NVML, read at nvmlInit). They load
 * it through the same dlopen() path as the real library (--nvml
 * build/test/lib/fake-nvml.so).
 *
 * Answers vary over time: nvmlDeviceGetCount and the handle look-ups stat
 * the fixture and read it again when its inode, size or mtime differ from
 * the one loaded, so a test rewrites it (a temporary file renamed over
 * it) between intervals. A fixture that does not parse then keeps the
 * answers as they were. Handles stay valid by index; a GPU's XID list is
 * delivered (once) again only when the list changed, and event
 * registrations are kept.
 *
 * Fixture (a YAML file in tests/fixtures/nvml/): driver, cuda (12040 = 12.4),
 * init (an NVML error number nvmlInit returns), hang_init (seconds
 * nvmlInit sleeps first: a driver call that does not come back), gpus: a
 * list of
 *   bus, name, uuid, vbios, pstate, lost (handle fails with
 *   GPU_IS_LOST), lost_calls (the handle opens, as a GPU lost after
 *   nvmlInit does, but every call on it answers GPU_IS_LOST),
 *   ecc {mode, volatile_corrected, volatile_uncorrected,
 *        aggregate_corrected, aggregate_uncorrected},
 *   remapped_rows {corrected, uncorrected, pending, failure},
 *   retired_pages {sbe, dbe, pending}, reasons (bit mask),
 *   power {limit_w, default_w, min_w, max_w, usage_mw, energy_mj},
 *   clocks {mem, mem_max, sm, sm_max}, memory {used_mib, total_mib},
 *   pcie_replays,
 *   temperature {gpu, slowdown, shutdown},
 *   nvlink {links, down [..], errors [{link, replay, recovery, crc_flit,
 *           crc_data}]}, utilization, processes [{pid, memory_mib, sm}],
 *   xids [..] (delivered as XID events once registered; 64 at most),
 *   supported_clocks {mem [..], sm [..]} (the lists a clock lock may ask
 *   for, highest first; the same SM list at every memory clock),
 *   power.advance (on: the energy counter grows by the board power,
 *   capped at the limit, over the time since nvmlInit).
 * At the top: permission: denied (every setter answers NO_PERMISSION,
 * as for a user who is not root).
 * Setters (locked clocks, power limit) change the answers and append a
 * line to the state file, <fixture>.state beside the fixture, so a test
 * sees what was set and that it was put back:
 *   gpu 0 mem-lock 2619 / sm-lock 1980 / mem-reset / sm-reset /
 *   power 350000 (mW).
 * A section that is absent makes its entry points answer NOT_SUPPORTED;
 * a lost GPU answers GPU_IS_LOST to every call on its handle. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "../../src/lib/hw/nvml-api.h"

#define EXPORT __attribute__((visibility("default")))
#define MAXG 16
#define MAXP 64
#define MAXL NVML_NVLINK_MAX_LINKS

struct fake_gpu {
    char bus[32], name[96], uuid[96], vbios[64];
    int pstate;
    int lost, lost_calls;
    int has_ecc, ecc_on;
    unsigned long long ecc[2][2]; /* [type][counter] */
    int has_remap;
    unsigned remap[4]; /* corrected, uncorrected, pending, failure */
    int has_retired;
    unsigned retired[3]; /* sbe, dbe, pending */
    int has_reasons;
    unsigned long long reasons;
    int has_power;
    unsigned power[4];            /* limit, default, min, max in mW */
    unsigned usage_mw;            /* board power now; 0: not supported */
    unsigned long long energy_mj; /* since the driver loaded; 0: none */
    int has_clocks;
    unsigned mem_clock, mem_clock_max, sm_clock, sm_clock_max;
    int has_replays;
    unsigned replays;
    int has_memory;
    unsigned long long mem_used, mem_total; /* bytes */
    int has_temp;
    unsigned temp[3]; /* gpu, slowdown, shutdown */
    int nlinks;
    int link_up[MAXL];
    unsigned long long link_err[MAXL][4];
    int has_util;
    unsigned util;
    int nprocs;
    unsigned pid[MAXP], sm[MAXP];
    int has_sm[MAXP];
    unsigned long long mem[MAXP];
    int nxids;
    unsigned xids[64];
    int xid_next;
    int registered;
    unsigned sup_mem[16], sup_sm[64];
    int nsup_mem, nsup_sm;
    unsigned locked_sm, locked_mem; /* 0: not locked */
    int advance;
};

static struct fake_gpu gpus[MAXG];
static int ngpus;
static char driver[80];
static int cuda;
static int initialised;
static int denied; /* permission: denied */
static struct timespec init_time;
static struct stat loaded; /* the fixture file the answers came from */
static struct nvmlEventSet_st {
    int dummy;
} event_set;

/* ---- the fixture ------------------------------------------------------- */

static yaml_node_t *get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k && k->type == YAML_SCALAR_NODE &&
            !strcmp((const char *)k->data.scalar.value, key))
            return yaml_document_get_node(doc, p->value);
    }
    return NULL;
}

static const char *str(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                            : NULL;
}

static unsigned long long num(yaml_node_t *n)
{
    const char *s = str(n);

    if (!s)
        return 0;
    if (!strcmp(s, "on") || !strcmp(s, "true"))
        return 1;
    return strtoull(s, NULL, 0);
}

static int seq_len(yaml_node_t *n)
{
    return n && n->type == YAML_SEQUENCE_NODE
               ? (int)(n->data.sequence.items.top -
                       n->data.sequence.items.start)
               : 0;
}

static yaml_node_t *seq_at(yaml_document_t *doc, yaml_node_t *n, int i)
{
    return yaml_document_get_node(doc, n->data.sequence.items.start[i]);
}

static void load_gpu(yaml_document_t *doc, yaml_node_t *m, struct fake_gpu *g)
{
    yaml_node_t *s;

    memset(g, 0, sizeof(*g));
    snprintf(g->bus, sizeof(g->bus), "%s",
             str(get(doc, m, "bus")) ? str(get(doc, m, "bus")) : "");
    snprintf(g->name, sizeof(g->name), "%s",
             str(get(doc, m, "name")) ? str(get(doc, m, "name")) : "");
    snprintf(g->uuid, sizeof(g->uuid), "%s",
             str(get(doc, m, "uuid")) ? str(get(doc, m, "uuid")) : "");
    snprintf(g->vbios, sizeof(g->vbios), "%s",
             str(get(doc, m, "vbios")) ? str(get(doc, m, "vbios")) : "");
    g->pstate = get(doc, m, "pstate") ? (int)num(get(doc, m, "pstate"))
                                      : NVML_PSTATE_UNKNOWN;
    g->lost = (int)num(get(doc, m, "lost"));
    g->lost_calls = (int)num(get(doc, m, "lost_calls"));
    if ((s = get(doc, m, "ecc"))) {
        g->has_ecc = 1;
        g->ecc_on = (int)num(get(doc, s, "mode"));
        g->ecc[0][0] = num(get(doc, s, "volatile_corrected"));
        g->ecc[1][0] = num(get(doc, s, "volatile_uncorrected"));
        g->ecc[0][1] = num(get(doc, s, "aggregate_corrected"));
        g->ecc[1][1] = num(get(doc, s, "aggregate_uncorrected"));
    }
    if ((s = get(doc, m, "remapped_rows"))) {
        g->has_remap = 1;
        g->remap[0] = (unsigned)num(get(doc, s, "corrected"));
        g->remap[1] = (unsigned)num(get(doc, s, "uncorrected"));
        g->remap[2] = (unsigned)num(get(doc, s, "pending"));
        g->remap[3] = (unsigned)num(get(doc, s, "failure"));
    }
    if ((s = get(doc, m, "retired_pages"))) {
        g->has_retired = 1;
        g->retired[0] = (unsigned)num(get(doc, s, "sbe"));
        g->retired[1] = (unsigned)num(get(doc, s, "dbe"));
        g->retired[2] = (unsigned)num(get(doc, s, "pending"));
    }
    if ((s = get(doc, m, "reasons"))) {
        g->has_reasons = 1;
        g->reasons = num(s);
    }
    if ((s = get(doc, m, "power"))) {
        g->has_power = 1;
        g->power[0] = (unsigned)num(get(doc, s, "limit_w")) * 1000;
        g->power[1] = (unsigned)num(get(doc, s, "default_w")) * 1000;
        g->power[2] = (unsigned)num(get(doc, s, "min_w")) * 1000;
        g->power[3] = (unsigned)num(get(doc, s, "max_w")) * 1000;
        g->usage_mw = (unsigned)num(get(doc, s, "usage_mw"));
        g->energy_mj = num(get(doc, s, "energy_mj"));
    }
    if ((s = get(doc, m, "clocks"))) {
        g->has_clocks = 1;
        g->mem_clock = (unsigned)num(get(doc, s, "mem"));
        g->mem_clock_max = (unsigned)num(get(doc, s, "mem_max"));
        g->sm_clock = (unsigned)num(get(doc, s, "sm"));
        g->sm_clock_max = (unsigned)num(get(doc, s, "sm_max"));
    }
    if ((s = get(doc, m, "pcie_replays"))) {
        g->has_replays = 1;
        g->replays = (unsigned)num(s);
    }
    if ((s = get(doc, m, "memory"))) {
        g->has_memory = 1;
        g->mem_used = num(get(doc, s, "used_mib")) << 20;
        g->mem_total = num(get(doc, s, "total_mib")) << 20;
    }
    if ((s = get(doc, m, "temperature"))) {
        g->has_temp = 1;
        g->temp[0] = (unsigned)num(get(doc, s, "gpu"));
        g->temp[1] = (unsigned)num(get(doc, s, "slowdown"));
        g->temp[2] = (unsigned)num(get(doc, s, "shutdown"));
    }
    if ((s = get(doc, m, "nvlink"))) {
        yaml_node_t *down = get(doc, s, "down"), *errs = get(doc, s, "errors");
        g->nlinks = (int)num(get(doc, s, "links"));
        if (g->nlinks > MAXL)
            g->nlinks = MAXL;
        for (int l = 0; l < g->nlinks; l++)
            g->link_up[l] = 1;
        for (int i = 0; i < seq_len(down); i++) {
            unsigned l = (unsigned)num(seq_at(doc, down, i));
            if (l < MAXL)
                g->link_up[l] = 0;
        }
        for (int i = 0; i < seq_len(errs); i++) {
            yaml_node_t *e = seq_at(doc, errs, i);
            unsigned l = (unsigned)num(get(doc, e, "link"));
            if (l >= MAXL)
                continue;
            g->link_err[l][0] = num(get(doc, e, "replay"));
            g->link_err[l][1] = num(get(doc, e, "recovery"));
            g->link_err[l][2] = num(get(doc, e, "crc_flit"));
            g->link_err[l][3] = num(get(doc, e, "crc_data"));
        }
    }
    if ((s = get(doc, m, "utilization"))) {
        g->has_util = 1;
        g->util = (unsigned)num(s);
    }
    s = get(doc, m, "processes");
    for (int i = 0; i < seq_len(s) && g->nprocs < MAXP; i++) {
        yaml_node_t *p = seq_at(doc, s, i);
        g->pid[g->nprocs] = (unsigned)num(get(doc, p, "pid"));
        g->mem[g->nprocs] = num(get(doc, p, "memory_mib")) << 20;
        g->has_sm[g->nprocs] = get(doc, p, "sm") != NULL;
        g->sm[g->nprocs] = (unsigned)num(get(doc, p, "sm"));
        g->nprocs++;
    }
    if ((s = get(doc, m, "power")))
        g->advance = (int)num(get(doc, s, "advance"));
    if ((s = get(doc, m, "supported_clocks"))) {
        yaml_node_t *l = get(doc, s, "mem");
        for (int i = 0; i < seq_len(l) && g->nsup_mem < 16; i++)
            g->sup_mem[g->nsup_mem++] = (unsigned)num(seq_at(doc, l, i));
        l = get(doc, s, "sm");
        for (int i = 0; i < seq_len(l) && g->nsup_sm < 64; i++)
            g->sup_sm[g->nsup_sm++] = (unsigned)num(seq_at(doc, l, i));
    }
    s = get(doc, m, "xids");
    for (int i = 0; i < seq_len(s) && g->nxids < 64; i++)
        g->xids[g->nxids++] = (unsigned)num(seq_at(doc, s, i));
}

/* The fixture as parsed, before it replaces the answers. */
static struct fake_gpu next[MAXG];
static int nnext;

/* Parse the fixture at path into next[], driver and cuda; at_init, sleep
 * hang_init seconds first. Returns the answer for nvmlInit, with *parsed
 * set when next[] holds a whole fixture. */
static nvmlReturn_t parse(const char *path, int at_init, int *parsed)
{
    FILE *f;
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_node_t *root, *list;
    nvmlReturn_t rc = NVML_SUCCESS;
    struct stat st;

    *parsed = 0;
    nnext = 0;
    if (!path || !(f = fopen(path, "r")))
        return NVML_ERROR_DRIVER_NOT_LOADED;
    if (fstat(fileno(f), &st) == 0)
        loaded = st;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &doc)) {
        yaml_parser_delete(&parser);
        fclose(f);
        return NVML_ERROR_UNKNOWN;
    }
    root = yaml_document_get_root_node(&doc);
    snprintf(driver, sizeof(driver), "%s",
             str(get(&doc, root, "driver")) ? str(get(&doc, root, "driver"))
                                            : "");
    cuda = (int)num(get(&doc, root, "cuda"));
    if (get(&doc, root, "init"))
        rc = (nvmlReturn_t)num(get(&doc, root, "init"));
    denied = str(get(&doc, root, "permission")) &&
             !strcmp(str(get(&doc, root, "permission")), "denied");
    if (at_init && get(&doc, root, "hang_init"))
        sleep((unsigned)num(get(&doc, root, "hang_init")));
    list = get(&doc, root, "gpus");
    for (int i = 0; i < seq_len(list) && nnext < MAXG; i++)
        load_gpu(&doc, seq_at(&doc, list, i), &next[nnext++]);
    *parsed = 1;
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}

/* Take next[] as the answers; at a reload a GPU keeps its event
 * registration, and its XIDs already delivered unless the list changed. */
static void take(int reload)
{
    for (int i = 0; i < nnext; i++) {
        struct fake_gpu *g = &next[i];
        if (!reload || i >= ngpus)
            continue;
        g->registered = gpus[i].registered;
        /* what a setter changed outlives a rewrite of the fixture */
        g->locked_sm = gpus[i].locked_sm;
        g->locked_mem = gpus[i].locked_mem;
        if (gpus[i].has_power && g->has_power)
            g->power[0] = gpus[i].power[0];
        if (g->nxids == gpus[i].nxids &&
            !memcmp(g->xids, gpus[i].xids, sizeof(g->xids[0]) * g->nxids))
            g->xid_next = gpus[i].xid_next;
    }
    memcpy(gpus, next, sizeof(next[0]) * (size_t)nnext);
    ngpus = nnext;
}

/* Returns the NVML answer for nvmlInit. */
static nvmlReturn_t load(void)
{
    int parsed;
    nvmlReturn_t rc = parse(getenv("SN_FAKE_NVML"), 1, &parsed);

    ngpus = 0;
    if (parsed)
        take(0);
    return rc;
}

/* Read the fixture again when the file changed since it was loaded. */
static void refresh(void)
{
    const char *path = getenv("SN_FAKE_NVML");
    struct stat st, was = loaded;
    int parsed;

    if (!initialised || !path || stat(path, &st) != 0)
        return;
    if (st.st_ino == was.st_ino && st.st_dev == was.st_dev &&
        st.st_size == was.st_size && st.st_mtim.tv_sec == was.st_mtim.tv_sec &&
        st.st_mtim.tv_nsec == was.st_mtim.tv_nsec)
        return;
    parse(path, 0, &parsed);
    if (parsed)
        take(1);
}

/* ---- the entry points ---------------------------------------------------- */

/* A handle is a pointer into gpus[]; compared as addresses, since one
 * past the GPUs of a shrunk fixture is not an object of the array. */
static struct fake_gpu *gpu(nvmlDevice_t d)
{
    uintptr_t p = (uintptr_t)(void *)d, base = (uintptr_t)gpus;

    if (!initialised || p < base ||
        p >= base + sizeof(gpus[0]) * (size_t)ngpus ||
        (p - base) % sizeof(gpus[0]))
        return NULL;
    return &gpus[(p - base) / sizeof(gpus[0])];
}

#define GPU_OR_FAIL(g, d)                                                      \
    struct fake_gpu *g = gpu(d);                                               \
    if (!g)                                                                    \
        return NVML_ERROR_INVALID_ARGUMENT;                                    \
    if (g->lost || g->lost_calls)                                              \
    return NVML_ERROR_GPU_IS_LOST

EXPORT nvmlReturn_t nvmlInit_v2(void)
{
    nvmlReturn_t rc = load();

    clock_gettime(CLOCK_MONOTONIC, &init_time);
    initialised = rc == NVML_SUCCESS;
    return rc;
}

EXPORT nvmlReturn_t nvmlShutdown(void)
{
    initialised = 0;
    return NVML_SUCCESS;
}

EXPORT const char *nvmlErrorString(nvmlReturn_t r)
{
    switch (r) {
    case NVML_SUCCESS:
        return "Success";
    case NVML_ERROR_NOT_SUPPORTED:
        return "Not Supported";
    case NVML_ERROR_NO_PERMISSION:
        return "Insufficient Permissions";
    case NVML_ERROR_INVALID_ARGUMENT:
        return "Invalid Argument";
    case NVML_ERROR_DRIVER_NOT_LOADED:
        return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST:
        return "GPU is lost";
    case NVML_ERROR_TIMEOUT:
        return "Timeout";
    default:
        return "Unknown Error";
    }
}

EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned len)
{
    snprintf(v, len, "%s", driver);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v)
{
    *v = cuda;
    return cuda ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *n)
{
    if (!initialised)
        return NVML_ERROR_UNINITIALIZED;
    refresh();
    *n = (unsigned)ngpus;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d)
{
    refresh();
    if (!initialised || i >= (unsigned)ngpus)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (gpus[i].lost)
        return NVML_ERROR_GPU_IS_LOST;
    *d = (nvmlDevice_t)(void *)&gpus[i];
    return NVML_SUCCESS;
}

/* NVML takes either form of the address: "00000000:17:00.0" or
 * "0000:17:00.0", in either case */
EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus,
                                                     nvmlDevice_t *d)
{
    size_t lb = bus ? strlen(bus) : 0;

    refresh();
    if (!initialised || lb < 12)
        return NVML_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < ngpus; i++) {
        size_t lg = strlen(gpus[i].bus);
        if (lg >= 12 && !strcasecmp(gpus[i].bus + lg - 12, bus + lb - 12)) {
            if (gpus[i].lost)
                return NVML_ERROR_GPU_IS_LOST;
            *d = (nvmlDevice_t)(void *)&gpus[i];
            return NVML_SUCCESS;
        }
    }
    return NVML_ERROR_NOT_FOUND;
}

EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *s, unsigned n)
{
    GPU_OR_FAIL(g, d);
    snprintf(s, n, "%s", g->name);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *s, unsigned n)
{
    GPU_OR_FAIL(g, d);
    snprintf(s, n, "%s", g->uuid);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t d, char *s,
                                              unsigned n)
{
    GPU_OR_FAIL(g, d);
    if (!g->vbios[0])
        return NVML_ERROR_NOT_SUPPORTED;
    snprintf(s, n, "%s", g->vbios);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *p)
{
    GPU_OR_FAIL(g, d);
    memset(p, 0, sizeof(*p));
    snprintf(p->busId, sizeof(p->busId), "%s", g->bus);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t d, int *p)
{
    GPU_OR_FAIL(g, d);
    *p = g->pstate;
    return g->pstate == NVML_PSTATE_UNKNOWN ? NVML_ERROR_NOT_SUPPORTED
                                            : NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, int *cur, int *pending)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_ecc)
        return NVML_ERROR_NOT_SUPPORTED;
    *cur = *pending = g->ecc_on;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type,
                                                int counter,
                                                unsigned long long *v)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_ecc || type < 0 || type > 1 || counter < 0 || counter > 1)
        return NVML_ERROR_NOT_SUPPORTED;
    *v = g->ecc[type][counter];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned *c,
                                              unsigned *u, unsigned *p,
                                              unsigned *f)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_remap)
        return NVML_ERROR_NOT_SUPPORTED;
    *c = g->remap[0];
    *u = g->remap[1];
    *p = g->remap[2];
    *f = g->remap[3];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t d, int cause,
                                              unsigned *count,
                                              unsigned long long *addr)
{
    unsigned n;

    GPU_OR_FAIL(g, d);
    if (!g->has_retired || cause < 0 || cause > 1)
        return NVML_ERROR_NOT_SUPPORTED;
    n = g->retired[cause];
    if (*count < n || !addr) {
        *count = n;
        return n ? NVML_ERROR_INSUFFICIENT_SIZE : NVML_SUCCESS;
    }
    for (unsigned i = 0; i < n; i++)
        addr[i] = 0x1000ULL * (i + 1);
    *count = n;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d,
                                                           int *p)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_retired)
        return NVML_ERROR_NOT_SUPPORTED;
    *p = (int)g->retired[2];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *r)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_reasons)
        return NVML_ERROR_NOT_SUPPORTED;
    *r = g->reasons;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t d,
                                                      unsigned *mw)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_power)
        return NVML_ERROR_NOT_SUPPORTED;
    *mw = g->power[0];
    return NVML_SUCCESS;
}

/* no other limiter in a fixture: the limit set is the one enforced */
EXPORT nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d,
                                                    unsigned *mw)
{
    return nvmlDeviceGetPowerManagementLimit(d, mw);
}

EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t d,
                                                             unsigned *mw)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_power)
        return NVML_ERROR_NOT_SUPPORTED;
    *mw = g->power[1];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementLimitConstraints(nvmlDevice_t d,
                                                                 unsigned *lo,
                                                                 unsigned *hi)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_power)
        return NVML_ERROR_NOT_SUPPORTED;
    *lo = g->power[2];
    *hi = g->power[3];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type,
                                           unsigned *mhz)
{
    GPU_OR_FAIL(g, d);
    if (type == NVML_CLOCK_SM && g->locked_sm) {
        *mhz = g->locked_sm;
        return NVML_SUCCESS;
    }
    if (type == NVML_CLOCK_MEM && g->locked_mem) {
        *mhz = g->locked_mem;
        return NVML_SUCCESS;
    }
    if (g->has_clocks && type == NVML_CLOCK_SM && g->sm_clock) {
        *mhz = g->sm_clock;
        return NVML_SUCCESS;
    }
    if (!g->has_clocks || type != NVML_CLOCK_MEM)
        return NVML_ERROR_NOT_SUPPORTED;
    *mhz = g->mem_clock;
    return NVML_SUCCESS;
}

/* The board draws what the fixture says, up to its power limit. */
static unsigned usage(const struct fake_gpu *g)
{
    return g->has_power && g->power[0] && g->usage_mw > g->power[0]
               ? g->power[0]
               : g->usage_mw;
}

EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned *mw)
{
    GPU_OR_FAIL(g, d);
    if (!g->usage_mw)
        return NVML_ERROR_NOT_SUPPORTED;
    *mw = usage(g);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d,
                                                        unsigned long long *mj)
{
    GPU_OR_FAIL(g, d);
    if (!g->energy_mj)
        return NVML_ERROR_NOT_SUPPORTED;
    *mj = g->energy_mj;
    if (g->advance) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        /* mW x s = mJ */
        *mj += (unsigned long long)((double)usage(g) *
                                    ((double)(now.tv_sec - init_time.tv_sec) +
                                     (now.tv_nsec - init_time.tv_nsec) / 1e9));
    }
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type,
                                              unsigned *mhz)
{
    GPU_OR_FAIL(g, d);
    if (g->has_clocks && type == NVML_CLOCK_SM && g->sm_clock_max) {
        *mhz = g->sm_clock_max;
        return NVML_SUCCESS;
    }
    if (!g->has_clocks || type != NVML_CLOCK_MEM)
        return NVML_ERROR_NOT_SUPPORTED;
    *mhz = g->mem_clock_max;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor,
                                             unsigned *t)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_temp || sensor != NVML_TEMPERATURE_GPU)
        return NVML_ERROR_NOT_SUPPORTED;
    *t = g->temp[0];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t d, int which,
                                                      unsigned *t)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_temp)
        return NVML_ERROR_NOT_SUPPORTED;
    if (which == NVML_TEMPERATURE_THRESHOLD_SLOWDOWN)
        *t = g->temp[1];
    else if (which == NVML_TEMPERATURE_THRESHOLD_SHUTDOWN)
        *t = g->temp[2];
    else
        return NVML_ERROR_NOT_SUPPORTED;
    return *t ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned link,
                                             int *active)
{
    GPU_OR_FAIL(g, d);
    if (link >= (unsigned)g->nlinks)
        return g->nlinks ? NVML_ERROR_INVALID_ARGUMENT
                         : NVML_ERROR_NOT_SUPPORTED;
    *active = g->link_up[link];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t d,
                                                    unsigned link, int counter,
                                                    unsigned long long *v)
{
    GPU_OR_FAIL(g, d);
    if (link >= (unsigned)g->nlinks || counter < 0 || counter > 3)
        return NVML_ERROR_INVALID_ARGUMENT;
    *v = g->link_err[link][counter];
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_memory)
        return NVML_ERROR_NOT_SUPPORTED;
    m->total = g->mem_total;
    m->used = g->mem_used;
    m->free = g->mem_total > g->mem_used ? g->mem_total - g->mem_used : 0;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t d, unsigned *v)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_replays)
        return NVML_ERROR_NOT_SUPPORTED;
    *v = g->replays;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d,
                                                  nvmlUtilization_t *u)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_util)
        return NVML_ERROR_NOT_SUPPORTED;
    u->gpu = g->util;
    u->memory = g->util;
    return NVML_SUCCESS;
}

/* Entries of 24 bytes (nvmlProcessInfo_v2_t), or of the size in
 * $SN_FAKE_NVML_STRIDE: 16 (v1 layout: pid, memory) or 32 (R535's first
 * drivers: v2 plus usedGpuCcProtectedMemory), as real drivers have done
 * under the same name. Any other size is written as given, to test a
 * layout doctor does not know. */
EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d,
                                                            unsigned *count,
                                                            void *infos)
{
    const char *env = getenv("SN_FAKE_NVML_STRIDE");
    size_t stride = env && *env ? (size_t)atoi(env) : 24;
    unsigned char *out = infos;

    GPU_OR_FAIL(g, d);
    if (stride < 16 || stride > 64)
        stride = 24;
    if (*count < (unsigned)g->nprocs || !infos) {
        *count = (unsigned)g->nprocs;
        return g->nprocs ? NVML_ERROR_INSUFFICIENT_SIZE : NVML_SUCCESS;
    }
    for (int i = 0; i < g->nprocs; i++) {
        unsigned char *e = out + (size_t)i * stride;
        unsigned pid = g->pid[i], none = 0xffffffffu;
        unsigned long long mem = g->mem[i], cc = 0;

        memset(e, 0, stride);
        memcpy(e, &pid, sizeof(pid));
        memcpy(e + 8, &mem, sizeof(mem));
        if (stride >= 24) {
            memcpy(e + 16, &none, sizeof(none));
            memcpy(e + 20, &none, sizeof(none));
        }
        if (stride >= 32)
            memcpy(e + 24, &cc, sizeof(cc));
    }
    *count = (unsigned)g->nprocs;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetProcessUtilization(
    nvmlDevice_t d, nvmlProcessUtilizationSample_t *s, unsigned *count,
    unsigned long long since)
{
    unsigned n = 0;

    GPU_OR_FAIL(g, d);
    (void)since;
    for (int i = 0; i < g->nprocs; i++)
        n += (unsigned)g->has_sm[i];
    if (n == 0)
        return NVML_ERROR_NOT_FOUND;
    if (!s || *count < n) {
        *count = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    n = 0;
    for (int i = 0; i < g->nprocs; i++) {
        if (!g->has_sm[i])
            continue;
        memset(&s[n], 0, sizeof(s[n]));
        s[n].pid = g->pid[i];
        s[n].timeStamp = 1000000ULL * (n + 1);
        s[n].smUtil = g->sm[i];
        s[n].memUtil = g->sm[i] / 2;
        n++;
    }
    *count = n;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set)
{
    if (!initialised)
        return NVML_ERROR_UNINITIALIZED;
    *set = &event_set;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t d,
                                             unsigned long long types,
                                             nvmlEventSet_t set)
{
    GPU_OR_FAIL(g, d);
    if (set != &event_set || !(types & nvmlEventTypeXidCriticalError))
        return NVML_ERROR_INVALID_ARGUMENT;
    g->registered = 1;
    g->xid_next = 0;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set,
                                        nvmlEventData_t *data, unsigned ms)
{
    (void)ms; /* a fixture has nothing more to wait for */
    if (set != &event_set)
        return NVML_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < ngpus; i++) {
        struct fake_gpu *g = &gpus[i];
        if (!g->registered || g->xid_next >= g->nxids)
            continue;
        memset(data, 0, sizeof(*data));
        data->device = (nvmlDevice_t)(void *)g;
        data->eventType = nvmlEventTypeXidCriticalError;
        data->eventData = g->xids[g->xid_next++];
        data->gpuInstanceId = data->computeInstanceId = 0xffffffffu;
        return NVML_SUCCESS;
    }
    return NVML_ERROR_TIMEOUT;
}

EXPORT nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set)
{
    if (set != &event_set)
        return NVML_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < ngpus; i++)
        gpus[i].registered = 0;
    return NVML_SUCCESS;
}

/* ---- setters: clocks and the power limit ------------------------------- */

/* Append "gpu I WHAT" to <fixture>.state, one write per line (O_APPEND:
 * ranks of one job share the file). */
static void record(const struct fake_gpu *g, const char *fmt, unsigned v)
{
    const char *fx = getenv("SN_FAKE_NVML");
    char path[4096], line[96];
    FILE *f;
    int len;

    if (!fx ||
        snprintf(path, sizeof(path), "%s.state", fx) >= (int)sizeof(path))
        return;
    len = snprintf(line, sizeof(line), "gpu %d ", (int)(g - gpus));
    snprintf(line + len, sizeof(line) - (size_t)len, fmt, v);
    f = fopen(path, "a");
    if (!f)
        return;
    fprintf(f, "%s\n", line);
    fclose(f);
}

/* A setter on g: root only; NOT_SUPPORTED without the supported lists. */
#define SETTER_OR_FAIL(g, d)                                                   \
    GPU_OR_FAIL(g, d);                                                         \
    if (!g->nsup_mem || !g->nsup_sm)                                           \
        return NVML_ERROR_NOT_SUPPORTED;                                       \
    if (denied)                                                                \
    return NVML_ERROR_NO_PERMISSION

static int in(const unsigned *v, int n, unsigned x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

static nvmlReturn_t give_list(const unsigned *v, int n, unsigned *count,
                              unsigned *out)
{
    if (!out || *count < (unsigned)n) {
        *count = (unsigned)n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    memcpy(out, v, sizeof(*v) * (size_t)n);
    *count = (unsigned)n;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetSupportedMemoryClocks(nvmlDevice_t d,
                                                       unsigned *count,
                                                       unsigned *mhz)
{
    GPU_OR_FAIL(g, d);
    if (!g->nsup_mem)
        return NVML_ERROR_NOT_SUPPORTED;
    return give_list(g->sup_mem, g->nsup_mem, count, mhz);
}

EXPORT nvmlReturn_t nvmlDeviceGetSupportedGraphicsClocks(nvmlDevice_t d,
                                                         unsigned mem,
                                                         unsigned *count,
                                                         unsigned *mhz)
{
    GPU_OR_FAIL(g, d);
    if (!g->nsup_sm)
        return NVML_ERROR_NOT_SUPPORTED;
    if (!in(g->sup_mem, g->nsup_mem, mem))
        return NVML_ERROR_NOT_FOUND;
    return give_list(g->sup_sm, g->nsup_sm, count, mhz);
}

/* Lock (lo = hi, a listed clock) or, with lo 0, reset one clock. */
static nvmlReturn_t lock_clock(nvmlDevice_t d, int mem, unsigned lo,
                               unsigned hi)
{
    SETTER_OR_FAIL(g, d);
    if (lo && (lo != hi || !(mem ? in(g->sup_mem, g->nsup_mem, lo)
                                 : in(g->sup_sm, g->nsup_sm, lo))))
        return NVML_ERROR_INVALID_ARGUMENT;
    *(mem ? &g->locked_mem : &g->locked_sm) = lo;
    if (lo)
        record(g, mem ? "mem-lock %u" : "sm-lock %u", lo);
    else
        record(g, mem ? "mem-reset%.0u" : "sm-reset%.0u", 0);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceSetGpuLockedClocks(nvmlDevice_t d, unsigned lo,
                                                 unsigned hi)
{
    return lo ? lock_clock(d, 0, lo, hi) : NVML_ERROR_INVALID_ARGUMENT;
}

EXPORT nvmlReturn_t nvmlDeviceResetGpuLockedClocks(nvmlDevice_t d)
{
    return lock_clock(d, 0, 0, 0);
}

EXPORT nvmlReturn_t nvmlDeviceSetMemoryLockedClocks(nvmlDevice_t d, unsigned lo,
                                                    unsigned hi)
{
    return lo ? lock_clock(d, 1, lo, hi) : NVML_ERROR_INVALID_ARGUMENT;
}

EXPORT nvmlReturn_t nvmlDeviceResetMemoryLockedClocks(nvmlDevice_t d)
{
    return lock_clock(d, 1, 0, 0);
}

EXPORT nvmlReturn_t nvmlDeviceSetPowerManagementLimit(nvmlDevice_t d,
                                                      unsigned mw)
{
    GPU_OR_FAIL(g, d);
    if (!g->has_power)
        return NVML_ERROR_NOT_SUPPORTED;
    if (denied)
        return NVML_ERROR_NO_PERMISSION;
    if (mw < g->power[2] || mw > g->power[3])
        return NVML_ERROR_INVALID_ARGUMENT;
    g->power[0] = mw;
    record(g, "power %u", mw);
    return NVML_SUCCESS;
}
