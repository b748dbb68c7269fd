/* check.c (render): a diagnosis (`supernode check`) for people (text),
 * for programs (SN_SCHEMA_CHECK JSON) and for CI systems (JUnit XML).
 * Declared in sn/diagnose.h, whose report it renders. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/diagnose.h"
#include "sn/render.h"

struct tally {
    size_t n[3];
    size_t untested;
};

static void count(const struct sn_verdict *v, size_t n, struct tally *t)
{
    memset(t, 0, sizeof(*t));
    for (size_t i = 0; i < n; i++) {
        if (!v[i].measured)
            t->untested++;
        else
            t->n[v[i].severity]++;
    }
}

static void tally_text(struct sn_buf *out, const char *what,
                       const struct tally *t)
{
    bool first = true;

    sn_buf_printf(out, "%s", what);
    for (int s = SN_SEV_FAIL; s >= SN_SEV_PASS; s--) {
        if (!t->n[s])
            continue;
        sn_buf_printf(out, "%s %zu %s", first ? "" : ",", t->n[s],
                      sn_severity_name((enum sn_severity)s));
        first = false;
    }
    if (t->untested)
        sn_buf_printf(out, "%s %zu not measured", first ? "" : ",",
                      t->untested);
    else if (first)
        sn_buf_puts(out, " none");
}

/* The number of references in judged bits. */
static size_t bases_count(unsigned judged)
{
    size_t n = 0;

    for (int b = 0; b < SN_BASIS_COUNT; b++)
        n += (judged >> b) & 1u;
    return n;
}

/* "design, baseline and peers": the references in judged bits. */
static void bases_list(struct sn_buf *out, unsigned judged)
{
    size_t n = bases_count(judged), k = 0;

    for (int b = 0; b < SN_BASIS_COUNT; b++) {
        if (!((judged >> b) & 1u))
            continue;
        k++;
        sn_buf_printf(out, "%s%s",
                      k == 1   ? ""
                      : k == n ? " and "
                               : ", ",
                      sn_diag_basis_name((enum sn_diag_basis)b));
    }
}

/* "judged against design and peers" from a figure's judged bits. */
static void bases_text(struct sn_buf *out, unsigned judged)
{
    if (!bases_count(judged)) {
        sn_buf_puts(out, "not judged");
        return;
    }
    sn_buf_puts(out, "judged against ");
    bases_list(out, judged);
}

/* The measured figures of one kind of subject, one line each:
 * "  compute.gemm dtype=fp32: median 60.6 GFLOP/s, 29.9 GFLOP/s to
 * 91.4 GFLOP/s over 2 ranks; judged against design". */
static void figures_text(struct sn_buf *out, const struct sn_diag_report *r,
                         enum sn_subject subject)
{
    static const char *const what[] = {"ranks", "pairs", "collectives"};

    for (size_t i = 0; i < r->nfigures; i++) {
        const struct sn_diag_figure *f = &r->figures[i];
        char a[32], b[32], c[32];
        if (f->subject != subject)
            continue;
        sn_buf_puts(out, "  ");
        sn_buf_put_esc(out, SN_ESC_TERM, f->test);
        if (f->params[0]) {
            sn_buf_putc(out, ' ');
            sn_buf_put_esc(out, SN_ESC_TERM, f->params);
        }
        if (!f->n) {
            sn_buf_puts(out, ": no measured value; ");
        } else if (f->n == 1) {
            sn_buf_printf(
                out, ": %s; ",
                sn_unit_format_named(f->median, f->unit, a, sizeof(a)));
        } else {
            sn_buf_printf(
                out, ": median %s, %s to %s over %zu %s; ",
                sn_unit_format_named(f->median, f->unit, a, sizeof(a)),
                sn_unit_format_named(f->min, f->unit, b, sizeof(b)),
                sn_unit_format_named(f->max, f->unit, c, sizeof(c)), f->n,
                what[subject]);
        }
        bases_text(out, f->judged);
        sn_buf_putc(out, '\n');
    }
}

/* The header's references, those that judged some result: " (design
 * and peers; no baseline)"; a run with too few ranks for peers, or no
 * design value, says so. */
static void header_bases(struct sn_buf *out, const struct sn_diag_report *r)
{
    unsigned judged = 0;
    size_t n;

    for (size_t i = 0; i < r->nfigures; i++)
        judged |= r->figures[i].judged;
    n = bases_count(judged);
    sn_buf_puts(out, " (");
    if (!(judged & (1u << SN_BASIS_DESIGN)) && r->nresults)
        sn_buf_puts(out, n ? "no design value; " : "no design value");
    bases_list(out, judged);
    if (!r->peers_judged && r->nresults)
        sn_buf_printf(out, "; not judged against peers: %zu rank%s, %zu needed",
                      r->ranks, r->ranks == 1 ? "" : "s", r->peer_min);
    if (!r->baseline_used)
        sn_buf_puts(out, "; no baseline");
    sn_buf_putc(out, ')');
}

void sn_render_diag_text(const struct sn_diag_report *r, bool verbose,
                         struct sn_buf *out)
{
    struct tally td, tp, tl;
    size_t shown[3] = {0, 0, 0};

    count(r->devices, r->ndevices, &td);
    count(r->pairs, r->npairs, &tp);
    count(r->links, r->nlinks, &tl);
    sn_buf_printf(out, "check: %s, %zu finding%s from %zu results",
                  sn_severity_name(r->verdict), r->n, r->n == 1 ? "" : "s",
                  r->nresults);
    header_bases(out, r);
    sn_buf_putc(out, '\n');
    for (size_t i = 0; i < r->n; i++) {
        const struct sn_finding *f = &r->findings[i];
        shown[f->severity]++;
        /* subjects, labels and evidence carry names from the results
         * and from the machine (hosts, doctor's readings): each is one
         * line of clean text */
        sn_buf_printf(out, "\n%s %s ", sn_severity_name(f->severity),
                      sn_finding_kind_name(f->kind));
        sn_buf_put_esc(out, SN_ESC_TERM, f->subject);
        sn_buf_puts(out, "  ");
        sn_buf_put_esc(out, SN_ESC_TERM, f->label);
        sn_buf_puts(out, "\n     ");
        sn_buf_put_esc(out, SN_ESC_TERM, f->evidence);
        sn_buf_putc(out, '\n');
        if (f->nsupport) {
            sn_buf_puts(out, "     slow pairs:");
            for (size_t k = 0; k < f->nsupport; k++) {
                sn_buf_puts(out, k ? ", " : " ");
                sn_buf_put_esc(out, SN_ESC_TERM, f->support[k]);
            }
            sn_buf_putc(out, '\n');
        }
        sn_buf_puts(out, "     next: ");
        sn_buf_put_esc(out, SN_ESC_TERM, f->next_step);
        sn_buf_putc(out, '\n');
    }
    sn_buf_puts(out, "\n");
    tally_text(out, "devices:", &td);
    sn_buf_putc(out, '\n');
    figures_text(out, r, SN_SUBJECT_DEVICE);
    tally_text(out, "pairs:  ", &tp);
    sn_buf_putc(out, '\n');
    figures_text(out, r, SN_SUBJECT_PAIR);
    for (size_t i = 0; i < r->nfigures; i++)
        if (r->figures[i].subject == SN_SUBJECT_GROUP) {
            sn_buf_puts(out, "collectives:\n");
            figures_text(out, r, SN_SUBJECT_GROUP);
            break;
        }
    if (r->nlinks) {
        tally_text(out, "links:  ", &tl);
        sn_buf_putc(out, '\n');
    }
    if (r->nhealth) {
        sn_buf_putc(out, '\n');
        /* a FAIL's remedy is its finding's next step, above */
        sn_render_diag_health(r->health, r->nhealth, false, verbose, out);
    }
}

/* ---- node health ------------------------------------------------------------
 */

static const char *const health_status[] = {"FAIL", "WARN", "SKIP", "PASS"};
#define NSTATUS SN_ARRAY_LEN(health_status)

/* Index into health_status (worst first); PASS for anything else. */
static size_t status_index(const char *s)
{
    for (size_t k = 0; k < NSTATUS; k++)
        if (!strcmp(s, health_status[k]))
            return k;
    return NSTATUS - 1;
}

static void status_counts(struct sn_buf *out, const size_t *counts)
{
    bool first = true;

    for (size_t k = 0; k < NSTATUS; k++) {
        if (!counts[k])
            continue;
        sn_buf_printf(out, "%s%zu %s", first ? "" : ", ", counts[k],
                      health_status[k]);
        first = false;
    }
    if (first)
        sn_buf_puts(out, "no checks");
}

/* Is host h[i].host seen before index i? */
static bool host_seen(const struct sn_store_health *h, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (!strcmp(h[k].host, h[i].host))
            return true;
    return false;
}

void sn_render_diag_health(const struct sn_store_health *h, size_t n,
                           bool fail_remedies, bool verbose, struct sn_buf *out)
{
    size_t all[NSTATUS] = {0}, nhosts = 0;

    if (!n)
        return;
    for (size_t i = 0; i < n; i++) {
        all[status_index(h[i].status)]++;
        nhosts += !host_seen(h, i);
    }
    sn_buf_printf(out, "node health (doctor, %zu host%s): ", nhosts,
                  nhosts == 1 ? "" : "s");
    status_counts(out, all);
    sn_buf_putc(out, '\n');
    for (size_t i = 0; i < n; i++) {
        size_t counts[NSTATUS] = {0};
        if (host_seen(h, i))
            continue;
        for (size_t k = i; k < n; k++)
            if (!strcmp(h[k].host, h[i].host))
                counts[status_index(h[k].status)]++;
        sn_buf_puts(out, "  ");
        sn_buf_put_esc(out, SN_ESC_TERM, h[i].host[0] ? h[i].host : "?");
        sn_buf_puts(out, ": ");
        status_counts(out, counts);
        sn_buf_putc(out, '\n');
        /* what did not pass, worst first, in the order doctor made it;
         * the SKIPs (probes the machine could not answer) only when
         * asked: a healthy node's report is its FAILs and WARNs */
        for (size_t s = 0; s + 1 < NSTATUS; s++) {
            if (s == 2 && !verbose) {
                if (counts[2])
                    sn_buf_printf(out,
                                  "    %zu SKIP (--verbose lists "
                                  "them)\n",
                                  counts[2]);
                continue;
            }
            for (size_t k = i; k < n; k++) {
                const struct sn_store_health *c = &h[k];
                if (strcmp(c->host, h[i].host) || status_index(c->status) != s)
                    continue;
                sn_buf_puts(out, "    ");
                sn_buf_put_esc(out, SN_ESC_TERM, c->status);
                sn_buf_putc(out, ' ');
                sn_buf_put_esc(out, SN_ESC_TERM, c->name);
                if (c->subject[0]) {
                    sn_buf_putc(out, ' ');
                    sn_buf_put_esc(out, SN_ESC_TERM, c->subject);
                }
                sn_buf_puts(out, ": ");
                sn_buf_put_esc(out, SN_ESC_TERM, c->evidence);
                sn_buf_putc(out, '\n');
                if ((s == 1 || (s == 0 && fail_remedies)) && c->remedy &&
                    c->remedy[0]) {
                    sn_buf_puts(out, "         next: ");
                    sn_buf_put_esc(out, SN_ESC_TERM, c->remedy);
                    sn_buf_putc(out, '\n');
                }
            }
        }
    }
}

/* ---- JSON -------------------------------------------------------------------
 */

static void cmp_json(struct sn_json *j, enum sn_diag_basis b,
                     const struct sn_diag_cmp *c)
{
    sn_json_key(j, sn_diag_basis_name(b));
    if (!c->valid) {
        sn_json_null(j);
        return;
    }
    sn_json_obj_begin(j);
    sn_json_kstr(j, "severity", sn_severity_name(c->severity));
    sn_json_knum(j, "reference", c->reference);
    sn_json_knum(j, "ratio", c->ratio);
    if (b != SN_BASIS_DESIGN) {
        sn_json_knum(j, "z", c->z);
        sn_json_knum(j, "noise", c->noise);
        sn_json_knum(j, "low", c->lo);
        sn_json_knum(j, "high", c->hi);
    }
    if (b == SN_BASIS_PEERS)
        sn_json_kint(j, "peers", (long long)c->npeers);
    sn_json_obj_end(j);
}

static void strings_json(struct sn_json *j, const char *key, char **s, size_t n)
{
    sn_json_key(j, key);
    sn_json_arr_begin(j);
    for (size_t i = 0; i < n; i++)
        sn_json_str(j, s[i]);
    sn_json_arr_end(j);
}

static void verdicts_json(struct sn_json *j, const char *key,
                          const struct sn_verdict *v, size_t n)
{
    sn_json_key(j, key);
    sn_json_arr_begin(j);
    for (size_t i = 0; i < n; i++) {
        sn_json_obj_begin(j);
        sn_json_kstr(j, "subject", v[i].subject);
        sn_json_kstr(j, "label", v[i].label);
        sn_json_kstr(j, "verdict",
                     v[i].measured ? sn_severity_name(v[i].severity)
                                   : "UNTESTED");
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
}

static void tally_json(struct sn_json *j, const char *key,
                       const struct tally *t)
{
    sn_json_key(j, key);
    sn_json_obj_begin(j);
    sn_json_kint(j, "PASS", (long long)t->n[SN_SEV_PASS]);
    sn_json_kint(j, "WARN", (long long)t->n[SN_SEV_WARN]);
    sn_json_kint(j, "FAIL", (long long)t->n[SN_SEV_FAIL]);
    sn_json_kint(j, "UNTESTED", (long long)t->untested);
    sn_json_obj_end(j);
}

/* counts.health: how many doctor checks had each status. */
static void health_json(struct sn_json *j, const struct sn_diag_report *r)
{
    size_t counts[NSTATUS] = {0};

    for (size_t i = 0; i < r->nhealth; i++)
        counts[status_index(r->health[i].status)]++;
    sn_json_key(j, "health");
    sn_json_obj_begin(j);
    for (size_t k = NSTATUS; k-- > 0;)
        sn_json_kint(j, health_status[k], (long long)counts[k]);
    sn_json_obj_end(j);
}

/* figures: what each kind of measurement gave and what judged it. */
static void figures_json(struct sn_json *j, const struct sn_diag_report *r)
{
    static const char *const subject[] = {"device", "pair", "group"};

    sn_json_key(j, "figures");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < r->nfigures; i++) {
        const struct sn_diag_figure *f = &r->figures[i];
        sn_json_obj_begin(j);
        sn_json_kstr(j, "subject", subject[f->subject]);
        sn_json_kstr(j, "test", f->test);
        sn_json_kstr(j, "params", f->params);
        sn_json_kstr(j, "unit", f->unit);
        sn_json_kint(j, "n", (long long)f->n);
        sn_json_knum(j, "median", f->median);
        sn_json_knum(j, "min", f->min);
        sn_json_knum(j, "max", f->max);
        sn_json_key(j, "judged_against");
        sn_json_arr_begin(j);
        for (int b = 0; b < SN_BASIS_COUNT; b++)
            if ((f->judged >> b) & 1u)
                sn_json_str(j, sn_diag_basis_name((enum sn_diag_basis)b));
        sn_json_arr_end(j);
        sn_json_key(j, "verdict"); /* null: nothing judged them */
        if (f->judged)
            sn_json_str(j, sn_severity_name(f->worst));
        else
            sn_json_null(j);
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
}

void sn_render_diag_json(const struct sn_diag_report *r, int64_t run_id,
                         const char *spec_name, struct sn_buf *out)
{
    struct sn_json j;
    struct tally td, tp, tl;

    count(r->devices, r->ndevices, &td);
    count(r->pairs, r->npairs, &tp);
    count(r->links, r->nlinks, &tl);
    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_CHECK);
    if (run_id)
        sn_json_kint(&j, "run", run_id);
    if (spec_name)
        sn_json_kstr(&j, "spec", spec_name);
    sn_json_kstr(&j, "verdict", sn_severity_name(r->verdict));
    sn_json_kbool(&j, "baseline", r->baseline_used);
    sn_json_kint(&j, "results", (long long)r->nresults);
    sn_json_key(&j, "counts");
    sn_json_obj_begin(&j);
    tally_json(&j, "devices", &td);
    tally_json(&j, "pairs", &tp);
    tally_json(&j, "links", &tl);
    health_json(&j, r);
    sn_json_obj_end(&j);
    sn_json_key(&j, "peers");
    sn_json_obj_begin(&j);
    sn_json_kbool(&j, "judged", r->peers_judged);
    sn_json_kint(&j, "ranks", (long long)r->ranks);
    sn_json_kint(&j, "needed", (long long)r->peer_min);
    sn_json_obj_end(&j);
    figures_json(&j, r);
    sn_json_key(&j, "findings");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < r->n; i++) {
        const struct sn_finding *f = &r->findings[i];
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "severity", sn_severity_name(f->severity));
        sn_json_kstr(&j, "kind", sn_finding_kind_name(f->kind));
        sn_json_kstr(&j, "subject", f->subject);
        sn_json_kstr(&j, "label", f->label);
        sn_json_kstr(&j, "test", f->test);
        sn_json_kstr(&j, "params", f->params);
        sn_json_kstr(&j, "unit", f->unit);
        sn_json_knum(&j, "confidence", f->confidence);
        sn_json_key(&j, "evidence");
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "summary", f->evidence);
        if (f->kind == SN_FIND_LINK) {
            sn_json_knum(&j, "health", f->health);
            sn_json_kint(&j, "conflicts", (long long)f->conflicts);
            strings_json(&j, "slow_pairs", f->support, f->nsupport);
            strings_json(&j, "alternatives", f->alternatives, f->nalternatives);
        } else {
            sn_json_knum(&j, "measured", f->measured);
            for (int b = 0; b < SN_BASIS_COUNT; b++)
                cmp_json(&j, (enum sn_diag_basis)b, &f->cmp[b]);
        }
        sn_json_obj_end(&j);
        sn_json_kstr(&j, "next_step", f->next_step);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_key(&j, "verdicts");
    sn_json_obj_begin(&j);
    verdicts_json(&j, "devices", r->devices, r->ndevices);
    verdicts_json(&j, "pairs", r->pairs, r->npairs);
    verdicts_json(&j, "links", r->links, r->nlinks);
    sn_json_obj_end(&j);
    /* what doctor found on each host, every check */
    sn_json_key(&j, "health");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < r->nhealth; i++) {
        const struct sn_store_health *h = &r->health[i];
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "host", h->host);
        sn_json_kstr(&j, "name", h->name);
        sn_json_kstr(&j, "status", h->status);
        sn_json_kstr(&j, "subject", h->subject);
        sn_json_kstr(&j, "evidence", h->evidence ? h->evidence : "");
        sn_json_kstr(&j, "remedy", h->remedy ? h->remedy : "");
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    sn_buf_putc(out, '\n');
}

/* ---- JUnit ------------------------------------------------------------------
 */

/* Element text and attribute values: the XML escaper (multi-line
 * evidence keeps its lines). */
static void xml_escape(struct sn_buf *b, const char *s)
{
    sn_buf_put_esc(b, SN_ESC_XML_LINES, s);
}

/* Do two "x~y" names name the same pair, in either direction? */
static bool same_pair(const char *x, const char *y)
{
    const char *tx = strchr(x, '~'), *ty = strchr(y, '~');
    size_t ax, ay;

    if (!tx || !ty)
        return false;
    ax = (size_t)(tx - x);
    ay = (size_t)(ty - y);
    if (ax == ay && !strncmp(x, y, ax) && !strcmp(tx + 1, ty + 1))
        return true;
    /* x's first name is y's second and the other way round */
    return strlen(ty + 1) == ax && !strncmp(x, ty + 1, ax) &&
           strlen(tx + 1) == ay && !strncmp(tx + 1, y, ay);
}

/* Is finding f about the subject of test case v in class cls? A pair's
 * case also takes the link finding whose slow pairs include it: that
 * link is why the pair failed. */
static bool finding_is_for(const struct sn_finding *f, const char *cls,
                           const struct sn_verdict *v)
{
    if (!strcmp(cls, "link"))
        return f->kind == SN_FIND_LINK && !strcmp(f->subject, v->subject);
    if (!strcmp(cls, "device"))
        return (f->kind == SN_FIND_DEVICE || f->kind == SN_FIND_MISSING) &&
               !strcmp(f->subject, v->subject);
    if (f->kind == SN_FIND_LINK) {
        for (size_t k = 0; k < f->nsupport; k++)
            if (same_pair(f->support[k], v->label))
                return true;
        return false;
    }
    return (f->kind == SN_FIND_UNEXPLAINED || f->kind == SN_FIND_PAIR ||
            f->kind == SN_FIND_MISSING) &&
           same_pair(f->subject, v->subject);
}

/* One finding in a test case: the strongest of a failed case as its
 * <failure> (one per case, so that every consumer counts it once), the
 * others as WARN lines in <system-out>. */
static void junit_finding(struct sn_buf *out, const struct sn_finding *f,
                          const char *cls, bool as_failure)
{
    bool via_link = f->kind == SN_FIND_LINK && strcmp(cls, "link");

    if (as_failure) {
        sn_buf_puts(out, "      <failure type=\"");
        xml_escape(out, sn_finding_kind_name(f->kind));
        sn_buf_puts(out, "\" message=\"");
    } else {
        sn_buf_printf(out,
                      "      <system-out>%s: ", sn_severity_name(f->severity));
    }
    if (via_link) {
        sn_buf_puts(out, "slow because of link ");
        xml_escape(out, f->subject);
        sn_buf_puts(out, " ");
        xml_escape(out, f->label);
        sn_buf_puts(out, ": ");
    }
    xml_escape(out, f->evidence);
    if (as_failure) {
        sn_buf_puts(out, "\">");
        xml_escape(out, f->next_step);
        sn_buf_puts(out, "</failure>\n");
    } else {
        sn_buf_puts(out, " Next: ");
        xml_escape(out, f->next_step);
        sn_buf_puts(out, "</system-out>\n");
    }
}

static void junit_case(struct sn_buf *out, const struct sn_diag_report *r,
                       const char *cls, const struct sn_verdict *v)
{
    bool failed = false;

    sn_buf_puts(out, "    <testcase classname=\"");
    xml_escape(out, cls);
    sn_buf_puts(out, "\" name=\"");
    xml_escape(out, v->subject);
    sn_buf_puts(out, " ");
    xml_escape(out, v->label);
    sn_buf_puts(out, "\"");
    if (!v->measured) {
        sn_buf_puts(out, ">\n      <skipped message=\"not measured\"/>\n"
                         "    </testcase>\n");
        return;
    }
    if (v->severity == SN_SEV_PASS) {
        sn_buf_puts(out, "/>\n");
        return;
    }
    sn_buf_puts(out, ">\n");
    /* findings are strongest first: a failed case's first finding is
     * its failure */
    for (size_t i = 0; i < r->n; i++) {
        const struct sn_finding *f = &r->findings[i];
        if (!finding_is_for(f, cls, v))
            continue;
        junit_finding(out, f, cls, v->severity == SN_SEV_FAIL && !failed);
        failed = failed || v->severity == SN_SEV_FAIL;
    }
    if (v->severity == SN_SEV_FAIL && !failed)
        sn_buf_puts(out, "      <failure type=\"FAIL\" message=\"below "
                         "its design, baseline or peers\"/>\n");
    sn_buf_puts(out, "    </testcase>\n");
}

static void junit_suite(struct sn_buf *out, const struct sn_diag_report *r,
                        const char *name, const char *cls,
                        const struct sn_verdict *v, size_t n)
{
    struct tally t;

    count(v, n, &t);
    sn_buf_printf(out,
                  "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" "
                  "skipped=\"%zu\">\n",
                  name, n, t.n[SN_SEV_FAIL], t.untested);
    for (size_t i = 0; i < n; i++)
        junit_case(out, r, cls, &v[i]);
    sn_buf_puts(out, "  </testsuite>\n");
}

/* The findings about a class of subjects (systemic) or a collective, one
 * test case each, in a suite of their own. */
static void junit_finding_suite(struct sn_buf *out,
                                const struct sn_diag_report *r,
                                const char *name, enum sn_finding_kind kind)
{
    size_t n = 0, nfail = 0;
    const char *cls = sn_finding_kind_name(kind);

    for (size_t i = 0; i < r->n; i++)
        if (r->findings[i].kind == kind) {
            n++;
            nfail += r->findings[i].severity == SN_SEV_FAIL;
        }
    if (!n)
        return;
    sn_buf_printf(out,
                  "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\">\n",
                  name, n, nfail);
    for (size_t i = 0; i < r->n; i++) {
        const struct sn_finding *f = &r->findings[i];
        if (f->kind != kind)
            continue;
        sn_buf_puts(out, "    <testcase classname=\"");
        xml_escape(out, cls);
        sn_buf_puts(out, "\" name=\"");
        xml_escape(out, f->subject);
        sn_buf_puts(out, " ");
        xml_escape(out, f->test);
        if (f->params[0]) {
            sn_buf_puts(out, " ");
            xml_escape(out, f->params);
        }
        sn_buf_puts(out, "\">\n");
        junit_finding(out, f, cls, f->severity == SN_SEV_FAIL);
        sn_buf_puts(out, "    </testcase>\n");
    }
    sn_buf_puts(out, "  </testsuite>\n");
}

/* The doctor checks, one test case each: a FAIL fails with the remedy, a
 * SKIP is skipped, a WARN says so in <system-out>. */
static void junit_health_suite(struct sn_buf *out,
                               const struct sn_diag_report *r)
{
    size_t nfail = 0, nskip = 0;

    if (!r->nhealth)
        return;
    for (size_t i = 0; i < r->nhealth; i++) {
        nfail += !strcmp(r->health[i].status, "FAIL");
        nskip += !strcmp(r->health[i].status, "SKIP");
    }
    sn_buf_printf(out,
                  "  <testsuite name=\"health\" tests=\"%zu\" "
                  "failures=\"%zu\" skipped=\"%zu\">\n",
                  r->nhealth, nfail, nskip);
    for (size_t i = 0; i < r->nhealth; i++) {
        const struct sn_store_health *h = &r->health[i];
        const char *ev = h->evidence ? h->evidence : "";
        sn_buf_puts(out, "    <testcase classname=\"health.");
        xml_escape(out, h->host);
        sn_buf_puts(out, "\" name=\"");
        xml_escape(out, h->name);
        if (h->subject[0]) {
            sn_buf_puts(out, " ");
            xml_escape(out, h->subject);
        }
        sn_buf_puts(out, "\"");
        if (!strcmp(h->status, "PASS")) {
            sn_buf_puts(out, "/>\n");
            continue;
        }
        sn_buf_puts(out, ">\n");
        if (!strcmp(h->status, "FAIL")) {
            sn_buf_puts(out, "      <failure type=\"health\" message=\"");
            xml_escape(out, ev);
            sn_buf_puts(out, "\">");
            xml_escape(out, h->remedy ? h->remedy : "");
            sn_buf_puts(out, "</failure>\n");
        } else if (!strcmp(h->status, "SKIP")) {
            sn_buf_puts(out, "      <skipped message=\"");
            xml_escape(out, ev);
            sn_buf_puts(out, "\"/>\n");
        } else {
            sn_buf_puts(out, "      <system-out>WARN: ");
            xml_escape(out, ev);
            if (h->remedy && h->remedy[0]) {
                sn_buf_puts(out, " Next: ");
                xml_escape(out, h->remedy);
            }
            sn_buf_puts(out, "</system-out>\n");
        }
        sn_buf_puts(out, "    </testcase>\n");
    }
    sn_buf_puts(out, "  </testsuite>\n");
}

void sn_render_diag_junit(const struct sn_diag_report *r,
                          const char *suite_name, struct sn_buf *out)
{
    size_t nclass = 0, cfail = 0, hfail = 0;
    struct tally td, tp, tl;

    count(r->devices, r->ndevices, &td);
    count(r->pairs, r->npairs, &tp);
    count(r->links, r->nlinks, &tl);
    for (size_t i = 0; i < r->n; i++)
        if (r->findings[i].kind == SN_FIND_GROUP ||
            r->findings[i].kind == SN_FIND_SYSTEMIC) {
            nclass++;
            cfail += r->findings[i].severity == SN_SEV_FAIL;
        }
    for (size_t i = 0; i < r->nhealth; i++)
        hfail += !strcmp(r->health[i].status, "FAIL");
    sn_buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sn_buf_puts(out, "<testsuites name=\"");
    xml_escape(out, suite_name ? suite_name : "supernode check");
    sn_buf_printf(out, "\" tests=\"%zu\" failures=\"%zu\">\n",
                  r->ndevices + r->npairs + r->nlinks + nclass + r->nhealth,
                  td.n[SN_SEV_FAIL] + tp.n[SN_SEV_FAIL] + tl.n[SN_SEV_FAIL] +
                      cfail + hfail);
    junit_suite(out, r, "devices", "device", r->devices, r->ndevices);
    junit_suite(out, r, "pairs", "pair", r->pairs, r->npairs);
    if (r->nlinks)
        junit_suite(out, r, "links", "link", r->links, r->nlinks);
    /* what no single subject carries: a shortfall of a whole class, and
     * the collectives */
    junit_finding_suite(out, r, "systemic", SN_FIND_SYSTEMIC);
    junit_finding_suite(out, r, "collectives", SN_FIND_GROUP);
    junit_health_suite(out, r);
    sn_buf_puts(out, "</testsuites>\n");
}
