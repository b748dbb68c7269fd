/* cmd-catalog.c: `supernode catalog list [KIND]` and `catalog show NAME`:
 * the built-in accelerators, switches, NICs, cables and model presets
 * (plus a spec's own entries with --spec), each with its source and
 * confidence, as tables or JSON (schema SN_SCHEMA_CATALOG). */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* What `catalog` was asked: a verb, its argument, and the options. */
struct catalog_args {
    const char *verb, *arg, *specfile;
    enum sn_format fmt;
    int kind; /* list KIND's kind, or -1 for all */
};

/* Parse and check catalog's arguments; prints the usage error. */
static int catalog_parse(int argc, char **argv, struct catalog_args *ca)
{
    const struct sn_cmd *self = sn_cmd_find("catalog");
    const char *near;
    int rc;

    memset(ca, 0, sizeof(*ca));
    ca->fmt = SN_FORMAT_TABLE;
    ca->kind = -1;
    if (argc < 2) {
        cli_usage_error("catalog needs a verb: list or show");
        return cli_usage_hint(self);
    }
    ca->verb = argv[1];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if ((rc = cli_parse_format(argv[++i], "table,text,json", &ca->fmt)))
                return rc;
        } else if (!strcmp(argv[i], "--spec") && i + 1 < argc) {
            ca->specfile = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_unknown_option("catalog", argv[i], "catalog");
            return cli_usage_hint(self);
        } else if (!ca->arg) {
            ca->arg = argv[i];
        } else {
            cli_usage_error("catalog: unexpected argument '%s'", argv[i]);
            return cli_usage_hint(self);
        }
    }
    if (strcmp(ca->verb, "list") && strcmp(ca->verb, "show")) {
        static const char *const verbs[] = {"list", "show", NULL};
        near = sn_suggest(ca->verb, verbs);
        if (near)
            return cli_usage_error("unknown catalog verb '%s' (did you mean "
                                   "'%s'?)",
                                   ca->verb, near);
        return cli_usage_error("unknown catalog verb '%s' (expected list or "
                               "show)",
                               ca->verb);
    }
    if (!strcmp(ca->verb, "show") && !ca->arg) {
        cli_usage_error("catalog show needs a NAME");
        return cli_usage_hint(self);
    }
    if (!strcmp(ca->verb, "list") && ca->arg &&
        (ca->kind = sn_render_catalog_kind(ca->arg, &near)) < 0) {
        return cli_usage_error("unknown catalog kind '%s' (%s%s%s)", ca->arg,
                               near ? "did you mean '"
                                    : "expected one of: "
                                      "accelerators, "
                                      "switches, nics, "
                                      "cables, models",
                               near ? near : "", near ? "'?" : "");
    }
    return SN_EXIT_OK;
}

static int catalog_run(int argc, char **argv)
{
    struct catalog_args ca;
    const struct sn_catalog *cat = sn_catalog_builtin();
    struct sn_spec spec;
    struct sn_error err;
    struct sn_buf out;
    bool have_spec = false, json;
    int rc;

    if ((rc = catalog_parse(argc, argv, &ca)))
        return rc;
    if (ca.specfile) {
        sn_error_clear(&err);
        if (sn_spec_load(ca.specfile, &spec, &err))
            return cli_fail(&err);
        have_spec = true;
        cat = &spec.catalog;
    }
    sn_buf_init(&out);
    json = ca.fmt == SN_FORMAT_JSON;
    if (!strcmp(ca.verb, "show")) {
        if (sn_render_catalog_show(cat, ca.arg, json, &out, &err)) {
            rc = cli_usage_error("%s", err.msg);
            goto out;
        }
    } else {
        sn_render_catalog_list(cat, ca.kind, json, &out);
    }
    cli_print(&out);
out:
    sn_buf_release(&out);
    if (have_spec)
        sn_spec_release(&spec);
    return rc;
}

const struct sn_cmd sn_cmd_catalog = {
    "catalog",
    "list [KIND] | show NAME  [--spec SPEC] [--format table|json]",
    "list the built-in accelerators, switches, NICs, cables and models",
    "  list [KIND]   one table per kind (accelerators, switches, nics,\n"
    "                cables, models) with key figures and confidence\n"
    "  show NAME     every field of one entry, with its source\n"
    "  --spec SPEC   include the entries SPEC adds or overrides in its\n"
    "                catalog: section\n"
    "  --format json machine output (schema " SN_SCHEMA_CATALOG "), SI units\n"
    "\n"
    "Confidence: V vendor material, S secondary, D derived by arithmetic,\n"
    "E estimate, U given in a spec. docs/catalog.md lists every entry.\n",
    catalog_run,
};
