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

static void one_rule(struct sn_buf *out, const struct sn__watch_rule_def *d,
                     const char *severity, const char *expr)
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
        sn_buf_printf(&s,
                      "{{ $labels.subject }} on {{ $labels.instance }}: "
                      "%s (value {{ $value }}); remedy: %s.",
                      d->summary, d->remedy);
        yaml_str(out, s.data);
        sn_buf_release(&s);
    }
    sn_buf_putc(out, '\n');
}

/* The design's part of the flow rule: a branch below the node's loop
 * flow shared by the node's branches. */
static void flow_expr(struct sn_buf *e, const struct sn__watch_rule_def *d,
                      double node_lpm)
{
    struct sn_buf design;

    sn_buf_init(&design);
    if (node_lpm > 0)
        sn_buf_printf(&design,
                      " or supernode_coolant_flow_liters_per_minute < on "
                      "(instance, job) group_left () (%.4g / count by "
                      "(instance, job) "
                      "(supernode_coolant_flow_liters_per_minute))",
                      node_lpm);
    sn_buf_puts(e, "label_replace(");
    sn_buf_printf(e, d->expr, design.data ? design.data : "");
    sn_buf_puts(e, ", \"subject\", \"branch $1\", \"branch\", \"(.*)\")");
    sn_buf_release(&design);
}

int sn_watch_rules_file(const struct sn_spec *spec, struct sn_buf *out,
                        struct sn_error *err)
{
    double node_lpm = spec ? sn_plan_branch_flow(spec) * 60e3 : 0;
    int gpus = spec && spec->scaleup.per_node > 0 ? spec->scaleup.per_node : 0;
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
            one_rule(out, d, "critical", e.data);
            sn_buf_reset(&e);
            sn_buf_printf(&e, d->expr, "!~");
            break;
        case SN__RULE_DEVICE_MISSING: {
            char more[200] = "";
            if (gpus > 0)
                snprintf(more, sizeof(more),
                         " or label_replace(count by (instance, job) "
                         "(supernode_gpu_temperature_celsius) < %d, "
                         "\"subject\", \"gpus\", \"\", \"\")",
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
                 e.data);
    }
    sn_buf_release(&e);
    return SN_OK;
}
