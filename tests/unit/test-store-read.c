/* test-store-read.c: reading a run's results back with only the raw
 * samples asked for (sn_store_results_read), as the report reads a run
 * of 500,000 pair results. */
/* covers: store */
#include <sqlite3.h>
#include <stdint.h>

#include "harness.h"
#include "sn/store.h"
#include "store-fixtures.h"

/* A test name with a terminal escape in it, as a hand-edited database
 * may hold: read back cleaned, whether or not the row before held it. */
static const char dirty[] = "p2p.bw\x1b[2J";

/* Result k of a run of n, by kind (k / 2) % 3, so that each test comes
 * twice in a row: a latency ("s"), a bandwidth ("B/s") of test dirty, one
 * of "p2p.bw"; params repeat in twos; 3 samples each, k + 1 times 1, 2,
 * 3. */
static void fill(struct sn_results *rs, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        struct sn_result r;
        double s[3] = {1.0 * (double)(k + 1), 2.0 * (double)(k + 1),
                       3.0 * (double)(k + 1)};
        memset(&r, 0, sizeof(r));
        size_t kind = k / 2 % 3;
        snprintf(r.test, sizeof(r.test), "%s",
                 kind == 0   ? "p2p.lat"
                 : kind == 1 ? dirty
                             : "p2p.bw");
        snprintf(r.unit, sizeof(r.unit), "%s", kind ? "B/s" : "s");
        snprintf(r.params, sizeof(r.params), "bytes=%zu", 8 + k / 2);
        r.subject = SN_SUBJECT_PAIR;
        r.a = (uint32_t)k;
        r.b = (uint32_t)k + 1;
        r.round = SN_STORE_NO_RANK;
        r.samples = s;
        r.nsamples = 3;
        sn_stats_compute(s, 3, &r.stats);
        sn_results_add(rs, &r);
    }
}

/* Stores n results of fill() in one run; its id, 0 on failure. */
static int64_t put(struct sn_store *st, size_t n)
{
    struct sn_results rs;
    struct sn_run run;
    struct sn_error err;

    memset(&run, 0, sizeof(run));
    snprintf(run.spec_name, sizeof(run.spec_name), "t");
    run.complete = true;
    sn_results_init(&rs);
    fill(&rs, n);
    if (sn_store_run_put(st, &run, rs.items, rs.n, NULL, 0, NULL, 0, &err))
        printf("  %s\n", err.msg);
    sn_results_release(&rs);
    return run.id;
}

static void test_summaries_without_samples_equal_the_full_read(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_results all, none, times;
    struct sn_error err;
    int64_t id;
    int before = sn_test_failures_;
    char clean[SN_RESULT_TEST_MAX];

    sn_str_clean(clean, sizeof(clean), dirty, 0);
    REQUIRE(strcmp(clean, dirty) != 0); /* the escape is taken out */
    REQUIRE(fx_store_fresh(&dir, &path, &st));
    id = put(st, 3000); /* past the array's first few doublings */
    REQUIRE(id > 0);
    REQUIRE(sn_store_results_get(st, id, &all, &err) == SN_OK);
    REQUIRE(sn_store_results_read(st, id, SN_STORE_SAMPLES_NONE, &none, &err) ==
            SN_OK);
    REQUIRE(sn_store_results_read(st, id, SN_STORE_SAMPLES_TIMES, &times,
                                  &err) == SN_OK);
    REQUIRE(all.n == 3000 && none.n == 3000 && times.n == 3000);
    for (size_t k = 0; k < all.n; k++) {
        const struct sn_result *a = &all.items[k], *o = &none.items[k],
                               *t = &times.items[k];
        size_t kind = k / 2 % 3;
        bool lat = kind == 0;
        CHECK(a->nsamples == 3 && a->samples[2] == 3.0 * (double)(k + 1));
        CHECK(o->nsamples == 0 && o->samples == NULL);
        CHECK(t->nsamples == (lat ? 3u : 0u));
        CHECK(!lat || t->samples[0] == (double)(k + 1));
        /* the rest of the result is the same, field by field */
        CHECK(o->stats.n == 3 && t->stats.n == 3);
        CHECK(o->stats.median == a->stats.median);
        CHECK(t->stats.stddev == a->stats.stddev);
        CHECK(o->a == a->a && o->b == a->b && o->round == a->round);
        CHECK(o->bytes == 8 + k / 2 && t->bytes == a->bytes);
        CHECK_STR(o->test, kind == 1 ? clean : kind ? "p2p.bw" : "p2p.lat");
        CHECK_STR(o->test, a->test);
        CHECK_STR(t->unit, a->unit);
        if (sn_test_failures_ > before)
            break; /* one message, not 3,000 */
    }
    sn_results_release(&all);
    sn_results_release(&none);
    sn_results_release(&times);
    fx_store_release(st, path, dir);
}

static void test_read_of_a_missing_run_is_not_found_and_empty(void)
{
    char *dir, *path;
    struct sn_store *st = NULL;
    struct sn_results rs;
    struct sn_error err;

    REQUIRE(fx_store_fresh(&dir, &path, &st));
    REQUIRE(put(st, 2) > 0);
    CHECK(sn_store_results_read(st, 99, SN_STORE_SAMPLES_NONE, &rs, &err) ==
          SN_ENOTFOUND);
    CHECK(rs.n == 0 && rs.items == NULL);
    fx_store_release(st, path, dir);
}

static const struct sn_test cases[] = {
    T(test_summaries_without_samples_equal_the_full_read),
    T(test_read_of_a_missing_run_is_not_found_and_empty),
};

SN_TEST_MAIN(cases)
