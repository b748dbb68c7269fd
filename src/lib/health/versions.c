/* versions.c: kernel, driver, CUDA, NCCL, MPI, BLAS and firmware
 * versions, read under the root from where installs leave them (procfs,
 * sysfs, version files, library file names, headers, the dpkg database),
 * and held against a compatibility matrix of allowed combinations: a node
 * that drifted from its locked image is reported with what changed. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health-int.h"

#define MATRIX_MAX_ENTRIES 1000
#define MATRIX_MAX_GLOBS 64
#define DPKG_MAX ((size_t)64 << 20)

static const char *const component_names[HV_COUNT] = {
    "kernel", "driver", "cuda_driver",  "cuda",      "nccl",         "mpi",
    "blas",   "bios",   "nic_firmware", "gpu_vbios", "nvme_firmware"};

/* Library directories searched under the root, in order. */
static const char *const lib_dirs[] = {
    "usr/local/cuda/lib64",
    "usr/local/cuda/targets/x86_64-linux/lib",
    "usr/local/cuda/targets/sbsa-linux/lib",
    "usr/lib/x86_64-linux-gnu",
    "usr/lib/aarch64-linux-gnu",
    "usr/lib/x86_64-linux-gnu/openblas-pthread",
    "usr/lib/x86_64-linux-gnu/openblas-openmp",
    "usr/lib/aarch64-linux-gnu/openblas-pthread",
    "usr/lib64",
    "usr/local/lib",
    "opt/nccl/lib",
};

static void set(struct hversion *v, const char *value, const char *subject,
                const char *source)
{
    if (v->n >= HEALTH_MAX_VERSIONS)
        return;
    snprintf(v->vals[v->n].value, sizeof(v->vals[0].value), "%s", value);
    snprintf(v->vals[v->n].subject, sizeof(v->vals[0].subject), "%s",
             subject ? subject : "");
    if (v->n == 0)
        snprintf(v->source, sizeof(v->source), "%s", source);
    v->n++;
}

/* The version that follows a prefix in a file name of a directory:
 * "libnccl.so." in "libnccl.so.2.20.5" -> "2.20.5". The longest (most
 * precise) wins; "" when none has digits after the prefix. */
static bool from_names(const struct hctx *c, const char *dir,
                       const char *prefix, const char *suffix, char *out,
                       size_t size)
{
    DIR *d = sn__hw_opendir(c->root, dir);
    struct dirent *e;
    size_t pl = strlen(prefix), sl = suffix ? strlen(suffix) : 0;

    out[0] = '\0';
    if (!d)
        return false;
    while ((e = readdir(d))) {
        const char *v = e->d_name + pl;
        size_t len;
        if (strncmp(e->d_name, prefix, pl) || !isdigit((unsigned char)*v))
            continue;
        len = strlen(v);
        if (sl && (len <= sl || strcmp(v + len - sl, suffix)))
            continue;
        len -= sl;
        if (len >= size || len <= strlen(out))
            continue;
        memcpy(out, v, len);
        out[len] = '\0';
    }
    closedir(d);
    return out[0] != '\0';
}

static bool from_libs(const struct hctx *c, const char *prefix,
                      const char *suffix, char *out, size_t size, char *src,
                      size_t srcsize)
{
    for (size_t i = 0; i < SN_ARRAY_LEN(lib_dirs); i++)
        if (from_names(c, lib_dirs[i], prefix, suffix, out, size)) {
            snprintf(src, srcsize, "%s/%s%s%s", lib_dirs[i], prefix, out,
                     suffix ? suffix : "");
            return true;
        }
    return false;
}

/* "#define NAME 28" in a header -> 28, or -1. */
static long header_define(const char *text, const char *name)
{
    const char *p = text;
    size_t n = strlen(name);

    while ((p = strstr(p, "#define "))) {
        p += 8;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\t'))
            return strtol(p + n, NULL, 10);
    }
    return -1;
}

/* The Version: of the first installed package among names in the dpkg
 * database (reduced to "Package/Status/Version" stanzas in fixtures). */
static bool from_dpkg(const struct hctx *c, const char *const *names, char *out,
                      size_t size, char *src, size_t srcsize)
{
    char *db = sn__hw_read_all(c->root, "var/lib/dpkg/status", DPKG_MAX, NULL);
    bool found = false;

    if (!db)
        return false;
    for (size_t k = 0; names[k] && !found; k++) {
        char key[128];
        const char *p = db;
        snprintf(key, sizeof(key), "Package: %s\n", names[k]);
        while ((p = strstr(p, key))) {
            const char *end = strstr(p, "\n\n");
            const char *st = strstr(p, "\nStatus: ");
            const char *ver = strstr(p, "\nVersion: ");
            bool line_start = p == db || p[-1] == '\n';
            p += strlen(key);
            if (!line_start || !ver || (end && ver > end))
                continue;
            if (st && (!end || st < end) &&
                strncmp(st + 9, "install ok installed", 20))
                continue;
            ver += 10;
            snprintf(out, size, "%.*s", (int)strcspn(ver, "\n"), ver);
            snprintf(src, srcsize, "dpkg %s", names[k]);
            found = true;
            break;
        }
    }
    free(db);
    return found;
}

/* Every directory entry "<prefix>X.Y.Z.dist-info" (pip wheels of CUDA
 * and NCCL) -> X.Y.Z. */
static bool from_dist_info(const struct hctx *c, const char *dir,
                           const char *prefix, char *out, size_t size,
                           char *src, size_t srcsize)
{
    if (!from_names(c, dir, prefix, ".dist-info", out, size))
        return false;
    snprintf(src, srcsize, "%s/%s%s.dist-info", dir, prefix, out);
    return true;
}

static void read_kernel(struct hctx *c, struct hversion *v)
{
    char buf[128];

    if (sn__hw_read(c->root, "proc/sys/kernel/osrelease", buf, sizeof(buf)) ==
        0)
        set(v, buf, NULL, "proc/sys/kernel/osrelease");
}

static void read_driver(struct hctx *c, struct hversion *v)
{
    char buf[512], ver[64];
    const char *p;

    if (c->driver_version[0]) {
        set(v, c->driver_version, NULL, "NVML");
        return;
    }
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  ..." */
    if (sn__hw_read(c->root, "proc/driver/nvidia/version", buf, sizeof(buf)) ==
            0 &&
        (p = strstr(buf, "Kernel Module")) &&
        sscanf(p + 13, " %63s", ver) == 1) {
        set(v, ver, NULL, "proc/driver/nvidia/version");
        return;
    }
    if (sn__hw_read(c->root, "sys/module/nvidia/version", ver, sizeof(ver)) ==
        0)
        set(v, ver, NULL, "sys/module/nvidia/version");
}

static void read_cuda(struct hctx *c, struct hversion *drv, struct hversion *rt)
{
    char ver[64], src[256];
    char *text;

    if (c->cuda_driver_version > 0) {
        snprintf(ver, sizeof(ver), "%d.%d", c->cuda_driver_version / 1000,
                 c->cuda_driver_version % 1000 / 10);
        set(drv, ver, NULL, "NVML (highest CUDA the driver supports)");
    }
    /* version.json: {"cuda": {"name": ..., "version": "12.4.1"}, ...} */
    text = sn__hw_read_all(c->root, "usr/local/cuda/version.json",
                           HEALTH_FILE_MAX, NULL);
    if (text) {
        const char *p = strstr(text, "\"cuda\"");
        if (p && (p = strstr(p, "\"version\"")) && (p = strchr(p + 9, '"')) &&
            sscanf(p + 1, "%63[0-9.]", ver) == 1) {
            set(rt, ver, NULL, "usr/local/cuda/version.json");
            free(text);
            return;
        }
        free(text);
    }
    if (from_libs(c, "libcudart.so.", NULL, ver, sizeof(ver), src,
                  sizeof(src)) &&
        strchr(ver, '.')) {
        set(rt, ver, NULL, src);
        return;
    }
    if (from_dist_info(c, "usr/local/cuda/dist-info", "nvidia_cuda_runtime-",
                       ver, sizeof(ver), src, sizeof(src))) {
        set(rt, ver, NULL, src);
        return;
    }
    text = sn__hw_read_all(c->root, "usr/local/cuda/include/cuda_runtime_api.h",
                           (size_t)1 << 20, NULL);
    if (text) {
        long n = header_define(text, "CUDART_VERSION");
        if (n > 0) {
            snprintf(ver, sizeof(ver), "%ld.%ld", n / 1000, n % 1000 / 10);
            set(rt, ver, NULL, "usr/local/cuda/include/cuda_runtime_api.h");
        }
        free(text);
    }
}

static void read_nccl(struct hctx *c, struct hversion *v)
{
    static const char *const pkgs[] = {"libnccl2", NULL};
    static const char *const headers[] = {"usr/local/cuda/include/nccl.h",
                                          "usr/include/nccl.h"};
    char ver[64], src[256];

    if (from_libs(c, "libnccl.so.2.", NULL, ver, sizeof(ver), src,
                  sizeof(src))) {
        char full[80];
        snprintf(full, sizeof(full), "2.%s", ver);
        set(v, full, NULL, src);
        return;
    }
    if (from_dist_info(c, "usr/local/cuda/dist-info", "nvidia_nccl_cu13-", ver,
                       sizeof(ver), src, sizeof(src)) ||
        from_dist_info(c, "usr/local/cuda/dist-info", "nvidia_nccl_cu12-", ver,
                       sizeof(ver), src, sizeof(src)) ||
        from_dpkg(c, pkgs, ver, sizeof(ver), src, sizeof(src))) {
        set(v, ver, NULL, src);
        return;
    }
    for (size_t i = 0; i < SN_ARRAY_LEN(headers); i++) {
        char *text =
            sn__hw_read_all(c->root, headers[i], (size_t)1 << 20, NULL);
        long ma, mi, pa;
        if (!text)
            continue;
        ma = header_define(text, "NCCL_MAJOR");
        mi = header_define(text, "NCCL_MINOR");
        pa = header_define(text, "NCCL_PATCH");
        free(text);
        if (ma >= 0 && mi >= 0 && pa >= 0) {
            snprintf(ver, sizeof(ver), "%ld.%ld.%ld", ma, mi, pa);
            set(v, ver, NULL, headers[i]);
            return;
        }
    }
}

static void read_mpi(struct hctx *c, struct hversion *v)
{
    static const char *const pkgs[] = {"libopenmpi3", "libopenmpi40",
                                       "openmpi-bin", "libmpich12",
                                       "mpich",       NULL};
    static const char *const headers[] = {
        "usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h",
        "usr/lib/aarch64-linux-gnu/openmpi/include/mpi.h",
        "usr/include/openmpi-x86_64/mpi.h", "usr/include/mpi.h"};
    char ver[64], src[256];

    if (from_dpkg(c, pkgs, ver, sizeof(ver), src, sizeof(src))) {
        set(v, ver, NULL, src);
        return;
    }
    for (size_t i = 0; i < SN_ARRAY_LEN(headers); i++) {
        char *text =
            sn__hw_read_all(c->root, headers[i], (size_t)1 << 20, NULL);
        long ma, mi, re;
        if (!text)
            continue;
        ma = header_define(text, "OMPI_MAJOR_VERSION");
        mi = header_define(text, "OMPI_MINOR_VERSION");
        re = header_define(text, "OMPI_RELEASE_VERSION");
        free(text);
        if (ma >= 0 && mi >= 0 && re >= 0) {
            snprintf(ver, sizeof(ver), "%ld.%ld.%ld", ma, mi, re);
            set(v, ver, NULL, headers[i]);
            return;
        }
    }
}

static void read_blas(struct hctx *c, struct hversion *v)
{
    static const char *const pkgs[] = {"libopenblas0-pthread",
                                       "libopenblas0-openmp", "libopenblas0",
                                       "libopenblas-base", NULL};
    char ver[64], src[256];

    /* "libopenblasp-r0.3.21.so" (pthread build) or "libopenblas-r0.3.21.so" */
    if (from_libs(c, "libopenblasp-r", ".so", ver, sizeof(ver), src,
                  sizeof(src)) ||
        from_libs(c, "libopenblas-r", ".so", ver, sizeof(ver), src,
                  sizeof(src)) ||
        from_dpkg(c, pkgs, ver, sizeof(ver), src, sizeof(src)))
        set(v, ver, NULL, src);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* One value per entry of a sysfs class: fw_ver of every InfiniBand
 * device, firmware_rev of every NVMe controller. */
static void read_class(struct hctx *c, const char *cls, const char *attr,
                       struct hversion *v)
{
    char rel[512], buf[128], src[256];
    char names[HEALTH_MAX_VERSIONS][64];
    size_t n = 0;
    DIR *d = sn__hw_opendir(c->root, cls);
    struct dirent *e;

    if (!d)
        return;
    while ((e = readdir(d)) && n < HEALTH_MAX_VERSIONS) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= 64)
            continue;
        sn_strlcpy(names[n++], e->d_name, 64);
    }
    closedir(d);
    /* sorted, so the report does not depend on readdir's order */
    qsort(names, n, sizeof(names[0]), cmp_name);
    for (size_t i = 0; i < n; i++) {
        snprintf(rel, sizeof(rel), "%s/%.63s/%s", cls, names[i], attr);
        snprintf(src, sizeof(src), "%s/*/%s", cls, attr);
        if (sn__hw_read(c->root, rel, buf, sizeof(buf)) == 0 && buf[0])
            set(v, buf, names[i], src);
    }
}

void sn__health_versions_read(struct hctx *c)
{
    struct hversion *v = c->versions;
    char buf[128];

    for (int i = 0; i < HV_COUNT; i++) {
        memset(&v[i], 0, sizeof(v[i]));
        v[i].name = component_names[i];
    }
    read_kernel(c, &v[HV_KERNEL]);
    read_driver(c, &v[HV_DRIVER]);
    read_cuda(c, &v[HV_CUDA_DRIVER], &v[HV_CUDA]);
    read_nccl(c, &v[HV_NCCL]);
    read_mpi(c, &v[HV_MPI]);
    read_blas(c, &v[HV_BLAS]);
    if (sn__hw_read(c->root, "sys/devices/virtual/dmi/id/bios_version", buf,
                    sizeof(buf)) == 0 &&
        buf[0])
        set(&v[HV_BIOS], buf, NULL, "sys/devices/virtual/dmi/id");
    read_class(c, "sys/class/infiniband", "fw_ver", &v[HV_NIC_FW]);
    for (size_t i = 0; i < c->ngpus; i++)
        if (c->gpus[i].vbios[0])
            set(&v[HV_GPU_VBIOS], c->gpus[i].vbios, c->gpus[i].bdf, "NVML");
    read_class(c, "sys/class/nvme", "firmware_rev", &v[HV_NVME_FW]);
    c->versions_done = true;
}

/* ---- the compatibility matrix ------------------------------------------ */

struct matrix_entry {
    char *name;
    int line;
    char **globs[HV_COUNT]; /* NULL: any version */
    size_t nglobs[HV_COUNT];
};

struct sn_health_matrix {
    char *file;
    char *image; /* the entry this node should run, or NULL */
    struct matrix_entry *e;
    size_t n;
};

void sn_health_matrix_free(struct sn_health_matrix *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++) {
        for (int k = 0; k < HV_COUNT; k++) {
            for (size_t g = 0; g < m->e[i].nglobs[k]; g++)
                free(m->e[i].globs[k][g]);
            free(m->e[i].globs[k]);
        }
        free(m->e[i].name);
    }
    free(m->e);
    free(m->image);
    free(m->file);
    free(m);
}

static int component_of(const char *key)
{
    for (int k = 0; k < HV_COUNT; k++)
        if (!strcmp(component_names[k], key))
            return k;
    return -1;
}

static int parse_entry(const char *file, const struct sn_yaml *n,
                       struct matrix_entry *e, struct sn_error *err)
{
    const char *keys[HV_COUNT + 2];

    for (int k = 0; k < HV_COUNT; k++)
        keys[k] = component_names[k];
    keys[HV_COUNT] = "name";
    keys[HV_COUNT + 1] = NULL;
    if (n->type != SN_YAML_MAP)
        return sn_error_at(err, SN_EINPUT, file, n->line, n->col,
                           "allowed: expected a mapping of component to "
                           "version, found %s",
                           sn_yaml_type_name(n->type));
    e->line = n->line;
    for (size_t i = 0; i < n->n; i++) {
        const char *k = n->keys[i]->value;
        const struct sn_yaml *v = n->items[i];
        int comp = component_of(k);

        if (!strcmp(k, "name")) {
            if (v->type != SN_YAML_SCALAR || !*v->value)
                return sn_error_at(err, SN_EINPUT, file, v->line, v->col,
                                   "name: expected a word naming the image");
            free(e->name);
            e->name = sn_xstrdup(v->value);
            continue;
        }
        if (comp < 0) {
            const char *near = sn_suggest(k, keys);
            return sn_error_at(err, SN_EINPUT, file, n->keys[i]->line,
                               n->keys[i]->col,
                               "unknown component '%s' (%s%s%s)", k,
                               near ? "did you mean '"
                                    : "expected kernel, "
                                      "driver, cuda, ...",
                               near ? near : "", near ? "'?" : "");
        }
        if (v->type == SN_YAML_SCALAR) {
            e->globs[comp] = sn_xcalloc(1, sizeof(char *));
            e->globs[comp][0] = sn_xstrdup(v->value);
            e->nglobs[comp] = 1;
        } else if (v->type == SN_YAML_SEQ && v->n > 0 &&
                   v->n <= MATRIX_MAX_GLOBS) {
            e->globs[comp] = sn_xcalloc(v->n, sizeof(char *));
            for (size_t g = 0; g < v->n; g++) {
                if (v->items[g]->type != SN_YAML_SCALAR)
                    return sn_error_at(err, SN_EINPUT, file, v->items[g]->line,
                                       v->items[g]->col,
                                       "%s: expected a version or pattern", k);
                e->globs[comp][g] = sn_xstrdup(v->items[g]->value);
                e->nglobs[comp]++;
            }
        } else {
            return sn_error_at(err, SN_EINPUT, file, v->line, v->col,
                               "%s: expected a version, a pattern (550.*) "
                               "or a list of 1 to %d of them",
                               k, MATRIX_MAX_GLOBS);
        }
    }
    if (!e->name) {
        char buf[32];
        snprintf(buf, sizeof(buf), "line %d", n->line);
        e->name = sn_xstrdup(buf);
    }
    return SN_OK;
}

int sn_health_matrix_load(const char *path, struct sn_health_matrix **out,
                          struct sn_error *err)
{
    static const char *const top[] = {"image", "allowed", NULL};
    struct sn_yaml_doc doc;
    struct sn_health_matrix *m = NULL;
    const struct sn_yaml *root, *list, *image;
    int rc;

    *out = NULL;
    rc = sn_yaml_load(path, &doc, err);
    if (rc)
        return rc;
    root = doc.root;
    m = sn_xcalloc(1, sizeof(*m));
    m->file = sn_xstrdup(path);
    if (!root || root->type != SN_YAML_MAP) {
        rc = sn_error_at(err, SN_EINPUT, path, root ? root->line : 1,
                         root ? root->col : 1,
                         "expected a mapping with 'allowed:' (a list of "
                         "version combinations)");
        goto out;
    }
    for (size_t i = 0; i < root->n; i++) {
        const char *k = root->keys[i]->value;
        if (strcmp(k, "image") && strcmp(k, "allowed")) {
            const char *near = sn_suggest(k, top);
            rc = sn_error_at(err, SN_EINPUT, path, root->keys[i]->line,
                             root->keys[i]->col, "unknown key '%s' (%s%s%s)", k,
                             near ? "did you mean '"
                                  : "expected image or "
                                    "allowed",
                             near ? near : "", near ? "'?" : "");
            goto out;
        }
    }
    list = sn_yaml_get(root, "allowed");
    if (!list || list->type != SN_YAML_SEQ || list->n == 0 ||
        list->n > MATRIX_MAX_ENTRIES) {
        const struct sn_yaml *at = list ? list : root;
        rc = sn_error_at(err, SN_EINPUT, path, at->line, at->col,
                         "allowed: expected a list of 1 to %d version "
                         "combinations",
                         MATRIX_MAX_ENTRIES);
        goto out;
    }
    m->e = sn_xcalloc(list->n, sizeof(*m->e));
    for (size_t i = 0; i < list->n; i++) {
        m->n++;
        rc = parse_entry(path, list->items[i], &m->e[i], err);
        if (rc)
            goto out;
    }
    image = sn_yaml_get(root, "image");
    if (image) {
        bool found = false;
        if (image->type != SN_YAML_SCALAR) {
            rc = sn_error_at(err, SN_EINPUT, path, image->line, image->col,
                             "image: expected the name of an allowed entry");
            goto out;
        }
        for (size_t i = 0; i < m->n; i++)
            found |= !strcmp(m->e[i].name, image->value);
        if (!found) {
            rc = sn_error_at(err, SN_EINPUT, path, image->line, image->col,
                             "image: '%s' is not the name of an allowed "
                             "entry",
                             image->value);
            goto out;
        }
        m->image = sn_xstrdup(image->value);
    }
out:
    sn_yaml_doc_release(&doc);
    if (rc)
        sn_health_matrix_free(m);
    else
        *out = m;
    return rc;
}

/* Does every value of a component match one of the entry's patterns? */
static bool matches(const struct matrix_entry *e, int k,
                    const struct hversion *v)
{
    if (!e->globs[k])
        return true;
    if (v->n == 0)
        return false;
    for (int i = 0; i < v->n; i++) {
        bool ok = false;
        for (size_t g = 0; g < e->nglobs[k] && !ok; g++)
            ok = fnmatch(e->globs[k][g], v->vals[i].value, 0) == 0;
        if (!ok)
            return false;
    }
    return true;
}

/* "driver 535.104.05 (image: 550.54.*)" for each component that differs. */
static size_t describe_drift(const struct hctx *c, const struct matrix_entry *e,
                             char *buf, size_t size)
{
    size_t n = 0, len = 0;

    buf[0] = '\0';
    for (int k = 0; k < HV_COUNT; k++) {
        const struct hversion *v = &c->versions[k];
        int w;
        if (matches(e, k, v))
            continue;
        n++;
        w = snprintf(buf + len, size - len, "%s%s ", len ? "; " : "", v->name);
        if (w > 0 && (size_t)w < size - len)
            len += (size_t)w;
        /* only the values that are off: the devices that changed */
        for (int i = 0, shown = 0; i < v->n && len < size; i++) {
            bool ok = false;
            for (size_t g = 0; g < e->nglobs[k] && !ok; g++)
                ok = fnmatch(e->globs[k][g], v->vals[i].value, 0) == 0;
            if (ok)
                continue;
            w = snprintf(buf + len, size - len, "%s%s%s%s%s",
                         shown++ ? ", " : "", v->vals[i].value,
                         v->vals[i].subject[0] ? " (" : "", v->vals[i].subject,
                         v->vals[i].subject[0] ? ")" : "");
            if (w > 0 && (size_t)w < size - len)
                len += (size_t)w;
        }
        if (v->n == 0 && len < size) {
            w = snprintf(buf + len, size - len, "not found");
            if (w > 0 && (size_t)w < size - len)
                len += (size_t)w;
        }
        for (size_t g = 0; g < e->nglobs[k] && len < size; g++) {
            w = snprintf(buf + len, size - len, "%s%s%s",
                         g ? " or " : " (allowed ", e->globs[k][g],
                         g + 1 == e->nglobs[k] ? ")" : "");
            if (w > 0 && (size_t)w < size - len)
                len += (size_t)w;
        }
    }
    return n;
}

/* ---- pairing rules ---------------------------------------------------------
 * A CUDA runtime needs a driver of at least its major release's branch
 * (minor version compatibility, CUDA 11 and later); within the branch, a
 * runtime newer than the driver's own CUDA runs with a limited feature
 * set (no PTX JIT of newer code). Source: NVIDIA, "CUDA Compatibility",
 * Minor Version Compatibility, Table 1 "CUDA Toolkit 11.x, 12.x, and 13.x
 * Minimum and Maximum Required Driver Versions"
 * (docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility
 * .html, read 2026-12-05), which defers to the CUDA Toolkit Release Notes'
 * table "CUDA Toolkit and Corresponding Driver Versions". */
#define CUDA_PAIRING_SOURCE                                                    \
    "NVIDIA CUDA Compatibility guide, minor version compatibility, table 1 "   \
    "(read 2026-12-05)"

static const struct {
    int cuda_major;
    int min_branch; /* driver branch, "580" of 580.65.06 */
} cuda_min_driver[] = {{11, 450}, {12, 525}, {13, 580}};

/* The driver branch a CUDA major release needs, 0 when the table has no
 * rule for it. */
static int min_branch(int cuda_major)
{
    for (size_t i = 0; i < SN_ARRAY_LEN(cuda_min_driver); i++)
        if (cuda_min_driver[i].cuda_major == cuda_major)
            return cuda_min_driver[i].min_branch;
    return 0;
}

/* "12.4.1" -> 12, 4; false when it does not start with two numbers */
static bool major_minor(const char *v, int *major, int *minor)
{
    return v && sscanf(v, "%d.%d", major, minor) == 2;
}

static const char *first_value(const struct hversion *v)
{
    return v->n > 0 ? v->vals[0].value : NULL;
}

static void check_cuda_pairing(struct hctx *c)
{
    const char *rt = first_value(&c->versions[HV_CUDA]);
    const char *drv = first_value(&c->versions[HV_DRIVER]);
    const char *dcuda = first_value(&c->versions[HV_CUDA_DRIVER]);
    int ma, mi, branch = 0, dma = 0, dmi = 0, need = 0;

    if (!major_minor(rt, &ma, &mi) || !drv || sscanf(drv, "%d", &branch) != 1) {
        sn_health_report_add(c->rep, "version.cuda_pairing", SN_HEALTH_SKIP,
                             "node", NULL,
                             "needs both the CUDA runtime's and the "
                             "driver's version");
        return;
    }
    need = min_branch(ma);
    major_minor(dcuda, &dma, &dmi);
    if (!need && !dma) {
        sn_health_report_add(c->rep, "version.cuda_pairing", SN_HEALTH_SKIP,
                             "node", NULL,
                             "no pairing rule for CUDA %d and no CUDA "
                             "version from the driver (NVML)",
                             ma);
        return;
    }
    if ((need && branch < need) || (dma && ma > dma))
        sn_health_report_add(
            c->rep, "version.cuda_pairing", SN_HEALTH_FAIL, "node",
            "the CUDA runtime is newer than the driver supports: upgrade the "
            "driver to the runtime's branch or later, or install the "
            "forward compatibility package (cuda-compat-<major>-<minor>, "
            "data-center GPUs) for the runtime",
            "CUDA %s needs driver branch %d or later, the node has %s%s%s%s "
            "[%s]",
            rt, need, drv, dma ? " (CUDA " : "", dma ? dcuda : "",
            dma ? ")" : "", CUDA_PAIRING_SOURCE);
    else if (dma && (ma == dma && mi > dmi))
        sn_health_report_add(
            c->rep, "version.cuda_pairing", SN_HEALTH_WARN, "node",
            "runs by minor version compatibility: code that needs PTX JIT "
            "of the newer release fails (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)"
            "; upgrade the driver to match the runtime",
            "CUDA %s on driver %s, which supports CUDA %s [%s]", rt, drv, dcuda,
            CUDA_PAIRING_SOURCE);
    else
        sn_health_report_add(c->rep, "version.cuda_pairing", SN_HEALTH_PASS,
                             "node", NULL,
                             "CUDA %s on driver %s%s%s (branch %d or later "
                             "needed) [%s]",
                             rt, drv, dma ? ", which supports CUDA " : "",
                             dma ? dcuda : "", need, CUDA_PAIRING_SOURCE);
}

/* NCCL is built for one CUDA major release: "2.21.5-1+cuda12.4" (the
 * Debian package's version; NCCL's log says "NCCL version
 * 2.21.5+cuda12.4"). */
static void check_nccl_pairing(struct hctx *c)
{
    const char *nccl = first_value(&c->versions[HV_NCCL]);
    const char *rt = first_value(&c->versions[HV_CUDA]);
    const char *dcuda = first_value(&c->versions[HV_CUDA_DRIVER]);
    const char *drv = first_value(&c->versions[HV_DRIVER]);
    const char *tag = nccl ? strstr(nccl, "+cuda") : NULL;
    int nma, nmi, ma = 0, mi = 0, dma = 0, dmi = 0, branch = 0;
    bool old_driver;

    if (!tag || !major_minor(tag + 5, &nma, &nmi))
        return; /* the version does not say what NCCL was built for */
    major_minor(rt, &ma, &mi);
    major_minor(dcuda, &dma, &dmi);
    if (drv)
        sscanf(drv, "%d", &branch);
    old_driver = (dma && nma > dma) ||
                 (branch && min_branch(nma) && branch < min_branch(nma));
    if ((ma && nma != ma) || old_driver)
        sn_health_report_add(
            c->rep, "version.nccl_pairing", SN_HEALTH_FAIL, "node",
            "install the NCCL build for the node's CUDA major release "
            "(libnccl2 ...+cudaX.Y, or the nvidia-nccl-cuXX wheel) and a "
            "driver that supports it",
            "NCCL %s is built for CUDA %d.%d; the node has %s%s%s%s%s", nccl,
            nma, nmi, ma ? "the CUDA " : "", ma ? rt : "", ma ? " runtime" : "",
            old_driver ? ", driver " : "", old_driver ? drv : "");
    else
        sn_health_report_add(c->rep, "version.nccl_pairing", SN_HEALTH_PASS,
                             "node", NULL, "NCCL %s built for CUDA %d.%d%s%s",
                             nccl, nma, nmi, ma ? ", runtime " : "",
                             ma ? rt : "");
}

int sn__health_probe_versions(struct hctx *c, struct sn_error *err)
{
    const struct sn_health_matrix *m = c->cfg->matrix;
    char ev[2048];

    (void)err;
    if (!c->versions_done)
        sn__health_versions_read(c);
    for (int k = 0; k < HV_COUNT; k++) {
        const struct hversion *v = &c->versions[k];
        char name[64];
        bool mixed = false;
        size_t len = 0;

        snprintf(name, sizeof(name), "version.%s", v->name);
        if (v->n == 0) {
            sn_health_report_add(c->rep, name, SN_HEALTH_SKIP, "node", NULL,
                                 "not found under the root");
            continue;
        }
        ev[0] = '\0';
        for (int i = 0; i < v->n && len < sizeof(ev); i++) {
            int w = snprintf(
                ev + len, sizeof(ev) - len, "%s%s%s%s%s", i ? ", " : "",
                v->vals[i].value, v->vals[i].subject[0] ? " (" : "",
                v->vals[i].subject, v->vals[i].subject[0] ? ")" : "");
            if (w > 0)
                len += (size_t)w;
            mixed |= strcmp(v->vals[i].value, v->vals[0].value) != 0;
        }
        /* devices of one kind on one node should run one firmware */
        sn_health_report_add(
            c->rep, name, mixed ? SN_HEALTH_WARN : SN_HEALTH_PASS, "node",
            "devices of the same kind run different firmware: flash them to "
            "the image's version one at a time, never several at once",
            "%s [%s]%s", ev, v->source, mixed ? " (mixed)" : "");
    }
    check_cuda_pairing(c);
    check_nccl_pairing(c);
    if (!m) {
        sn_health_report_add(c->rep, "version.matrix", SN_HEALTH_SKIP, "node",
                             NULL,
                             "no compatibility matrix given (--matrix FILE)");
        return SN_OK;
    }
    {
        size_t best = SIZE_MAX, best_i = 0;
        for (size_t i = 0; i < m->n; i++) {
            size_t d;
            if (m->image && strcmp(m->e[i].name, m->image))
                continue;
            d = describe_drift(c, &m->e[i], ev, sizeof(ev));
            if (d < best) {
                best = d;
                best_i = i;
            }
        }
        describe_drift(c, &m->e[best_i], ev, sizeof(ev));
        if (best == 0)
            sn_health_report_add(c->rep, "version.matrix", SN_HEALTH_PASS,
                                 "node", NULL, "matches '%s' (%s line %d)",
                                 m->e[best_i].name, m->file, m->e[best_i].line);
        else
            sn_health_report_add(
                c->rep, "version.matrix", SN_HEALTH_FAIL, "node",
                "the node drifted from its image: reinstall the image or "
                "roll back what changed, then benchmark before it spreads; a "
                "new combination goes into the matrix only after it passed",
                "%s '%s' (%s line %d): %s",
                m->image ? "differs from its image"
                         : "no allowed combination; "
                           "closest",
                m->e[best_i].name, m->file, m->e[best_i].line, ev);
    }
    return SN_OK;
}
