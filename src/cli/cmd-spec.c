/* cmd-spec.c: `supernode spec check|show|default`: load and validate a
 * spec (one-line summary, or every resolved value with its defaults), and
 * print the built-in default spec as a starting point. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static int spec_run(int argc, char **argv)
{
    const struct sn_cmd *self = sn_cmd_find("spec");
    const char *verb, *file = NULL;
    struct cli_sets sets = {{0}, 0};
    int rc = SN_EXIT_OK;
    enum sn_format fmt = SN_FORMAT_TABLE;
    struct sn_spec spec;
    struct sn_buf out;

    if (argc < 2) {
        cli_usage_error("spec needs a verb: check, show or default");
        return cli_usage_hint(self);
    }
    verb = argv[1];
    for (int i = 2; i < argc; i++) {
        if (cli_set_opt(argc, argv, &i, &sets, &rc)) {
            if (rc)
                return rc;
        } else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if ((rc = cli_parse_format(argv[++i], "table,text,json", &fmt)))
                return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_unknown_option("spec", argv[i], "spec");
            return cli_usage_hint(self);
        } else if (!file) {
            file = argv[i];
        } else {
            cli_usage_error("spec: one spec file at a time ('%s')", argv[i]);
            return cli_usage_hint(self);
        }
    }
    if (!strcmp(verb, "default")) {
        if (file || sets.n)
            return cli_usage_error("spec default takes no arguments");
        fputs(sn_spec_default_text, stdout);
        return SN_EXIT_OK;
    }
    if (strcmp(verb, "check") && strcmp(verb, "show")) {
        static const char *const verbs[] = {"check", "show", "default", NULL};
        const char *near = sn_suggest(verb, verbs);
        if (near)
            return cli_usage_error("unknown spec verb '%s' (did you mean "
                                   "'%s'?)",
                                   verb, near);
        return cli_usage_error("unknown spec verb '%s' (expected check, "
                               "show or default)",
                               verb);
    }
    if ((rc = cli_spec_load(file, &sets, &spec)))
        return rc;
    sn_buf_init(&out);
    if (!strcmp(verb, "check"))
        sn_render_spec_summary(&spec, &out);
    else if (fmt == SN_FORMAT_JSON)
        sn_render_spec_json(&spec, &out);
    else
        sn_render_spec_text(&spec, &out);
    cli_print(&out);
    sn_buf_release(&out);
    sn_spec_release(&spec);
    return SN_EXIT_OK;
}

const struct sn_cmd sn_cmd_spec = {
    "spec",
    "check|show|default [SPEC] [--set KEY=VALUE]... [--format table|json]",
    "validate a spec, show it with every default, or print the default",
    "  check [SPEC]    load and validate SPEC (the built-in default when no\n"
    "                  file is given); print a one-line summary\n"
    "  show [SPEC]     print every value of SPEC after defaults, in the\n"
    "                  units people write (--format json: SI numbers)\n"
    "  default         print the built-in default spec, a starting point\n"
    "  --set KEY=VALUE override one value by its dotted key before\n"
    "                  validating (supernode.accelerators=128); repeatable\n"
    "\n"
    "Errors are FILE:LINE:COL: what is wrong (what was expected), exit 2.\n"
    "docs/spec.md describes every key, unit, default and rule.\n",
    spec_run,
};
