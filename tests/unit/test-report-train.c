/* test-report-train.c: the renderers of sim train, sim infer and validate
 * (render/train.c, infer.c, validate.c) and of a run's watch events, called
 * on results computed here: each JSON document parses, carries its
 * SN_SCHEMA_* id and the figures it was given; each table has a row per
 * part or point. */
/* covers: net workload study html render spec */
#include <stdlib.h>

#include "harness.h"
#include "sn/infer.h"
#include "sn/model.h"
#include "sn/render.h"
#include "sn/store.h"
#include "sn/validate.h"

#define SPEC "tests/fixtures/train/a100-64.yaml"

/* The document in text parsed (JSON is read by the YAML parser). */
static const struct sn_yaml *parse(const char *text, struct sn_yaml_doc *doc)
{
    struct sn_error err;

    if (sn_yaml_parse("out.json", text, strlen(text), doc, &err)) {
        printf("  not JSON: %s\n", err.msg);
        return NULL;
    }
    return doc->root && doc->root->type == SN_YAML_MAP ? doc->root : NULL;
}

/* The scalar at key of map (NULL when absent or not a scalar). */
static const char *scalar(const struct sn_yaml *map, const char *key)
{
    const struct sn_yaml *y = map ? sn_yaml_get(map, key) : NULL;

    return y && y->type == SN_YAML_SCALAR ? y->value : NULL;
}

static double number(const struct sn_yaml *map, const char *key)
{
    const char *v = scalar(map, key);

    return v ? strtod(v, NULL) : NAN;
}

/* How many lines of text start with prefix. */
static size_t lines_starting(const char *text, const char *prefix)
{
    size_t n = 0;

    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
        n += !strncmp(p, prefix, strlen(prefix));
    return n;
}

/* Llama 3 8B on the 64-A100 fixture, tp 1, dp 64, gbs 256 x 2048. */
struct train_case {
    struct sn_spec spec;
    struct sn_train_env env;
    struct sn_train *t;
    struct sn_train_opts so;
    struct sn_train_layout l;
    const struct sn_model_info *m;
    struct sn_train_result r; /* of l: it fits */
    struct sn_render_train w; /* l and r, goodput not computed */
};

static int train_case(struct train_case *c)
{
    struct sn_error err;

    memset(c, 0, sizeof(*c));
    if (sn_spec_load(SPEC, &c->spec, &err) ||
        sn_train_env_init(&c->env, &c->spec, &err))
        return -1;
    c->m = sn_catalog_model(&c->spec.catalog, "llama3-8b");
    if (!c->m || sn_train_new(c->m, &c->env.sys, &c->t, &err))
        return -1;
    sn_train_opts_default(&c->so);
    c->l = (struct sn_train_layout){.tp = 1,
                                    .pp = 1,
                                    .dp = 64,
                                    .cp = 1,
                                    .ep = 1,
                                    .vpp = 1,
                                    .mbs = 1,
                                    .gbs = 256,
                                    .seq = 2048,
                                    .recompute = SN_RECOMPUTE_NONE,
                                    .zero = 1,
                                    .dtype = SN_DTYPE_BF16};
    if (sn_train_predict(c->t, &c->l, &c->so, &c->r, &err) || !c->r.mem.fits)
        return -1;
    c->w = (struct sn_render_train){.spec = &c->spec,
                                    .model = c->m,
                                    .gpus = 64,
                                    .layout = &c->l,
                                    .result = &c->r,
                                    .goodput_why = "no storage"};
    return 0;
}

static void train_case_release(struct train_case *c)
{
    sn_train_free(c->t);
    sn_train_env_release(&c->env);
    sn_spec_release(&c->spec);
}

static void test_train_json_carries_schema_and_figures(void)
{
    struct train_case c;
    struct sn_buf out = SN_BUF_INIT;
    struct sn_yaml_doc doc = {0};
    const struct sn_yaml *root, *y;
    const struct sn_train_result *r = &c.r;

    REQUIRE(train_case(&c) == 0);
    sn_render_train_json(&c.w, &out);
    root = parse(out.data, &doc);
    REQUIRE(root);
    CHECK_STR(scalar(root, "schema"), SN_SCHEMA_TRAIN);
    CHECK_STR(scalar(root, "model"), c.m->name);
    CHECK_NEAR(number(root, "gpus"), 64, 0);
    CHECK_NEAR(number(root, "step_time_s"), r->step_time, 1e-9);
    CHECK_NEAR(number(root, "mfu"), r->mfu, 1e-9);
    y = sn_yaml_get(root, "layout");
    CHECK_NEAR(number(y, "dp"), 64, 0);
    CHECK_NEAR(number(y, "seq"), 2048, 0);
    CHECK(!sn_yaml_get(y, "etp")); /* dense: no expert TP */
    y = sn_yaml_get(root, "breakdown");
    REQUIRE(y && y->type == SN_YAML_MAP);
    CHECK(y->n == SN_PART_COUNT);
    CHECK_STR(scalar(root, "goodput"), "null");
    sn_yaml_doc_release(&doc);
    sn_buf_release(&out);
    train_case_release(&c);
}

static void test_train_text_has_a_row_per_part(void)
{
    struct train_case c;
    struct sn_buf out = SN_BUF_INIT;
    const char *step;
    char row[64];

    REQUIRE(train_case(&c) == 0);
    sn_render_train_text(&c.w, &out);
    REQUIRE(out.data);
    CHECK_CONTAINS(out.data, "layout: tp 1  pp 1  dp 64  cp 1");
    CHECK(lines_starting(out.data, "  weights ") == 1);
    CHECK(lines_starting(out.data, "  total ") == 1);
    step = strstr(out.data, "\nstep time (");
    REQUIRE(step);
    for (int p = 0; p < SN_PART_COUNT; p++) {
        snprintf(row, sizeof(row), "  %s ", sn_train_part_name(p));
        CHECK(lines_starting(step, row) == 1);
    }
    CHECK(lines_starting(step, "  step ") == 1);
    CHECK_CONTAINS(out.data, "goodput: not computed (no storage)");
    sn_buf_release(&out);
    train_case_release(&c);
}

static void test_train_not_fitting_names_the_smallest_count(void)
{
    struct train_case c;
    struct sn_buf text = SN_BUF_INIT, json = SN_BUF_INIT;
    struct sn_yaml_doc doc = {0};
    const struct sn_yaml *root;

    REQUIRE(train_case(&c) == 0);
    c.r.mem.fits = false; /* as if the HBM were a quarter of what it holds */
    c.r.mem.capacity = c.r.mem.total / 4;
    c.w.min_gpus = 256;
    c.w.max_gpus = 1000;
    sn_render_train_text(&c.w, &text);
    CHECK_CONTAINS(text.data, "DOES NOT FIT");
    CHECK_CONTAINS(text.data, "fits is 256 (searched in multiples of 8)");
    CHECK(!strstr(text.data, "throughput\n"));
    sn_render_train_json(&c.w, &json);
    root = parse(json.data, &doc);
    REQUIRE(root);
    CHECK_STR(scalar(root, "fits"), "false");
    CHECK_NEAR(number(root, "min_accelerators"), 256, 0);
    CHECK(!sn_yaml_get(root, "step_time_s"));
    CHECK_STR(scalar(sn_yaml_get(root, "memory"), "fits"), "false");
    sn_yaml_doc_release(&doc);
    sn_buf_release(&text);
    sn_buf_release(&json);
    train_case_release(&c);
}

static void test_train_search_ranks_and_explains(void)
{
    struct train_case c;
    struct sn_train_search s;
    struct sn_train_candidate top[3];
    struct sn_train_search_stats st;
    struct sn_buf text = SN_BUF_INIT, json = SN_BUF_INIT;
    struct sn_yaml_doc doc = {0};
    const struct sn_yaml *root, *ls;
    struct sn_error err;
    size_t n = 0;

    REQUIRE(train_case(&c) == 0);
    sn_train_search_default(&s);
    s.accels = 64;
    s.gbs = 256;
    s.seq = 2048;
    REQUIRE(sn_train_search_run(c.t, &s, &c.so, top, 3, &n, &st, &err) ==
            SN_OK);
    REQUIRE(n == 3);
    c.w.result = NULL;
    c.w.stats = &st;
    c.w.top = top;
    c.w.ntop = n;
    c.w.explain = 2;
    c.w.peak = 312e12;
    sn_render_train_text(&c.w, &text);
    REQUIRE(text.data);
    CHECK(lines_starting(text.data, "#") == 1); /* the table's head */
    CHECK(lines_starting(text.data, "1 ") == 1);
    CHECK(lines_starting(text.data, "3 ") == 1);
    CHECK(lines_starting(text.data, "4 ") == 0);
    CHECK_CONTAINS(text.data, "312.0 TFLOP/s");
    CHECK_CONTAINS(text.data, "\nlayout #2: tp ");
    CHECK_CONTAINS(text.data, "against #1 (");
    sn_render_train_json(&c.w, &json);
    root = parse(json.data, &doc);
    REQUIRE(root);
    CHECK_STR(scalar(root, "schema"), SN_SCHEMA_TRAIN_SEARCH);
    ls = sn_yaml_get(root, "layouts");
    REQUIRE(ls && ls->type == SN_YAML_SEQ && ls->n == 3);
    CHECK_NEAR(number(ls->items[2], "rank"), 3, 0);
    CHECK_NEAR(number(ls->items[0], "step_time_s"), top[0].result.step_time,
               1e-9);
    CHECK(!sn_yaml_get(root, "min_accelerators")); /* some fit */
    sn_yaml_doc_release(&doc);
    sn_buf_release(&text);
    sn_buf_release(&json);
    train_case_release(&c);
}

static void test_infer_documents_name_their_mode(void)
{
    struct train_case c;
    struct sn_infer_layout l = {.tp = 8, .ep = 1, .pp = 1, .batch = 16};
    struct sn_infer_work wk = {.isl = 1024,
                               .osl = 256,
                               .precision = SN_DTYPE_BF16,
                               .kv = SN_DTYPE_BF16};
    struct sn_infer_result r;
    struct sn_infer_search_stats st = {.timed = 7, .pareto = 2, .best = 1};
    struct sn_infer_point pts[2];
    struct sn_render_infer w = {0};
    struct sn_buf out = SN_BUF_INIT;
    struct sn_yaml_doc doc = {0};
    const struct sn_yaml *root, *y;
    struct sn_error err;

    REQUIRE(train_case(&c) == 0);
    REQUIRE(sn_infer_predict(c.m, &c.env.sys, &l, &wk, &r, &err) == SN_OK);
    w = (struct sn_render_infer){.spec = &c.spec,
                                 .model = c.m,
                                 .gpus = 64,
                                 .work = &wk,
                                 .layout = &l,
                                 .result = &r};
    sn_render_infer_json(&w, &out);
    root = parse(out.data, &doc);
    REQUIRE(root);
    CHECK_STR(scalar(root, "schema"), SN_SCHEMA_INFER);
    CHECK_STR(scalar(root, "mode"), "layout");
    y = sn_yaml_get(sn_yaml_get(root, "result"), "decode_step");
    REQUIRE(y && y->type == SN_YAML_MAP);
    CHECK(y->n == SN_INFER_PART_COUNT);
    CHECK_NEAR(number(sn_yaml_get(root, "result"), "tpot_s"), r.tpot_s, 1e-9);
    sn_yaml_doc_release(&doc);
    sn_buf_reset(&out);
    sn_render_infer_text(&w, &out);
    CHECK_CONTAINS(out.data, ", 8 replicas\n");
    CHECK(lines_starting(out.data, "  step ") == 1);
    /* the search: a table row per point, the best marked */
    pts[0] = (struct sn_infer_point){l, r, true, true};
    pts[1] = pts[0];
    w.stats = &st;
    w.points = pts;
    w.npoints = 2;
    sn_buf_reset(&out);
    sn_render_infer_text(&w, &out);
    CHECK(lines_starting(out.data, " best*") == 1);
    CHECK(lines_starting(out.data, " *") == 1);
    sn_buf_reset(&out);
    sn_render_infer_json(&w, &out);
    root = parse(out.data, &doc);
    REQUIRE(root);
    CHECK_STR(scalar(root, "mode"), "search");
    y = sn_yaml_get(root, "points");
    CHECK(y && y->type == SN_YAML_SEQ && y->n == 2);
    sn_yaml_doc_release(&doc);
    sn_buf_release(&out);
    train_case_release(&c);
}

static void test_validate_has_a_row_per_csv_row(void)
{
    const char *file = "tests/fixtures/validation/mixed.csv";
    struct sn_validate_report rep;
    struct sn_buf out = SN_BUF_INIT;
    struct sn_yaml_doc doc = {0};
    const struct sn_yaml *root, *rows;
    struct sn_error err;
    char *data = NULL, line[32];
    size_t len = 0;

    REQUIRE(sn_read_file(file, SN_FILE_MAX, &data, &len, &err) == SN_OK);
    REQUIRE(sn_validate_csv(file, data, len, &rep, &err) == SN_OK);
    REQUIRE(rep.nrows > 1);
    sn_render_validate_json(&rep, &out);
    root = parse(out.data, &doc);
    REQUIRE(root);
    CHECK_STR(scalar(root, "schema"), SN_SCHEMA_VALIDATE);
    rows = sn_yaml_get(root, "rows");
    CHECK(rows && rows->type == SN_YAML_SEQ && rows->n == rep.nrows);
    CHECK_NEAR(number(sn_yaml_get(root, "summary"), "rows"), rep.nrows, 0);
    sn_yaml_doc_release(&doc);
    sn_buf_reset(&out);
    sn_render_validate_text(&rep, &out);
    for (size_t i = 0; i < rep.nrows; i++) {
        snprintf(line, sizeof(line), "%4d ", rep.rows[i].line);
        CHECK_CONTAINS(out.data, line);
    }
    snprintf(line, sizeof(line), "%zu of %zu rows predicted", rep.npredicted,
             rep.nrows);
    CHECK_CONTAINS(out.data, line);
    CHECK_CONTAINS(out.data, "\nby source\n");
    sn_validate_report_release(&rep);
    sn_buf_release(&out);
    free(data);
}

static void test_run_events_text_lists_each_event(void)
{
    struct sn_store_event ev[2] = {
        {.id = 4, .host = "h0", .rule = "gpu_xid", .severity = "critical"},
        {.id = 9, .host = "h1", .rule = "link_flap", .severity = "warning"}};
    struct sn_render_run_events w = {ev, 2, 2};
    struct sn_buf out = SN_BUF_INIT;

    ev[0].resolved = NAN; /* still holding */
    ev[1].resolved = 100;
    sn_render_run_events_text(&w, &out);
    REQUIRE(out.data);
    CHECK_CONTAINS(out.data, "\nwatch events on its hosts while it ran:\n");
    CHECK_CONTAINS(out.data, "  critical h0  gpu_xid  ");
    CHECK_CONTAINS(out.data, "(event 4, holding)\n");
    CHECK_CONTAINS(out.data, "(event 9)\n");
    w.n = 0;
    sn_buf_reset(&out);
    sn_render_run_events_text(&w, &out);
    CHECK(out.len == 0);
    sn_buf_release(&out);
}

static const struct sn_test cases[] = {
    T(test_train_json_carries_schema_and_figures),
    T(test_train_text_has_a_row_per_part),
    T(test_train_not_fitting_names_the_smallest_count),
    T(test_train_search_ranks_and_explains),
    T(test_infer_documents_name_their_mode),
    T(test_validate_has_a_row_per_csv_row),
    T(test_run_events_text_lists_each_event),
};

SN_TEST_MAIN(cases)
