/* rules-prom.c: the watch rules as a Prometheus rule file (`supernode
 * watch rules SPEC`), for evaluation over a fleet: one alerting rule per
 * watch rule, drawn from the same table as the agent's rules (names,
 * severities, thresholds), with the design's figures filled in. Rules
 * that need the agent's slow state (creep, drift, zombies) alert on the
 * agent's own supernode_rule_active. PromQL of Prometheus 2.42 (Debian
 * 12): no bitwise operators, so throttling is one series per reason. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/plan.h"
#include "sn/watch.h"

#include "rules-int.h"

/* A YAML double-quoted scalar: the one escaper of the format. */
static void yaml_str(struct sn_buf *out, const char *s)
{
    sn_buf_put_esc(out, SN_ESC_YAML, s);
}

/* "coolant_flow_low" as "SupernodeCoolantFlowLow". */
static void alert_name(struct sn_buf *out, const char *rule)
{
    bool up = true;

    sn_buf_puts(out, "Supernode");
    for (; *rule; rule++) {
        if (*rule == '_') {
            up = true;
            continue;
        }
        sn_buf_putc(out, up ? (char)toupper((unsigned char)*rule) : *rule);
        up = false;
    }
}

/* A Prometheus duration: "5m", "1h", "90s". */
static void duration(struct sn_buf *out, double s)
{
    long v = lround(s);

    if (v % 3600 == 0)
        sn_buf_printf(out, "%ldh", v / 3600);
    else if (v % 60 == 0)
        sn_buf_printf(out, "%ldm", v / 60);
    else
        sn_buf_printf(out, "%lds", v);
}

/* What the alert's value is, in words and with its unit, for the rules
 * whose PromQL yields a reading (the others yield the agent's
 * supernode_rule_active, 1, and say nothing of it); design_lpm fills
 * the flow rule's design. */
static void value_text(struct sn_buf *s, enum sn__rule_id id, double design_lpm)
{
    switch (id) {
    case SN__RULE_COOLANT_FLOW_LOW:
        sn_buf_puts(s, "coolant {{ printf \"%.2f\" $value }} L/min");
        if (design_lpm > 0)
            sn_buf_printf(
                s,
                ", design {{ with query (printf `%.4g / count by (instance, "
                "job) (supernode_coolant_flow_liters_per_minute{kind=~"
                "\"gpu|cpu\", instance=\"%%s\", job=\"%%s\"})` "
                "$labels.instance $labels.job) }}{{ . | first | value | "
                "printf \"%%.2f\" }}{{ end }} L/min",
                design_lpm);
        sn_buf_puts(s, " (");
        break;
    case SN__RULE_GPU_XID:
        sn_buf_puts(s, "XID {{ $labels.xid }}, {{ $value }} in 10 minutes (");
        break;
    case SN__RULE_GPU_ECC_UNCORRECTED:
        sn_buf_puts(s, "{{ $value }} uncorrected errors in 10 minutes (");
        break;
    case SN__RULE_GPU_HW_SLOWDOWN:
        sn_buf_puts(s, "held {{ $value | humanizePercentage }} of the time (");
        break;
    case SN__RULE_CONDENSATION_RISK:
        sn_buf_puts(s, "supply {{ printf \"%.1f\" $value }} C (");
        break;
    default:
        sn_buf_puts(s, "(");
        break;
    }
}

static void one_rule(struct sn_buf *out, const struct sn__watch_rule_def *d,
                     const char *severity, const char *expr, double design_lpm)
{
    sn_buf_puts(out, "      - alert: ");
    alert_name(out, d->name);
    sn_buf_puts(out, "\n        expr: |-\n          ");
    sn_buf_puts(out, expr);
    sn_buf_putc(out, '\n');
    if (d->for_s > 0) {
        sn_buf_puts(out, "        for: ");
        duration(out, d->for_s);
        sn_buf_putc(out, '\n');
    }
    sn_buf_printf(out,
                  "        labels:\n          rule: %s\n"
                  "          severity: %s\n",
                  d->name, severity);
    sn_buf_puts(out, "        annotations:\n          summary: ");
    {
        struct sn_buf s;
        sn_buf_init(&s);
        sn_buf_printf(&s, "%s on {{ $labels.instance }}: {{ $labels.subject }}",
                      d->name);
        yaml_str(out, s.data);
        sn_buf_puts(out, "\n          description: ");
        sn_buf_reset(&s);
        sn_buf_puts(&s, "{{ $labels.subject }} on {{ $labels.instance }}: ");
        value_text(&s, (enum sn__rule_id)(d - sn__watch_rule_table),
                   design_lpm);
        sn_buf_printf(&s, "%s); remedy: %s.", d->summary, d->remedy);
        yaml_str(out, s.data);
        sn_buf_release(&s);
    }
    sn_buf_putc(out, '\n');
}

/* The flow rule from its definition's fields, as the agent reads them
 * (rules-cool.c): a branch of the judged kinds below (1 - threshold)
 * times the median of its peer group, itself included, when the group
 * has peers_min; or below the node's loop flow shared by the node's
 * branches of those kinds. */
static void flow_expr(struct sn_buf *e, const struct sn__watch_rule_def *d,
                      double node_lpm)
{
    struct sn_buf f;

    sn_buf_init(&f);
    sn_buf_printf(&f, "supernode_coolant_flow_liters_per_minute{kind=~\"%s\"}",
                  d->subjects);
    sn_buf_puts(e, "label_replace(");
    sn_buf_printf(e,
                  "(%s < on (instance, job, %s) group_left () (%g * quantile "
                  "by (instance, job, %s) (0.5, %s)) and on (instance, job, "
                  "%s) (count by (instance, job, %s) (%s) >= %d))",
                  f.data, d->peers_by, 1 - d->threshold, d->peers_by, f.data,
                  d->peers_by, d->peers_by, f.data, d->peers_min);
    if (node_lpm > 0)
        sn_buf_printf(e,
                      " or %s < on (instance, job) group_left () (%.4g / "
                      "count by (instance, job) (%s))",
                      f.data, node_lpm, f.data);
    sn_buf_puts(e, ", \"subject\", \"branch $1\", \"branch\", \"(.*)\")");
    sn_buf_release(&f);
}

int sn_watch_rules_file(const struct sn_spec *spec, struct sn_buf *out,
                        struct sn_error *err)
{
    double node_lpm = spec ? sn_plan_branch_flow(spec) * 60e3 : 0;
    int gpus =
        spec && sn__watch_spec_gpus(spec) > 0 ? sn__watch_spec_gpus(spec) : 0;
    struct sn_buf e;

    (void)err;
    sn_buf_init(&e);
    /* the spec's name is input: one comment line, whatever it holds */
    sn_buf_puts(out, "# Prometheus alerting rules of `supernode watch`, "
                     "written by `supernode watch rules`\n# for ");
    sn_buf_put_esc(out, SN_ESC_YAML_COMMENT,
                   spec && spec->name ? spec->name : "no spec");
    sn_buf_puts(out, ": ");
    if (node_lpm > 0)
        sn_buf_printf(out, "a node's cold-plate loop needs %.4g L/min",
                      node_lpm);
    else
        sn_buf_puts(out, "no liquid flow in the design");
    sn_buf_printf(out,
                  ", %d accelerators a node.\n# The same rules, names and "
                  "thresholds as the agent's supernode_rule_active.\n",
                  gpus);
    sn_buf_puts(out, "groups:\n  - name: supernode-watch\n    rules:\n");
    for (int i = 0; i < SN__RULE_COUNT; i++) {
        const struct sn__watch_rule_def *d = &sn__watch_rule_table[i];
        sn_buf_reset(&e);
        switch (i) {
        case SN__RULE_COOLANT_FLOW_LOW:
            flow_expr(&e, d, node_lpm);
            break;
        case SN__RULE_GPU_XID:
            /* two tiers: the catalogue's critical codes, the rest */
            sn_buf_printf(&e, d->expr, "=~");
            one_rule(out, d, "critical", e.data, node_lpm);
            sn_buf_reset(&e);
            sn_buf_printf(&e, d->expr, "!~");
            break;
        case SN__RULE_DEVICE_MISSING: {
            char more[320] = "";
            /* the larger of NVML's count and the PCI bus', as the
             * agent takes it; neither read: no news */
            if (gpus > 0)
                snprintf(more, sizeof(more),
                         " or on (instance, job, subject) label_replace(max "
                         "by (instance, job) ({__name__=~"
                         "\"supernode_nvml_devices|supernode_pci_gpus\"}) "
                         "< %d, \"subject\", \"gpus\", \"\", \"\")",
                         gpus);
            sn_buf_printf(&e, d->expr, more);
            break;
        }
        default:
            if (strstr(d->expr, "%g"))
                sn_buf_printf(&e, d->expr, d->threshold);
            else
                sn_buf_puts(&e, d->expr);
            break;
        }
        one_rule(out, d, i == SN__RULE_GPU_XID ? "warning" : d->severity,
                 e.data, node_lpm);
    }
    sn_buf_release(&e);
    return SN_OK;
}
