/* klog.c: the kernel log, where silent faults leave their only trace: XID
 * lines of the NVIDIA driver, PCIe AER reports, links that went down and
 * links the kernel found running below their capability. Read from
 * <root>/dev/kmsg: the live log (one record per read) or, in a fixture, a
 * file of the same records ("prio,seq,usec,flags;text"). */
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

/* The first PCI address ("0000:17:00.0" or the short "0000:17:00") after
 * p, into out; "" when there is none. */
static void pci_after(const char *p, char *out, size_t size)
{
    out[0] = '\0';
    for (; *p; p++) {
        unsigned d, b, s, f;
        char tail;
        if (sscanf(p, "%4x:%2x:%2x.%1x", &d, &b, &s, &f) == 4 && p[4] == ':' &&
            p[7] == ':' && p[10] == '.') {
            snprintf(out, size, "%04x:%02x:%02x.%x", d, b, s, f);
            return;
        }
        if (sscanf(p, "%4x:%2x:%2x%c", &d, &b, &s, &tail) >= 3 && p[4] == ':' &&
            p[7] == ':' && (p[10] == ')' || p[10] == ':')) {
            snprintf(out, size, "%04x:%02x:%02x", d, b, s);
            return;
        }
    }
}

/* One record's text. */
static enum hklog_kind parse_text(const char *text, struct hklog_line *out)
{
    char *dev = out->device;
    size_t size = sizeof(out->device);
    const char *p;

    out->text = text;
    /* "NVRM: Xid (PCI:0000:17:00): 79, pid=..., GPU has fallen off..." */
    if ((p = strstr(text, "NVRM: Xid ("))) {
        const char *q = strstr(p, "): ");
        size_t n;
        pci_after(p, dev, size);
        /* the driver names the GPU without its function: it is 0 */
        if ((n = strlen(dev)) == 10)
            sn_strlcpy(dev + n, ".0", size - n);
        /* a code is digits, no sign, and fits an int (the driver's are
         * under 200): sscanf's %u took "-1" for 4294967295 and wrapped
         * 4294967296 to 0 */
        if (q && isdigit((unsigned char)q[3])) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(q + 3, &end, 10);
            if (errno != ERANGE && v <= INT_MAX) {
                out->xid = (unsigned)v;
                return HKLOG_XID;
            }
        }
        return HKLOG_NONE;
    }
    /* "NVRM: GPU 0000:17:00.0: GPU has fallen off the bus." (after the
     * XID 79 line) and "NVRM: The NVIDIA GPU 0000:17:00.0 ... has fallen
     * off the bus and is not responding to commands." */
    if (strstr(text, "NVRM: ") && strstr(text, "fallen off the bus")) {
        pci_after(text, dev, size);
        return HKLOG_OFFBUS;
    }
    /* one per AER event: "AER: Corrected error received: 0000:17:00.0"
     * (newer kernels: "AER: Correctable error message received from
     * 0000:17:00.0"); the "PCIe Bus Error" and register lines that follow
     * detail the same event and are not counted again */
    if ((p = strstr(text, "AER: ")) && strstr(p, "received")) {
        bool cor = strstr(p, "Correct") && !strstr(p, "Uncorrect");
        pci_after(strstr(p, "received"), dev, size);
        if (!dev[0])
            pci_after(text, dev, size);
        return cor ? HKLOG_AER_COR : HKLOG_AER_UNCOR;
    }
    /* "pcieport 0000:00:02.0: pciehp: Slot(3): Link Down" and NIC
     * drivers' "mlx5_core 0000:05:00.0 ibp5s0: Link down" */
    if (strstr(text, "Link Down") || strstr(text, "Link down") ||
        strstr(text, "link is down") || strstr(text, "Link is Down")) {
        pci_after(text, dev, size);
        return HKLOG_LINK_DOWN;
    }
    /* "... available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link at
     * 0000:00:01.0 (capable of ...)": the kernel's own downtrain note */
    if ((p = strstr(text, "limited by ")) && strstr(text, "PCIe")) {
        pci_after(text, dev, size);
        return HKLOG_LIMITED;
    }
    return HKLOG_NONE;
}

enum hklog_kind sn__health_klog_parse(const char *rec, struct hklog_line *out)
{
    const char *semi = strchr(rec, ';');
    unsigned long long usec = 0, seq;
    int prio;

    memset(out, 0, sizeof(*out));
    out->text = rec;
    if (*rec == ' ')
        return out->kind = HKLOG_CONT; /* a continuation line (KEY=value) */
    /* "6,1234,5678901,-;text": the time stamp is in microseconds */
    if (semi && sscanf(rec, "%d,%llu,%llu", &prio, &seq, &usec) == 3) {
        out->t = (double)usec / 1e6;
        rec = semi + 1;
    }
    out->kind = parse_text(rec, out); /* else plain text (dmesg output) */
    if (out->kind != HKLOG_NONE && !out->device[0])
        sn_strlcpy(out->device, "?", sizeof(out->device));
    return out->kind;
}

size_t sn__health_kmsg_drain(int fd, size_t max,
                             void (*fn)(void *arg, const char *rec), void *arg)
{
    /* the live ring: one record per read, EAGAIN at its end, EPIPE when
     * the ring overwrote the record being read */
    char rec[8192];
    size_t total = 0;

    for (;;) {
        ssize_t n = read(fd, rec, sizeof(rec) - 1);
        if (n < 0 && (errno == EPIPE || errno == EINTR))
            continue;
        if (n <= 0)
            break;
        rec[n] = '\0';
        if (rec[n - 1] == '\n')
            rec[n - 1] = '\0';
        fn(arg, rec);
        total += (size_t)n;
        if (total > max)
            break;
    }
    return total;
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
    enum hklog_kind kind = sn__health_klog_parse(rec, &l);

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
        sn__health_kmsg_drain(fd, KLOG_MAX_BYTES, scan_record, k);
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
            sn__health_pci_subject(p, subject, sizeof(subject));
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
