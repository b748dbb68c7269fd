/* klog.c: the kernel log's records read and classified: XID lines of the
 * NVIDIA driver, PCIe AER reports, links that went down and links the
 * kernel found running below their capability, each with the PCI address
 * it names. Doctor's kernel log probe (../health/klog.c) and the node
 * agent's collector (../watch/col-klog.c) read the log through here. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw-int.h"

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

enum hklog_kind sn__hw_klog_parse(const char *rec, struct hklog_line *out)
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

size_t sn__hw_kmsg_drain(int fd, size_t max,
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
