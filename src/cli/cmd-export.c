/* cmd-export.c: `supernode export nccl-topo|slurm|hostfile|rankfile|k8s
 * SPEC`: the files the runtime reads, made from the design (the renderers
 * are in src/lib/export/; docs/export.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "sn/export.h"

extern const struct sn_cmd sn_cmd_export;

/* Which options a subcommand takes. */
#define OPT_NODE 1u
#define OPT_PLUGIN 2u
#define OPT_HOSTS 4u

struct ex_opts {
    const char *spec;
    const char *output;
    const char *hosts;
    const char *machine; /* nccl-topo: the machine's bus ids and names */
    long long node;
    unsigned plugins; /* 0: the design's own choice */
    struct cli_sets sets;
};

static int parse_plugin(const char *v, unsigned *out)
{
    if (!strcmp(v, "block"))
        *out = SN_SLURM_BLOCK;
    else if (!strcmp(v, "tree"))
        *out = SN_SLURM_TREE;
    else if (!strcmp(v, "both"))
        *out = SN_SLURM_BLOCK | SN_SLURM_TREE;
    else
        return cli_usage_error("export slurm: --plugin '%s' is not block, "
                               "tree or both",
                               v);
    return SN_EXIT_OK;
}

static int parse(int argc, char **argv, unsigned allowed, struct ex_opts *o)
{
    const char *sub = argv[1];
    int rc = SN_EXIT_OK;

    memset(o, 0, sizeof(*o));
    for (int i = 2; i < argc; i++) {
        const char *v;
        if (cli_set_opt(argc, argv, &i, &o->sets, &rc)) {
            if (rc)
                return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--output", "-o", &rc))) {
            o->output = v;
        } else if ((allowed & OPT_HOSTS) &&
                   (v = cli_opt_value(argc, argv, &i, "--hosts", NULL, &rc))) {
            o->hosts = v;
        } else if ((allowed & OPT_NODE) &&
                   (v = cli_opt_value(argc, argv, &i, "--node", NULL, &rc))) {
            if (cli_parse_long("--node", v, 0, 1000000, &o->node))
                return SN_EXIT_USAGE;
        } else if ((allowed & OPT_NODE) &&
                   (v = cli_opt_value(argc, argv, &i, "--machine", NULL,
                                      &rc))) {
            o->machine = v;
        } else if ((allowed & OPT_PLUGIN) &&
                   (v = cli_opt_value(argc, argv, &i, "--plugin", NULL, &rc))) {
            if ((rc = parse_plugin(v, &o->plugins)))
                return rc;
        } else if (rc) {
            return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("export", argv[i], "export %s", sub);
        } else if (o->spec) {
            return cli_usage_error("export %s takes one SPEC (got '%s' and "
                                   "'%s')",
                                   sub, o->spec, argv[i]);
        } else {
            o->spec = argv[i];
        }
    }
    if (!o->spec)
        return cli_usage_error("export %s needs a SPEC (see 'supernode help "
                               "export')",
                               sub);
    return rc;
}

/* What every subcommand does around its renderer: options, the spec, the
 * topology, the host names; then the file, written whole. */
struct ex_ctx {
    struct ex_opts o;
    struct sn_spec spec;
    struct sn_topo *topo;
    char **hosts;
    size_t nhosts;
    struct sn_buf out;
    struct sn_error err;
};

static int ctx_open(struct ex_ctx *c, int argc, char **argv, unsigned allowed)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    memset(c, 0, sizeof(*c));
    sn_buf_init(&c->out);
    sn_error_clear(&c->err);
    if ((rc = parse(argc, argv, allowed | OPT_HOSTS, &c->o)))
        return rc;
    if ((rc = cli_spec_load(c->o.spec, &c->o.sets, &c->spec)))
        return rc;
    if (sn_topo_build(&c->spec, &c->topo, &c->err))
        return cli_fail(&c->err);
    if (c->o.hosts &&
        sn_read_file(c->o.hosts, (size_t)64 << 20, &text, &len, &c->err))
        return cli_fail(&c->err);
    rc = sn_spec_hosts(&c->spec, c->o.hosts, text, len, &c->hosts, &c->nhosts,
                       &c->err);
    free(text);
    return rc ? cli_fail(&c->err) : SN_EXIT_OK;
}

static int ctx_close(struct ex_ctx *c, int rc)
{
    if (rc == SN_EXIT_OK)
        rc = cli_write(c->o.output ? c->o.output : "-", &c->out);
    sn_buf_release(&c->out);
    sn_spec_hosts_free(c->hosts, c->nhosts);
    sn_topo_free(c->topo);
    sn_spec_release(&c->spec);
    return rc;
}

static int ex_nccl(int argc, char **argv)
{
    struct ex_ctx c;
    struct sn_nccl_machine *m = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = ctx_open(&c, argc, argv, OPT_NODE);

    if (!rc && c.o.machine) {
        /* a line a device: 1 MiB is far past any server */
        m = sn_xcalloc(1, sizeof(*m));
        if (sn_read_file(c.o.machine, (size_t)1 << 20, &text, &len, &c.err) ||
            sn_nccl_machine_parse(c.o.machine, text, len, m, &c.err))
            rc = cli_fail(&c.err);
    }
    if (!rc &&
        sn_export_nccl_topo_on(c.topo, (uint32_t)c.o.node, m, &c.out, &c.err))
        rc = cli_fail(&c.err);
    free(text);
    free(m);
    return ctx_close(&c, rc);
}

static int ex_slurm(int argc, char **argv)
{
    struct ex_ctx c;
    int rc = ctx_open(&c, argc, argv, OPT_PLUGIN);
    unsigned p;

    if (!rc) {
        /* default: block where domains span nodes, else tree */
        p = c.o.plugins ? c.o.plugins
            : (sn_export_slurm_plugins(c.topo) & SN_SLURM_BLOCK)
                ? SN_SLURM_BLOCK
                : SN_SLURM_TREE;
        if (sn_export_slurm(c.topo, (const char *const *)c.hosts, p, &c.out,
                            &c.err))
            rc = cli_fail(&c.err);
    }
    return ctx_close(&c, rc);
}

/* hostfile and rankfile: a renderer of the topology and the names */
typedef int (*ex_render)(const struct sn_topo *t, const char *const *hosts,
                         struct sn_buf *out, struct sn_error *err);

static int ex_placement(int argc, char **argv, ex_render render)
{
    struct ex_ctx c;
    int rc = ctx_open(&c, argc, argv, 0);

    if (!rc && render(c.topo, (const char *const *)c.hosts, &c.out, &c.err))
        rc = cli_fail(&c.err);
    return ctx_close(&c, rc);
}

static int ex_hostfile(int argc, char **argv)
{
    return ex_placement(argc, argv, sn_export_hostfile);
}

static int ex_rankfile(int argc, char **argv)
{
    return ex_placement(argc, argv, sn_export_rankfile);
}

static int ex_k8s(int argc, char **argv)
{
    struct ex_ctx c;
    int rc = ctx_open(&c, argc, argv, 0);
    bool multi = false;

    if (!rc && sn_export_k8s(c.topo, (const char *const *)c.hosts, &c.out,
                             &multi, &c.err))
        rc = cli_fail(&c.err);
    if (!rc && !multi)
        fprintf(stderr, "supernode: export k8s: every scale-up domain of "
                        "this design is one node; no labels to set\n");
    return ctx_close(&c, rc);
}

static int export_run(int argc, char **argv)
{
    static const struct cli_sub subs[] = {
        {"nccl-topo", ex_nccl},    {"slurm", ex_slurm},
        {"hostfile", ex_hostfile}, {"rankfile", ex_rankfile},
        {"k8s", ex_k8s},
    };

    return cli_subcommand(&sn_cmd_export, subs, SN_ARRAY_LEN(subs), argc, argv);
}

const struct sn_cmd sn_cmd_export = {
    "export",
    "nccl-topo|slurm|hostfile|rankfile|k8s SPEC [--hosts FILE] "
    "[--node N] [--machine FILE] [--plugin block|tree|both] [--set "
    "KEY=VALUE]... [-o FILE]",
    "hand the design to the runtime: NCCL topology, Slurm, MPI, Kubernetes",
    "Writes a file the runtime reads, made from the design SPEC describes\n"
    "(docs/export.md):\n\n"
    "  nccl-topo  the NCCL topology file of one node (NCCL_TOPO_FILE): CPUs,\n"
    "             the PCIe tree, GPUs with their NVLink counts, NICs\n"
    "  slurm      topology.conf for topology/block (a block per scale-up\n"
    "             domain; the default when domains span nodes) or\n"
    "             topology/tree (the scale-out switches); both: topology.yaml\n"
    "  hostfile   the Open MPI hostfile, one slot per accelerator\n"
    "  rankfile   the Open MPI rankfile: ranks fill a scale-up domain and\n"
    "             follow the rails within a node\n"
    "  k8s        a kubectl script labelling every node with its scale-up\n"
    "             domain (" SN_K8S_CLIQUE_LABEL ")\n\n"
    "  --hosts FILE        node names, one a line in rank order (default: the\n"
    "                      spec's hosts:, else node000, node001, ...)\n"
    "  --node N            nccl-topo: the node, 0-based (default 0)\n"
    "  --machine FILE      nccl-topo: the machine's bus ids and NIC names,\n"
    "                      lines 'gpu I BUSID' and 'nic J NAME BUSID'\n"
    "  --plugin P          slurm: block, tree or both\n"
    "  --set KEY=VALUE     override one value of the spec\n"
    "  -o, --output FILE   write FILE (whole or not at all) instead of\n"
    "                      standard output\n\n"
    "Exit status: 0 written, 2 bad spec, hosts file or arguments (or a\n"
    "plugin the design has nothing for), 3 the file could not be written.\n",
    export_run,
};
