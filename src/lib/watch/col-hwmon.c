/* col-hwmon.c: the node agent's hwmon collector: every chip of
 * sys/class/hwmon under the root (CPU and board sensors, PMBus power
 * supplies, NVMe drives), its temperatures, voltages, currents, power,
 * fans, humidity and energy, converted from the kernel's units
 * (Documentation/hwmon/sysfs-interface.rst) to base units. A reading that
 * is not one whole number, or is outside what the quantity can be, is
 * skipped and counted. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host-int.h"

#include "../hw/hw-int.h"

#define HWMON_DIR "sys/class/hwmon"
#define HWMON_CHIPS_MAX 256   /* hwmonN directories read */
#define HWMON_FILES_MAX 4096  /* entries of one chip directory looked at */
#define HWMON_INDEX_MAX 10000 /* tempN: N below this */

/* The quantities: the file prefix, the unit the kernel writes, the
 * factor to the base unit and the range the quantity can physically
 * take (base units). Ranges are wide on purpose: they catch garbage
 * (a driver's error code, an unset register, "-5" RPM), not faults. */
struct quantity {
    const char *prefix;
    enum sn__watch_sensor_kind kind;
    bool counter; /* energy: no sensor kind, a counter */
    double per;   /* the file's units per base unit (divided: 3312 mV is
                     3.312 V exactly, not 3.3120000000000003) */
    double min, max;
    const char *metric, *help;
};

static const struct quantity quantities[] = {
    {"temp", SN_WATCH_TEMP, false, 1e3, -273.15, 1000,
     "supernode_hwmon_temperature_celsius",
     "Temperature of an hwmon sensor, degrees Celsius (sysfs tempN_input, "
     "millidegrees)"},
    {"in", SN_WATCH_VOLT, false, 1e3, -2000, 2000,
     "supernode_hwmon_voltage_volts",
     "Voltage of an hwmon sensor, volts (sysfs inN_input, millivolts)"},
    {"curr", SN_WATCH_CURR, false, 1e3, -10000, 10000,
     "supernode_hwmon_current_amperes",
     "Current of an hwmon sensor, amperes (sysfs currN_input, "
     "milliamperes)"},
    {"power", SN_WATCH_POWER, false, 1e6, 0, 1e6, "supernode_hwmon_power_watts",
     "Power of an hwmon sensor, watts (sysfs powerN_input, else "
     "powerN_average, microwatts)"},
    {"fan", SN_WATCH_FAN, false, 1, 0, 1e6, "supernode_hwmon_fan_rpm",
     "Fan speed of an hwmon sensor, revolutions per minute (sysfs "
     "fanN_input)"},
    {"humidity", SN_WATCH_HUMIDITY, false, 1e5, 0, 1,
     "supernode_hwmon_humidity_ratio",
     "Relative humidity of an hwmon sensor, 0 to 1 (sysfs "
     "humidityN_input, milli-percent)"},
    {"energy", SN_WATCH_POWER, true, 1e6, 0, INFINITY,
     "supernode_hwmon_energy_joules_total",
     "Energy an hwmon sensor counted since it started, joules (sysfs "
     "energyN_input, microjoules)"},
};

/* One reading file of a chip: quantity q, index n, from the _average
 * file (power only) or the _input file. */
struct reading {
    size_t q;
    long n;
    bool average;
};

struct chip {
    char dir[32];                  /* "hwmon3" */
    char name[SN_WATCH_NAME_MAX];  /* the driver's name file */
    char dev[SN_WATCH_NAME_MAX];   /* the device link's last part */
    char label[SN_WATCH_NAME_MAX]; /* the chip label exported */
    bool relabel;                  /* its label was another's too */
    long num;
};

struct hwmon_state {
    char root[SN_HW_PATH_MAX];
    struct sn__watch_tally errors; /* read errors by chip */
};

static int hwmon_open(const struct sn__watch_cfg *cfg, void **state,
                      struct sn_error *err)
{
    struct hwmon_state *s = sn_xcalloc(1, sizeof(*s));
    int rc = sn__watch_root(cfg, s->root, sizeof(s->root), err);

    if (rc) {
        free(s);
        return rc;
    }
    *state = s;
    return SN_OK;
}

static void hwmon_close(void *state)
{
    struct hwmon_state *s = state;

    if (!s)
        return;
    sn__watch_tally_release(&s->errors);
    free(s);
}

/* "temp12_input" -> quantity, 12, input; false for any other file. */
static bool parse_file(const char *f, struct reading *r)
{
    for (size_t q = 0; q < SN_ARRAY_LEN(quantities); q++) {
        size_t len = strlen(quantities[q].prefix);
        const char *p = f + len;
        char *end;
        long n;
        if (strncmp(f, quantities[q].prefix, len) ||
            !isdigit((unsigned char)*p))
            continue;
        n = strtol(p, &end, 10);
        if (n < 0 || n >= HWMON_INDEX_MAX)
            return false;
        r->q = q;
        r->n = n;
        r->average = false;
        if (!strcmp(end, "_input"))
            return true;
        if (!strcmp(end, "_average") && quantities[q].kind == SN_WATCH_POWER &&
            !quantities[q].counter) {
            r->average = true;
            return true;
        }
        return false;
    }
    return false;
}

static int cmp_reading(const void *pa, const void *pb)
{
    const struct reading *a = pa, *b = pb;

    if (a->q != b->q)
        return a->q < b->q ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return (int)a->average - (int)b->average;
}

/* The readings of a chip, sorted, a power's _average dropped where its
 * _input is there. Returns the count; *out is the caller's to free. */
static size_t list_readings(const char *root, const struct chip *c,
                            struct reading **out)
{
    char rel[128];
    struct reading *r = NULL;
    size_t n = 0, cap = 0, seen = 0, kept = 0;
    struct dirent *e;
    DIR *d;

    *out = NULL;
    snprintf(rel, sizeof(rel), HWMON_DIR "/%s", c->dir);
    if (!(d = sn__hw_opendir(root, rel)))
        return 0;
    while ((e = readdir(d)) && seen++ < HWMON_FILES_MAX) {
        struct reading one;
        if (!parse_file(e->d_name, &one))
            continue;
        SN_GROW(r, cap, n + 1);
        r[n++] = one;
    }
    closedir(d);
    if (n)
        qsort(r, n, sizeof(*r), cmp_reading);
    for (size_t i = 0; i < n; i++) {
        if (r[i].average && kept && r[kept - 1].q == r[i].q &&
            r[kept - 1].n == r[i].n)
            continue;
        r[kept++] = r[i];
    }
    *out = r;
    return kept;
}

/* A whole decimal number and nothing else (the hw layer has escaped any
 * binary byte, which then fails here). */
static int parse_whole(const char *s, double *out)
{
    char *end;
    long long v;

    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = (double)v;
    return 0;
}

/* The group of a sensor from its label, so that sensors which should
 * read alike sit side by side: a label naming the air intake ("inlet",
 * "intake") is "inlet", the exhaust ("outlet", "exhaust") "outlet", a
 * coolant "supply" or "return" itself, the room ("ambient", "room")
 * "ambient"; case does not matter; "" for any other label. */
static const char *group_of(const char *label)
{
    static const struct {
        const char *word, *group;
    } words[] = {{"inlet", "inlet"},     {"intake", "inlet"},
                 {"outlet", "outlet"},   {"exhaust", "outlet"},
                 {"supply", "supply"},   {"return", "return"},
                 {"ambient", "ambient"}, {"room", "ambient"}};

    for (size_t i = 0; i < SN_ARRAY_LEN(words); i++)
        if (strcasestr(label, words[i].word))
            return words[i].group;
    return "";
}

/* How well a temperature stands for the room's air (the dew-point rule):
 * 3 for the temperature of a chip that also reads humidity (the humidity
 * is relative to that air), 2 for a label naming the room ("ambient",
 * "room"), 1 for the air intake ("inlet", "intake"), 0 for none. */
static int room_rank(const char *group, bool chip_has_humidity, long n)
{
    if (chip_has_humidity && n == 1)
        return 3;
    if (!strcmp(group, "ambient"))
        return 2;
    if (!strcmp(group, "inlet"))
        return 1;
    return 0;
}

struct pass {
    struct hwmon_state *s;
    struct sn__watch_obs *obs;
    struct sn_metrics *m;
    struct sn_error *err;
    int room_rank; /* of the temperature in obs->room_c */
};

/* One reading: read, check, convert, report. */
static void read_one(struct pass *p, const struct chip *c,
                     const struct reading *r, bool chip_has_humidity)
{
    const struct quantity *q = &quantities[r->q];
    char rel[160], buf[32], label[128] = "", sensor[32];
    struct sn_metrics_label l[3];
    double v;

    snprintf(sensor, sizeof(sensor), "%s%ld", q->prefix, r->n);
    snprintf(rel, sizeof(rel), HWMON_DIR "/%s/%s_%s", c->dir, sensor,
             r->average ? "average" : "input");
    /* a file larger than buf, binary, "1e999", "12.5" or out of range */
    if (sn__hw_read(p->s->root, rel, buf, sizeof(buf)) ||
        parse_whole(buf, &v) || !(v / q->per >= q->min) ||
        !(v / q->per <= q->max)) {
        *sn__watch_tally(&p->s->errors, c->label, "") += 1;
        return;
    }
    v /= q->per;
    snprintf(rel, sizeof(rel), HWMON_DIR "/%s/%s_label", c->dir, sensor);
    if (sn__hw_read(p->s->root, rel, label, sizeof(label)))
        label[0] = '\0';
    l[0] = (struct sn_metrics_label){"chip", c->label};
    l[1] = (struct sn_metrics_label){"sensor", sensor};
    l[2] = (struct sn_metrics_label){"label", label};
    if (q->counter) {
        sn__watch_counter(p->m, q->metric, q->help, l, label[0] ? 3 : 2, v,
                          p->err);
        return;
    }
    sn__watch_gauge(p->m, q->metric, q->help, l, label[0] ? 3 : 2, v, p->err);

    struct sn__watch_sensor *o = SN_WATCH_PUSH(p->obs, sensors);
    const char *group = group_of(label);
    if (o) {
        sn_strlcpy(o->chip, c->label, sizeof(o->chip));
        sn_strlcpy(o->sensor, sensor, sizeof(o->sensor));
        sn_strlcpy(o->label, label, sizeof(o->label));
        sn_strlcpy(o->group, group, sizeof(o->group));
        o->kind = q->kind;
        o->value = v;
    }
    if (q->kind == SN_WATCH_TEMP) {
        int rank = room_rank(group, chip_has_humidity, r->n);
        if (rank > p->room_rank) {
            p->obs->room_c = v;
            p->room_rank = rank;
        }
    } else if (q->kind == SN_WATCH_HUMIDITY && isnan(p->obs->room_humidity)) {
        p->obs->room_humidity = v;
    }
}

static void read_chip(struct pass *p, const struct chip *c)
{
    struct reading *r;
    size_t n = list_readings(p->s->root, c, &r);
    bool humidity = false;

    /* the chip is known from now on: its error count is exported, 0 too */
    sn__watch_tally(&p->s->errors, c->label, "");
    for (size_t i = 0; i < n; i++)
        if (quantities[r[i].q].kind == SN_WATCH_HUMIDITY)
            humidity = true;
    for (size_t i = 0; i < n; i++)
        read_one(p, c, &r[i], humidity);
    free(r);
}

static int cmp_chip(const void *pa, const void *pb)
{
    const struct chip *a = pa, *b = pb;

    return a->num < b->num ? -1 : a->num > b->num;
}

/* The chips, in hwmonN order, each with its name and device. */
static size_t list_chips(const char *root, struct chip **out)
{
    struct chip *c = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    DIR *d = sn__hw_opendir(root, HWMON_DIR);

    *out = NULL;
    if (!d)
        return 0;
    while ((e = readdir(d)) && n < HWMON_CHIPS_MAX) {
        char *end, rel[300], link[SN_HW_PATH_MAX];
        long num;
        if (strncmp(e->d_name, "hwmon", 5) ||
            !isdigit((unsigned char)e->d_name[5]))
            continue;
        num = strtol(e->d_name + 5, &end, 10);
        if (*end || strlen(e->d_name) >= sizeof(c->dir))
            continue;
        SN_GROW(c, cap, n + 1);
        memset(&c[n], 0, sizeof(c[n]));
        c[n].num = num;
        sn_strlcpy(c[n].dir, e->d_name, sizeof(c[n].dir));
        snprintf(rel, sizeof(rel), HWMON_DIR "/%s/name", e->d_name);
        if (sn__hw_read(root, rel, c[n].name, sizeof(c[n].name)) ||
            !c[n].name[0])
            sn_strlcpy(c[n].name, e->d_name, sizeof(c[n].name));
        snprintf(rel, sizeof(rel), HWMON_DIR "/%s/device", e->d_name);
        if (sn__hw_readlink(root, rel, link, sizeof(link)) == 0) {
            const char *slash = strrchr(link, '/');
            sn_strlcpy(c[n].dev, slash ? slash + 1 : link, sizeof(c[n].dev));
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(c, n, sizeof(*c), cmp_chip);
    *out = c;
    return n;
}

/* The chip label: the driver's name, and when another chip has the same
 * name, ":" and the device it hangs from ("pmbus:1-0058": stable across
 * boots, unlike hwmonN), or the hwmonN when there is no device link. */
static void label_chips(struct chip *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bool shared = false;
        for (size_t j = 0; j < n && !shared; j++)
            shared = j != i && !strcmp(c[i].name, c[j].name);
        if (!shared)
            sn_strlcpy(c[i].label, c[i].name, sizeof(c[i].label));
        else
            snprintf(c[i].label, sizeof(c[i].label), "%.30s:%.30s", c[i].name,
                     c[i].dev[0] ? c[i].dev : c[i].dir);
    }
    /* two devices of one name under different buses ("1-0058" on two
     * I2C adapters): the hwmonN, unique on this boot, tells them apart
     * rather than one label for two chips, whose samples would clash */
    for (size_t i = 0; i < n; i++) {
        bool clash = false;
        for (size_t j = 0; j < n && !clash; j++)
            clash = j != i && !strcmp(c[i].label, c[j].label);
        if (clash)
            c[i].relabel = true;
    }
    for (size_t i = 0; i < n; i++)
        if (c[i].relabel)
            snprintf(c[i].label, sizeof(c[i].label), "%.30s:%.30s", c[i].name,
                     c[i].dir);
}

static int hwmon_collect(void *state, struct sn__watch_obs *obs,
                         struct sn_metrics *m, struct sn_error *err)
{
    struct hwmon_state *s = state;
    struct sn_error e = {0};
    struct pass p = {s, obs, m, &e, 0};
    struct chip *c;
    size_t n = list_chips(s->root, &c);

    label_chips(c, n);
    for (size_t i = 0; i < n; i++)
        read_chip(&p, &c[i]);
    free(c);
    sn__watch_tally_emit(&s->errors, m, "supernode_hwmon_read_errors_total",
                         "hwmon readings skipped since the agent started: "
                         "unreadable, not one whole number, or outside what "
                         "the quantity can physically be",
                         "chip", NULL, &e);
    if (e.code && err)
        *err = e;
    return e.code;
}

const struct sn__watch_collector sn__watch_col_hwmon = {
    "hwmon",
    hwmon_open,
    hwmon_collect,
    hwmon_close,
};
