/* cmd-plan.c: `supernode plan [SPEC]`: the physical plan of a design:
 * bill of materials, links and cables, bandwidth, power, cooling, storage
 * and memory fit, as text or JSON; optionally the cable ledger (CSV) and a
 * Graphviz drawing. Without SPEC it plans the built-in default design.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sn/plan.h"

/* Topologies up to this many devices are drawn device by device. */
#define DOT_DETAIL_MAX 64

struct plan_opts {
    const char *spec;
    const char *output;
    const char *ledger;
    const char *dot;
    enum sn_format format;
    struct cli_sets sets;
};

static int parse(int argc, char **argv, struct plan_opts *o)
{
    int rc = SN_EXIT_OK;

    memset(o, 0, sizeof(*o));
    o->format = SN_FORMAT_TABLE;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (cli_set_opt(argc, argv, &i, &o->sets, &rc)) {
            if (rc)
                return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--format", "-f", &rc))) {
            if (cli_parse_format(v, "text,table,json", &o->format))
                return SN_EXIT_USAGE;
        } else if ((v = cli_opt_value(argc, argv, &i, "--output", "-o", &rc))) {
            o->output = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--ledger", NULL, &rc))) {
            o->ledger = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--dot", NULL, &rc))) {
            o->dot = v;
        } else if (rc) {
            return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("plan", argv[i], "plan");
        } else if (o->spec) {
            return cli_usage_error("plan takes one SPEC (got '%s' and "
                                   "'%s')",
                                   o->spec, argv[i]);
        } else {
            o->spec = argv[i];
        }
    }
    return rc;
}

static int plan_run(int argc, char **argv)
{
    struct plan_opts o;
    struct sn_spec spec = {0}; /* zeroed: releasable before it is loaded */
    struct sn_topo *topo = NULL;
    struct sn_plan *plan = NULL;
    struct sn_error err;
    struct sn_buf main_out = SN_BUF_INIT, ledger = SN_BUF_INIT,
                  dot = SN_BUF_INIT;
    int rc;

    sn_error_clear(&err);
    rc = parse(argc, argv, &o);
    if (rc)
        goto out;
    if ((rc = cli_spec_load(o.spec, &o.sets, &spec)))
        goto out;
    if (sn_topo_build(&spec, &topo, &err) || sn_plan_build(topo, &plan, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    /* render everything first: a failure leaves no file half-written */
    if (o.format == SN_FORMAT_JSON)
        sn_render_plan_json(plan, &main_out);
    else
        sn_render_plan_text(plan, &main_out);
    if (o.ledger)
        sn_render_ledger_csv(topo, &ledger);
    if (o.dot)
        sn_render_topo_dot(topo, DOT_DETAIL_MAX, &dot);
    /* the set at once: when one cannot be written, none is replaced */
    {
        struct sn_output outs[3];
        size_t n = 0;
        if (o.ledger)
            outs[n++] = (struct sn_output){o.ledger, ledger.data, ledger.len};
        if (o.dot)
            outs[n++] = (struct sn_output){o.dot, dot.data, dot.len};
        outs[n++] = (struct sn_output){o.output ? o.output : "-", main_out.data,
                                       main_out.len};
        rc = cli_write_set(outs, n);
    }
out:
    sn_buf_release(&dot);
    sn_buf_release(&ledger);
    sn_buf_release(&main_out);
    sn_plan_free(plan);
    sn_topo_free(topo);
    sn_spec_release(&spec);
    return rc;
}

const struct sn_cmd sn_cmd_plan = {
    "plan",
    "[SPEC] [--set KEY=VALUE]... [--format text|json] [-o FILE] "
    "[--ledger FILE.csv] "
    "[--dot FILE]",
    "plan a supernode: links, cables, switches, power, cooling, storage",
    "Builds the topology SPEC describes (the built-in 64-accelerator design,\n"
    "four supernodes, when SPEC is left out) and prints its physical plan:\n"
    "accelerators, servers and racks; switch chips and boxes per tier; links\n"
    "by class and cables by medium with transceivers; aggregate and bisection\n"
    "bandwidth and the scale-up : scale-out ratio; power (steady, peak,\n"
    "provisioned, per rack, feed current); cooling (air or liquid, coolant\n"
    "flow); checkpoint storage and memory fit. WARN lines give the reason and\n"
    "the number.\n\n"
    "  --set KEY=VALUE     override one value of the spec by its dotted key\n"
    "                      (as spec check: --set supernode.accelerators=32)\n"
    "  --format text|json  text (default) or the JSON document\n"
    "                      \"" SN_SCHEMA_PLAN "\"\n"
    "  -o, --output FILE   write the plan to FILE instead of standard output\n"
    "  --ledger FILE.csv   the cable ledger: one row per link with its id,\n"
    "                      label, both ends, class, medium, length, bandwidth\n"
    "  --dot FILE          a Graphviz drawing, repeated units collapsed\n\n"
    "Files are written whole or not at all, and together: when one cannot\n"
    "be written, none is replaced. FILE may be '-' (standard output), a\n"
    "device or FIFO (written in place) or a symbolic link (its target is\n"
    "written). Exit status: 0 planned (even with warnings), 2 bad spec or\n"
    "arguments, 3 an output could not be written.\n",
    plan_run,
};
