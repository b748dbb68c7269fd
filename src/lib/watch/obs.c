/* obs.c: the observations collectors hand the agent (watch-int.h), and
 * the two helpers every collector adds its samples through. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

#include "watch-int.h"

void *sn__watch_push(void *p, size_t *n, size_t *cap, size_t size)
{
    char **arr = p;
    if (*n >= SN_WATCH_ITEMS_MAX)
        return NULL;
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        if (c > SN_WATCH_ITEMS_MAX)
            c = SN_WATCH_ITEMS_MAX;
        char *grown = realloc(*arr, c * size);
        if (!grown)
            return NULL;
        *arr = grown;
        *cap = c;
    }
    char *e = *arr + *n * size;
    memset(e, 0, size);
    (*n)++;
    return e;
}

/* Append src's n entries of size bytes onto dst's array; -1 when the
 * cap cut them short. */
static int absorb(void *dst, size_t *dn, size_t *dcap, const void *src,
                  size_t sn, size_t size)
{
    for (size_t i = 0; i < sn; i++) {
        void *e = sn__watch_push(dst, dn, dcap, size);
        if (!e)
            return -1;
        memcpy(e, (const char *)src + i * size, size);
    }
    return 0;
}

#define ABSORB(d, s, arr)                                                      \
    absorb(&(d)->arr, &(d)->n##arr, &(d)->cap_##arr, (s)->arr, (s)->n##arr,    \
           sizeof(*(s)->arr))

int sn__watch_obs_absorb(struct sn__watch_obs *dst, struct sn__watch_obs *src)
{
    int rc = 0;
    rc |= ABSORB(dst, src, gpus);
    rc |= ABSORB(dst, src, sensors);
    rc |= ABSORB(dst, src, coolant);
    rc |= ABSORB(dst, src, psus);
    rc |= ABSORB(dst, src, leaks);
    rc |= ABSORB(dst, src, links);
    rc |= ABSORB(dst, src, pci);
    rc |= ABSORB(dst, src, klog);
    dst->nvml = dst->nvml || src->nvml;
    if (src->nvml_count > dst->nvml_count)
        dst->nvml_count = src->nvml_count;
    if (!isnan(src->room_c))
        dst->room_c = src->room_c;
    if (!isnan(src->room_humidity))
        dst->room_humidity = src->room_humidity;
    sn__watch_obs_release(src);
    return rc ? -1 : 0;
}

int sn__watch_obs_carry_events(struct sn__watch_obs *dst,
                               struct sn__watch_obs *src)
{
    int rc = ABSORB(dst, src, klog);

    for (size_t i = 0; i < src->ngpus; i++) {
        const struct sn__watch_gpu *g = &src->gpus[i];
        struct sn__watch_gpu *d = NULL;
        for (size_t j = 0; j < dst->ngpus && !d; j++)
            if (dst->gpus[j].index == g->index &&
                strcmp(dst->gpus[j].bus, g->bus) == 0)
                d = &dst->gpus[j];
        for (size_t k = 0; k < g->nxids && k < SN_WATCH_XIDS_MAX; k++) {
            if (d && d->nxids < SN_WATCH_XIDS_MAX) {
                /* the late ones came first: in front, in their order */
                memmove(d->xids + k + 1, d->xids + k,
                        (d->nxids - k) * sizeof(d->xids[0]));
                d->xids[k] = g->xids[k];
                d->nxids++;
                continue;
            }
            /* no room or no fresh reading of that GPU: the kernel log's
             * form, which the rules read under the same subject */
            struct sn__watch_klog *l = SN_WATCH_PUSH(dst, klog);
            if (!l) {
                rc = -1;
                break;
            }
            l->kind = SN_WATCH_KLOG_XID;
            l->code = (int)g->xids[k];
            snprintf(l->dev, sizeof(l->dev), "%s", g->bus);
            snprintf(l->text, sizeof(l->text), "NVML event: XID %u",
                     g->xids[k]);
        }
    }
    sn__watch_obs_release(src);
    return rc ? -1 : 0;
}

void sn__watch_obs_init(struct sn__watch_obs *obs, double now)
{
    memset(obs, 0, sizeof(*obs));
    obs->now = now;
    obs->room_c = NAN;
    obs->room_humidity = NAN;
}

void sn__watch_obs_release(struct sn__watch_obs *obs)
{
    double now = obs->now;
    free(obs->gpus);
    free(obs->sensors);
    free(obs->coolant);
    free(obs->psus);
    free(obs->leaks);
    free(obs->links);
    free(obs->pci);
    free(obs->klog);
    sn__watch_obs_init(obs, now);
}

static int sample(struct sn_metrics *m, const char *name, const char *help,
                  enum sn_metrics_type type, const struct sn_metrics_label *l,
                  size_t n, double v, struct sn_error *err)
{
    struct sn_error e = {0};
    if (sn_metrics_add_family(m, name, help, type, &e) == 0 &&
        sn_metrics_add(m, name, l, n, v, &e) == 0)
        return 0;
    if (err && err->code == SN_OK)
        *err = e;
    return e.code;
}

int sn__watch_gauge(struct sn_metrics *m, const char *name, const char *help,
                    const struct sn_metrics_label *l, size_t n, double v,
                    struct sn_error *err)
{
    return sample(m, name, help, SN_METRICS_GAUGE, l, n, v, err);
}

int sn__watch_counter(struct sn_metrics *m, const char *name, const char *help,
                      const struct sn_metrics_label *l, size_t n, double v,
                      struct sn_error *err)
{
    return sample(m, name, help, SN_METRICS_COUNTER, l, n, v, err);
}
