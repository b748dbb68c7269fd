/* power-parse.c: a `bench power` document (SN_SCHEMA_POWER) read back,
 * for the report. The file's own verdicts (full, best, knee) are not
 * trusted: the curve is analysed again from its points. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/bench.h"
#include "sn/schema.h"

#define POWER_FILE_MAX (1u << 20) /* a 32-point document is ~5 KB */

static int bad(struct sn_error *err, const char *file, const char *what)
{
    return sn_error_at(err, SN_EINPUT, file, 0, 0, "%s", what);
}

/* A finite number >= 0 under key; false when missing or not one. */
static bool num(const json_t *o, const char *key, double max, double *out)
{
    const json_t *v = json_object_get(o, key);

    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return isfinite(*out) && *out >= 0 && *out <= max;
}

static void str(const json_t *o, const char *key, char *out, size_t size)
{
    const char *s = json_string_value(json_object_get(o, key));

    sn_str_clean(out, size, s ? s : "", 0);
}

/* One point; the reason in why when it is not usable. */
static bool point(const json_t *p, bool clocks, struct sn_bench_power_point *o)
{
    double mhz = 0;

    memset(o, 0, sizeof(*o));
    if (!json_is_object(p) || !num(p, "flops", 1e18, &o->flops) ||
        !num(p, "power_w", 1e5, &o->power_w) || !(o->power_w > 0))
        return false;
    if (clocks) {
        if (!num(p, "sm_mhz", 1e5, &mhz) || !(mhz > 0))
            return false;
        o->sm_mhz = (unsigned)mhz;
    } else if (!num(p, "limit_w", 1e5, &o->limit_w) || !(o->limit_w > 0)) {
        return false;
    }
    return true;
}

int sn_bench_power_parse(const char *file, const char *text, size_t len,
                         struct sn_bench_power_curve *c, struct sn_error *err)
{
    json_t *doc, *pts;
    const char *schema, *sweep;
    double v = 0;
    int rc = SN_OK;

    memset(c, 0, sizeof(*c));
    if (len > POWER_FILE_MAX)
        return bad(err, file, "more than 1 MiB: not a bench power document");
    rc = sn_json_read(file, text, len, 0, &doc, err);
    if (rc)
        return rc;
    schema = json_string_value(json_object_get(doc, "schema"));
    sweep = json_string_value(json_object_get(doc, "sweep"));
    pts = json_object_get(doc, "points");
    if (!schema || strcmp(schema, SN_SCHEMA_POWER)) {
        rc = bad(err, file,
                 "not a bench power document (expected \"schema\": "
                 "\"" SN_SCHEMA_POWER
                 "\", from 'supernode bench power --json')");
        goto out;
    }
    if (!sweep || (strcmp(sweep, "power_limit") && strcmp(sweep, "sm_clock"))) {
        rc = bad(err, file, "\"sweep\" is neither power_limit nor sm_clock");
        goto out;
    }
    if (!json_is_array(pts) || json_array_size(pts) < 1 ||
        json_array_size(pts) > SN_BENCH_POWER_MAX) {
        rc = bad(err, file, "\"points\" must hold 1 to 32 points");
        goto out;
    }
    c->by_clocks = !strcmp(sweep, "sm_clock");
    str(doc, "device", c->device, sizeof(c->device));
    str(doc, "dtype", c->dtype, sizeof(c->dtype));
    if (num(doc, "gemm_size", 1e6, &v))
        c->gemm_size = (int)v;
    num(doc, "limit_before_w", 1e5, &c->limit_before_w);
    num(doc, "min_limit_w", 1e5, &c->min_w);
    num(doc, "max_limit_w", 1e5, &c->max_w);
    if (num(doc, "mem_mhz", 1e5, &v))
        c->mem_mhz = (unsigned)v;
    /* bench power sets only limits the driver allows (power.c refuses
     * any outside min..max): a document whose limits fall outside its
     * own range contradicts itself */
    if (c->min_w > 0 && c->max_w > 0 && c->min_w > c->max_w) {
        char why[128];
        snprintf(why, sizeof(why),
                 "\"min_limit_w\" %g W is above \"max_limit_w\" %g W", c->min_w,
                 c->max_w);
        rc = bad(err, file, why);
        goto out;
    }
    for (size_t i = 0; i < json_array_size(pts); i++) {
        if (point(json_array_get(pts, i), c->by_clocks, &c->points[i]) &&
            !c->by_clocks && c->min_w > 0 && c->max_w > 0 &&
            (c->points[i].limit_w < c->min_w ||
             c->points[i].limit_w > c->max_w)) {
            char why[160];
            snprintf(why, sizeof(why),
                     "point %zu: limit_w %g W is outside the document's "
                     "allowed %g-%g W",
                     i + 1, c->points[i].limit_w, c->min_w, c->max_w);
            rc = bad(err, file, why);
            goto out;
        }
        if (!point(json_array_get(pts, i), c->by_clocks, &c->points[i])) {
            char why[96];
            snprintf(why, sizeof(why),
                     "point %zu: needs %s, flops and power_w, positive "
                     "numbers",
                     i + 1, c->by_clocks ? "sm_mhz" : "limit_w");
            rc = bad(err, file, why);
            goto out;
        }
        c->n++;
    }
    sn_bench_power_analyse(c);
out:
    json_decref(doc);
    return rc;
}
