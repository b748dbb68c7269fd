/* col-klog.c: the node agent's kernel log collector: the records the
 * kernel logged since the last interval, from <root>/dev/kmsg, through
 * the hardware layer's reader (../hw/klog.c), doctor's too: NVIDIA XIDs, GPUs
 * fallen off the bus, PCIe AER events and links that went down, each into the
 * interval's observations and into counters kept across intervals.
 *
 * The live ring (a character device) stays open and is read from where
 * the agent started: the ring's history is not counted, so a restarted
 * agent does not count old XIDs again. A plain file in its place (a test
 * fixture) is read from the offset reached, from its start after it was
 * truncated. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-int.h"

#include "../hw/hw-int.h"

#define KLOG_REL "dev/kmsg"
#define KLOG_READ_MAX ((size_t)1 << 20) /* bytes read per interval */

struct klog_state {
    char path[SN_HW_PATH_MAX];
    int fd;       /* the live ring, -1 when the log is a plain file */
    off_t offset; /* a plain file: bytes read (whole lines) */
    struct sn__watch_tally xid, aer, linkdown, offbus;
    double capped; /* intervals whose backlog passed KLOG_READ_MAX */
    bool seen;     /* a log was there once: its counters are exported */
};

/* Open the log without blocking; *st describes it. Returns the fd, -1
 * with errno. */
static int open_log(const char *path, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

    if (fd >= 0 && fstat(fd, st)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Take the log at fd as the source: the ring is kept and read from its
 * end on; a plain file's size is remembered when it was there at start
 * (at_start) and else read from its beginning. Returns 0, or an sn_code
 * for what is neither. */
static int adopt(struct klog_state *s, int fd, const struct stat *st,
                 bool at_start, struct sn_error *err)
{
    if (S_ISCHR(st->st_mode)) {
        s->seen = true;
        lseek(fd, 0, SEEK_END); /* kmsg: the next record to be logged */
        s->fd = fd;
        return SN_OK;
    }
    close(fd);
    if (!S_ISREG(st->st_mode))
        return sn_error_set(err, SN_EINPUT,
                            "%s: neither the kernel's log device nor a file",
                            KLOG_REL);
    s->offset = at_start ? st->st_size : 0;
    s->seen = true;
    return SN_OK;
}

static int klog_open(const struct sn__watch_cfg *cfg, void **state,
                     struct sn_error *err)
{
    struct klog_state *s = sn_xcalloc(1, sizeof(*s));
    struct stat st;
    int fd, rc = SN_OK;

    s->fd = -1;
    if (!sn__hw_path(cfg->fsroot, KLOG_REL, s->path, sizeof(s->path))) {
        rc = sn_error_set(err, SN_EINPUT, "fsroot: too long");
        goto out;
    }
    fd = open_log(s->path, &st);
    if (fd < 0 && errno != ENOENT) {
        rc = sn_error_set(err, SN_EIO,
                          "%s: %s (reading it needs root or CAP_SYSLOG)",
                          KLOG_REL, strerror(errno));
        goto out;
    }
    if (fd >= 0)
        rc = adopt(s, fd, &st, true, err);
out:
    if (rc) {
        free(s);
        s = NULL;
    }
    *state = s;
    return rc;
}

static void klog_close(void *state)
{
    struct klog_state *s = state;

    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    sn__watch_tally_release(&s->xid);
    sn__watch_tally_release(&s->aer);
    sn__watch_tally_release(&s->linkdown);
    sn__watch_tally_release(&s->offbus);
    free(s);
}

struct klog_pass {
    struct klog_state *s;
    struct sn__watch_obs *obs;
};

/* One record: into the observations and the counters. */
static void on_record(void *arg, const char *rec)
{
    struct klog_pass *p = arg;
    struct hklog_line l;
    enum sn__watch_klog_kind kind;
    char code[16] = "";
    const char *dev;

    switch (sn__hw_klog_parse(rec, &l)) {
    case HKLOG_XID:
        kind = SN_WATCH_KLOG_XID;
        snprintf(code, sizeof(code), "%u", l.xid);
        break;
    case HKLOG_AER_COR:
    case HKLOG_AER_UNCOR:
        kind = SN_WATCH_KLOG_AER;
        break;
    case HKLOG_LINK_DOWN:
        kind = SN_WATCH_KLOG_LINKDOWN;
        break;
    case HKLOG_OFFBUS:
        kind = SN_WATCH_KLOG_OFFBUS;
        break;
    default:
        return; /* the kernel's downtrain note: the pci collector's */
    }
    dev = strcmp(l.device, "?") ? l.device : "unknown";
    if (kind == SN_WATCH_KLOG_XID)
        *sn__watch_tally(&p->s->xid, dev, code) += 1;
    else if (kind == SN_WATCH_KLOG_AER)
        *sn__watch_tally(&p->s->aer, dev,
                         l.kind == HKLOG_AER_COR ? "correctable"
                                                 : "uncorrectable") += 1;
    else if (kind == SN_WATCH_KLOG_LINKDOWN)
        *sn__watch_tally(&p->s->linkdown, dev, "") += 1;
    else
        *sn__watch_tally(&p->s->offbus, dev, "") += 1;

    struct sn__watch_klog *k = SN_WATCH_PUSH(p->obs, klog);
    if (k) {
        k->kind = kind;
        sn_strlcpy(k->dev, dev, sizeof(k->dev));
        k->code = kind == SN_WATCH_KLOG_XID ? (int)l.xid : 0;
        sn_str_clean(k->text, sizeof(k->text), l.text, 0);
    }
}

/* The whole lines a plain file gained since the last read. */
static int read_file(struct klog_state *s, struct klog_pass *p,
                     struct sn_error *err)
{
    struct stat st;
    int fd = open_log(s->path, &st), rc = SN_OK;
    size_t want, got = 0, used = 0;
    char *buf = NULL;

    if (fd < 0) {
        s->offset = 0; /* gone: a log that comes back is new */
        return SN_OK;
    }
    if (!S_ISREG(st.st_mode)) {
        /* the ring appeared where there was none: from now on */
        rc = adopt(s, fd, &st, true, err);
        return rc;
    }
    s->seen = true;
    if (st.st_size < s->offset)
        s->offset = 0; /* truncated (rotated): every line is new */
    want = (size_t)(st.st_size - s->offset);
    if (want > KLOG_READ_MAX)
        want = KLOG_READ_MAX;
    buf = sn_xmalloc(want + 1);
    while (got < want) {
        ssize_t n = pread(fd, buf + got, want - got, s->offset + (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    buf[got] = '\0';
    for (char *nl; (nl = memchr(buf + used, '\n', got - used));) {
        *nl = '\0';
        if (strlen(buf + used) == (size_t)(nl - buf) - used)
            on_record(p, buf + used); /* a NUL inside: binary, skipped */
        used = (size_t)(nl - buf) + 1;
    }
    if ((off_t)got < st.st_size - s->offset) {
        /* more than the cap waits: skip to the end, counted */
        s->offset = st.st_size;
        s->capped += 1;
    } else {
        s->offset += (off_t)used; /* a partial last line waits */
    }
    free(buf);
    close(fd);
    return rc;
}

static int klog_collect(void *state, struct sn__watch_obs *obs,
                        struct sn_metrics *m, struct sn_error *err)
{
    struct klog_state *s = state;
    struct klog_pass p = {s, obs};
    struct sn_error e = {0};

    if (s->fd >= 0) {
        if (sn__hw_kmsg_drain(s->fd, KLOG_READ_MAX, on_record, &p) >
            KLOG_READ_MAX) {
            lseek(s->fd, 0, SEEK_END); /* skip the rest of a log storm */
            s->capped += 1;
        }
    } else {
        read_file(s, &p, &e);
    }
    sn__watch_tally_emit(&s->xid, m, "supernode_kernel_xid_total",
                         "NVIDIA XID errors the driver logged since the agent "
                         "started, by GPU and code (kernel log \"NVRM: Xid\")",
                         "pci_bus_id", "xid", &e);
    sn__watch_tally_emit(&s->aer, m, "supernode_kernel_aer_total",
                         "PCIe AER events the kernel logged since the agent "
                         "started, by the device that reported them "
                         "(kernel log \"AER: ... error received\")",
                         "pci_bus_id", "severity", &e);
    sn__watch_tally_emit(&s->linkdown, m, "supernode_kernel_link_down_total",
                         "Link-down lines the kernel logged since the agent "
                         "started (NIC, InfiniBand and PCIe hot-plug links), "
                         "by device",
                         "device", NULL, &e);
    sn__watch_tally_emit(&s->offbus, m, "supernode_kernel_fallen_off_bus_total",
                         "Times the NVIDIA driver logged a GPU as fallen off "
                         "the bus since the agent started",
                         "pci_bus_id", NULL, &e);
    if (s->seen)
        sn__watch_counter(m, "supernode_kernel_log_capped_total",
                          "Intervals in which more than 1 MiB of kernel log "
                          "waited: the rest was skipped, its events not "
                          "counted",
                          NULL, 0, s->capped, &e);
    if (e.code && err)
        *err = e;
    return e.code;
}

const struct sn__watch_collector sn__watch_col_klog = {
    "klog",
    klog_open,
    klog_collect,
    klog_close,
};
