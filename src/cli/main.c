/* main.c: `supernode [--version] [--help] COMMAND [ARGS]`: finds the
 * subcommand in the table and runs it. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static void print_overview(FILE *f)
{
    fprintf(f, "usage: supernode [--version] [--help] COMMAND [ARGS]\n\n"
               "An AI supernode from design to operation.\n\n"
               "commands:\n");
    for (size_t i = 0; sn_cmds[i]; i++)
        fprintf(f, "  %-10s %s\n", sn_cmds[i]->name, sn_cmds[i]->summary);
    fprintf(f, "\n'supernode help COMMAND' tells more about one command.\n"
               "exit status: 0 ok, 1 a check failed, 2 bad usage or input, "
               "3 runtime failure\n");
}

/* The library aborts on a failed allocation; the command says why. */
static void say_oom(size_t size)
{
    fprintf(stderr, "supernode: out of memory allocating %zu bytes\n", size);
}

static int help(const char *name)
{
    const struct sn_cmd *cmd = sn_cmd_find(name);

    if (!cmd) {
        const char *names[64];
        size_t n = 0;
        const char *near;
        for (; sn_cmds[n] && n < SN_ARRAY_LEN(names) - 1; n++)
            names[n] = sn_cmds[n]->name;
        names[n] = NULL;
        near = sn_suggest(name, names);
        if (near)
            return cli_usage_error("unknown command '%s' (did you mean "
                                   "'%s'?)",
                                   name, near);
        return cli_usage_error("unknown command '%s' (see 'supernode "
                               "--help')",
                               name);
    }
    printf("usage: supernode %s %s\n\n%s\n", cmd->name, cmd->usage,
           cmd->summary);
    if (cmd->help && *cmd->help)
        printf("\n%s", cmd->help);
    return SN_EXIT_OK;
}

int main(int argc, char **argv)
{
    const struct sn_cmd *cmd;

    sn_set_oom_handler(say_oom);
    if (argc < 2) {
        print_overview(stderr);
        return SN_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_overview(stdout);
        return SN_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("supernode %s\n", SN_VERSION);
        return SN_EXIT_OK;
    }
    if (!strcmp(argv[1], "help")) {
        if (argc < 3) {
            print_overview(stdout);
            return SN_EXIT_OK;
        }
        return help(argv[2]);
    }
    if (argv[1][0] == '-')
        return cli_usage_error("unknown option '%s' (see 'supernode --help')",
                               argv[1]);
    cmd = sn_cmd_find(argv[1]);
    if (!cmd)
        return help(argv[1]); /* unknown: says so, exit 2 */
    /* no option value and no argument is ever empty: '' would otherwise
     * slip through as "not given" and silently become a default (--ops
     * "" ran every collective, --db "" a database that is not kept) */
    for (int i = 2; i < argc; i++) {
        const char *eq = argv[i][0] == '-' ? strchr(argv[i], '=') : NULL;
        bool quiet = cli_launcher_rank() != 0; /* one rank of a job says it */
        if (!argv[i][0] && argv[i - 1][0] == '-' && i > 2)
            return quiet ? SN_EXIT_USAGE
                         : cli_usage_error("%s: '%s' has an empty value",
                                           argv[1], argv[i - 1]);
        if (!argv[i][0])
            return quiet ? SN_EXIT_USAGE
                         : cli_usage_error("%s: argument %d is empty (an "
                                           "argument cannot be '')",
                                           argv[1], i - 1);
        if (eq && !eq[1])
            return quiet ? SN_EXIT_USAGE
                         : cli_usage_error("%s: '%s' has an empty value",
                                           argv[1], argv[i]);
    }
    /* `supernode CMD --help` is the same as `supernode help CMD` */
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return help(argv[1]);
    return cmd->run(argc - 1, argv + 1);
}
