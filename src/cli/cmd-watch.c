/* cmd-watch.c: `supernode watch`: the node agent. Collects every
 * interval (watch.h), serves /metrics, /healthz and a landing page
 * (serve.h), and writes a .prom file for node_exporter's textfile
 * collector when asked; `--once` collects one interval and prints it.
 * `supernode watch rules SPEC` writes the same rules for Prometheus. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli-store.h"
#include "cmd.h"
#include "sn/serve.h"
#include "sn/spec.h"
#include "sn/store.h"
#include "sn/watch.h"

extern const struct sn_cmd sn_cmd_watch;

struct watch_args {
    const char *spec, *listen, *db, *textfile, *tls_cert, *tls_key;
    const char *basic_auth;
    struct sn_watch_opts o;
    bool once;
    char address[64];
    unsigned port;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static double wall_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* "127.0.0.1:10384", "[::1]:10384" or "0.0.0.0:10384": the address is
 * always written out, so that listening beyond this host is a choice. */
static int parse_listen(const char *text, struct watch_args *a)
{
    const char *colon = strrchr(text, ':');
    const char *host = text;
    size_t len;
    long long port;

    if (!colon || colon == text)
        return cli_usage_error(
            "--listen '%s': give ADDRESS:PORT, e.g. 127.0.0.1:%d (this host "
            "only) or 0.0.0.0:%d (every interface)",
            text, SN_WATCH_PORT, SN_WATCH_PORT);
    len = (size_t)(colon - text);
    if (host[0] == '[' && len >= 2 && host[len - 1] == ']') {
        host++;
        len -= 2;
    }
    if (len == 0 || len >= sizeof(a->address))
        return cli_usage_error("--listen '%s': bad address", text);
    memcpy(a->address, host, len);
    a->address[len] = 0;
    if (cli_parse_long("--listen port", colon + 1, 0, 65535, &port))
        return SN_EXIT_USAGE;
    a->port = (unsigned)port;
    return SN_EXIT_OK;
}

static int parse_seconds(const char *opt, const char *text, double min,
                         double max, double *out)
{
    struct sn_error err;
    if (sn_unit_parse(text, SN_UNIT_TIME, true, out, &err))
        return cli_usage_error("%s: %s", opt, err.msg);
    if (!(*out >= min && *out <= max))
        return cli_usage_error("%s %s: expected between %g s and %g s", opt,
                               text, min, max);
    return SN_EXIT_OK;
}

/* One option at argv[*i]; 1 when taken (rc set on a bad one). */
static int take_opt(int argc, char **argv, int *i, struct watch_args *a,
                    int *rc)
{
    const char *v;
    struct sn_watch_opts *o = &a->o;
#define OPT(name) (v = cli_opt_value(argc, argv, i, name, NULL, rc))
    if (OPT("--spec"))
        a->spec = v;
    else if (OPT("--listen"))
        *rc = parse_listen(a->listen = v, a);
    else if (OPT("--interval"))
        *rc = parse_seconds("--interval", v, SN_WATCH_INTERVAL_MIN_S,
                            SN_WATCH_INTERVAL_MAX_S, &o->interval_s);
    else if (OPT("--timeout"))
        *rc = parse_seconds("--timeout", v, 0.01, 3600, &o->timeout_s);
    else if (OPT("--db"))
        a->db = v;
    else if (OPT("--fsroot"))
        o->fsroot = v;
    else if (OPT("--nvml"))
        o->nvml = v;
    else if (OPT("--redfish"))
        o->redfish_url = v;
    else if (OPT("--redfish-credentials"))
        o->redfish_credentials = v;
    else if (OPT("--redfish-ca"))
        o->redfish_ca = v;
    else if (OPT("--textfile"))
        a->textfile = v;
    else if (OPT("--tls-cert"))
        a->tls_cert = v;
    else if (OPT("--tls-key"))
        a->tls_key = v;
    else if (OPT("--basic-auth"))
        a->basic_auth = v;
    else if (OPT("--host"))
        o->host = v;
    else if (!strcmp(argv[*i], "--redfish-insecure"))
        o->redfish_insecure = true;
    else if (!strcmp(argv[*i], "--once"))
        a->once = true;
    else
        return *rc != SN_EXIT_OK;
#undef OPT
    return 1;
}

static int parse_args(int argc, char **argv, struct watch_args *a)
{
    int rc = SN_EXIT_OK;

    snprintf(a->address, sizeof(a->address), "%s", "127.0.0.1");
    a->port = SN_WATCH_PORT;
    for (int i = 1; i < argc; i++) {
        if (take_opt(argc, argv, &i, a, &rc)) {
            if (rc)
                return cli_usage_hint(&sn_cmd_watch);
            continue;
        }
        if (rc)
            return cli_usage_hint(&sn_cmd_watch);
        cli_usage_error("watch: unexpected argument '%s'", argv[i]);
        return cli_usage_hint(&sn_cmd_watch);
    }
    if (!a->tls_cert != !a->tls_key)
        return cli_usage_error("watch: --tls-cert and --tls-key go together");
    if (a->once && (a->listen || a->tls_cert || a->basic_auth))
        return cli_usage_error("watch: --once serves nothing; --listen, "
                               "--tls-cert and --basic-auth do not apply");
    if (a->textfile) {
        struct stat st;
        if (stat(a->textfile, &st) != 0 || !S_ISDIR(st.st_mode))
            return cli_usage_error("watch: --textfile %s: not a directory",
                                   a->textfile);
    }
    return SN_EXIT_OK;
}

/* The server's secrets, read from their files (freed by the caller). */
struct secrets {
    char *cert, *key;
    char user[256], password[256];
};

static int read_secrets(const struct watch_args *a, struct secrets *s,
                        struct sn_metrics_server_opts *so)
{
    struct sn_error err;
    size_t len;

    if (a->tls_cert) {
        struct stat st;
        /* the key is a secret as the passwords are: its owner's only */
        if (stat(a->tls_key, &st) == 0 && S_ISREG(st.st_mode) &&
            (st.st_mode & 077))
            return cli_usage_error("--tls-key '%s': mode %04o lets group or "
                                   "others read the private key (chmod 600 "
                                   "'%s')",
                                   a->tls_key, (unsigned)(st.st_mode & 07777),
                                   a->tls_key);
        if (sn_read_file(a->tls_cert, 1 << 20, &s->cert, &len, &err) ||
            sn_read_file(a->tls_key, 1 << 20, &s->key, &len, &err))
            return cli_fail(&err);
        so->tls_cert_pem = s->cert;
        so->tls_key_pem = s->key;
    }
    if (a->basic_auth) {
        if (sn_watch_read_credentials(a->basic_auth, s->user, sizeof(s->user),
                                      s->password, sizeof(s->password), &err)) {
            sn_error_prefix(&err, "--basic-auth");
            return cli_fail(&err);
        }
        so->auth_user = s->user;
        so->auth_password = s->password;
    }
    return SN_EXIT_OK;
}

static void secrets_release(struct secrets *s)
{
    if (s->key)
        memset(s->key, 0, strlen(s->key));
    free(s->cert);
    free(s->key);
    memset(s->password, 0, sizeof(s->password));
}

/* Write DIR/supernode.prom by rename, as node_exporter's textfile
 * collector wants (it must never read half a file). A failure is said
 * once per change, not every interval (a full disk would log thousands
 * of lines a day), and so is the first write after it; the agent goes
 * on. Returns whether it was written. */
static bool write_textfile(const char *dir, const struct sn_metrics *m)
{
    static char said[SN_ERROR_MSG_MAX];
    struct sn_buf b = SN_BUF_INIT;
    struct sn_error err = {0};
    char path[4096];
    int rc;

    snprintf(path, sizeof(path), "%s/supernode.prom", dir);
    sn_metrics_render_text(m, &b);
    struct sn_output o = {path, b.data, b.len};
    rc = sn_write_outputs(&o, 1, &err);
    sn_buf_release(&b);
    if (strcmp(said, err.msg) != 0) {
        if (rc)
            fprintf(stderr, "supernode watch: --textfile: %s\n", err.msg);
        else
            fprintf(stderr,
                    "supernode watch: --textfile: '%s' written "
                    "again\n",
                    path);
        snprintf(said, sizeof(said), "%s", err.msg);
    }
    return rc == 0;
}

/* Sleep until the monotonic time next, or a signal. */
static void sleep_until(double next)
{
    struct timespec t;
    t.tv_sec = (time_t)next;
    t.tv_nsec = (long)((next - (double)t.tv_sec) * 1e9);
    while (!stop_signal &&
           clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
        ;
}

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The agent's log (sn_watch_opts.log): a line on stderr. */
static void say_log(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "supernode watch: %s\n", line);
}

static void say_alerts(const struct sn_watch *w)
{
    const struct sn_watch_alert *al;
    size_t n = sn_watch_alerts(w, &al);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "supernode watch: %s %s %s: %s\n", al[i].severity,
                al[i].rule, al[i].subject, al[i].message);
}

/* Collect every interval until a signal; serve when srv is given.
 * Returns SN_EXIT_RUN when --once could not write --textfile. */
static int agent_loop(struct watch_args *a, struct sn_watch *w,
                      struct sn_metrics_server *srv)
{
    int rc = SN_EXIT_OK;
    double interval =
        a->o.interval_s > 0 ? a->o.interval_s : SN_WATCH_INTERVAL_S;
    double next = mono_s();
    struct sn_metrics m = {0};
    struct sn_error err;
    char why[512];

    while (!stop_signal) {
        double now = wall_s();
        if (sn_watch_tick(w, now, &m, &err))
            fprintf(stderr, "supernode watch: %s\n", err.msg);
        if (srv) {
            sn_metrics_server_publish(srv, &m);
            bool ok = sn_watch_healthy(w, now, why, sizeof(why));
            sn_metrics_server_set_problem(srv, ok ? NULL : why);
        }
        if (a->textfile && !write_textfile(a->textfile, &m) && a->once)
            rc = SN_EXIT_RUN;
        if (a->once)
            break;
        next += interval;
        if (next < mono_s()) /* a slow interval: skip, do not pile up */
            next = mono_s() + interval;
        sleep_until(next);
    }
    if (a->once) {
        if (!a->textfile) {
            struct sn_buf b = SN_BUF_INIT;
            sn_metrics_render_text(&m, &b);
            cli_print(&b);
            sn_buf_release(&b);
        }
        say_alerts(w);
    }
    sn_metrics_release(&m);
    return rc;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal; /* no SA_RESTART: the sleep ends */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* SIGHUP (the terminal gone, or an operator's habit of "reload"): a
     * clean stop like SIGTERM, never the default death that leaves
     * events open; the service manager starts it again with its new
     * options. SIGUSR1 and SIGUSR2 mean nothing to the agent: ignored,
     * not fatal. */
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
}

static int start_server(struct watch_args *a, struct secrets *sec,
                        struct sn_metrics_server **srv)
{
    struct sn_metrics_server_opts so = {0};
    struct sn_error err;
    int rc = read_secrets(a, sec, &so);

    if (rc)
        return rc;
    so.address = a->address;
    so.port = a->port;
    /* stale past three intervals and the deadline */
    so.stale_after_s =
        3 * (a->o.interval_s > 0 ? a->o.interval_s : SN_WATCH_INTERVAL_S) + 10;
    if (sn_metrics_server_new(&so, srv, &err))
        return cli_fail(&err);
    fprintf(stderr, "supernode watch: serving http%s://%s%s%s:%u/metrics\n",
            a->tls_cert ? "s" : "", strchr(a->address, ':') ? "[" : "",
            a->address, strchr(a->address, ':') ? "]" : "",
            sn_metrics_server_port(*srv));
    return SN_EXIT_OK;
}

static int watch_run(int argc, char **argv)
{
    struct watch_args a = {0};
    struct secrets sec = {0};
    struct sn_spec spec = {0};
    struct sn_store *st = NULL;
    struct sn_watch *w = NULL;
    struct sn_metrics_server *srv = NULL;
    struct sn_error err;
    int rc;

    if (argc > 1 && !strcmp(argv[1], "rules"))
        return cmd_watch_rules(argc, argv);
    rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (a.spec) {
        rc = cli_spec_load(a.spec, NULL, &spec);
        if (rc)
            return rc;
        a.o.spec = &spec;
    }
    if (!a.db || strcmp(a.db, "none")) {
        rc = cli_store_open(a.db, CLI_DB_WRITE, &st);
        if (rc)
            goto out;
        a.o.store = st;
    }
    a.o.log = say_log;
    if (sn_watch_new(&a.o, &w, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    catch_signals();
    if (!a.once && (rc = start_server(&a, &sec, &srv)))
        goto out;
    rc = agent_loop(&a, w, srv);
    if (stop_signal)
        fprintf(stderr, "supernode watch: stopping (signal %d)\n",
                (int)stop_signal);
out:
    sn_metrics_server_free(srv);
    sn_watch_free(w);
    sn_store_close(st);
    secrets_release(&sec);
    if (a.spec)
        sn_spec_release(&spec);
    return rc;
}

const struct sn_cmd sn_cmd_watch = {
    "watch",
    "[--spec SPEC] [--listen ADDR:PORT] [--interval 15s] [--timeout T] "
    "[--db PATH|none] [--fsroot DIR] [--nvml LIB|none] [--redfish URL "
    "--redfish-credentials FILE [--redfish-ca FILE] [--redfish-insecure]] "
    "[--textfile DIR] [--tls-cert FILE --tls-key FILE] [--basic-auth FILE] "
    "[--host NAME] [--once] | rules SPEC [-o FILE]",
    "the node agent: GPUs, host and BMC to Prometheus, with the design's "
    "rules",
    "Collects every interval (15 s by default) from NVML, sysfs under\n"
    "--fsroot, the kernel log and the BMC (Redfish), each collector on a\n"
    "thread of its own with a deadline (--timeout, 80% of the interval):\n"
    "one that fails or hangs is reported by supernode_collector_up 0 and\n"
    "the rest are still served. Evaluates the rules against the design\n"
    "(--spec), the peers and each part's own history, keeps events and\n"
    "slow state in the results database (--db; `none` keeps nothing) and\n"
    "serves /metrics (Prometheus text 0.0.4, or OpenMetrics when asked),\n"
    "/healthz (fails when a collector had no good reading for three\n"
    "intervals) and a landing page on 127.0.0.1:10384 unless --listen\n"
    "names another address: past 9999, as Prometheus' default port\n"
    "allocations 9100-9999 are all taken. --tls-cert/--tls-key serve\n"
    "HTTPS; --basic-auth FILE (user:password, mode 0600) asks for it.\n"
    "--textfile DIR writes DIR/supernode.prom by rename each interval, for\n"
    "node_exporter's textfile collector; with --once, one interval is\n"
    "collected, written (or printed) and the rules that hold are listed\n"
    "on stderr. SIGINT, SIGTERM or SIGHUP stops the agent (SIGHUP is\n"
    "no reload: restart it); SIGUSR1 and SIGUSR2 are ignored.\n"
    "`watch rules SPEC` writes the rules as a Prometheus rule file.\n",
    watch_run,
};
