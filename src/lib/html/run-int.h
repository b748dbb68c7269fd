/* run-int.h (html, internal): one stored run as the run section's
 * parts read it: the run, its results with what the design expects of
 * each, the baseline, findings and node health. run.c loads it and
 * writes the findings, health and events; heat.c the pair
 * heatmap; perf.c the collective, latency and device figures.
 */
#ifndef SN_HTML_RUN_INT_H
#define SN_HTML_RUN_INT_H

#if !defined(SN_MODULE_html) && !defined(SN_TESTS)
#error "private to src/lib/html (tests/layers/table)"
#endif

#include "html-int.h"
#include "sn/store.h"
#include "sn/topo.h"

/* Above this many ranks the heatmap shows one cell per switch pair. */
#define REP_HEAT_MAX_RANKS 256
/* Pair results the design routes one by one at most (with rounds shared
 * as check shares them); above, one pair per class (the two ranks'
 * switches and whether they share a server or a domain), routed alone,
 * stands for its class: routing all 499,500 pairs of 1,000 devices takes
 * minutes, the classes well under a second. */
#define REP_EXPECT_PAIRS_MAX 20000

struct sn__html_run {
    const struct sn_html_in *in;
    struct sn_run run;
    struct sn_results rs;
    double *expected;           /* per result: the design's value, NaN */
    const struct sn_topo *topo; /* in->topo when it fits the run's ranks */
    struct sn_baseline bl;
    bool have_bl;
    struct sn_store_finding *f;
    size_t nf;
    struct sn_store_health *h;
    size_t nh;
    char note[320]; /* why there are no design values, "" */
};

/* The switch a rank's network port hangs off: the scale-out switch of
 * its NIC, else its first scale-up switch; SN_NONE when neither. */
uint32_t sn__html_rank_switch(const struct sn_topo *t, uint32_t rank);

/* The anchor of one of the run's figures: "run<id>-<what>". */
const char *sn__html_run_anchor(const struct sn__html_run *r, const char *what,
                                char *buf, size_t size);

/* A y axis whose ticks are short numbers: the unit's SI prefix taken
 * out of the ticks into the title, "busbw (GB/s)" (seconds keep their
 * own ticks, "20 us"), as the toolkit has room for ticks of eight
 * characters. title NULL: none drawn; the prefixed unit ("GB/s") goes
 * to shown (size bytes) when it is not NULL. */
void sn__html_axis_y(struct sn_buf *b, const struct sn__svg_scale *sy, double x,
                     double gx1, const char *title, const char *unit,
                     char *shown, size_t size);

/* The pair bandwidth heatmap (nothing without pair results). */
void sn__html_run_heatmap(struct sn_buf *b, const struct sn__html_run *r);
/* Collective busbw curves, latency distributions, compute and memory
 * against the peak (each nothing without its results). */
void sn__html_run_colls(struct sn_buf *b, const struct sn__html_run *r);
void sn__html_run_latency(struct sn_buf *b, const struct sn__html_run *r);
void sn__html_run_devices(struct sn_buf *b, const struct sn__html_run *r);

#endif
