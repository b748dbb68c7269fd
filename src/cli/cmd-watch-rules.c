/* cmd-watch-rules.c: `supernode watch rules SPEC [-o FILE]`: the watch
 * rules as a Prometheus rule file for fleet-level evaluation (the watch
 * command runs it for its `rules` subcommand). */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sn/watch.h"

#define USAGE "usage: supernode watch rules SPEC [-o FILE]"

int cmd_watch_rules(int argc, char **argv)
{
    const char *file = NULL, *out_path = NULL, *v;
    struct cli_sets sets = {0};
    struct sn_spec spec = {0};
    struct sn_error err;
    struct sn_buf out;
    int rc = SN_EXIT_OK;

    for (int i = 2; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--output", "-o", &rc))) {
            out_path = v;
        } else if (rc) {
            return rc;
        } else if (cli_set_opt(argc, argv, &i, &sets, &rc)) {
            if (rc)
                return rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("watch rules: unknown option '%s'\n" USAGE,
                                   argv[i]);
        } else if (!file) {
            file = argv[i];
        } else {
            return cli_usage_error(
                "watch rules: unexpected argument '%s'\n" USAGE, argv[i]);
        }
    }
    if (!file)
        return cli_usage_error("watch rules needs a SPEC\n" USAGE);
    rc = cli_spec_load(file, &sets, &spec);
    if (rc)
        return rc;
    sn_buf_init(&out);
    if (sn_watch_rules_file(&spec, &out, &err))
        rc = cli_fail(&err);
    else
        rc = cli_write(out_path ? out_path : "-", &out);
    sn_buf_release(&out);
    sn_spec_release(&spec);
    return rc;
}
