/* cmd.h: the subcommand table and the helpers every cmd-<name>.c shares.
 * The CLI is the only part of supernode that prints or exits.
 *
 * To add a subcommand: 1. src/cli/cmd-<name>.c defining
 * `const struct sn_cmd sn_cmd_<name>`  2. its row in cmd.c  3. its usage in
 * README.md  4. golden cases in tests/cli/. */
#ifndef SN_CLI_CMD_H
#define SN_CLI_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/sn.h"

struct sn_cmd {
    const char *name;
    const char *usage;                 /* arguments after the name */
    const char *summary;               /* one line for `supernode --help` */
    const char *help;                  /* the rest of `supernode help NAME` */
    int (*run)(int argc, char **argv); /* argv[0] is the name; exit status */
};

extern const struct sn_cmd *const sn_cmds[];
const struct sn_cmd *sn_cmd_find(const char *name);

/* Exit statuses (ARCHITECTURE.md). */
enum { SN_EXIT_OK = 0, SN_EXIT_CHECK = 1, SN_EXIT_USAGE = 2, SN_EXIT_RUN = 3 };

enum sn_format { SN_FORMAT_TABLE, SN_FORMAT_JSON, SN_FORMAT_CSV };

/* Print "supernode: MSG" on stderr; returns SN_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) SN_PRINTF(1, 2);
/* Into out: "did you mean '--format'?" when an option that `supernode
 * help CMD` names is near `opt` (a mistyped one), else "see 'supernode
 * help CMD'"; returns out. */
const char *cli_option_hint(const char *cmd, const char *opt, char *out,
                            size_t size);
/* "supernode: WHERE: unknown option 'OPT' (HINT)" on stderr, WHERE
 * formatted from where_fmt, HINT from cli_option_hint; SN_EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *opt, const char *where_fmt,
                       ...) SN_PRINTF(3, 4);
/* Print an error from the library and return its exit status. */
int cli_fail(const struct sn_error *err);
/* Print "supernode NAME: usage" hint after a usage error. */
int cli_usage_hint(const struct sn_cmd *cmd);
/* One subcommand of a command with several (baseline save, runs list). */
struct cli_sub {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[1] is the subcommand */
};
/* Run the subcommand argv[1] names among the n of subs; a missing or
 * unknown one is a usage error naming them all, with self's usage. */
int cli_subcommand(const struct sn_cmd *self, const struct cli_sub *subs,
                   size_t n, int argc, char **argv);
/* The serving options `sim infer` and `sweep --infer` share (cli-infer.c):
 * --isl N --osl N (1024 each by default), --mtp N, --precision and
 * --kv-precision (bf16 by default), --ttft T and --tpot T (none),
 * --cuda-graphs SIZES|trtllm-bench and --max-tokens N|trtllm-bench. */
struct sn_infer_work;
struct sn_infer_limits;
#define CLI_GRAPHS_MAX 64 /* SN_INFER_GRAPHS_MAX */
struct cli_infer_req {
    long long isl, osl, mtp;
    int precision, kv;                   /* -1: not given */
    double ttft, tpot;                   /* seconds; 0: none */
    int graphs[CLI_GRAPHS_MAX], ngraphs; /* --cuda-graphs */
    int max_tokens;                      /* --max-tokens; 0: default */
    double accept; /* --accept: draft acceptance; 0: not given */
    bool given;    /* any of them was given */
};
void cli_infer_req_init(struct cli_infer_req *q);
/* argv[*i] is one of those options: parse it into q and return 1 (*rc
 * set and the error printed when it is wrong); 0 when it is none. */
int cli_infer_req_opt(int argc, char **argv, int *i, struct cli_infer_req *q,
                      int *rc);
/* The requests and limits the options give. */
void cli_infer_req_work(const struct cli_infer_req *q, struct sn_infer_work *w,
                        struct sn_infer_limits *lim);

/* Parse a --format value among the allowed ones ("table,json"). */
int cli_parse_format(const char *text, const char *allowed,
                     enum sn_format *out);
/* Write a buffer to a file atomically (or stdout for "-"); returns an exit
 * status and prints the error. */
int cli_write(const char *path, const struct sn_buf *buf);
/* Write every output of a command as one set (sn_write_outputs(): all
 * written, then renamed together; devices, FIFOs and "-" in place);
 * returns an exit status and prints the error. */
int cli_write_set(const struct sn_output *outs, size_t n);
/* Before a long run: can these outputs (NULL entries skipped, at most 8)
 * be written? Prints the error and returns an exit status. */
int cli_outputs_check(const char *const *paths, size_t n);
/* Write a buffer to stdout. */
void cli_print(const struct sn_buf *buf);
/* Parse a whole number option within [min, max]. */
int cli_parse_long(const char *opt, const char *text, long long min,
                   long long max, long long *out);
/* A comma-separated list of at most cap whole numbers within [min, max]
 * into out[0..*n); an empty or over-long list is a usage error. */
int cli_parse_list(const char *opt, const char *v, long long min, long long max,
                   long long *out, size_t cap, size_t *n);
/* The value of option `name` (or its short `alias`, may be NULL) given as
 * "--opt VALUE" or "--opt=VALUE" at argv[*i], advancing *i past it; NULL
 * when argv[*i] is not that option, or (with *rc set to the usage exit
 * status and the error printed) when its value is missing. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name,
                          const char *alias, int *rc);
/* A whole-number option of a command's options struct: its name, range
 * and the offset of its long long in the struct. */
struct cli_num_opt {
    const char *name;
    long long min, max;
    size_t off;
};
/* argv[*i] is one of the n options of opts ("--opt V" or "--opt=V"):
 * parse it into the long long at base + off and return 1 (*rc set and the
 * error printed when it is wrong); 0 when it is none of them. */
int cli_num_opt(int argc, char **argv, int *i, const struct cli_num_opt *opts,
                size_t n, void *base, int *rc);
/* Overrides of spec values, --set KEY=VALUE, as spec, plan, sim and
 * sweep take them. */
#define CLI_MAX_SETS 64
struct cli_sets {
    const char *v[CLI_MAX_SETS];
    int n;
};
/* argv[*i] is --set VALUE or --set=VALUE: record it and return 1 (0 when
 * it is not --set; *rc set and the error printed when it is wrong). */
int cli_set_opt(int argc, char **argv, int *i, struct cli_sets *s, int *rc);
/* Split one --set KEY=VALUE into key (NUL-terminated) and *value (inside
 * kv); a usage error, printed, when it is not KEY=VALUE. */
#define CLI_SET_KEY_MAX 256
int cli_set_split(const char *kv, char key[CLI_SET_KEY_MAX],
                  const char **value);
/* Load FILE (NULL: the built-in design) and apply each override in order;
 * an exit status, the error printed. */
int cli_spec_load(const char *file, const struct cli_sets *s,
                  struct sn_spec *spec);
/* The rank MPI launchers announce (Open MPI, PMIx, PMI, Slurm), before MPI
 * is up, so that one rank speaks about bad usage rather than all; 0 when
 * none does. */
int cli_launcher_rank(void);
/* Progress on stderr. On a terminal one line that the next overwrites;
 * otherwise (under mpirun rank 0's stderr is a pipe, or a log) a plain
 * line when the test changes and at most every CLI_PROGRESS_EVERY seconds
 * within one, so a long run is never silent. Zero-initialised: ready. */
#define CLI_PROGRESS_EVERY 10.0
struct cli_progress {
    bool init, tty;
    bool shown;    /* a terminal line is on screen */
    double last;   /* when the last plain line went out */
    char head[32]; /* the test it was about */
};
void cli_progress_line(struct cli_progress *p, const char *who,
                       const char *line);
/* Clear a progress line left on screen (none: nothing happens). */
void cli_progress_end(struct cli_progress *p);
/* Hold the job's ranks to where spec puts them (bench and check --spec):
 * a mismatch is exit 2 naming the ranks unless allow (--allow-colocated),
 * which measures anyway and says so. Rank 0 speaks; every rank returns
 * the same status. */
int cli_placement(struct sn_bench_job *job, const struct sn_spec *spec,
                  bool allow, const char *who,
                  struct sn_bench_placement *place);

/* `supernode watch rules SPEC [-o FILE]` (cmd-watch-rules.c), which the
 * watch command runs for its `rules` subcommand: argv[1] is "rules".
 * Returns an exit status. */
int cmd_watch_rules(int argc, char **argv);

/* `bench power` (cmd-bench-power.c); argv[0] is "power". */
int cli_bench_power(int argc, char **argv);
/* `bench kernels` (cmd-bench-kernels.c). */
int cli_bench_kernels(int argc, char **argv);

#endif
