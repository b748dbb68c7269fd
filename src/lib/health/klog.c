/* klog.c: the kernel log, where silent faults leave their only trace: XID
 * lines of the NVIDIA driver, PCIe AER reports, links that went down and
 * links the kernel found running below their capability. Read from
 * <root>/dev/kmsg: the live log (one record per read) or, in a fixture, a
 * file of the same records ("prio,seq,usec,flags;text"); each record is
 * classified by the hardware layer's reader (../hw/klog.c). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "health-int.h"

#define KLOG_MAX_BYTES ((size_t)32 << 20) /* the ring is a few MiB at most */
#define KLOG_MAX_FINDINGS 256

enum finding_kind { F_XID, F_AER_COR, F_AER_UNCOR, F_LINK_DOWN, F_LIMITED };

/* One kind of line about one device, with how often and when last. */
struct finding {
    enum finding_kind kind;
    char device[32]; /* PCI address or interface, as the line names it */
    unsigned xid;
    size_t count;
    double last_s;  /* seconds after boot of the last one */
    char text[200]; /* the last line, for evidence */
};

struct klog {
    struct finding f[KLOG_MAX_FINDINGS];
    size_t n;
    size_t records;
};

static void note(struct klog *k, enum finding_kind kind, const char *device,
                 unsigned xid, double t, const char *text)
{
    struct finding *f = NULL;

    for (size_t i = 0; i < k->n; i++)
        if (k->f[i].kind == kind && k->f[i].xid == xid &&
            !strcmp(k->f[i].device, device))
            f = &k->f[i];
    if (!f) {
        if (k->n >= KLOG_MAX_FINDINGS)
            return;
        f = &k->f[k->n++];
        memset(f, 0, sizeof(*f));
        f->kind = kind;
        f->xid = xid;
        snprintf(f->device, sizeof(f->device), "%s", device);
    }
    f->count++;
    f->last_s = t;
    snprintf(f->text, sizeof(f->text), "%s", text);
}

static enum finding_kind finding_of(enum hklog_kind k)
{
    switch (k) {
    case HKLOG_XID:
        return F_XID;
    case HKLOG_AER_COR:
        return F_AER_COR;
    case HKLOG_AER_UNCOR:
        return F_AER_UNCOR;
    case HKLOG_LINK_DOWN:
        return F_LINK_DOWN;
    default:
        return F_LIMITED;
    }
}

/* One record, plain text or "prio,seq,usec,flags;text". */
static void scan_record(void *arg, const char *rec)
{
    struct klog *k = arg;
    struct hklog_line l;
    enum hklog_kind kind = sn__hw_klog_parse(rec, &l);

    if (kind == HKLOG_CONT)
        return;
    k->records++;
    /* doctor names a lost GPU by its XID 79; the driver's own line after
     * it is not a finding of its own */
    if (kind == HKLOG_NONE || kind == HKLOG_OFFBUS)
        return;
    note(k, finding_of(kind), l.device, l.xid, l.t, l.text);
}

/* Returns 0, or -1 when the log cannot be read. */
static int read_log(const struct hctx *c, struct klog *k, char *why,
                    size_t size)
{
    char path[HEALTH_PATH_MAX];
    struct stat st;
    int fd;

    if (!sn__hw_path(c->root, "dev/kmsg", path, sizeof(path)))
        return -1;
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, size, "%s: %s (reading it needs root or CAP_SYSLOG)",
                 "dev/kmsg", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode)) {
        sn__hw_kmsg_drain(fd, KLOG_MAX_BYTES, scan_record, k);
        close(fd);
        return 0;
    }
    close(fd);
    {
        size_t len;
        char *text = sn__hw_read_all(c->root, "dev/kmsg", KLOG_MAX_BYTES, &len);
        char *line, *save = NULL;
        if (!text) {
            snprintf(why, size, "dev/kmsg: cannot read");
            return -1;
        }
        for (save = text; (line = sn_tok_next(&save, '\n'));)
            scan_record(k, line);
        free(text);
    }
    return 0;
}

int sn__health_probe_klog(struct hctx *c, struct sn_error *err)
{
    struct klog *k = sn_xcalloc(1, sizeof(*k));
    char why[256] = "", up[128];
    double now = 0;

    (void)err;
    if (sn__hw_read(c->root, "proc/uptime", up, sizeof(up)) == 0)
        now = strtod(up, NULL);
    if (read_log(c, k, why, sizeof(why))) {
        sn_health_report_add(c->rep, "kernel.log", SN_HEALTH_SKIP, "node", NULL,
                             "kernel log not readable: %s", why);
        goto out;
    }
    for (size_t i = 0; i < k->n; i++) {
        const struct finding *f = &k->f[i];
        enum sn_health_status st = SN_HEALTH_WARN;
        const char *remedy = NULL;
        char subject[256], what[160], ago[64] = "";
        const struct hpci *p = sn__health_pci_find(c, f->device);

        if (p)
            sn__hw_pci_subject(p, subject, sizeof(subject));
        else
            snprintf(subject, sizeof(subject), "%s", f->device);
        switch (f->kind) {
        case F_XID: {
            const struct hxid *x = sn__health_xid(f->xid);
            st = x->status;
            remedy = x->remedy;
            snprintf(what, sizeof(what), "XID %u (%s)", f->xid, x->meaning);
            break;
        }
        case F_AER_COR:
            remedy = "correctable PCIe errors are link retries on a marginal "
                     "link: compare the count with the next run; reseat or "
                     "clean the connector if it grows";
            snprintf(what, sizeof(what), "corrected PCIe (AER) errors");
            break;
        case F_AER_UNCOR:
            st = SN_HEALTH_FAIL;
            remedy = "uncorrectable PCIe errors lose transactions: reseat the "
                     "device and its riser or cable, update firmware, "
                     "replace the part if they come back";
            snprintf(what, sizeof(what), "uncorrectable PCIe (AER) errors");
            break;
        case F_LINK_DOWN:
            remedy = "a link went down: if it flaps, check the cable or "
                     "optic, the connector and the switch port; compare "
                     "with the link checks above";
            snprintf(what, sizeof(what), "link down");
            break;
        case F_LIMITED:
            remedy = "the kernel found this PCIe link below what it can do: "
                     "see the pcie.link check for the device; reseat if it "
                     "is trained down";
            snprintf(what, sizeof(what), "PCIe bandwidth limited");
            break;
        }
        if (now > 0 && f->last_s > 0 && now >= f->last_s) {
            char age[32];
            sn__health_fmt_age(now - f->last_s, age, sizeof(age));
            snprintf(ago, sizeof(ago), ", the last %s ago", age);
        }
        sn_health_report_add(c->rep, "kernel.log", st, subject, remedy,
                             "%s: %zu line%s%s; last: %s", what, f->count,
                             f->count == 1 ? "" : "s", ago, f->text);
    }
    if (k->n == 0)
        sn_health_report_add(c->rep, "kernel.log", SN_HEALTH_PASS, "node", NULL,
                             "no XID, AER, link-down or limited-link line in "
                             "%zu records",
                             k->records);
out:
    free(k);
    return SN_OK;
}
