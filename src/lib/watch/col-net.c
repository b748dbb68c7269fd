/* col-net.c: the node agent's network collector: the physical network
 * interfaces of sys/class/net (state, speed, carrier changes: a flap
 * counter) and the InfiniBand ports of sys/class/infiniband (state,
 * rate, link-downed and error-recovery counters), under the root. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-int.h"
#include "watch-int.h"

#include "../hw/hw-int.h"

#define NET_DIR "sys/class/net"
#define IB_DIR "sys/class/infiniband"
#define NET_IFACES_MAX 1024 /* physical interfaces read */
#define IB_DEVICES_MAX 64   /* InfiniBand devices read */
#define IB_PORTS_MAX 64     /* ports of one device read */
/* the kernel's SPEED_UNKNOWN is -1, which some drivers print unsigned;
 * no interface runs faster than 10 Tb/s */
#define NET_SPEED_MAX_MBPS 10000000LL

struct net_state {
    char root[SN_HW_PATH_MAX];
};

static int net_open(const struct sn__watch_cfg *cfg, void **state,
                    struct sn_error *err)
{
    struct net_state *s = sn_xcalloc(1, sizeof(*s));
    int rc = sn__watch_root(cfg, s->root, sizeof(s->root), err);

    if (rc) {
        free(s);
        return rc;
    }
    *state = s;
    return SN_OK;
}

static void net_close(void *state)
{
    free(state);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A physical network interface: it has a device; lo, bridges, bonds,
 * veths and tunnels have none. */
static bool physical(const char *root, const char *name)
{
    char rel[128];

    snprintf(rel, sizeof(rel), NET_DIR "/%s/device", name);
    return sn__hw_exists(root, rel);
}

/* The entries of a directory under the root that keep(root, name) takes
 * (every one when keep is NULL), sorted, at most max: the cap counts what
 * is kept, so 4,000 veths before them never push a NIC out. Each a heap
 * string, the array too (free with free_names). */
static size_t list_names(const char *root, const char *rel, size_t max,
                         bool (*keep)(const char *, const char *), char ***out)
{
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    DIR *d = sn__hw_opendir(root, rel);

    *out = NULL;
    if (!d)
        return 0;
    while ((e = readdir(d)) && n < max) {
        /* names the rest of the path and the labels can hold */
        if (e->d_name[0] == '.' || strlen(e->d_name) >= 32 ||
            (keep && !keep(root, e->d_name)))
            continue;
        SN_GROW(names, cap, n + 1);
        names[n++] = sn_xstrdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(*names), cmp_name);
    *out = names;
    return n;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* A whole, non-negative number attribute, or NaN. */
static double read_count(const char *root, const char *rel)
{
    long long v;

    if (sn__hw_read_long(root, rel, &v) || v < 0)
        return NAN;
    return (double)v;
}

static void read_iface(const char *root, const char *ifname,
                       struct sn__watch_obs *obs, struct sn_metrics *m,
                       struct sn_error *err)
{
    char rel[128], state[32];
    struct sn_metrics_label l[] = {{"interface", ifname}};
    double speed = NAN, changes;
    long long v;
    bool up;

    snprintf(rel, sizeof(rel), NET_DIR "/%s/operstate", ifname);
    up = sn__hw_read(root, rel, state, sizeof(state)) == 0 &&
         !strcmp(state, "up");
    /* unreadable (EINVAL) while the link is down, -1 when unknown */
    snprintf(rel, sizeof(rel), NET_DIR "/%s/speed", ifname);
    if (sn__hw_read_long(root, rel, &v) == 0 && v > 0 &&
        v <= NET_SPEED_MAX_MBPS)
        speed = (double)v * 1e6;
    snprintf(rel, sizeof(rel), NET_DIR "/%s/carrier_changes", ifname);
    changes = read_count(root, rel);

    struct sn__watch_link *k = SN_WATCH_PUSH(obs, links);
    if (k) {
        k->kind = SN_WATCH_NIC;
        sn_strlcpy(k->dev, ifname, sizeof(k->dev));
        sn_strlcpy(k->what, "nic", sizeof(k->what));
        k->speed = speed;
        k->max_speed = NAN; /* sysfs does not say what the NIC can do */
        k->up = up;
        k->down_events = changes;
    }
    sn__watch_gauge(m, "supernode_net_up",
                    "1 when the network interface is up (sysfs operstate "
                    "\"up\"), else 0",
                    l, 1, up ? 1 : 0, err);
    /* bytes, Prometheus' base unit (node_exporter's
     * node_network_speed_bytes does the same) */
    if (!isnan(speed))
        sn__watch_gauge(m, "supernode_net_speed_bytes_per_second",
                        "Speed the network interface negotiated, bytes per "
                        "second (sysfs speed, Mb/s, divided by 8)",
                        l, 1, speed / 8, err);
    if (!isnan(changes))
        sn__watch_counter(m, "supernode_net_carrier_changes_total",
                          "Times the interface's carrier went up or down "
                          "since boot: a flapping link grows it (sysfs "
                          "carrier_changes)",
                          l, 1, changes, err);
}

static void read_net(const char *root, struct sn__watch_obs *obs,
                     struct sn_metrics *m, struct sn_error *err)
{
    char **names;
    size_t n = list_names(root, NET_DIR, NET_IFACES_MAX, physical, &names);

    for (size_t i = 0; i < n; i++)
        read_iface(root, names[i], obs, m, err);
    free_names(names, n);
}

/* "400 Gb/sec (4X NDR)" -> 400e9 bits/s and 4 lanes; NaN and 0 when it
 * does not read so. */
static void parse_rate(const char *s, double *bps, int *width)
{
    char *end;
    double v = strtod(s, &end);
    const char *paren = strchr(s, '(');

    *bps = NAN;
    *width = 0;
    if (end != s && v > 0 && v <= 1e4 && sn_startswith(end, " Gb/sec"))
        *bps = v * 1e9;
    if (paren && isdigit((unsigned char)paren[1])) {
        long w = strtol(paren + 1, &end, 10);
        if (*end == 'X' && w > 0 && w <= 32)
            *width = (int)w;
    }
}

/* The leading number of "4: ACTIVE" or "5: LinkUp"; -1 when none. */
static int read_state(const char *root, const char *rel)
{
    char buf[64], *end;
    long v;

    if (sn__hw_read(root, rel, buf, sizeof(buf)))
        return -1;
    v = strtol(buf, &end, 10);
    return end == buf || *end != ':' || v < 0 || v > 255 ? -1 : (int)v;
}

static void read_port(const char *root, const char *dev, const char *port,
                      struct sn__watch_obs *obs, struct sn_metrics *m,
                      struct sn_error *err)
{
    char rel[192], buf[64], name[SN_WATCH_NAME_MAX];
    struct sn_metrics_label l[] = {{"device", dev}, {"port", port}};
    double bps = NAN, downed, recovery;
    int width = 0, state, phys;
    bool up;

    snprintf(rel, sizeof(rel), IB_DIR "/%s/ports/%s/", dev, port);
    size_t base = strlen(rel);
    sn_strlcpy(rel + base, "state", sizeof(rel) - base);
    state = read_state(root, rel);
    sn_strlcpy(rel + base, "phys_state", sizeof(rel) - base);
    phys = read_state(root, rel);
    /* ACTIVE (4), and the physical link up (5: LinkUp) where it says */
    up = state == 4 && (phys < 0 || phys == 5);
    sn_strlcpy(rel + base, "rate", sizeof(rel) - base);
    if (sn__hw_read(root, rel, buf, sizeof(buf)) == 0)
        parse_rate(buf, &bps, &width);
    sn_strlcpy(rel + base, "counters/link_downed", sizeof(rel) - base);
    downed = read_count(root, rel);
    sn_strlcpy(rel + base, "counters/link_error_recovery", sizeof(rel) - base);
    recovery = read_count(root, rel);
    sn_strlcpy(rel + base, "link_layer", sizeof(rel) - base);
    if (sn__hw_read(root, rel, buf, sizeof(buf)))
        buf[0] = '\0';

    struct sn__watch_link *k = SN_WATCH_PUSH(obs, links);
    if (k) {
        k->kind = SN_WATCH_IB;
        snprintf(name, sizeof(name), "%s/%s", dev, port);
        sn_strlcpy(k->dev, name, sizeof(k->dev));
        /* RoCE ports sit here too, with link_layer Ethernet */
        sn_strlcpy(k->what, !strcmp(buf, "Ethernet") ? "roce" : "ib",
                   sizeof(k->what));
        k->speed = bps;
        k->max_speed = NAN; /* sysfs gives the active rate only */
        k->width = width;
        k->up = up;
        k->down_events = downed;
    }
    sn__watch_gauge(m, "supernode_ib_port_up",
                    "1 when the InfiniBand port is ACTIVE with its physical "
                    "link up (sysfs state, phys_state), else 0",
                    l, 2, up ? 1 : 0, err);
    if (!isnan(bps))
        sn__watch_gauge(m, "supernode_ib_port_rate_bytes_per_second",
                        "Rate the InfiniBand port runs at, bytes per second "
                        "(sysfs rate, Gb/s, divided by 8)",
                        l, 2, bps / 8, err);
    if (!isnan(downed))
        sn__watch_counter(m, "supernode_ib_port_link_downed_total",
                          "Times the InfiniBand port's link went down "
                          "(sysfs counters/link_downed; the hardware counter "
                          "may saturate or be reset by perfquery -R)",
                          l, 2, downed, err);
    if (!isnan(recovery))
        sn__watch_counter(m, "supernode_ib_port_link_error_recovery_total",
                          "Link error recoveries of the InfiniBand port: "
                          "flaps the link survived (sysfs "
                          "counters/link_error_recovery)",
                          l, 2, recovery, err);
}

static void read_ib(const char *root, struct sn__watch_obs *obs,
                    struct sn_metrics *m, struct sn_error *err)
{
    char **devs, rel[128];
    size_t ndev = list_names(root, IB_DIR, IB_DEVICES_MAX, NULL, &devs);

    for (size_t i = 0; i < ndev; i++) {
        char **ports;
        size_t np;
        snprintf(rel, sizeof(rel), IB_DIR "/%s/ports", devs[i]);
        np = list_names(root, rel, IB_PORTS_MAX, NULL, &ports);
        for (size_t j = 0; j < np; j++)
            read_port(root, devs[i], ports[j], obs, m, err);
        free_names(ports, np);
    }
    free_names(devs, ndev);
}

static int net_collect(void *state, struct sn__watch_obs *obs,
                       struct sn_metrics *m, struct sn_error *err)
{
    struct net_state *s = state;
    struct sn_error e = {0};

    read_net(s->root, obs, m, &e);
    read_ib(s->root, obs, m, &e);
    if (e.code && err)
        *err = e;
    return e.code;
}

const struct sn__watch_collector sn__watch_col_net = {
    "net",
    net_open,
    net_collect,
    net_close,
};
