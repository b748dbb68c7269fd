/* units.c: quantities as people write them ("400Gbps", "120kW", "5min") to
 * SI values and back. Every number in a spec passes through here. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

struct suffix {
    const char *text;
    double factor;
};

/* Suffix tables. Case matters where the field's usage makes it matter
 * (b is a bit, B a byte; m a metre, M mega); the tables are searched for an
 * exact match first, then case-insensitively where no exact match exists
 * and the case-insensitive match is unambiguous. */
static const struct suffix count_sfx[] = {
    {"k", 1e3}, {"K", 1e3},  {"M", 1e6}, {"G", 1e9},
    {"B", 1e9}, {"T", 1e12}, {NULL, 0},
};
static const struct suffix ratio_sfx[] = {{"%", 0.01}, {NULL, 0}};
static const struct suffix bytes_sfx[] = {
    {"B", 1},
    {"bytes", 1},
    {"kB", 1e3},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"PB", 1e15},
    {"KiB", 1024.0},
    {"MiB", 1048576.0},
    {"GiB", 1073741824.0},
    {"TiB", 1099511627776.0},
    {"PiB", 1125899906842624.0},
    {NULL, 0},
};
static const struct suffix bw_sfx[] = {
    {"B/s", 1},           {"kB/s", 1e3},
    {"KB/s", 1e3},        {"MB/s", 1e6},
    {"GB/s", 1e9},        {"TB/s", 1e12},
    {"Bps", 1},           {"MBps", 1e6},
    {"GBps", 1e9},        {"TBps", 1e12},
    {"bps", 0.125},       {"b/s", 0.125},
    {"kbps", 125},        {"Kbps", 125},
    {"kb/s", 125},        {"Mbps", 1.25e5},
    {"Mb/s", 1.25e5},     {"Gbps", 1.25e8},
    {"Gb/s", 1.25e8},     {"Tbps", 1.25e11},
    {"Tb/s", 1.25e11},    {"GiB/s", 1073741824.0},
    {"MiB/s", 1048576.0}, {NULL, 0},
};
static const struct suffix power_sfx[] = {
    {"W", 1}, {"kW", 1e3}, {"KW", 1e3}, {"MW", 1e6}, {NULL, 0},
};
static const struct suffix volt_sfx[] = {
    {"V", 1}, {"kV", 1e3}, {"KV", 1e3}, {"VAC", 1}, {"VDC", 1}, {NULL, 0},
};
static const struct suffix time_sfx[] = {
    {"ns", 1e-9},  {"us", 1e-6},     {"\xc2\xb5s", 1e-6}, {"ms", 1e-3},
    {"s", 1},      {"sec", 1},       {"min", 60},         {"h", 3600},
    {"hr", 3600},  {"d", 86400},     {"day", 86400},      {"days", 86400},
    {"w", 604800}, {"week", 604800}, {NULL, 0},
};
static const struct suffix len_sfx[] = {
    {"mm", 1e-3}, {"cm", 1e-2},   {"m", 1},
    {"km", 1e3},  {"ft", 0.3048}, {NULL, 0},
};
static const struct suffix flops_sfx[] = {
    {"FLOPS", 1},     {"FLOP/s", 1},     {"GFLOPS", 1e9},  {"GFLOP/s", 1e9},
    {"TFLOPS", 1e12}, {"TFLOP/s", 1e12}, {"PFLOPS", 1e15}, {"PFLOP/s", 1e15},
    {"EFLOPS", 1e18}, {"EFLOP/s", 1e18}, {NULL, 0},
};
static const struct suffix temp_sfx[] = {
    {"K", 1},
    {"C", 1},
    {"\xc2\xb0"
     "C",
     1},
    {"degC", 1},
    {NULL, 0},
};
/* Flow in m^3/s. US gallon = 3.785411784 L (NIST Handbook 44). */
static const struct suffix flow_sfx[] = {
    {"L/min", 1e-3 / 60},
    {"l/min", 1e-3 / 60},
    {"lpm", 1e-3 / 60},
    {"LPM", 1e-3 / 60},
    {"L/s", 1e-3},
    {"m3/h", 1.0 / 3600},
    {"m3/s", 1},
    {"gpm", 3.785411784e-3 / 60},
    {"GPM", 3.785411784e-3 / 60},
    {NULL, 0},
};
static const struct suffix freq_sfx[] = {
    {"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}, {NULL, 0},
};

static const struct {
    const char *name;
    const struct suffix *sfx;
    const char *example;
} kinds[] = {
    [SN_UNIT_COUNT] = {"count", count_sfx, "a number such as 64 or 70B"},
    [SN_UNIT_RATIO] = {"ratio", ratio_sfx, "a number such as 0.95 or 95%"},
    [SN_UNIT_BYTES] = {"size", bytes_sfx, "a size such as 80GB or 64GiB"},
    [SN_UNIT_BANDWIDTH] = {"bandwidth", bw_sfx,
                           "a bandwidth such as 400Gbps or 900GB/s"},
    [SN_UNIT_POWER] = {"power", power_sfx, "a power such as 700W or 120kW"},
    [SN_UNIT_VOLTAGE] = {"voltage", volt_sfx, "a voltage such as 415V"},
    [SN_UNIT_TIME] = {"time", time_sfx, "a time such as 30s or 5min"},
    [SN_UNIT_LENGTH] = {"length", len_sfx, "a length such as 2.5m"},
    [SN_UNIT_FLOPS] = {"compute rate", flops_sfx,
                       "a compute rate such as 989TFLOPS"},
    [SN_UNIT_TEMPERATURE] = {"temperature difference", temp_sfx,
                             "a temperature difference such as 10K"},
    [SN_UNIT_FLOW] = {"flow", flow_sfx, "a flow such as 180L/min"},
    [SN_UNIT_FREQUENCY] = {"frequency", freq_sfx,
                           "a frequency such as 1980MHz"},
};

const char *sn_unit_kind_name(enum sn_unit_kind kind)
{
    return kinds[kind].name;
}

/* Scan a plain decimal number (no hex, inf or nan) at s; returns the number
 * of bytes used, 0 when there is none. */
static size_t scan_number(const char *s, double *out)
{
    const char *p = s;
    char tmp[64];
    size_t n;
    bool digits = false;

    if (*p == '+' || *p == '-')
        p++;
    while (isdigit((unsigned char)*p) || *p == '_' || *p == ',') {
        digits = digits || isdigit((unsigned char)*p);
        p++;
    }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) {
            digits = true;
            p++;
        }
    }
    if (!digits)
        return 0;
    if ((*p == 'e' || *p == 'E') &&
        (isdigit((unsigned char)p[1]) ||
         ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
        p += 2;
        while (isdigit((unsigned char)*p))
            p++;
    }
    n = (size_t)(p - s);
    if (n >= sizeof(tmp))
        return 0;
    /* Digit group separators ("10_000", "2,560") are dropped. */
    {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i] != '_' && s[i] != ',')
                tmp[k++] = s[i];
        tmp[k] = '\0';
    }
    errno = 0;
    *out = strtod(tmp, NULL);
    if (errno == ERANGE || !isfinite(*out))
        return 0;
    return n;
}

static const struct suffix *find_suffix(const struct suffix *tab, const char *s)
{
    const struct suffix *hit = NULL;
    int hits = 0;

    for (const struct suffix *x = tab; x->text; x++)
        if (strcmp(x->text, s) == 0)
            return x;
    for (const struct suffix *x = tab; x->text; x++) {
        if (sn_strcaseeq(x->text, s)) {
            if (!hit || hit->factor != x->factor)
                hits++;
            hit = x;
        }
    }
    return hits == 1 ? hit : NULL;
}

int sn_unit_parse(const char *text, enum sn_unit_kind kind, bool allow_bare,
                  double *out, struct sn_error *err)
{
    const char *p = text;
    double v;
    size_t n;
    char sfx[32];
    size_t k = 0;
    const struct suffix *hit;

    while (isspace((unsigned char)*p))
        p++;
    n = scan_number(p, &v);
    if (!n)
        return sn_error_set(err, SN_EINPUT, "'%.64s' is not %s", text,
                            kinds[kind].example);
    p += n;
    while (isspace((unsigned char)*p))
        p++;
    while (*p && !isspace((unsigned char)*p) && k < sizeof(sfx) - 1)
        sfx[k++] = *p++;
    sfx[k] = '\0';
    while (isspace((unsigned char)*p))
        p++;
    if (*p)
        return sn_error_set(err, SN_EINPUT, "'%.64s' is not %s", text,
                            kinds[kind].example);
    if (kind == SN_UNIT_RATIO && strchr(sfx, ':')) {
        /* "2:1" oversubscription: down over up */
        double down = v, up;
        size_t m = scan_number(sfx + 1, &up);
        if (sfx[0] != ':' || !m || sfx[1 + m] || up == 0)
            return sn_error_set(err, SN_EINPUT,
                                "'%.64s' is not a ratio such as 2:1", text);
        *out = down / up;
        return SN_OK;
    }
    if (!k) {
        if (kind == SN_UNIT_COUNT || kind == SN_UNIT_RATIO || allow_bare) {
            *out = v;
            return SN_OK;
        }
        return sn_error_set(err, SN_EINPUT, "'%.64s' needs a unit (%s)", text,
                            kinds[kind].example);
    }
    hit = find_suffix(kinds[kind].sfx, sfx);
    if (!hit) {
        const char *names[64];
        const char *near;
        size_t m = 0;

        for (const struct suffix *x = kinds[kind].sfx;
             x->text && m < SN_ARRAY_LEN(names) - 1; x++)
            names[m++] = x->text;
        names[m] = NULL;
        near = sn_suggest(sfx, names);
        if (near)
            return sn_error_set(err, SN_EINPUT,
                                "unknown unit '%s' in '%.64s' (did you mean "
                                "'%s'? expected %s)",
                                sfx, text, near, kinds[kind].example);
        return sn_error_set(err, SN_EINPUT,
                            "unknown unit '%s' in '%.64s' (expected %s)", sfx,
                            text, kinds[kind].example);
    }
    *out = v * hit->factor;
    if (!isfinite(*out))
        return sn_error_set(err, SN_EINPUT, "'%.64s' is out of range", text);
    return SN_OK;
}

int sn_unit_parse_size(const char *text, uint64_t *out, struct sn_error *err)
{
    double v;
    size_t n = scan_number(text, &v);
    double mult = 1;
    const char *p = text + n;

    if (!n || v < 0)
        return sn_error_set(err, SN_EINPUT,
                            "'%.64s' is not a size such as 8, 1M or 16G", text);
    if (*p == 'K' || *p == 'k')
        mult = 1024.0;
    else if (*p == 'M' || *p == 'm')
        mult = 1048576.0;
    else if (*p == 'G' || *p == 'g')
        mult = 1073741824.0;
    else if (*p == 'T' || *p == 't')
        mult = 1099511627776.0;
    if (mult != 1)
        p++;
    if (*p == 'B' || *p == 'b')
        p++;
    if (*p)
        return sn_error_set(err, SN_EINPUT,
                            "'%.64s' is not a size such as 8, 1M or 16G", text);
    v *= mult;
    if (v > 1e18)
        return sn_error_set(err, SN_EINPUT, "size '%.64s' is too large", text);
    *out = (uint64_t)v;
    return SN_OK;
}

/* Three significant figures without exponent notation. */
static void fmt3(double v, const char *unit, char *buf, size_t size)
{
    double a = fabs(v);
    const char *f = a >= 100 || a == 0 ? "%.0f %s"
                    : a >= 10          ? "%.1f %s"
                                       : "%.2f %s";
    snprintf(buf, size, f, v, unit);
}

struct scale {
    double at_least;
    double div;
    const char *unit;
};

static void fmt_scaled(double v, const struct scale *sc, char *buf, size_t size)
{
    const struct scale *pick = sc;

    for (const struct scale *x = sc; x->unit; x++)
        if (fabs(v) >= x->at_least)
            pick = x;
    fmt3(v / pick->div, pick->unit, buf, size);
}

char *sn_unit_format(double v, enum sn_unit_kind kind, char *buf, size_t size)
{
    static const struct scale bytes[] = {{0, 1, "B"},        {1e3, 1e3, "kB"},
                                         {1e6, 1e6, "MB"},   {1e9, 1e9, "GB"},
                                         {1e12, 1e12, "TB"}, {1e15, 1e15, "PB"},
                                         {0, 0, NULL}};
    static const struct scale bw[] = {
        {0, 1, "B/s"},      {1e3, 1e3, "kB/s"},   {1e6, 1e6, "MB/s"},
        {1e9, 1e9, "GB/s"}, {1e12, 1e12, "TB/s"}, {1e15, 1e15, "PB/s"},
        {0, 0, NULL}};
    static const struct scale power[] = {
        {0, 1, "W"}, {1e3, 1e3, "kW"}, {1e6, 1e6, "MW"}, {0, 0, NULL}};
    static const struct scale volt[] = {
        {0, 1, "V"}, {1e4, 1e3, "kV"}, {0, 0, NULL}};
    static const struct scale tm[] = {{0, 1e-9, "ns"},      {1e-6, 1e-6, "us"},
                                      {1e-3, 1e-3, "ms"},   {1, 1, "s"},
                                      {600, 60, "min"},     {10800, 3600, "h"},
                                      {259200, 86400, "d"}, {0, 0, NULL}};
    static const struct scale len[] = {
        {0, 1e-3, "mm"}, {1, 1, "m"}, {1e4, 1e3, "km"}, {0, 0, NULL}};
    static const struct scale flops[] = {{0, 1e9, "GFLOP/s"},
                                         {1e12, 1e12, "TFLOP/s"},
                                         {1e15, 1e15, "PFLOP/s"},
                                         {1e18, 1e18, "EFLOP/s"},
                                         {0, 0, NULL}};
    static const struct scale freq[] = {{0, 1, "Hz"},
                                        {1e3, 1e3, "kHz"},
                                        {1e6, 1e6, "MHz"},
                                        {1e9, 1e9, "GHz"},
                                        {0, 0, NULL}};
    char tmp[64];

    switch (kind) {
    case SN_UNIT_COUNT:
        snprintf(buf, size, "%.0f", v);
        break;
    case SN_UNIT_RATIO:
        snprintf(buf, size, "%s", sn_fmt_double(v, 3, tmp, sizeof(tmp)));
        break;
    case SN_UNIT_BYTES:
        fmt_scaled(v, bytes, buf, size);
        break;
    case SN_UNIT_BANDWIDTH:
        fmt_scaled(v, bw, buf, size);
        break;
    case SN_UNIT_POWER:
        fmt_scaled(v, power, buf, size);
        break;
    case SN_UNIT_VOLTAGE:
        fmt_scaled(v, volt, buf, size);
        break;
    case SN_UNIT_TIME:
        fmt_scaled(v, tm, buf, size);
        break;
    case SN_UNIT_LENGTH:
        fmt_scaled(v, len, buf, size);
        break;
    case SN_UNIT_FLOPS:
        fmt_scaled(v, flops, buf, size);
        break;
    case SN_UNIT_TEMPERATURE:
        fmt3(v, "K", buf, size);
        break;
    case SN_UNIT_FLOW:
        fmt3(v * 60e3, "L/min", buf, size);
        break;
    case SN_UNIT_FREQUENCY:
        fmt_scaled(v, freq, buf, size);
        break;
    }
    return buf;
}

int sn_parse_long(const char *text, long long min, long long max,
                  long long *out, struct sn_error *err)
{
    char *end;
    long long v;

    errno = 0;
    if (!text || !*text || isspace((unsigned char)*text))
        return sn_error_set(err, SN_EINPUT, "'%s' is not a whole number",
                            text ? text : "");
    v = strtoll(text, &end, 10);
    if (*end || errno == ERANGE)
        return sn_error_set(err, SN_EINPUT, "'%.64s' is not a whole number",
                            text);
    if (v < min || v > max)
        return sn_error_set(err, SN_EINPUT,
                            "%lld is out of range (expected %lld to %lld)", v,
                            min, max);
    *out = v;
    return SN_OK;
}

int sn_parse_double(const char *text, double *out, struct sn_error *err)
{
    double v;
    size_t n = text ? scan_number(text, &v) : 0;

    if (!n || text[n])
        return sn_error_set(err, SN_EINPUT, "'%.64s' is not a number",
                            text ? text : "");
    *out = v;
    return SN_OK;
}

char *sn_fmt_count(size_t v, char *buf, size_t size)
{
    char raw[32];
    size_t len, o = 0;

    snprintf(raw, sizeof(raw), "%zu", v);
    len = strlen(raw);
    for (size_t i = 0; i < len && o + 2 < size; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
    return buf;
}

char *sn_fmt_double(double v, int digits, char *buf, size_t size)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return buf;
    }
    if (v == 0)
        v = 0; /* no "-0" */
    snprintf(buf, size, "%.*g", digits, v);
    return buf;
}

char *sn_unit_format_named(double v, const char *unit, char *buf, size_t size)
{
    static const struct {
        const char *unit;
        enum sn_unit_kind kind;
    } by_name[] = {
        {"B/s", SN_UNIT_BANDWIDTH},
        {"s", SN_UNIT_TIME},
        {"FLOP/s", SN_UNIT_FLOPS},
        {"B", SN_UNIT_BYTES},
    };
    char tmp[48];

    for (size_t i = 0; i < SN_ARRAY_LEN(by_name); i++)
        if (strcmp(unit, by_name[i].unit) == 0)
            return sn_unit_format(v, by_name[i].kind, buf, size);
    snprintf(buf, size, "%s%s%s", sn_fmt_double(v, 4, tmp, sizeof(tmp)),
             unit[0] ? " " : "", unit);
    return buf;
}
