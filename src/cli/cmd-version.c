/* cmd-version.c: `supernode version`: the tool's version and the versions
 * of the libraries it was built with. */
#include <stdio.h>
#include <yaml.h>

#include "cmd.h"

static int version_run(int argc, char **argv)
{
    (void)argv;
    if (argc > 1)
        return cli_usage_error("version takes no arguments");
    printf("supernode %s\n", SN_VERSION);
    printf("libyaml %s\n", yaml_get_version_string());
    return SN_EXIT_OK;
}

const struct sn_cmd sn_cmd_version = {
    "version", "", "print the version of supernode and its libraries", "",
    version_run,
};
