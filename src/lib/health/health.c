/* health.c: sn_health_run(), which sets up the root every probe reads
 * under and runs the probes in the field's troubleshooting order: the
 * physical layer first; and the one PCI scan of a run the probes share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "health-int.h"

void sn_health_config_init(struct sn_health_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->fsroot = "/";
    cfg->probes = SN_HEALTH_PROBE_ALL;
    cfg->nvml_library = SN_HEALTH_NVML_DEFAULT;
    cfg->xid_wait_ms = 100;
    cfg->idle_after = 600;
}

/* The root without trailing slashes; "" for "/". */
static int set_root(struct hctx *c, const char *fsroot, struct sn_error *err)
{
    struct stat st;
    size_t len;

    if (!fsroot || !*fsroot)
        fsroot = "/";
    if (stat(fsroot, &st) != 0)
        return sn_error_set(err, SN_EINPUT, "%s: cannot use as root: %s",
                            fsroot, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sn_error_set(err, SN_EINPUT,
                            "%s: cannot use as root: not a directory", fsroot);
    len = strlen(fsroot);
    while (len > 0 && fsroot[len - 1] == '/')
        len--;
    if (len >= sizeof(c->root))
        return sn_error_set(err, SN_EINPUT, "%s: root path too long", fsroot);
    memcpy(c->root, fsroot, len);
    c->root[len] = '\0';
    return SN_OK;
}

int sn_health_run(const struct sn_health_config *cfg,
                  struct sn_health_report *rep, struct sn_error *err)
{
    struct hctx c;
    char host[256];
    int rc;

    memset(&c, 0, sizeof(c));
    c.cfg = cfg;
    c.rep = rep;
    rc = set_root(&c, cfg->fsroot, err);
    if (rc)
        goto out;
    free(rep->fsroot);
    rep->fsroot = sn_xstrdup(c.root[0] ? c.root : "/");
    if (sn__hw_read(c.root, "proc/sys/kernel/hostname", host, sizeof(host)) ==
        0) {
        free(rep->host);
        rep->host = sn_xstrdup_clean(host, 0);
    }
    /* the PCI list names every device; NVML is opened before the PCIe
     * checks because a GPU's performance state tells an idle link from a
     * trained-down one */
    rc = sn__health_pci_scan(&c, err);
    if (rc)
        goto out;
    if (cfg->probes & (SN_HEALTH_PROBE_NVML | SN_HEALTH_PROBE_TOPO |
                       SN_HEALTH_PROBE_VERSIONS))
        sn__health_nvml_open(&c);
    /* is everything there, then the physical layer, then the GPUs */
    if (cfg->probes & SN_HEALTH_PROBE_TOPO) {
        rc = sn__health_probe_topo(&c, err);
        if (rc)
            goto out;
    }
    if (cfg->probes & SN_HEALTH_PROBE_PCIE) {
        rc = sn__health_probe_pcie(&c, err);
        if (rc)
            goto out;
    }
    if (cfg->probes & SN_HEALTH_PROBE_NVML) {
        rc = sn__health_probe_nvml(&c, err);
        if (rc)
            goto out;
    }
    /* then driver and library versions, the host, and the log */
    if (cfg->probes & SN_HEALTH_PROBE_VERSIONS) {
        rc = sn__health_probe_versions(&c, err);
        if (rc)
            goto out;
    }
    if (cfg->probes & SN_HEALTH_PROBE_CPU) {
        rc = sn__health_probe_cpu(&c, err);
        if (rc)
            goto out;
    }
    if (cfg->probes & SN_HEALTH_PROBE_KLOG) {
        rc = sn__health_probe_klog(&c, err);
        if (rc)
            goto out;
    }
out:
    sn__health_nvml_close(&c);
    free(c.pci);
    return rc;
}

int sn__health_pci_scan(struct hctx *c, struct sn_error *err)
{
    struct hbus bus = {c->root, c->pci, c->npci, c->pci_done};
    int rc = sn__hw_pci_scan(&bus, err);

    c->pci = bus.pci;
    c->npci = bus.npci;
    c->pci_done = bus.pci_done;
    return rc;
}

const struct hpci *sn__health_pci_find(const struct hctx *c, const char *bdf)
{
    const struct hbus bus = {c->root, c->pci, c->npci, c->pci_done};

    return sn__hw_pci_find(&bus, bdf);
}
