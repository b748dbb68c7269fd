/* test-watch-rules.c: the watch rules over synthetic observations in
 * simulated time (no collectors): a simulated node of 4 GPUs on 4
 * coolant branches, 4 inlet sensors, 4 PSUs on 2 feeds, InfiniBand and
 * PCIe links, with a fixed-seed noise; each scenario changes one part
 * and checks that its rule fires naming that part, and a healthy week
 * fires nothing. */
/* covers: metrics store watch */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "../../src/lib/watch/rules-int.h"
#include "harness.h"
#include "sn/store.h"

#define STEP 900.0 /* 15 minutes */
#define DAY 86400.0
#define NGPU 4

/* ---- the simulated node --------------------------------------------- */

struct world {
    uint64_t rng;
    double flow[NGPU];    /* L/min per branch */
    double rfac[NGPU];    /* thermal resistance factor per GPU */
    double sensor_off[4]; /* inlet sensors' offsets, C */
    double eff[4];        /* PSU efficiencies */
    double feed_w[2];     /* input per PSU on feed A and B */
    double feed_v[2];
    double supply, room_c, room_rh;
    int width0;        /* PCIe width of gpu 0's link */
    double ib_down;    /* ib port 0's down events */
    double nvlink_rec; /* gpu 3's NVLink recoveries */
    bool gpu3_gone, gpu3_lost;
    int ib_ports; /* InfiniBand ports up to 4 */
    int nvml_count;
    char proc_state; /* gpu 0's process */
    double proc_util;
    unsigned xid; /* one XID on gpu 2 this step, 0: none */
    double ecc_unc;
    double remap_pending;
    uint64_t reasons; /* gpu 1's clock event reasons */
    const char *leak;
};

/* xorshift64*, a fixed seed: the same noise every run */
static double noise(struct world *w, double amp)
{
    w->rng ^= w->rng >> 12;
    w->rng ^= w->rng << 25;
    w->rng ^= w->rng >> 27;
    return amp * (2.0 * (double)((w->rng * 2685821657736338717ull) >> 11) /
                      9007199254740992.0 -
                  1.0);
}

static void world_init(struct world *w)
{
    memset(w, 0, sizeof(*w));
    w->rng = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < NGPU; i++) {
        w->flow[i] = 1.6;
        w->rfac[i] = 1.0 + 0.03 * (i - 1.5); /* parts differ a little */
    }
    w->sensor_off[1] = 0.3;
    w->sensor_off[2] = -0.2;
    w->sensor_off[3] = 0.1;
    for (int i = 0; i < 4; i++)
        w->eff[i] = 0.94;
    w->feed_w[0] = w->feed_w[1] = 2000;
    w->feed_v[0] = w->feed_v[1] = 230;
    w->supply = 25;
    w->room_c = 24;
    w->room_rh = 0.45;
    w->width0 = 16;
    w->ib_down = 3;
    w->nvml_count = NGPU;
    w->ib_ports = 4;
    w->proc_state = 'S';
    w->proc_util = NAN;
    w->leak = "OK";
}

static const char *bus_of(int i)
{
    static const char *const bus[] = {"0000:19:00.0", "0000:1b:00.0",
                                      "0000:1d:00.0", "0000:1f:00.0"};
    return bus[i];
}

static void add_gpus(struct world *w, struct sn__watch_obs *o, double t)
{
    for (int i = 0; i < NGPU; i++) {
        struct sn__watch_gpu *g;
        double p = 700 + noise(w, 20), sup = w->supply;
        if (i == 3 && w->gpu3_gone)
            continue;
        g = SN_WATCH_PUSH(o, gpus);
        g->index = i;
        snprintf(g->bus, sizeof(g->bus), "%s", bus_of(i));
        g->lost = i == 3 && w->gpu3_lost;
        g->power_w = g->lost ? NAN : p;
        g->power_limit_w = 1000;
        g->temp_c =
            g->lost ? NAN : sup + 0.045 * w->rfac[i] * p + noise(w, 0.5);
        g->temp_slowdown_c = 87;
        g->sm_clock_hz = 1.98e9;
        g->reasons = i == 1 ? w->reasons : (fmod(t, 7 * STEP) == 0 ? 0x4 : 0);
        g->reasons_read = true;
        g->util = 0.9;
        g->remap_pending = i == 2 ? w->remap_pending : 0;
        g->remap_failure = 0;
        g->ecc_uncorrected = i == 2 ? w->ecc_unc : 0;
        g->nvlink_recovery = i == 3 ? w->nvlink_rec : 0;
        g->procs[0].pid = 4242 + (unsigned)i;
        g->procs[0].mem_bytes = 40.0 * 1024 * 1024 * 1024;
        g->procs[0].state = i == 0 ? w->proc_state : 'S';
        g->procs[0].sm_util = i == 0 ? w->proc_util : NAN;
        g->nprocs = 1;
        if (i == 2 && w->xid)
            g->xids[g->nxids++] = w->xid;
    }
}

static void add_world(struct world *w, struct sn__watch_obs *o, double t)
{
    /* the room swings 1 C a day; every inlet sensor sees it */
    double room = w->room_c + sin(2 * M_PI * t / DAY);

    o->nvml = true;
    o->nvml_count = w->nvml_count;
    o->room_c = room;
    o->room_humidity = w->room_rh;
    add_gpus(w, o, t);
    for (int i = 0; i < NGPU; i++) {
        struct sn__watch_coolant *b = SN_WATCH_PUSH(o, coolant);
        struct sn__watch_pcidev *d = SN_WATCH_PUSH(o, pci);
        struct sn__watch_link *l = SN_WATCH_PUSH(o, links);
        snprintf(b->branch, sizeof(b->branch), "GPU%d", i + 1);
        snprintf(b->loop, sizeof(b->loop), "loop0");
        snprintf(b->kind, sizeof(b->kind), "gpu");
        b->flow_lpm = w->flow[i] * (1 + noise(w, 0.02));
        b->supply_c = w->supply + noise(w, 0.2);
        b->return_c = b->supply_c + 8;
        b->supply_kpa = b->return_kpa = b->rated_flow_lpm = NAN;
        if (!(i == 3 && w->gpu3_gone)) {
            snprintf(d->bdf, sizeof(d->bdf), "%s", bus_of(i));
            d->vendor = 0x10de;
            d->device = 0x2330;
            d->class_code = 0x0302;
        } else {
            snprintf(d->bdf, sizeof(d->bdf), "0000:3%d:00.0", i);
            d->vendor = 0x8086; /* something else in its place */
            d->class_code = 0x0604;
        }
        l->kind = SN_WATCH_PCIE;
        snprintf(l->dev, sizeof(l->dev), "%s", bus_of(i));
        snprintf(l->what, sizeof(l->what), "gpu");
        l->speed = l->max_speed = 32;
        l->width = i == 0 ? w->width0 : 16;
        l->max_width = 16;
        l->up = true;
        l->down_events = 0;
        if (i >= w->ib_ports)
            continue;
        l = SN_WATCH_PUSH(o, links);
        l->kind = SN_WATCH_IB;
        snprintf(l->dev, sizeof(l->dev), "mlx5_%d/1", i);
        l->speed = l->max_speed = 400e9;
        l->up = true;
        l->down_events = i == 0 ? w->ib_down : 1;
    }
    for (int i = 0; i < 4; i++) {
        struct sn__watch_sensor *s = SN_WATCH_PUSH(o, sensors);
        struct sn__watch_psu *p = SN_WATCH_PUSH(o, psus);
        snprintf(s->chip, sizeof(s->chip), "bmc");
        snprintf(s->sensor, sizeof(s->sensor), "Inlet%d", i + 1);
        snprintf(s->group, sizeof(s->group), "inlet");
        s->kind = SN_WATCH_TEMP;
        s->value = room + w->sensor_off[i] + noise(w, 0.5);
        snprintf(p->psu, sizeof(p->psu), "PSU%d", i + 1);
        snprintf(p->feed, sizeof(p->feed), "%s", i % 2 ? "B" : "A");
        p->input_w = w->feed_w[i % 2] + noise(w, 40);
        p->output_w = p->input_w * (w->eff[i] + noise(w, 0.002));
        p->input_v = w->feed_v[i % 2] + noise(w, 1);
        p->capacity_w = 5500;
    }
    for (int i = 0; i < 2; i++) {
        struct sn__watch_leak *k = SN_WATCH_PUSH(o, leaks);
        snprintf(k->detector, sizeof(k->detector), "Tray%d", i + 1);
        snprintf(k->state, sizeof(k->state), "%s", i ? "OK" : w->leak);
    }
}

/* ---- the design ------------------------------------------------------- */

/* 4 GPUs of 1000 W a node, cold plates taking 80% at 10 K: a node's loop
 * needs 4 x 1000 x 0.8 / (996 x 4180 x 10) m^3/s = 4.61 L/min, 1.15 on
 * each of the 4 branches the BMC shows; 4 fabric NICs. */
static const struct sn_accel_info accel = {.name = "test-gpu", .tdp_w = 1000};

static void design(struct sn_spec *s)
{
    memset(s, 0, sizeof(*s));
    s->accel = &accel;
    s->scaleup.per_node = NGPU;
    s->scaleout.nics_per_node = 4;
    s->cooling.type = SN_COOL_COLD_PLATE;
    s->cooling.coolant = SN_COOLANT_WATER;
    s->cooling.delta_t = 10;
    s->cooling.liquid_share = 0.8;
}

/* ---- running it --------------------------------------------------------- */

struct run {
    struct sn_spec spec;
    struct sn__watch_rules *r;
    struct sn_store *st;
    char dir[64], path[96];
    struct sn_metrics m;
};

static bool run_open(struct run *x, bool store, const char *dir)
{
    struct sn_error err = {0};

    design(&x->spec);
    memset(&x->m, 0, sizeof(x->m));
    x->st = NULL;
    if (store) {
        if (dir) {
            snprintf(x->dir, sizeof(x->dir), "%s", dir);
        } else {
            snprintf(x->dir, sizeof(x->dir), "/tmp/sn-rules-XXXXXX");
            if (!mkdtemp(x->dir))
                return false;
        }
        snprintf(x->path, sizeof(x->path), "%s/r.db", x->dir);
        if (sn_store_open(x->path, &x->st, &err))
            return false;
    }
    return sn__watch_rules_new(&x->spec, x->st, "node0", &x->r, &err) == 0;
}

/* Close, leaving the database for a restart. */
static void run_stop(struct run *x)
{
    sn__watch_rules_free(x->r);
    sn_store_close(x->st);
    sn_metrics_release(&x->m);
    x->r = NULL;
    x->st = NULL;
}

static void run_close(struct run *x)
{
    char f[128];

    run_stop(x);
    if (x->dir[0]) {
        static const char *const ext[] = {"", "-wal", "-shm"};
        for (size_t i = 0; i < 3; i++) {
            snprintf(f, sizeof(f), "%s%s", x->path, ext[i]);
            unlink(f);
        }
        rmdir(x->dir);
    }
}

static size_t step(struct run *x, struct world *w, double t,
                   const struct sn_watch_alert **a)
{
    struct sn__watch_obs o;
    struct sn_error err = {0};
    size_t n;

    sn__watch_obs_init(&o, t);
    add_world(w, &o, t);
    sn_metrics_release(&x->m);
    memset(&x->m, 0, sizeof(x->m));
    CHECK(sn__watch_rules_eval(x->r, &o, &x->m, &err) == 0);
    sn__watch_obs_release(&o);
    n = sn__watch_rules_active(x->r, a);
    return n;
}

static const struct sn_watch_alert *find(const struct sn_watch_alert *a,
                                         size_t n, const char *rule,
                                         const char *subject)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].rule, rule) &&
            (!subject || !strcmp(a[i].subject, subject)))
            return &a[i];
    return NULL;
}

static void print_alerts(const struct sn_watch_alert *a, size_t n, double t)
{
    for (size_t i = 0; i < n; i++)
        printf("    t=%.0f %s %s %s: %s\n", t, a[i].rule, a[i].severity,
               a[i].subject, a[i].message);
}

/* ---- cases ------------------------------------------------------------- */

static void test_rules_healthy_week_fires_nothing(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a;
    size_t fired = 0;
    struct sn_buf b;

    world_init(&w);
    REQUIRE(run_open(&x, true, NULL));
    for (double t = 0; t <= 7 * DAY; t += STEP) {
        size_t n = step(&x, &w, t, &a);
        if (n && fired < 5)
            print_alerts(a, n, t);
        fired += n;
    }
    CHECK(fired == 0);
    /* the counter and the drift scores are there; no rule is active */
    sn_buf_init(&b);
    sn_metrics_render_text(&x.m, &b);
    CHECK(strstr(b.data, "supernode_rules_evaluated_total 673") != NULL);
    CHECK(strstr(b.data, "supernode_drift_score{rule=\"gpu_thermal_creep\","
                         "subject=\"gpu 0000:19:00.0\"}") != NULL);
    CHECK(strstr(b.data, "supernode_rule_active{") == NULL);
    sn_buf_release(&b);
    run_close(&x);
}

/* One branch's flow falls 30% over 6 hours from day 1; its GPU's
 * thermal resistance rises 12% with it and then creeps on (fouling) by
 * 90% over 5 days, until the GPU reaches its slowdown temperature. */
static void creep_world(struct world *w, double t)
{
    double t0 = DAY, drop = fmin(fmax((t - t0) / (6 * 3600), 0), 1);

    w->flow[1] = 1.6 * (1 - 0.3 * drop);
    w->rfac[1] = (1 + 0.03 * -0.5) *
                 (1 + 0.12 * drop + 0.9 * fmax(t - t0, 0) / (5 * DAY));
}

static void test_rules_flow_drop_and_creep_fire_days_before_slowdown(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a;
    double flow_at = NAN, creep_at = NAN, slow_at = NAN;
    bool other = false;

    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    for (double t = 0; t <= 8 * DAY && isnan(slow_at); t += STEP) {
        size_t n;
        creep_world(&w, t);
        n = step(&x, &w, t, &a);
        if (isnan(flow_at) && find(a, n, "coolant_flow_low", "branch GPU2"))
            flow_at = t;
        if (isnan(creep_at) &&
            find(a, n, "gpu_thermal_creep", "gpu 0000:1b:00.0"))
            creep_at = t;
        for (size_t i = 0; i < n; i++)
            if (strcmp(a[i].subject, "branch GPU2") &&
                strcmp(a[i].subject, "gpu 0000:1b:00.0"))
                other = true;
        /* the GPU's temperature at full power, without noise */
        if (w.supply + 0.045 * w.rfac[1] * 700 >= 87)
            slow_at = t;
    }
    printf("    flow low at %.1f h, creep at %.1f h, slowdown at %.1f h\n",
           flow_at / 3600, creep_at / 3600, slow_at / 3600);
    CHECK(flow_at >= DAY && flow_at <= DAY + 6 * 3600);
    CHECK(creep_at >= DAY);
    CHECK(slow_at - creep_at >= 2 * DAY); /* days before throttling */
    CHECK(!other);
    run_close(&x);
}

/* The Redfish fixture's loop: a node's CPU and GPU cold plates (2.1 and
 * 3.9 L/min) and the CDU's secondary connector (48 L/min) share "Rack3
 * secondary". A cold plate has no peer of its kind there, so nothing is
 * compared with the CDU's flow; the design (the node's loop of 4.61
 * L/min over its 2 cold plates, 2.31 each) names CPU1 alone. With three
 * GPU cold plates the one 30% low is named against its kind's median. */
static size_t mixed_loop(struct run *x, const double *flow, const char **kind,
                         const char **name, size_t n,
                         const struct sn_watch_alert **a)
{
    struct sn__watch_obs o;
    struct sn_error err = {0};

    sn__watch_obs_init(&o, 0);
    for (size_t i = 0; i < n; i++) {
        struct sn__watch_coolant *b = SN_WATCH_PUSH(&o, coolant);
        snprintf(b->branch, sizeof(b->branch), "%s", name[i]);
        snprintf(b->loop, sizeof(b->loop), "Rack3 secondary");
        snprintf(b->kind, sizeof(b->kind), "%s", kind[i]);
        b->flow_lpm = flow[i];
        b->supply_c = b->return_c = b->supply_kpa = b->return_kpa = NAN;
        b->rated_flow_lpm = NAN;
    }
    sn_metrics_release(&x->m);
    memset(&x->m, 0, sizeof(x->m));
    CHECK(sn__watch_rules_eval(x->r, &o, &x->m, &err) == 0);
    sn__watch_obs_release(&o);
    return sn__watch_rules_active(x->r, a);
}

static void test_rules_flow_peers_by_kind_not_the_cdu(void)
{
    struct run x = {0};
    const struct sn_watch_alert *a, *hit;
    const char *k1[] = {"cpu", "gpu", "cdu"};
    const char *n1[] = {"CPU1", "GPU1", "1/secondary/A"};
    const double f1[] = {2.1, 3.9, 48};
    const char *k2[] = {"gpu", "gpu", "gpu", "cdu", "other"};
    const char *n2[] = {"GPU1", "GPU2", "GPU3", "1/secondary/A", "manifold"};
    const double f2[] = {3.9, 2.7, 3.8, 48, 0.5};
    size_t n;

    REQUIRE(run_open(&x, false, NULL));
    n = mixed_loop(&x, f1, k1, n1, 3, &a);
    CHECK(n == 1);
    hit = find(a, n, "coolant_flow_low", "branch CPU1");
    REQUIRE(hit);
    CHECK(strstr(hit->message, "coolant 2.10 L/min, design 2.31") != NULL);
    CHECK(!find(a, n, "coolant_flow_low", "branch GPU1"));
    /* three GPU cold plates: GPU2 at 2.7 is 29% below their median 3.8;
     * the CDU, the manifold and the design (4.61 over 3: 1.54) say
     * nothing */
    n = mixed_loop(&x, f2, k2, n2, 5, &a);
    CHECK(n == 1);
    hit = find(a, n, "coolant_flow_low", "branch GPU2");
    REQUIRE(hit);
    CHECK(strstr(hit->message, "median 3.80 L/min of the 3 gpu") != NULL);
    run_close(&x);
}

static void test_rules_sensor_drift_of_3c_a_day_fires(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a;
    double at = NAN;
    const struct sn_watch_alert *hit = NULL;

    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    for (double t = 0; t <= 4 * DAY && isnan(at); t += STEP) {
        size_t n;
        w.sensor_off[2] = -0.2 + 3 * fmin(fmax(t - 2 * DAY, 0) / DAY, 1);
        n = step(&x, &w, t, &a);
        hit = find(a, n, "sensor_drift", NULL);
        if (hit) {
            at = t;
            CHECK_STR(hit->subject, "sensor bmc/Inlet3");
            CHECK(strstr(hit->message, "group 'inlet' of 4") != NULL);
        }
    }
    printf("    drift found %.1f h into the drift\n", (at - 2 * DAY) / 3600);
    CHECK(at > 2 * DAY && at < 3 * DAY);
    run_close(&x);
}

static void test_rules_psu_efficiency_and_feeds(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a, *h;
    double at = NAN;
    size_t n = 0;

    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    for (double t = 0; t <= 4 * DAY && isnan(at); t += STEP) {
        w.eff[1] = 0.94 - 0.06 * fmin(fmax(t - DAY, 0) / (2 * DAY), 1);
        n = step(&x, &w, t, &a);
        h = find(a, n, "psu_efficiency_low", NULL);
        if (h) {
            at = t;
            CHECK_STR(h->subject, "psu PSU2");
            CHECK(h->value < 0.935 && h->value > 0.88);
        }
    }
    printf("    efficiency low at %.1f%%\n",
           100 * (0.94 - 0.06 * (at - DAY) / (2 * DAY)));
    CHECK(!isnan(at));
    CHECK(!find(a, n, "feed_imbalance", NULL));
    /* feed B draws 30% more than feed A */
    world_init(&w);
    w.feed_w[1] = 2600;
    n = step(&x, &w, 5 * DAY, &a);
    h = find(a, n, "feed_imbalance", NULL);
    REQUIRE(h != NULL);
    CHECK_STR(h->subject, "feed B");
    /* or sits 4% lower in voltage */
    world_init(&w);
    w.feed_v[0] = 220.5;
    n = step(&x, &w, 5 * DAY + STEP, &a);
    h = find(a, n, "feed_imbalance", NULL);
    REQUIRE(h != NULL);
    CHECK_STR(h->subject, "feed A");
    run_close(&x);
}

static void test_rules_zombie_memory_names_gpu_and_pid(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a, *h;
    size_t n;

    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    w.proc_state = 0; /* gone, memory still held */
    n = step(&x, &w, 0, &a);
    h = find(a, n, "gpu_zombie_memory", "gpu 0000:19:00.0 pid 4242");
    REQUIRE(h != NULL);
    CHECK(strstr(h->message, "40.00 GiB") != NULL);
    CHECK(strstr(h->message, "is gone") != NULL);
    /* idle with memory: not at 5 minutes, yes past 10 */
    w.proc_state = 'S';
    w.proc_util = 0;
    n = step(&x, &w, 1000, &a);
    CHECK(!find(a, n, "gpu_zombie_memory", NULL));
    n = step(&x, &w, 1300, &a);
    CHECK(!find(a, n, "gpu_zombie_memory", NULL));
    n = step(&x, &w, 1700, &a);
    CHECK(find(a, n, "gpu_zombie_memory", "gpu 0000:19:00.0 pid 4242"));
    /* working again: it clears */
    w.proc_util = 0.5;
    n = step(&x, &w, 1800, &a);
    CHECK(!find(a, n, "gpu_zombie_memory", NULL));
    /* uninterruptible sleep past 5 minutes */
    w.proc_state = 'D';
    n = step(&x, &w, 2000, &a);
    CHECK(!find(a, n, "gpu_zombie_memory", NULL));
    n = step(&x, &w, 2400, &a);
    CHECK(find(a, n, "gpu_zombie_memory", NULL));
    run_close(&x);
}

static void test_rules_device_missing_bus_nvml_spec(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a, *h;
    size_t n;

    world_init(&w);
    REQUIRE(run_open(&x, true, NULL));
    n = step(&x, &w, 0, &a);
    CHECK(n == 0);
    /* NVML counts one fewer than the bus shows */
    w.nvml_count = 3;
    n = step(&x, &w, STEP, &a);
    h = find(a, n, "device_missing", "gpus");
    REQUIRE(h != NULL);
    CHECK(strstr(h->message, "4 NVIDIA GPUs on the PCI bus, 3 in NVML"));
    /* lost: NVML has it but it does not answer */
    w.nvml_count = 4;
    w.gpu3_lost = true;
    n = step(&x, &w, 2 * STEP, &a);
    CHECK(find(a, n, "device_missing", "gpu 0000:1f:00.0") != NULL);
    /* gone from both: named from what was seen before, and the spec's 4
     * are not there */
    w.gpu3_lost = false;
    w.gpu3_gone = true;
    w.nvml_count = 3;
    n = step(&x, &w, 3 * STEP, &a);
    h = find(a, n, "device_missing", "gpu 0000:1f:00.0");
    REQUIRE(h != NULL);
    CHECK(strstr(h->message, "last seen") != NULL);
    h = find(a, n, "device_missing", "gpus");
    REQUIRE(h != NULL);
    CHECK(strstr(h->message, "3 of 4 GPUs found") != NULL);
    CHECK(find(a, n, "nic_missing", "nics") == NULL);
    /* a fabric port short of the spec's 4 */
    w.ib_ports = 3;
    n = step(&x, &w, 3 * STEP + 60, &a);
    h = find(a, n, "nic_missing", "nics");
    REQUIRE(h != NULL);
    CHECK(strstr(h->message, "3 of 4 fabric NIC ports found") != NULL);
    w.ib_ports = 4;
    /* back: nothing holds */
    w.gpu3_gone = false;
    w.nvml_count = 4;
    n = step(&x, &w, 4 * STEP, &a);
    CHECK(n == 0);
    print_alerts(a, n, 4 * STEP);
    run_close(&x);
}

/* A spec of 4 GPUs a node, no NVML (not installed, or the driver gone)
 * and none on the PCI bus, which was read (a host bridge on it): the
 * worst case of all is a critical alert, not silence. Without the bus
 * read either, nothing is known and nothing is said. */
static void test_rules_vanished_gpus_are_critical(void)
{
    struct run x = {0};
    const struct sn_watch_alert *a, *h;
    struct sn__watch_obs o;
    struct sn_error err = {0};
    size_t n;

    REQUIRE(run_open(&x, false, NULL));
    for (int read = 1; read >= 0; read--) {
        sn__watch_obs_init(&o, read ? 0 : STEP);
        if (read) {
            struct sn__watch_pcidev *d = SN_WATCH_PUSH(&o, pci);
            REQUIRE(d);
            snprintf(d->bdf, sizeof(d->bdf), "0000:00:00.0");
            d->vendor = 0x8086;
            d->class_code = 0x0600; /* host bridge */
            o.pci_read = true;
        }
        sn_metrics_release(&x.m);
        memset(&x.m, 0, sizeof(x.m));
        CHECK(sn__watch_rules_eval(x.r, &o, &x.m, &err) == 0);
        sn__watch_obs_release(&o);
        n = sn__watch_rules_active(x.r, &a);
        h = find(a, n, "device_missing", "gpus");
        if (!read) {
            CHECK(h == NULL);
            continue;
        }
        REQUIRE(h != NULL);
        CHECK(!strcmp(h->severity, "critical"));
        CHECK(strstr(h->message, "0 of 4 GPUs found (PCI bus 0, NVML not "
                                 "loaded)") != NULL);
    }
    run_close(&x);
}

static void test_rules_links_degraded_and_flapping(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a, *h;
    size_t n;

    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    n = step(&x, &w, 0, &a);
    CHECK(n == 0);
    w.width0 = 8;
    n = step(&x, &w, 60, &a);
    h = find(a, n, "link_degraded", "pcie 0000:19:00.0");
    REQUIRE(h != NULL);
    CHECK(strstr(h->message, "x8 of x16") != NULL);
    w.width0 = 16;
    /* one link-down event is news, not a flap; a second within the hour
     * is */
    w.ib_down = 4;
    n = step(&x, &w, 120, &a);
    CHECK(!find(a, n, "link_flapping", NULL));
    w.ib_down = 5;
    n = step(&x, &w, 1800, &a);
    CHECK(find(a, n, "link_flapping", "ib mlx5_0/1") != NULL);
    /* quiet for the window: it clears */
    n = step(&x, &w, 1800 + 3700, &a);
    CHECK(!find(a, n, "link_flapping", NULL));
    /* NVLink recoveries growing by several at once */
    w.nvlink_rec = 6;
    n = step(&x, &w, 9000, &a);
    CHECK(find(a, n, "link_flapping", "gpu 0000:1f:00.0 nvlink") != NULL);
    run_close(&x);
}

static void test_rules_gpu_errors_by_severity(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a, *h;
    size_t n;

    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    w.xid = 79; /* fallen off the bus: critical */
    n = step(&x, &w, 0, &a);
    h = find(a, n, "gpu_xid", "gpu 0000:1d:00.0");
    REQUIRE(h != NULL);
    CHECK_STR(h->severity, "critical");
    CHECK(h->value == 79);
    /* held for 10 minutes after, then clear */
    w.xid = 0;
    n = step(&x, &w, 300, &a);
    CHECK(find(a, n, "gpu_xid", NULL) != NULL);
    n = step(&x, &w, 700, &a);
    CHECK(find(a, n, "gpu_xid", NULL) == NULL);
    w.xid = 13; /* graphics engine exception: a warning */
    n = step(&x, &w, 800, &a);
    h = find(a, n, "gpu_xid", NULL);
    REQUIRE(h != NULL);
    CHECK_STR(h->severity, "warning");
    w.xid = 0;
    w.ecc_unc = 2;
    w.remap_pending = 1;
    n = step(&x, &w, 2000, &a);
    CHECK(find(a, n, "gpu_ecc_uncorrected", "gpu 0000:1d:00.0") != NULL);
    h = find(a, n, "gpu_row_remap", "gpu 0000:1d:00.0");
    REQUIRE(h != NULL);
    CHECK_STR(h->severity, "warning");
    /* software power capping is not a hardware slowdown; thermal
     * slowdown held past a minute is */
    w.reasons = 0x4;
    step(&x, &w, 3000, &a);
    n = step(&x, &w, 3100, &a);
    CHECK(find(a, n, "gpu_hw_slowdown", NULL) == NULL);
    w.reasons = 0x40;
    n = step(&x, &w, 3200, &a);
    CHECK(find(a, n, "gpu_hw_slowdown", NULL) == NULL);
    n = step(&x, &w, 3300, &a);
    h = find(a, n, "gpu_hw_slowdown", "gpu 0000:1b:00.0");
    REQUIRE(h != NULL);
    CHECK(strstr(h->message, "hw_thermal") != NULL);
    run_close(&x);
}

static void test_rules_condensation_and_leak(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a, *h;
    size_t n;

    /* Magnus with Alduchov-Eskridge coefficients: 25 C at 50% RH has its
     * dew point at 13.86 C (psychrometric tables: 13.9 C) */
    CHECK_NEAR(sn__rules_dew_point(25, 0.5), 13.86, 0.002);
    CHECK(isnan(sn__rules_dew_point(25, 0)));
    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    /* a humid room (30 C, 75% RH: dew point 25.1 C) over 25 C supply */
    w.room_c = 30;
    w.room_rh = 0.75;
    w.leak = "Critical";
    n = step(&x, &w, DAY / 4, &a); /* the room's swing at its peak: +1 C */
    h = find(a, n, "condensation_risk", "branch GPU1");
    REQUIRE(h != NULL);
    CHECK_STR(h->severity, "critical");
    h = find(a, n, "leak_detected", "leak detector Tray1");
    REQUIRE(h != NULL);
    CHECK_STR(h->severity, "critical");
    CHECK(find(a, n, "leak_detected", "leak detector Tray2") == NULL);
    run_close(&x);
}

/* The creep scenario run twice: once straight through, once stopped and
 * restarted (rules and store closed and reopened) in the middle of the
 * CUSUM's build-up. The restarted run fires at the same step. */
static double creep_fire_time(bool restart)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a;
    double at = NAN;
    char dir[64];

    world_init(&w);
    if (!run_open(&x, true, NULL))
        return -1;
    for (double t = 0; t <= 4 * DAY && isnan(at); t += STEP) {
        size_t n;
        if (restart && t == DAY + 2 * 3600) {
            snprintf(dir, sizeof(dir), "%s", x.dir);
            run_stop(&x);
            if (!run_open(&x, true, dir))
                return -1;
        }
        creep_world(&w, t);
        n = step(&x, &w, t, &a);
        if (find(a, n, "gpu_thermal_creep", "gpu 0000:1b:00.0"))
            at = t;
    }
    run_close(&x);
    return at;
}

static void test_rules_state_survives_a_restart(void)
{
    double straight = creep_fire_time(false);
    double restarted = creep_fire_time(true);

    CHECK(straight > DAY + 2 * 3600); /* the restart is mid-build-up */
    CHECK(restarted == straight);
}

static void test_rules_event_per_rising_edge_with_state(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a;
    struct sn_store_event *ev = NULL;
    struct sn_store_events_filter f = {.since = NAN};
    struct sn_error err = {0};
    size_t n = 0;

    world_init(&w);
    REQUIRE(run_open(&x, true, NULL));
    w.xid = 48;
    step(&x, &w, 1000, &a);
    w.xid = 0;
    step(&x, &w, 1300, &a); /* still held: no second event */
    step(&x, &w, 1700, &a); /* cleared: the event ends 5 minutes on */
    step(&x, &w, 2000, &a);
    step(&x, &w, 2100, &a);
    w.xid = 48;
    step(&x, &w, 5000, &a); /* a second rising edge */
    REQUIRE(sn_store_events_list(x.st, &f, &ev, &n, &err) == 0);
    REQUIRE(n == 2);
    CHECK_STR(ev[1].rule, "gpu_xid");
    CHECK_STR(ev[1].subject, "gpu 0000:1d:00.0");
    CHECK_STR(ev[1].host, "node0");
    CHECK_STR(ev[1].severity, "critical");
    CHECK(ev[1].started == 1000);
    CHECK(ev[1].resolved == 1700);
    CHECK(isnan(ev[0].resolved));
    /* the state of the moment: the GPU's clocks, temperature and power,
     * the flow and temperatures of its loop */
    CHECK(strstr(ev[1].state, "\"pci_bus_id\":\"0000:1d:00.0\"") != NULL);
    CHECK(strstr(ev[1].state, "\"temp_c\":") != NULL);
    CHECK(strstr(ev[1].state, "\"sm_clock_hz\":") != NULL);
    CHECK(strstr(ev[1].state, "\"flow_lpm\":") != NULL);
    CHECK(strstr(ev[1].state, "\"pci_bus_id\":\"0000:19:00.0\"") == NULL);
    sn_store_events_release(ev, n);
    /* a restart while it holds neither repeats nor forgets it */
    {
        char dir[64];
        snprintf(dir, sizeof(dir), "%s", x.dir);
        run_stop(&x);
        REQUIRE(run_open(&x, true, dir));
    }
    step(&x, &w, 5100, &a);
    w.xid = 0;
    step(&x, &w, 6000, &a);
    step(&x, &w, 6400, &a);
    REQUIRE(sn_store_events_list(x.st, &f, &ev, &n, &err) == 0);
    REQUIRE(n == 2);
    CHECK(ev[0].resolved == 6000);
    sn_store_events_release(ev, n);
    /* a rule that flickers across its threshold makes one event */
    for (double t = 7000; t < 7000 + 20 * 60; t += 60) {
        w.width0 = (int)(t / 60) % 2 ? 8 : 16;
        step(&x, &w, t, &a);
    }
    f.subject = "pcie";
    REQUIRE(sn_store_events_list(x.st, &f, &ev, &n, &err) == 0);
    CHECK(n == 1);
    sn_store_events_release(ev, n);
    run_close(&x);
}

/* The value of an unlabelled series in x's last metrics; NaN: absent. */
static double metric(struct run *x, const char *name)
{
    struct sn_buf b = SN_BUF_INIT;
    char want[128];
    const char *at;
    double v = NAN;

    sn_metrics_render_text(&x->m, &b);
    snprintf(want, sizeof(want), "\n%s ", name);
    at = b.data ? strstr(b.data, want) : NULL;
    if (at)
        v = strtod(at + strlen(want), NULL);
    sn_buf_release(&b);
    return v;
}

/* Every write to the events table fails, as on a full disk, until
 * `room` is called: a trigger made from a second connection (the
 * agent's own connection is the library's). */
static void disk_full(struct run *x, bool full)
{
    sqlite3 *db;

    REQUIRE(sqlite3_open(x->path, &db) == SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    REQUIRE(sqlite3_exec(db,
                         full ? "CREATE TRIGGER full_i BEFORE INSERT ON events "
                                "BEGIN SELECT RAISE(FAIL, 'database or disk "
                                "is full'); END; CREATE TRIGGER full_u BEFORE "
                                "UPDATE ON events BEGIN SELECT RAISE(FAIL, "
                                "'database or disk is full'); END;"
                              : "DROP TRIGGER full_i; DROP TRIGGER full_u;",
                         NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
}

/* An event that starts, or ends, while the store cannot be written is
 * kept and written once it can, with its own times; the pending gauge
 * says how many wait (before: counted as an error and lost). */
static void test_rules_events_kept_while_store_full(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a;
    struct sn_store_event *ev = NULL;
    struct sn_store_events_filter f = {.since = NAN};
    struct sn_error err = {0};
    size_t n = 0;

    world_init(&w);
    REQUIRE(run_open(&x, true, NULL));
    step(&x, &w, 500, &a);
    disk_full(&x, true);
    w.xid = 48;
    step(&x, &w, 1000, &a); /* starts while full */
    CHECK(metric(&x, "supernode_rules_events_pending") == 1);
    w.xid = 0;
    step(&x, &w, 1300, &a);
    step(&x, &w, 1700, &a); /* cleared: it ends at 1700, 5 minutes on */
    step(&x, &w, 2000, &a);
    step(&x, &w, 2100, &a);
    CHECK(metric(&x, "supernode_rules_events_pending") == 1);
    w.xid = 48;
    step(&x, &w, 5000, &a); /* a second one */
    CHECK(metric(&x, "supernode_rules_events_pending") == 2);
    CHECK(metric(&x, "supernode_rules_store_errors_total") >= 1);
    REQUIRE(sn_store_events_list(x.st, &f, &ev, &n, &err) == 0);
    CHECK(n == 0);
    sn_store_events_release(ev, n);
    disk_full(&x, false);
    step(&x, &w, 5060, &a); /* room again: both written */
    CHECK(metric(&x, "supernode_rules_events_pending") == 0);
    CHECK(metric(&x, "supernode_rules_events_dropped_total") == 0);
    REQUIRE(sn_store_events_list(x.st, &f, &ev, &n, &err) == 0);
    REQUIRE(n == 2);
    CHECK(ev[1].started == 1000);
    CHECK(ev[1].resolved == 1700);
    CHECK(ev[0].started == 5000);
    CHECK(isnan(ev[0].resolved));
    sn_store_events_release(ev, n);
    /* an end that cannot be written waits too */
    disk_full(&x, true);
    w.xid = 0;
    step(&x, &w, 5400, &a);
    step(&x, &w, 5800, &a);
    step(&x, &w, 6200, &a);
    step(&x, &w, 6600, &a);
    CHECK(metric(&x, "supernode_rules_events_pending") == 1);
    disk_full(&x, false);
    step(&x, &w, 6660, &a);
    CHECK(metric(&x, "supernode_rules_events_pending") == 0);
    REQUIRE(sn_store_events_list(x.st, &f, &ev, &n, &err) == 0);
    REQUIRE(n == 2);
    CHECK(isfinite(ev[0].resolved) && ev[0].resolved > 5000);
    sn_store_events_release(ev, n);
    run_close(&x);
}

static void test_rules_active_metric_names_the_subject(void)
{
    struct run x = {0};
    struct world w;
    const struct sn_watch_alert *a;
    struct sn_buf b;

    world_init(&w);
    REQUIRE(run_open(&x, false, NULL));
    w.leak = "Warning";
    step(&x, &w, 0, &a);
    sn_buf_init(&b);
    sn_metrics_render_text(&x.m, &b);
    CHECK(strstr(b.data, "supernode_rule_active{rule=\"leak_detected\","
                         "severity=\"warning\",subject=\"leak detector "
                         "Tray1\"} 1") != NULL);
    CHECK(strstr(b.data, "supernode_room_dew_point_celsius") != NULL);
    /* the PSU's efficiency is the BMC collector's sample, not the rules' */
    CHECK(strstr(b.data, "supernode_psu_efficiency_ratio{") == NULL);
    sn_buf_release(&b);
    run_close(&x);
}

/* Names as long as the obs allows make keys past the state's key size:
 * each is kept cut and found again, so the state does not grow with
 * every interval. */
static void test_rules_long_names_keep_one_state_each(void)
{
    struct run x = {0};
    struct sn_error err = {0};
    size_t n1 = 0, n2 = 0;

    REQUIRE(run_open(&x, true, NULL));
    for (int k = 0; k < 12; k++) {
        struct sn__watch_obs o;
        sn__watch_obs_init(&o, k * STEP);
        for (int i = 0; i < 3; i++) {
            struct sn__watch_sensor *s = SN_WATCH_PUSH(&o, sensors);
            memset(s->chip, 'c', sizeof(s->chip) - 1);
            memset(s->sensor, 's', sizeof(s->sensor) - 1);
            s->sensor[0] = (char)('0' + i);
            snprintf(s->group, sizeof(s->group), "inlet");
            s->kind = SN_WATCH_TEMP;
            s->value = 24 + i * 0.1;
        }
        sn_metrics_release(&x.m);
        memset(&x.m, 0, sizeof(x.m));
        CHECK(sn__watch_rules_eval(x.r, &o, &x.m, &err) == 0);
        sn__watch_obs_release(&o);
        if (k == 1 || k == 11) {
            struct sn__state *st;
            char key[128];
            size_t *n = k == 1 ? &n1 : &n2;
            for (*n = 0; sn__rules_state_at(x.r, *n, key, sizeof(key), &st);)
                (*n)++;
        }
    }
    CHECK(n1 == 3);
    CHECK(n2 == n1);
    run_close(&x);
}

/* What no source could say is NaN: nothing fires on it, nothing breaks. */
static void test_rules_unknown_values_are_quiet(void)
{
    struct run x = {0};
    struct sn__watch_obs o;
    struct sn_error err = {0};
    const struct sn_watch_alert *a;

    REQUIRE(run_open(&x, false, NULL));
    for (int k = 0; k < 20; k++) {
        sn__watch_obs_init(&o, k * STEP);
        o.nvml = true;
        o.nvml_count = 4; /* the design's 4: nothing missing */
        for (int i = 0; i < 4; i++) {
            struct sn__watch_gpu *g = SN_WATCH_PUSH(&o, gpus);
            struct sn__watch_coolant *b = SN_WATCH_PUSH(&o, coolant);
            struct sn__watch_psu *p = SN_WATCH_PUSH(&o, psus);
            g->index = i;
            g->temp_c = g->power_w = g->power_limit_w = NAN;
            g->ecc_uncorrected = g->remap_pending = g->remap_failure = NAN;
            g->nvlink_recovery = g->util = NAN;
            b->flow_lpm = b->supply_c = b->return_c = NAN;
            snprintf(p->feed, sizeof(p->feed), "%c", 'A' + i % 2);
            p->input_w = p->output_w = p->input_v = p->capacity_w = NAN;
        }
        sn_metrics_release(&x.m);
        memset(&x.m, 0, sizeof(x.m));
        CHECK(sn__watch_rules_eval(x.r, &o, &x.m, &err) == 0);
        sn__watch_obs_release(&o);
        CHECK(sn__watch_rules_active(x.r, &a) == 0);
    }
    run_close(&x);
}

static const struct sn_test cases[] = {
    T(test_rules_healthy_week_fires_nothing),
    T(test_rules_flow_drop_and_creep_fire_days_before_slowdown),
    T(test_rules_flow_peers_by_kind_not_the_cdu),
    T(test_rules_sensor_drift_of_3c_a_day_fires),
    T(test_rules_psu_efficiency_and_feeds),
    T(test_rules_zombie_memory_names_gpu_and_pid),
    T(test_rules_device_missing_bus_nvml_spec),
    T(test_rules_vanished_gpus_are_critical),
    T(test_rules_links_degraded_and_flapping),
    T(test_rules_gpu_errors_by_severity),
    T(test_rules_condensation_and_leak),
    T(test_rules_state_survives_a_restart),
    T(test_rules_event_per_rising_edge_with_state),
    T(test_rules_events_kept_while_store_full),
    T(test_rules_active_metric_names_the_subject),
    T(test_rules_long_names_keep_one_state_each),
    T(test_rules_unknown_values_are_quiet),
};

SN_TEST_MAIN(cases)
