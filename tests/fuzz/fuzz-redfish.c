/* fuzz-redfish.c: libFuzzer harness for the BMC collector's JSON parse and
 * the walk over what it parses (col-redfish.c). The input is a set of
 * Redfish documents separated by NUL bytes. The whole input goes to
 * sn__watch_redfish_parse(); then the collector walks a service made of
 * the documents: a request for a path gets the document whose
 * "@odata.id" is that path, else the next one in turn (so mutations reach
 * every level), and a document starting with '!' answers HTTP 500.
 * Besides crashes and sanitizer reports, it aborts when a contract
 * breaks: a parse error that is not SN_EINPUT "fuzz.json:...", a name
 * or state that is empty or not clean text. Built by tests/fuzz/fuzz.mk
 * (`make fuzz FUZZ=redfish`); seeds are the mock's fixtures. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/metrics.h"
#include "sn/util.h"

#include "../../src/lib/watch/redfish-int.h"
#include "../../src/lib/watch/watch-int.h"

#define DOCS_MAX 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct service {
    const char *data;
    size_t ndocs, next;
    size_t start[DOCS_MAX], len[DOCS_MAX];
    char *id[DOCS_MAX]; /* "@odata.id" of each, or NULL */
};

static void split(struct service *s, const uint8_t *data, size_t size)
{
    size_t at = 0;

    memset(s, 0, sizeof(*s));
    s->data = (const char *)data;
    while (at <= size && s->ndocs < DOCS_MAX) {
        const uint8_t *z = memchr(data + at, 0, size - at);
        size_t end = z ? (size_t)(z - data) : size;
        json_t *doc = json_loadb(s->data + at, end - at, 0, NULL);
        const char *id = json_string_value(json_object_get(doc, "@odata.id"));
        s->start[s->ndocs] = at;
        s->len[s->ndocs] = end - at;
        s->id[s->ndocs] = id ? sn_xstrdup(id) : NULL;
        json_decref(doc);
        s->ndocs++;
        at = end + 1;
    }
}

static enum sn_rf_outcome serve(void *ctx, const char *path,
                                struct sn_buf *body, struct sn_error *err)
{
    struct service *s = ctx;
    size_t k = s->ndocs, n = strlen(path);

    /* "/redfish/v1/" is asked for; a document says "/redfish/v1" */
    while (n > 1 && path[n - 1] == '/')
        n--;
    for (size_t i = 0; i < s->ndocs && k == s->ndocs; i++)
        if (s->id[i] && strlen(s->id[i]) == n && memcmp(s->id[i], path, n) == 0)
            k = i;
    if (k == s->ndocs)
        k = s->next++ % s->ndocs;
    sn_buf_reset(body);
    sn_buf_append(body, s->data + s->start[k], s->len[k]);
    if (s->len[k] > 0 && s->data[s->start[k]] == '!') {
        sn_error_set(err, SN_EIO, "GET %s: HTTP 500", path);
        return SN_RF_HTTP;
    }
    return SN_RF_OK;
}

static void check_name(const char *what, const char *name)
{
    if (!name[0] || !sn_str_is_clean(name, 0)) {
        fprintf(stderr, "%s '%s' empty or not clean\n", what, name);
        abort();
    }
}

static void check_obs(const struct sn__watch_obs *obs)
{
    for (size_t i = 0; i < obs->ncoolant; i++) {
        check_name("branch", obs->coolant[i].branch);
        if (!sn_str_is_clean(obs->coolant[i].loop, 0))
            abort();
    }
    for (size_t i = 0; i < obs->npsus; i++) {
        check_name("psu", obs->psus[i].psu);
        if (!sn_str_is_clean(obs->psus[i].feed, 0))
            abort();
    }
    for (size_t i = 0; i < obs->nleaks; i++) {
        check_name("detector", obs->leaks[i].detector);
        check_name("state", obs->leaks[i].state);
    }
}

static void walk(const uint8_t *data, size_t size)
{
    struct sn__watch_cfg cfg = {0};
    struct sn__watch_obs obs;
    struct sn_metrics m = {0};
    struct sn_error err = {0};
    struct sn_buf text = SN_BUF_INIT;
    struct service *s = sn_xcalloc(1, sizeof(*s));
    void *st = NULL;
    int rc;

    split(s, data, size);
    cfg.timeout_s = 30;
    sn__watch_obs_init(&obs, 0);
    if (sn__watch_redfish_open_with(&cfg, serve, s, &st, &err) == 0) {
        rc = sn__watch_col_redfish.collect(st, &obs, &m, &err);
        if (rc != 0 && rc != SN_EINPUT && rc != SN_EIO) {
            fprintf(stderr, "unexpected code %d: %s\n", rc, err.msg);
            abort();
        }
        check_obs(&obs);
        sn_metrics_render_text(&m, &text);
        sn__watch_col_redfish.close(st);
    }
    sn_buf_release(&text);
    sn_metrics_release(&m);
    sn__watch_obs_release(&obs);
    for (size_t i = 0; i < s->ndocs; i++)
        free(s->id[i]);
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sn_error err = {0};
    json_t *doc = NULL;
    int rc = sn__watch_redfish_parse("fuzz.json", (const char *)data, size,
                                     &doc, &err);

    if (rc == 0) {
        json_decref(doc);
    } else if (rc != SN_EINPUT || !sn_startswith(err.msg, "fuzz.json:")) {
        fprintf(stderr, "unexpected parse error %d: %s\n", rc, err.msg);
        abort();
    }
    walk(data, size);
    return 0;
}
