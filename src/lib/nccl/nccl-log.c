/* nccl-log.c: an NCCL_DEBUG=INFO log read into what NCCL chose: version,
 * ranks and nodes, the network, the transport of every connection,
 * NVLS, CollNet, channels, GPUDirect RDMA and NCCL's warnings. The lines
 * are NCCL's own (src/init.cc, src/transport/ and src/graph/);
 * everything else in a job's output is skipped. Hostile input is cut to
 * SN_NCCL_LOG_MAX_LINE per line and never trusted past its caps. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/nccl.h"

struct lctx {
    struct sn_nccl_log *l;
    int lineno;
    size_t rank_cap;
    int nvls_yes, nvls_no, nvls_yes_line, nvls_no_line;
};

static void keep_line(struct sn_nccl_log_line *arr, int *n, int max, int lineno,
                      const char *text)
{
    if (*n >= max)
        return;
    arr[*n].line = lineno;
    sn_str_clean(arr[*n].text, sizeof(arr[*n].text), text, 0);
    (*n)++;
}

/* "host:pid:tid [dev] ": the host, when the prefix has that shape. */
static void prefix_host(const char *line, const char *nccl, char *host,
                        size_t size)
{
    const char *colon = memchr(line, ':', (size_t)(nccl - line));
    size_t n = colon ? (size_t)(colon - line) : 0;

    host[0] = '\0';
    if (n == 0 || n >= size)
        return;
    for (size_t i = 0; i < n; i++)
        if (isspace((unsigned char)line[i]))
            return;
    memcpy(host, line, n);
    host[n] = '\0';
    sn_str_clean_in(host, size, 0);
}

static void set_rank_host(struct lctx *c, int rank, const char *host)
{
    struct sn_nccl_log *l = c->l;

    if (rank < 0 || rank >= SN_NCCL_LOG_MAX_RANKS || !host[0])
        return;
    if (rank >= l->rank_host_n) {
        int n = rank + 1;
        SN_GROW(l->rank_host, c->rank_cap, (size_t)n);
        memset(l->rank_host + l->rank_host_n, 0,
               (size_t)(n - l->rank_host_n) * sizeof(char *));
        l->rank_host_n = n;
    }
    if (!l->rank_host[rank])
        l->rank_host[rank] = sn_xstrdup(host);
}

static const char *rank_host(const struct sn_nccl_log *l, int rank)
{
    return rank >= 0 && rank < l->rank_host_n ? l->rank_host[rank] : NULL;
}

static enum sn_nccl_transport classify(const char *via)
{
    if (sn_startswith(via, "P2P"))
        return SN_NCCL_TR_P2P;
    if (sn_startswith(via, "SHM"))
        return SN_NCCL_TR_SHM;
    if (sn_startswith(via, "NET/IB"))
        return SN_NCCL_TR_NET_IB;
    if (sn_startswith(via, "NET/Socket"))
        return SN_NCCL_TR_NET_SOCKET;
    if (sn_startswith(via, "NET/"))
        return SN_NCCL_TR_NET_OTHER;
    if (sn_startswith(via, "CollNet") || sn_startswith(via, "COLLNET"))
        return SN_NCCL_TR_COLLNET;
    if (sn_startswith(via, "NVLS"))
        return SN_NCCL_TR_NVLS;
    return SN_NCCL_TR_OTHER;
}

/* "Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0/GDRDMA" (the bracket
 * holds the device, or the bus id in older versions), or a ring line
 * "Channel 00/16 :    0   1   2". */
static void on_channel(struct lctx *c, const char *m)
{
    struct sn_nccl_log *l = c->l;
    const char *p = m + strlen("Channel ");
    const char *via;
    int from, to, used = 0;
    enum sn_nccl_transport tr;
    const char *hf, *ht;
    bool intra;

    p += strspn(p, "0123456789/");
    if (!sn_startswith(p, " : "))
        return;
    p += 3;
    if (sscanf(p, "%d[%*[0-9a-fA-F]] -> %d[%*[0-9a-fA-F]]%n", &from, &to,
               &used) != 2 ||
        used == 0) {
        if (isdigit((unsigned char)p[strspn(p, " ")]))
            l->rings++;
        return;
    }
    if (strstr(p, "[receive]") || !(via = strstr(p, " via ")))
        return; /* the receiving side repeats the sender's line */
    via += 5;
    tr = classify(via);
    hf = rank_host(l, from);
    ht = rank_host(l, to);
    /* P2P and SHM only join ranks of one node; NET joins ranks of one
     * node only when both are known to be there */
    if (tr == SN_NCCL_TR_P2P || tr == SN_NCCL_TR_SHM)
        intra = true;
    else if (hf && ht)
        intra = !strcmp(hf, ht);
    else
        intra = l->nnodes == 1;
    if (intra) {
        if (l->intra[tr]++ == 0)
            l->intra_line[tr] = c->lineno;
    } else {
        l->inter[tr]++;
    }
    if (tr == SN_NCCL_TR_NET_IB && !strstr(via, "GDRDMA") &&
        l->ib_no_gdr++ == 0)
        l->ib_no_gdr_line = c->lineno;
}

static void on_comm(struct lctx *c, const char *m, const char *host)
{
    struct sn_nccl_log *l = c->l;
    const char *p = strstr(m, " rank ");
    int rank, n, nodes, local, mnnvl;

    if (!p)
        return;
    if (sscanf(p,
               " rank %d nRanks %d nNodes %d localRanks %d localRank "
               "%*d MNNVL %d",
               &rank, &n, &nodes, &local, &mnnvl) == 5) {
        l->nranks = n;
        l->nnodes = nodes;
        l->local_ranks = local;
        l->mnnvl |= mnnvl != 0;
        set_rank_host(c, rank, host);
    } else if (sscanf(p, " rank %d nranks %d", &rank, &n) == 2) {
        if (l->nranks < 0)
            l->nranks = n;
        set_rank_host(c, rank, host);
    }
}

static void on_env(struct lctx *c, const char *m)
{
    struct sn_nccl_log *l = c->l;
    const char *set = strstr(m, " set by environment to ");

    if (!set || !sn_startswith(m, "NCCL_"))
        return;
    if (sn_startswith(m, "NCCL_COLLNET_ENABLE "))
        c->l->collnet_env = atoi(set + strlen(" set by environment to "));
    for (int i = 0; i < l->nenv; i++) /* once per variable */
        if (!strncmp(l->env[i].text, m, (size_t)(set - m)))
            return;
    keep_line(l->env, &l->nenv, SN_NCCL_LOG_MAX_ENV, c->lineno, m);
}

static void on_info(struct lctx *c, const char *m, const char *host)
{
    struct sn_nccl_log *l = c->l;
    int a, b, d, e;
    char word[64];

    if (sn_startswith(m, "NCCL version ")) {
        if (sscanf(m + 13, "%31[0-9.]+cuda%15[0-9.]", l->version,
                   l->built_cuda) >= 1)
            l->version_line = c->lineno;
    } else if (sscanf(m, "cudaDriverVersion %d", &a) == 1) {
        l->cuda_driver = a > 0 && a < 1000000 ? a : 0;
    } else if (sn_startswith(m, "Channel ")) {
        on_channel(c, m);
    } else if (strstr(m, " rank ") && (sn_startswith(m, "comm 0x") ||
                                       sn_startswith(m, "ncclCommInitRank"))) {
        on_comm(c, m, host);
    } else if (sn_startswith(m, "NET/IB : No device found")) {
        l->ib_none = true;
        l->ib_none_line = c->lineno;
    } else if (sn_startswith(m, "NET/IB : Using ")) {
        int n = 0;
        for (const char *p = m; (p = strchr(p, '[')); p++)
            n += isdigit((unsigned char)p[1]) != 0;
        l->ib_devices = n > l->ib_devices ? n : l->ib_devices;
    } else if (sn_startswith(m, "NET/Socket : Using [0]")) {
        sscanf(m + 22, "%63[^:< ]", l->socket_if);
        sn_str_clean_in(l->socket_if, sizeof(l->socket_if), 0);
    } else if (sscanf(m, "Using network %63s", word) == 1) {
        sn_str_clean(l->network, sizeof(l->network), word, 0);
        l->network_line = c->lineno;
    } else if (sn_startswith(m, "NVLS multicast support is ")) {
        bool no = strstr(m, "is not available") != NULL;
        if (no && c->nvls_no++ == 0)
            c->nvls_no_line = c->lineno;
        if (!no && c->nvls_yes++ == 0)
            c->nvls_yes_line = c->lineno;
    } else if (sscanf(m,
                      "%d coll channels, %d collnet channels, %d nvls "
                      "channels, %d p2p channels",
                      &a, &b, &d, &e) == 4) {
        /* the worst rank's counts */
        if (!l->channels_line || a < l->coll_channels)
            l->coll_channels = a;
        if (!l->channels_line || d < l->nvls_channels)
            l->nvls_channels = d;
        l->collnet_channels = b > l->collnet_channels ? b : l->collnet_channels;
        l->p2p_channels = e;
        if (!l->channels_line)
            l->channels_line = c->lineno;
    } else if (sn_startswith(m, "Trees ")) {
        l->trees++;
    } else if (sn_startswith(m, "Connected all rings")) {
        l->connected_rings = true;
    } else if (sn_startswith(m, "Connected all trees")) {
        l->connected_trees = true;
    } else if (sn_startswith(m, "GPU Direct RDMA Disabled for ")) {
        keep_line(l->gdr_off, &l->ngdr_off, SN_NCCL_LOG_MAX_WARN, c->lineno, m);
    } else {
        on_env(c, m);
    }
}

static void on_line(struct lctx *c, const char *line)
{
    const char *info = strstr(line, "NCCL INFO ");
    const char *warn = info ? NULL : strstr(line, "NCCL WARN ");
    char host[64];

    c->l->lines++;
    if (!info && !warn)
        return;
    c->l->nccl_lines++;
    prefix_host(line, info ? info : warn, host, sizeof(host));
    if (info) {
        on_info(c, info + 10, host);
        return;
    }
    c->l->warns_total++;
    keep_line(c->l->warns, &c->l->nwarns, SN_NCCL_LOG_MAX_WARN, c->lineno,
              warn + 10);
}

static struct sn_nccl_log *log_new(const char *name)
{
    struct sn_nccl_log *l = sn_xcalloc(1, sizeof(*l));

    l->file = sn_xstrdup(name);
    l->nranks = l->nnodes = l->local_ranks = -1;
    l->nvls = -1;
    l->collnet_env = -1;
    return l;
}

int sn_nccl_log_parse(const char *name, const char *text, size_t len,
                      struct sn_nccl_log **out, struct sn_error *err)
{
    struct lctx c;
    char *line = sn_xmalloc(SN_NCCL_LOG_MAX_LINE + 1);
    size_t pos = 0;

    *out = NULL;
    memset(&c, 0, sizeof(c));
    c.l = log_new(name);
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        size_t keep = n > SN_NCCL_LOG_MAX_LINE ? SN_NCCL_LOG_MAX_LINE : n;

        c.lineno++;
        c.l->cut_lines += n > keep;
        memcpy(line, text + pos, keep);
        line[keep] = '\0';
        if (keep && line[keep - 1] == '\r')
            line[keep - 1] = '\0';
        on_line(&c, line); /* a NUL inside ends the line there */
        pos += n + 1;
    }
    free(line);
    c.l->nvls = c.nvls_no ? 0 : c.nvls_yes ? 1 : -1;
    c.l->nvls_line = c.nvls_no ? c.nvls_no_line : c.nvls_yes_line;
    if (c.l->nccl_lines == 0) {
        sn_nccl_log_free(c.l);
        return sn_error_at(err, SN_EINPUT, name, 1, 0,
                           "no NCCL INFO lines (run with NCCL_DEBUG=INFO, "
                           "NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV,NET and give "
                           "its output or NCCL_DEBUG_FILE)");
    }
    *out = c.l;
    return SN_OK;
}

int sn_nccl_log_load(const char *path, struct sn_nccl_log **out,
                     struct sn_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    rc = sn_read_file(path, SN_NCCL_LOG_MAX_BYTES, &text, &len, err);
    if (!rc)
        rc = sn_nccl_log_parse(path, text, len, out, err);
    free(text);
    return rc;
}

void sn_nccl_log_free(struct sn_nccl_log *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->rank_host_n; i++)
        free(l->rank_host[i]);
    free(l->rank_host);
    free(l->file);
    free(l);
}

const char *sn_nccl_transport_name(enum sn_nccl_transport t)
{
    static const char *const names[] = {"P2P",        "SHM",          "NET/IB",
                                        "NET/Socket", "NET (plugin)", "CollNet",
                                        "NVLS",       "other"};

    return (unsigned)t < SN_ARRAY_LEN(names) ? names[t] : "other";
}
