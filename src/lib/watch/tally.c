/* tally.c: counters by label set kept across intervals by the host
 * collectors (host-int.h). */
#include <stdlib.h>
#include <string.h>

#include "host-int.h"

static struct sn__watch_tally_entry *find(struct sn__watch_tally *t,
                                          const char *a, const char *b)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->e[i].a, a) && !strcmp(t->e[i].b, b))
            return &t->e[i];
    return NULL;
}

double *sn__watch_tally(struct sn__watch_tally *t, const char *a, const char *b)
{
    struct sn__watch_tally_entry *e = find(t, a, b);

    if (e)
        return &e->n;
    if (t->n >= SN_WATCH_TALLY_MAX) {
        a = "other";
        b = b[0] ? "other" : "";
        if ((e = find(t, a, b)))
            return &e->n;
    }
    SN_GROW(t->e, t->cap, t->n + 1);
    e = &t->e[t->n++];
    memset(e, 0, sizeof(*e));
    sn_strlcpy(e->a, a, sizeof(e->a));
    sn_strlcpy(e->b, b, sizeof(e->b));
    return &e->n;
}

void sn__watch_tally_release(struct sn__watch_tally *t)
{
    free(t->e);
    memset(t, 0, sizeof(*t));
}

void sn__watch_tally_emit(const struct sn__watch_tally *t, struct sn_metrics *m,
                          const char *name, const char *help, const char *la,
                          const char *lb, struct sn_error *err)
{
    for (size_t i = 0; i < t->n; i++) {
        struct sn_metrics_label l[] = {{la, t->e[i].a}, {lb, t->e[i].b}};
        sn__watch_counter(m, name, help, l, lb ? 2 : 1, t->e[i].n, err);
    }
}

int sn__watch_root(const struct sn__watch_cfg *cfg, char *root, size_t size,
                   struct sn_error *err)
{
    const char *r = cfg->fsroot ? cfg->fsroot : "";
    if (sn_strlcpy(root, r, size) >= size)
        return sn_error_set(err, SN_EINPUT, "fsroot '%.64s...': too long", r);
    return SN_OK;
}
