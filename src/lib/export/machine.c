/* machine.c (export): the machine's own bus ids and RDMA device
 * names for the NCCL topology file (`export nccl-topo --machine FILE`),
 * parsed with located errors. docs/export.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/export.h"

/* A bus id as nvidia-smi ("00000000:18:00.0") or sysfs ("0000:18:00.0")
 * writes it, into NCCL's lowercase "dddd:bb:dd.f"; false when not one. */
static bool busid_norm(const char *s, size_t len, char out[16])
{
    size_t dom;

    if (len == 16 && !strncmp(s, "0000", 4)) {
        s += 4; /* nvidia-smi's 8-digit domain */
        len -= 4;
    }
    if (len != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.')
        return false;
    for (dom = 0; dom < 12; dom++) {
        if (dom == 4 || dom == 7 || dom == 10)
            out[dom] = s[dom];
        else if (isxdigit((unsigned char)s[dom]))
            out[dom] = (char)tolower((unsigned char)s[dom]);
        else
            return false;
    }
    out[12] = '\0';
    return true;
}

static bool name_ok(const char *s, size_t len)
{
    if (len == 0 || len > 63)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
            return false;
    return true;
}

/* The words of one line (at most 5), '#' ending it. */
static size_t words(const char *p, const char *eol, const char **w, size_t *wl)
{
    size_t n = 0;

    while (p < eol && *p != '#' && n < 5) {
        while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p == eol || *p == '#')
            break;
        w[n] = p;
        while (p < eol && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
            p++;
        wl[n] = (size_t)(p - w[n]);
        n++;
    }
    return n;
}

/* One line: "gpu I BUSID" or "nic J NAME BUSID". */
static int machine_line(const char *file, int line, const char *bol,
                        const char *eol, struct sn_nccl_machine *m,
                        struct sn_error *err)
{
    const char *w[5];
    size_t wl[5], n = words(bol, eol, w, wl);
    bool gpu;
    char num[8], *end;
    long i;
    char *busid;

    if (n == 0)
        return SN_OK;
    gpu = wl[0] == 3 && !strncmp(w[0], "gpu", 3);
    if (!gpu && !(wl[0] == 3 && !strncmp(w[0], "nic", 3)))
        return sn_error_at(err, SN_EINPUT, file, line, (int)(w[0] - bol) + 1,
                           "expected 'gpu I BUSID' or 'nic J NAME BUSID'");
    if (n != (gpu ? 3u : 4u))
        return sn_error_at(err, SN_EINPUT, file, line, (int)(w[0] - bol) + 1,
                           "%s takes %s", gpu ? "gpu" : "nic",
                           gpu ? "a number and a bus id"
                               : "a number, a device name and a bus id");
    snprintf(num, sizeof(num), "%.*s", (int)(wl[1] < 7 ? wl[1] : 7), w[1]);
    i = strtol(num, &end, 10);
    if (wl[1] > 2 || *end || !isdigit((unsigned char)num[0]) || i < 0 ||
        i >= SN_NCCL_MAX_DEV)
        return sn_error_at(err, SN_EINPUT, file, line, (int)(w[1] - bol) + 1,
                           "'%s' is not a device number (expected 0 to %d)",
                           num, SN_NCCL_MAX_DEV - 1);
    busid = gpu ? m->gpu_busid[i] : m->nic_busid[i];
    if (busid[0])
        return sn_error_at(err, SN_EINPUT, file, line, (int)(w[0] - bol) + 1,
                           "%s %ld is given twice", gpu ? "gpu" : "nic", i);
    if (!gpu && !name_ok(w[2], wl[2]))
        return sn_error_at(err, SN_EINPUT, file, line, (int)(w[2] - bol) + 1,
                           "not a device name (expected 1 to 63 letters, "
                           "digits, '_', '.' or '-')");
    if (!busid_norm(w[n - 1], wl[n - 1], busid))
        return sn_error_at(err, SN_EINPUT, file, line,
                           (int)(w[n - 1] - bol) + 1,
                           "not a PCI bus id (expected 0000:18:00.0)");
    if (!gpu)
        snprintf(m->nic_name[i], sizeof(m->nic_name[i]), "%.*s", (int)wl[2],
                 w[2]);
    return SN_OK;
}

/* The line just read may not repeat a bus id or a NIC name given before
 * (two devices at one address, or two NICs NCCL would take for one). */
static int machine_repeat(const char *file, int line,
                          const struct sn_nccl_machine *m, struct sn_error *err)
{
    const char *ids[2 * SN_NCCL_MAX_DEV];
    size_t n = 0;

    for (size_t i = 0; i < SN_NCCL_MAX_DEV; i++) {
        if (m->gpu_busid[i][0])
            ids[n++] = m->gpu_busid[i];
        if (m->nic_busid[i][0])
            ids[n++] = m->nic_busid[i];
        for (size_t k = 0; m->nic_name[i][0] && k < i; k++)
            if (!strcmp(m->nic_name[i], m->nic_name[k]))
                return sn_error_at(err, SN_EINPUT, file, line, 1,
                                   "NIC name '%s' is given twice",
                                   m->nic_name[i]);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < i; k++)
            if (!strcmp(ids[i], ids[k]))
                return sn_error_at(err, SN_EINPUT, file, line, 1,
                                   "bus id %s is given twice", ids[i]);
    return SN_OK;
}

int sn_nccl_machine_parse(const char *file, const char *text, size_t len,
                          struct sn_nccl_machine *m, struct sn_error *err)
{
    const char *p = text, *end = text + len;
    int line = 0, rc = SN_OK;

    memset(m, 0, sizeof(*m));
    if (!file)
        file = "<machine>";
    while (p < end && rc == SN_OK) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if (++line > 10000)
            return sn_error_at(err, SN_EINPUT, file, line, 1,
                               "more than 10000 lines (expected a line a "
                               "device)");
        rc = machine_line(file, line, p, eol, m, err);
        if (rc == SN_OK)
            rc = machine_repeat(file, line, m, err);
        p = eol + 1;
    }
    return rc;
}
