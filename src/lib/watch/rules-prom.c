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
/* The agent's supernode_rule_value of the alert's rule and subject, as
 * a template: the reading behind a rule that alerts on
 * supernode_rule_active (whose value is 1). */
static void agent_value(struct sn_buf *s, const char *rule)
{
    sn_buf_printf(s,
                  "{{ with query (printf `supernode_rule_value{rule=\"%s\", "
                  "subject=\"%%s\", instance=\"%%s\", job=\"%%s\"}` "
                  "$labels.subject $labels.instance $labels.job) }}{{ . | "
                  "first | value }}{{ else }}{{ $value }}{{ end }}",
                  rule);
}

static void value_text(struct sn_buf *s, enum sn__rule_id id, double design_lpm,
                       int gpus, int nics)
{
    switch (id) {
    case SN__RULE_DEVICE_MISSING:
        if (gpus > 0) {
            sn_buf_puts(s, "{{ if eq $labels.subject \"gpus\" }}");
            agent_value(s, "device_missing");
            sn_buf_printf(s, " of %d GPUs found {{ end }}(", gpus);
        } else {
            sn_buf_puts(s, "(");
        }
        break;
    case SN__RULE_NIC_MISSING:
        agent_value(s, "nic_missing");
        sn_buf_printf(s, " of %d fabric NIC ports found (", nics);
        break;
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

struct file_ctx {
    double design_lpm;
    int gpus, nics;
};

static void one_rule(struct sn_buf *out, const struct sn__watch_rule_def *d,
                     const char *severity, const char *expr,
                     const struct file_ctx *f)
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
                   f->design_lpm, f->gpus, f->nics);
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

/* The agent watched from outside: what it cannot say of itself. Rules of
 * Prometheus alone (the agent has no state for them); `up` is of the
 * scrape job named "supernode", as contrib/prometheus/scrape.yml names
 * it. */
static const struct self_rule {
    const char *name, *severity, *for_, *expr, *text, *remedy;
} self[] = {
    {"agent_down", "critical", "5m", "up{job=\"supernode\"} == 0",
     "the agent does not answer Prometheus' scrape (up 0): no rule of "
     "this file can hold for the node while it is down",
     "check the node is up, then systemctl status supernode-watch and its "
     "journal; the port must be reachable from Prometheus"},
    {"collector_down", "warning", "10m",
     "label_replace(supernode_collector_up == 0, \"subject\", "
     "\"collector $1\", \"collector\", \"(.*)\")",
     "collector {{ $labels.collector }} has had no good reading for 10 "
     "minutes ({{ with query (printf `increase(supernode_collector_errors_"
     "total{collector=\"%s\", instance=\"%s\", job=\"%s\"}[10m]) + "
     "increase(supernode_collector_timeouts_total{collector=\"%s\", "
     "instance=\"%s\", job=\"%s\"}[10m])` $labels.collector "
     "$labels.instance $labels.job $labels.collector $labels.instance "
     "$labels.job) }}{{ . | first | value | printf \"%.0f\" }}{{ end }} "
     "errors and timeouts): the rules that need its readings are blind",
     "read the agent's log for the collector's error (a driver, a BMC's "
     "credentials or address, a permission); its readings are absent "
     "until it answers"},
    {"agent_stale", "warning", "5m",
     "label_replace(time() - supernode_watch_last_interval_timestamp_"
     "seconds > 300, \"subject\", \"agent\", \"\", \"\")",
     "the agent answers but its last interval was {{ $value | "
     "humanizeDuration }} ago: its readings and rules are frozen",
     "a collector thread or the store may hang the agent; restart it and "
     "read its log"},
};

static void self_rules(struct sn_buf *out)
{
    for (size_t i = 0; i < sizeof(self) / sizeof(self[0]); i++) {
        const struct self_rule *r = &self[i];
        struct sn_buf s;
        sn_buf_puts(out, "      - alert: ");
        alert_name(out, r->name);
        sn_buf_printf(out,
                      "\n        expr: |-\n          %s\n        for: "
                      "%s\n        labels:\n          rule: %s\n"
                      "          severity: %s\n        annotations:\n"
                      "          summary: ",
                      r->expr, r->for_, r->name, r->severity);
        sn_buf_init(&s);
        sn_buf_printf(&s, "%s on {{ $labels.instance }}", r->name);
        yaml_str(out, s.data);
        sn_buf_puts(out, "\n          description: ");
        sn_buf_reset(&s);
        sn_buf_printf(&s, "{{ $labels.instance }}: %s; remedy: %s.", r->text,
                      r->remedy);
        yaml_str(out, s.data);
        sn_buf_release(&s);
        sn_buf_putc(out, '\n');
    }
}

int sn_watch_rules_file(const struct sn_spec *spec, struct sn_buf *out,
                        struct sn_error *err)
{
    double node_lpm = spec ? sn_plan_branch_flow(spec) * 60e3 : 0;
    int gpus =
        spec && sn__watch_spec_gpus(spec) > 0 ? sn__watch_spec_gpus(spec) : 0;
    struct file_ctx fc = {node_lpm, gpus,
                          spec && spec->scaleout.nics_per_node > 0
                              ? spec->scaleout.nics_per_node
                              : 0};
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
            one_rule(out, d, "critical", e.data, &fc);
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
                 e.data, &fc);
    }
    self_rules(out);
    sn_buf_release(&e);
    return SN_OK;
}
