/* cli.c: output and error helpers shared by the subcommands. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("supernode: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return SN_EXIT_USAGE;
}

/* The options a command's usage and help name: every "--word" in them,
 * once each, at most OPTS_MAX of OPT_LEN bytes. */
#define OPTS_MAX 256
#define OPT_LEN 40

static size_t help_options(const struct sn_cmd *c, char (*opt)[OPT_LEN])
{
    const char *texts[] = {c->usage, c->help};
    size_t n = 0;

    for (size_t t = 0; t < SN_ARRAY_LEN(texts); t++) {
        for (const char *p = texts[t]; p && (p = strstr(p, "--")); p += 2) {
            size_t len = 2, k;
            while (p[len] == '-' || (p[len] >= 'a' && p[len] <= 'z') ||
                   (p[len] >= '0' && p[len] <= '9'))
                len++;
            if (len < 4 || len >= OPT_LEN || n >= OPTS_MAX)
                continue;
            for (k = 0; k < n; k++)
                if (strlen(opt[k]) == len && !strncmp(opt[k], p, len))
                    break;
            if (k == n) {
                memcpy(opt[n], p, len);
                opt[n++][len] = '\0';
            }
        }
    }
    return n;
}

const char *cli_option_hint(const char *cmd, const char *opt, char *out,
                            size_t size)
{
    static char names[OPTS_MAX][OPT_LEN];
    const char *list[OPTS_MAX + 1], *near = NULL;
    const struct sn_cmd *c = sn_cmd_find(cmd);
    size_t n = c ? help_options(c, names) : 0;

    for (size_t i = 0; i < n; i++)
        list[i] = names[i];
    list[n] = NULL;
    /* only a word that looks like an option is matched against them */
    if (n && opt[0] == '-' && opt[1] == '-')
        near = sn_suggest(opt, list);
    if (near)
        snprintf(out, size, "did you mean '%s'?", near);
    else
        snprintf(out, size, "see 'supernode help %s'", cmd);
    return out;
}

int cli_unknown_option(const char *cmd, const char *opt, const char *where_fmt,
                       ...)
{
    char hint[80];
    struct sn_buf t = SN_BUF_INIT;
    va_list ap;

    fputs("supernode: ", stderr);
    va_start(ap, where_fmt);
    vfprintf(stderr, where_fmt, ap);
    va_end(ap);
    /* the option is the user's own text: through the terminal's escaper */
    sn_buf_put_esc(&t, SN_ESC_TERM, opt);
    fprintf(stderr, ": unknown option '%s' (%s)\n", t.data ? t.data : "",
            cli_option_hint(cmd, opt, hint, sizeof(hint)));
    sn_buf_release(&t);
    return SN_EXIT_USAGE;
}

int cli_fail(const struct sn_error *err)
{
    struct sn_buf t = SN_BUF_INIT;

    /* messages quote names from input: printed through the terminal's
     * escaper */
    sn_buf_put_esc(&t, SN_ESC_TERM,
                   err->msg[0] ? err->msg : sn_code_name(err->code));
    fprintf(stderr, "supernode: %s\n", t.data ? t.data : "");
    sn_buf_release(&t);
    return sn_exit_code(err->code ? err->code : SN_ERUNTIME);
}

int cli_usage_hint(const struct sn_cmd *cmd)
{
    fprintf(stderr, "usage: supernode %s %s\n", cmd->name, cmd->usage);
    return SN_EXIT_USAGE;
}

int cli_subcommand(const struct sn_cmd *self, const struct cli_sub *subs,
                   size_t n, int argc, char **argv)
{
    struct sn_buf names;

    for (size_t i = 0; argc >= 2 && i < n; i++)
        if (!strcmp(argv[1], subs[i].name))
            return subs[i].run(argc, argv);
    /* "save, list, show or diff" */
    sn_buf_init(&names);
    for (size_t i = 0; i < n; i++) {
        const char *sep = i + 1 < n ? ", " : " or ";
        sn_buf_printf(&names, "%s%s", i == 0 ? "" : sep, subs[i].name);
    }
    if (argc < 2)
        cli_usage_error("%s needs a subcommand (%s)", self->name,
                        names.data ? names.data : "");
    else
        cli_usage_error("%s: unknown subcommand '%s' (expected %s)", self->name,
                        argv[1], names.data ? names.data : "");
    sn_buf_release(&names);
    return cli_usage_hint(self);
}

int cli_parse_format(const char *text, const char *allowed, enum sn_format *out)
{
    static const struct {
        const char *name;
        enum sn_format f;
    } names[] = {{"table", SN_FORMAT_TABLE},
                 {"text", SN_FORMAT_TABLE},
                 {"json", SN_FORMAT_JSON},
                 {"csv", SN_FORMAT_CSV}};

    for (size_t i = 0; i < SN_ARRAY_LEN(names); i++) {
        if (strcmp(text, names[i].name) == 0 && strstr(allowed, text)) {
            *out = names[i].f;
            return SN_EXIT_OK;
        }
    }
    return cli_usage_error("unknown format '%s' (expected one of: %s)", text,
                           allowed);
}

int cli_write(const char *path, const struct sn_buf *buf)
{
    struct sn_output o = {path, buf->data, buf->len};

    return cli_write_set(&o, 1);
}

int cli_write_set(const struct sn_output *outs, size_t n)
{
    struct sn_error err;

    fflush(stdout); /* "-" is written past stdio */
    if (sn_write_outputs(outs, n, &err))
        return cli_fail(&err);
    return SN_EXIT_OK;
}

int cli_outputs_check(const char *const *paths, size_t n)
{
    const char *given[8];
    struct sn_error err;
    size_t k = 0;

    /* options left out are NULL */
    for (size_t i = 0; i < n && k < SN_ARRAY_LEN(given); i++)
        if (paths[i])
            given[k++] = paths[i];
    if (sn_outputs_check(given, k, &err))
        return cli_fail(&err);
    return SN_EXIT_OK;
}

void cli_print(const struct sn_buf *buf)
{
    struct sn_buf t = SN_BUF_INIT;

    /* the terminal's escaper over everything printed: a renderer's text
     * carries names from input and the machine, and none of their
     * control characters or broken UTF-8 reach the terminal (a no-op on
     * what is clean already: JSON, escaped XML, tables of plain text) */
    if (buf->len) {
        sn_buf_put_clean(&t, buf->data, buf->len, SN_CLEAN_LINES);
        buf = &t;
    }
    fwrite(buf->data, 1, buf->len, stdout);
    fflush(stdout);
    sn_buf_release(&t);
}

int cli_parse_long(const char *opt, const char *text, long long min,
                   long long max, long long *out)
{
    struct sn_error err;

    if (sn_parse_long(text, min, max, out, &err))
        return cli_usage_error("%s: %s", opt, err.msg);
    return SN_EXIT_OK;
}

int cli_parse_list(const char *opt, const char *v, long long min, long long max,
                   long long *out, size_t cap, size_t *n)
{
    char buf[512], *save, *item;
    int rc;

    if (strlen(v) >= sizeof(buf))
        return cli_usage_error("%s: a list longer than %zu characters", opt,
                               sizeof(buf) - 1);
    sn_strlcpy(buf, v, sizeof(buf));
    *n = 0;
    for (save = buf; (item = sn_tok_next(&save, ','));) {
        if (*n == cap)
            return cli_usage_error("%s: at most %zu values", opt, cap);
        if ((rc = cli_parse_long(opt, item, min, max, &out[*n])))
            return rc;
        (*n)++;
    }
    if (*n == 0)
        return cli_usage_error("%s: an empty list", opt);
    return SN_EXIT_OK;
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *name,
                          const char *alias, int *rc)
{
    const char *a = argv[*i];
    size_t n = strlen(name);

    if (!strncmp(a, name, n) && a[n] == '=')
        return a + n + 1;
    if (strcmp(a, name) && (!alias || strcmp(a, alias)))
        return NULL;
    if (*i + 1 >= argc) {
        *rc = cli_usage_error("%s needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

int cli_launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                       "PMI_RANK", "SLURM_PROCID"};

    for (size_t i = 0; i < SN_ARRAY_LEN(vars); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return atoi(v);
    }
    return 0;
}

void cli_progress_line(struct cli_progress *p, const char *who,
                       const char *line)
{
    char head[32];
    size_t n = strcspn(line, " ");
    double now = sn_now();

    if (!p->init) {
        p->init = true;
        p->tty = isatty(STDERR_FILENO);
        p->last = -1e9;
    }
    if (p->tty) {
        fprintf(stderr, "\r\033[K%s: %s", who, line);
        fflush(stderr);
        p->shown = true;
        return;
    }
    /* the test is the line's first word ("memory", "pairs") */
    snprintf(head, sizeof(head), "%.*s", (int)(n < 31 ? n : 31), line);
    if (!strcmp(head, p->head) && now - p->last < CLI_PROGRESS_EVERY)
        return;
    fprintf(stderr, "%s: %s\n", who, line);
    fflush(stderr);
    sn_strlcpy(p->head, head, sizeof(p->head));
    p->last = now;
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = false;
    }
}

int cli_set_opt(int argc, char **argv, int *i, struct cli_sets *s, int *rc)
{
    const char *v = cli_opt_value(argc, argv, i, "--set", NULL, rc);

    if (!v)
        return 0;
    if (s->n == CLI_MAX_SETS) {
        *rc = cli_usage_error("--set: at most %d overrides", CLI_MAX_SETS);
        return 1;
    }
    s->v[s->n++] = v;
    return 1;
}

int cli_set_split(const char *kv, char key[CLI_SET_KEY_MAX], const char **value)
{
    const char *eq = strchr(kv, '=');
    size_t n = eq ? (size_t)(eq - kv) : 0;

    if (!eq || n == 0 || n >= CLI_SET_KEY_MAX)
        return cli_usage_error("--set: '%s' is not KEY=VALUE", kv);
    memcpy(key, kv, n);
    key[n] = '\0';
    *value = eq + 1;
    return SN_EXIT_OK;
}

int cli_spec_load(const char *file, const struct cli_sets *s,
                  struct sn_spec *spec)
{
    struct sn_error err;

    sn_error_clear(&err);
    if (sn_spec_load(file, spec, &err))
        return cli_fail(&err);
    if (!s || !s->n)
        return SN_EXIT_OK;
    {
        /* all of them applied, then the spec checked once: coupled
         * changes (a NIC with its switch and cable) in any order */
        char keys[CLI_MAX_SETS][CLI_SET_KEY_MAX];
        const char *kp[CLI_MAX_SETS], *values[CLI_MAX_SETS];

        for (int i = 0; i < s->n; i++) {
            int rc = cli_set_split(s->v[i], keys[i], &values[i]);
            if (rc) {
                sn_spec_release(spec);
                return rc;
            }
            kp[i] = keys[i];
        }
        if (sn_spec_set_all(spec, kp, values, (size_t)s->n, &err)) {
            sn_spec_release(spec);
            return cli_fail(&err);
        }
    }
    return SN_EXIT_OK;
}

int cli_placement(struct sn_bench_job *job, const struct sn_spec *spec,
                  bool allow, const char *who, struct sn_bench_placement *place)
{
    bool speak = sn_bench_job_rank(job) == 0;
    struct sn_error err;

    if (sn_bench_job_placement(job, spec, place, &err))
        return speak ? cli_fail(&err) : sn_exit_code(err.code);
    if (!place->mismatches)
        return SN_EXIT_OK;
    if (!allow) {
        if (speak)
            fprintf(stderr,
                    "supernode: %s: the ranks do not run where the spec puts "
                    "them: %s (one host per node in rank order: a hostfile "
                    "in node order with mpirun --map-by ppr:%d:node, or the "
                    "spec's hosts:; --allow-colocated measures anyway, "
                    "leaves those pairs without a design value and says "
                    "so)\n",
                    who, place->what, spec->scaleup.per_node);
        return SN_EXIT_USAGE;
    }
    if (speak)
        fprintf(stderr, "supernode: %s: --allow-colocated: %s\n", who,
                place->what);
    return SN_EXIT_OK;
}

int cli_num_opt(int argc, char **argv, int *i, const struct cli_num_opt *opts,
                size_t n, void *base, int *rc)
{
    for (size_t k = 0; k < n; k++) {
        const char *v = cli_opt_value(argc, argv, i, opts[k].name, NULL, rc);
        if (*rc)
            return 1;
        if (!v)
            continue;
        if (cli_parse_long(opts[k].name, v, opts[k].min, opts[k].max,
                           (long long *)((char *)base + opts[k].off)))
            *rc = SN_EXIT_USAGE;
        return 1;
    }
    return 0;
}
