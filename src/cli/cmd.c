/* cmd.c: the dispatch table, one row per subcommand, in the order
 * `supernode --help` lists them. */
#include <string.h>

#include "cmd.h"

extern const struct sn_cmd sn_cmd_catalog;
extern const struct sn_cmd sn_cmd_spec;
extern const struct sn_cmd sn_cmd_version;
extern const struct sn_cmd sn_cmd_bench;
extern const struct sn_cmd sn_cmd_plan;
extern const struct sn_cmd sn_cmd_check;
extern const struct sn_cmd sn_cmd_sweep;
extern const struct sn_cmd sn_cmd_validate;
extern const struct sn_cmd sn_cmd_baseline;
extern const struct sn_cmd sn_cmd_runs;
extern const struct sn_cmd sn_cmd_doctor;
extern const struct sn_cmd sn_cmd_sim;
extern const struct sn_cmd sn_cmd_watch;
extern const struct sn_cmd sn_cmd_events;
extern const struct sn_cmd sn_cmd_report;
extern const struct sn_cmd sn_cmd_export;

const struct sn_cmd *const sn_cmds[] = {
    &sn_cmd_plan,     &sn_cmd_sim,
    &sn_cmd_catalog,  &sn_cmd_spec,
    &sn_cmd_bench,    &sn_cmd_check,
    &sn_cmd_sweep,    &sn_cmd_validate,
    &sn_cmd_baseline, &sn_cmd_runs,
    &sn_cmd_events,   &sn_cmd_doctor,
    &sn_cmd_watch,    &sn_cmd_version,
    &sn_cmd_report, /* HTML */
    &sn_cmd_export,   NULL,
};

const struct sn_cmd *sn_cmd_find(const char *name)
{
    for (size_t i = 0; sn_cmds[i]; i++)
        if (strcmp(sn_cmds[i]->name, name) == 0)
            return sn_cmds[i];
    return NULL;
}
