/* cpu.c: the host side of a GPU node: the CPU frequency governor,
 * automatic NUMA balancing and huge pages. System tuning guides for GPU
 * nodes (AMD's MI300X system optimisation guide, NVIDIA's DGX tuning
 * notes) run the performance governor and turn automatic NUMA balancing
 * off: both otherwise add jitter to pinned, latency-bound collectives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health-int.h"

static void check_governor(struct hctx *c)
{
    DIR *d = sn__hw_opendir(c->root, "sys/devices/system/cpu");
    struct dirent *e;
    size_t ncpu = 0, nperf = 0;
    char other[64] = "";

    if (!d) {
        sn_health_report_add(c->rep, "cpu.governor", SN_HEALTH_SKIP, "node",
                             NULL, "no sys/devices/system/cpu");
        return;
    }
    while ((e = readdir(d))) {
        char rel[256], gov[64];
        if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' ||
            e->d_name[3] > '9' || strlen(e->d_name) > 16)
            continue;
        snprintf(rel, sizeof(rel),
                 "sys/devices/system/cpu/%.16s/cpufreq/scaling_governor",
                 e->d_name);
        if (sn__hw_read(c->root, rel, gov, sizeof(gov)))
            continue;
        ncpu++;
        if (!strcmp(gov, "performance"))
            nperf++;
        else if (!other[0] || strcmp(gov, other) < 0)
            sn_strlcpy(other, gov, sizeof(other)); /* stable pick */
    }
    closedir(d);
    if (ncpu == 0)
        sn_health_report_add(c->rep, "cpu.governor", SN_HEALTH_SKIP, "node",
                             NULL,
                             "no cpufreq governor (a virtual machine, or the "
                             "firmware controls the frequency)");
    else if (nperf < ncpu)
        sn_health_report_add(
            c->rep, "cpu.governor", SN_HEALTH_WARN, "node",
            "a power-saving governor lowers clocks between bursts and adds "
            "latency jitter: cpupower frequency-set -g performance (and set "
            "it in the image)",
            "%zu of %zu CPUs not on 'performance' (e.g. '%s')", ncpu - nperf,
            ncpu, other);
    else
        sn_health_report_add(c->rep, "cpu.governor", SN_HEALTH_PASS, "node",
                             NULL, "'performance' on all %zu CPUs", ncpu);
}

static void check_numa_balancing(struct hctx *c)
{
    long long v;

    if (sn__hw_read_long(c->root, "proc/sys/kernel/numa_balancing", &v))
        sn_health_report_add(c->rep, "cpu.numa_balancing", SN_HEALTH_SKIP,
                             "node", NULL,
                             "no proc/sys/kernel/numa_balancing (kernel "
                             "without it)");
    else if (v != 0)
        sn_health_report_add(
            c->rep, "cpu.numa_balancing", SN_HEALTH_WARN, "node",
            "automatic NUMA balancing migrates the pages of processes "
            "pinned near their GPU and NIC: sysctl kernel.numa_balancing=0 "
            "(and in the image's sysctl.d)",
            "kernel.numa_balancing = %lld", v);
    else
        sn_health_report_add(c->rep, "cpu.numa_balancing", SN_HEALTH_PASS,
                             "node", NULL, "kernel.numa_balancing = 0");
}

/* "always [madvise] never" -> "madvise". */
static void bracketed(const char *s, char *out, size_t size)
{
    const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

    if (a && b && (size_t)(b - a - 1) < size)
        snprintf(out, size, "%.*s", (int)(b - a - 1), a + 1);
    else
        sn_strlcpy(out, s, size);
}

static void check_hugepages(struct hctx *c)
{
    const struct sn_health_node *w = c->cfg->node;
    char buf[128], thp[32] = "", ev[512], rel[256];
    long long n2m = -1, n1g = -1, f1g = -1, f2m = -1;
    enum sn_health_status st = SN_HEALTH_PASS;
    const char *remedy = NULL;
    size_t len;

    if (sn__hw_read(c->root, "sys/kernel/mm/transparent_hugepage/enabled", buf,
                    sizeof(buf)) == 0)
        bracketed(buf, thp, sizeof(thp));
    snprintf(rel, sizeof(rel), "sys/kernel/mm/hugepages/%s/nr_hugepages",
             "hugepages-2048kB");
    sn__hw_read_long(c->root, rel, &n2m);
    snprintf(rel, sizeof(rel), "sys/kernel/mm/hugepages/%s/free_hugepages",
             "hugepages-2048kB");
    sn__hw_read_long(c->root, rel, &f2m);
    snprintf(rel, sizeof(rel), "sys/kernel/mm/hugepages/%s/nr_hugepages",
             "hugepages-1048576kB");
    sn__hw_read_long(c->root, rel, &n1g);
    snprintf(rel, sizeof(rel), "sys/kernel/mm/hugepages/%s/free_hugepages",
             "hugepages-1048576kB");
    sn__hw_read_long(c->root, rel, &f1g);
    if (!thp[0] && n2m < 0 && n1g < 0) {
        sn_health_report_add(c->rep, "cpu.hugepages", SN_HEALTH_SKIP, "node",
                             NULL, "no huge page settings in sysfs");
        return;
    }
    len = (size_t)snprintf(ev, sizeof(ev), "transparent huge pages %s",
                           thp[0] ? thp : "unknown");
    if (n2m >= 0 && len < sizeof(ev))
        len += (size_t)snprintf(ev + len, sizeof(ev) - len,
                                "; 2 MiB pages: %lld reserved, %lld free", n2m,
                                f2m < 0 ? 0 : f2m);
    if (n1g >= 0 && len < sizeof(ev))
        snprintf(ev + len, sizeof(ev) - len,
                 "; 1 GiB pages: %lld reserved, %lld free", n1g,
                 f1g < 0 ? 0 : f1g);
    if (w && w->thp[0] && strcmp(w->thp, thp)) {
        st = SN_HEALTH_FAIL;
        remedy = "set transparent huge pages as the design says (echo MODE "
                 "> /sys/kernel/mm/transparent_hugepage/enabled, and on the "
                 "kernel command line of the image)";
    }
    if (w && ((w->hugepages_2m >= 0 && n2m != w->hugepages_2m) ||
              (w->hugepages_1g >= 0 && n1g != w->hugepages_1g))) {
        st = SN_HEALTH_FAIL;
        remedy = "reserve the huge pages the design says (vm.nr_hugepages "
                 "or hugepages= on the kernel command line of the image)";
    }
    if (st == SN_HEALTH_FAIL) {
        size_t l = strlen(ev);
        snprintf(ev + l, sizeof(ev) - l,
                 " (the design: thp %s, 2 MiB %d, "
                 "1 GiB %d)",
                 w->thp[0] ? w->thp : "any", w->hugepages_2m, w->hugepages_1g);
    }
    sn_health_report_add(c->rep, "cpu.hugepages", st, "node", remedy, "%s", ev);
}

int sn__health_probe_cpu(struct hctx *c, struct sn_error *err)
{
    (void)err;
    check_governor(c);
    check_numa_balancing(c);
    check_hugepages(c);
    return SN_OK;
}
