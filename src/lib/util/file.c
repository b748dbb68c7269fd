/* file.c: whole-file reads with a size cap, small attribute reads that
 * never block (sysfs, procfs), and the one way outputs are written: a set
 * of them at once, regular files by temporary file and rename so that a
 * failed run never leaves half a file behind or one file of two replaced.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sn/util.h"

/* A path that names nothing usable is bad input (exit 2); a file that is
 * there but cannot be read is an I/O failure (exit 3). */
static int open_code(int e)
{
    switch (e) {
    case ENOENT:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:
    case EISDIR:
        return SN_EINPUT;
    default:
        return SN_EIO;
    }
}

/* Reads fd to its end into b, at most max bytes: 0, or -1 with errno
 * (EFBIG past max). */
static int read_all(int fd, size_t max, struct sn_buf *b)
{
    char chunk[65536];

    for (;;) {
        ssize_t n = read(fd, chunk, sizeof(chunk));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            return 0;
        if (b->len + (size_t)n > max) {
            errno = EFBIG;
            return -1;
        }
        sn_buf_append(b, chunk, (size_t)n);
    }
}

int sn_read_file(const char *path, size_t max, char **data, size_t *len,
                 struct sn_error *err)
{
    struct sn_buf b;
    int fd, rc = SN_OK;

    *data = NULL;
    if (len)
        *len = 0;
    if (!*path)
        return sn_error_set(err, SN_EINPUT, "an empty file name");
    fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return sn_error_set(err, open_code(errno), "%s: cannot open: %s", path,
                            strerror(errno));
    sn_buf_init(&b);
    if (read_all(fd, max, &b)) {
        if (errno == EFBIG)
            rc = sn_error_set(err, SN_EINPUT,
                              "%s: file is larger than the %zu bytes allowed",
                              path, max);
        else
            rc = sn_error_set(err, errno == EISDIR ? SN_EINPUT : SN_EIO,
                              "%s: cannot read: %s", path, strerror(errno));
        goto out;
    }
    *data = sn_buf_detach(&b, len);
out:
    if (fd > 0)
        close(fd);
    sn_buf_release(&b);
    return rc;
}

char *sn_read_attr(const char *path, size_t max, size_t *len)
{
    struct sn_buf b;
    struct stat st;
    char *out = NULL;
    int fd;

    if (len)
        *len = 0;
    /* O_NONBLOCK: a FIFO planted in a tree (or a device) answers at once
     * instead of waiting for a writer; then only regular files are read
     * (sysfs and procfs attributes are regular files) */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    sn_buf_init(&b);
    /* sysfs attributes can fail to read (EIO) */
    if (read_all(fd, max, &b))
        goto out;
    out = sn_buf_detach(&b, len);
out:
    close(fd);
    sn_buf_release(&b);
    return out;
}

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;

    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* ---- a set of outputs ------------------------------------------------------
 */

/* Temporary files are ".sn-PID-XXXXXX.tmp" beside their target: short,
 * so that a target with a name of the longest legal length still gets
 * one, and marked with the writer's process id, so that one left by a
 * process that no longer runs (killed in the middle of a write) is known
 * for stale and removed by the next write into that directory. */
#define TMP_PREFIX ".sn-"
#define TMP_SUFFIX ".tmp"
#define TMP_RANDOM 6
/* Symbolic links followed before giving up, as the kernel does (40). */
#define MAX_LINKS 40

enum target_kind { T_STDOUT, T_REPLACE, T_INPLACE };

struct target {
    enum target_kind kind;
    char *path; /* after following links: what is written */
    char *dir;  /* T_REPLACE: its directory */
    char *tmp;  /* T_REPLACE: the temporary, once created */
    bool exists;
    mode_t mode; /* of the file replaced */
    dev_t dev;
    ino_t ino;
};

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        return sn_xstrdup(".");
    if (slash == path)
        return sn_xstrdup("/");
    return sn_xstrndup(path, (size_t)(slash - path));
}

/* Follow path through symbolic links to what it finally names (which need
 * not exist: a dangling link names the file to create). */
static int follow(const char *path, char **out, struct sn_error *err)
{
    char *cur = sn_xstrdup(path);
    char link[PATH_MAX];
    struct stat st;

    *out = NULL;
    for (int hops = 0;; hops++) {
        ssize_t n;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT)
                break;
            goto fail;
        }
        if (!S_ISLNK(st.st_mode))
            break;
        if (hops == MAX_LINKS) {
            errno = ELOOP;
            goto fail;
        }
        n = readlink(cur, link, sizeof(link) - 1);
        if (n < 0)
            goto fail;
        if (n == (ssize_t)sizeof(link) - 1) {
            errno = ENAMETOOLONG;
            goto fail;
        }
        link[n] = '\0';
        if (link[0] == '/') {
            free(cur);
            cur = sn_xstrdup(link);
        } else {
            char *dir = dir_of(cur);
            struct sn_buf b;
            sn_buf_init(&b);
            sn_buf_printf(&b, "%s/%s", dir, link);
            free(dir);
            free(cur);
            cur = sn_buf_detach(&b, NULL);
        }
    }
    *out = cur;
    return SN_OK;
fail:
    free(cur);
    return sn_error_set(err, open_code(errno), "%s: cannot write: %s", path,
                        strerror(errno));
}

/* What writing path means: standard output, replacing a regular file (or
 * making a new one), or writing a device, FIFO or socket in place. */
static int classify(const char *path, struct target *t, struct sn_error *err)
{
    struct stat st;
    int rc;

    memset(t, 0, sizeof(*t));
    if (!strcmp(path, "-")) {
        t->kind = T_STDOUT;
        return SN_OK;
    }
    if (!*path)
        return sn_error_set(err, SN_EINPUT, "an empty output file name");
    if ((rc = follow(path, &t->path, err)))
        return rc;
    if (stat(t->path, &st) != 0) {
        if (errno != ENOENT)
            return sn_error_set(err, open_code(errno), "%s: cannot write: %s",
                                path, strerror(errno));
        t->kind = T_REPLACE;
    } else if (S_ISREG(st.st_mode)) {
        t->kind = T_REPLACE;
        t->exists = true;
        t->mode = st.st_mode & 07777;
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) ||
               S_ISSOCK(st.st_mode)) {
        t->kind = T_INPLACE;
        t->exists = true;
    } else if (S_ISDIR(st.st_mode)) {
        return sn_error_set(err, SN_EINPUT, "%s: cannot write: is a directory",
                            path);
    } else {
        return sn_error_set(err, SN_EINPUT,
                            "%s: cannot write: a block device or other "
                            "special file (refusing to write over it)",
                            path);
    }
    if (t->exists) {
        t->dev = st.st_dev;
        t->ino = st.st_ino;
    }
    if (t->kind == T_REPLACE) {
        t->dir = dir_of(t->path);
        if (stat(t->dir, &st) != 0)
            return sn_error_set(err,
                                errno == ENOENT ? SN_EIO : open_code(errno),
                                "%s: cannot create: %s", path, strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return sn_error_set(err, SN_EINPUT,
                                "%s: cannot create: %s is not a directory",
                                path, t->dir);
    }
    return SN_OK;
}

static void target_release(struct target *t)
{
    if (t->tmp)
        unlink(t->tmp);
    free(t->tmp);
    free(t->dir);
    free(t->path);
    memset(t, 0, sizeof(*t));
}

/* Resolve every output; two outputs replacing the same file are refused
 * (the second would silently win). */
static int classify_all(const char *const *paths, size_t n, struct target *t,
                        struct sn_error *err)
{
    int rc = SN_OK;

    for (size_t i = 0; i < n && !rc; i++) {
        rc = classify(paths[i], &t[i], err);
        for (size_t k = 0; k < i && !rc; k++) {
            bool same = t[i].kind == T_REPLACE && t[k].kind == T_REPLACE &&
                        (!strcmp(t[i].path, t[k].path) ||
                         (t[i].exists && t[k].exists && t[i].dev == t[k].dev &&
                          t[i].ino == t[k].ino));
            if (same)
                rc = sn_error_set(err, SN_EINPUT,
                                  "%s and %s name the same file (give each "
                                  "output its own)",
                                  paths[k], paths[i]);
        }
    }
    return rc;
}

/* Is name one of our temporaries, and whose? */
static bool tmp_name(const char *name, long *pid)
{
    size_t len = strlen(name), pl = strlen(TMP_PREFIX);
    size_t sl = strlen(TMP_SUFFIX);
    const char *p = name + pl, *dash;
    char *end;

    if (len < pl + sl + TMP_RANDOM + 2 || strncmp(name, TMP_PREFIX, pl) ||
        strcmp(name + len - sl, TMP_SUFFIX))
        return false;
    dash = strchr(p, '-');
    if (!dash || (size_t)(name + len - sl - (dash + 1)) != TMP_RANDOM)
        return false;
    *pid = strtol(p, &end, 10);
    return end == dash && *pid > 0;
}

/* Is name a temporary of the form earlier versions wrote for target,
 * "TARGET.tmpPID.N", and whose? */
static bool old_tmp_name(const char *name, const char *target, long *pid)
{
    size_t tl = strlen(target);
    char *end;

    if (strncmp(name, target, tl) || strncmp(name + tl, ".tmp", 4))
        return false;
    *pid = strtol(name + tl + 4, &end, 10);
    if (end == name + tl + 4 || *end != '.' || *pid <= 0)
        return false;
    strtol(end + 1, &end, 10);
    return *end == '\0';
}

/* Remove the temporaries in dir that processes which no longer run left
 * behind: ours, and those earlier versions named after the target. */
static void clean_stale(const char *dir, const char *target)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    long me = (long)getpid();
    const char *base = strrchr(target, '/');

    base = base ? base + 1 : target;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        struct sn_buf p;
        struct stat st;
        long pid;
        if ((!tmp_name(e->d_name, &pid) &&
             !old_tmp_name(e->d_name, base, &pid)) ||
            pid == me || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        sn_buf_init(&p);
        sn_buf_printf(&p, "%s/%s", dir, e->d_name);
        if (lstat(p.data, &st) == 0 && S_ISREG(st.st_mode))
            unlink(p.data);
        sn_buf_release(&p);
    }
    closedir(d);
}

/* A fresh temporary in t->dir, open for writing. */
static int make_tmp(struct target *t)
{
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    uint64_t x;

    /* a name no other writer picks at the same moment (O_EXCL settles the
     * rare clash): the time, the process and this call's frame */
    clock_gettime(CLOCK_REALTIME, &ts);
    x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
        ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)&ts ^
        (uint64_t)(uintptr_t)t;
    x |= 1; /* xorshift never leaves 0 */
    for (int tries = 0; tries < 100; tries++) {
        char rnd[TMP_RANDOM + 1];
        struct sn_buf b;
        int fd;
        for (int k = 0; k < TMP_RANDOM; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            rnd[k] = digits[x % (sizeof(digits) - 1)];
        }
        rnd[TMP_RANDOM] = '\0';
        sn_buf_init(&b);
        sn_buf_printf(&b, "%s/" TMP_PREFIX "%ld-%s" TMP_SUFFIX, t->dir,
                      (long)getpid(), rnd);
        /* a new file gets the mode any new file gets (0666 less the
         * umask); a replaced one keeps its own */
        fd = open(b.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            t->tmp = sn_buf_detach(&b, NULL);
            if (t->exists && fchmod(fd, t->mode) != 0) {
                close(fd);
                return -1;
            }
            return fd;
        }
        sn_buf_release(&b);
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

static int write_tmp(struct target *t, const char *path, const void *data,
                     size_t len, struct sn_error *err)
{
    int fd = make_tmp(t);

    if (fd < 0)
        return sn_error_set(err, errno == ENAMETOOLONG ? SN_EINPUT : SN_EIO,
                            "%s: cannot create: %s", path, strerror(errno));
    if (write_all(fd, data, len) || fsync(fd)) {
        int e = errno;
        close(fd);
        return sn_error_set(err, SN_EIO, "%s: cannot write: %s", path,
                            strerror(e));
    }
    if (close(fd))
        return sn_error_set(err, SN_EIO, "%s: cannot write: %s", path,
                            strerror(errno));
    return SN_OK;
}

static int unix_connect(const char *path, int type)
{
    struct sockaddr_un sa;
    int fd, e;

    memset(&sa, 0, sizeof(sa));
    sa.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(sa.sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(sa.sun_path, path, strlen(path));
    fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* A character device or FIFO is opened and written; a socket is
 * connected to and written. */
static int write_inplace(const struct target *t, const char *path,
                         const void *data, size_t len, struct sn_error *err)
{
    struct stat st;
    int fd, e;

    if (stat(t->path, &st) == 0 && S_ISSOCK(st.st_mode)) {
        fd = unix_connect(t->path, SOCK_STREAM);
        if (fd < 0 && errno == EPROTOTYPE)
            fd = unix_connect(t->path, SOCK_DGRAM);
    } else {
        fd = open(t->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    }
    if (fd < 0)
        return sn_error_set(err, SN_EIO, "%s: cannot open: %s", path,
                            strerror(errno));
    if (write_all(fd, data, len)) {
        e = errno;
        close(fd);
        return sn_error_set(err, SN_EIO, "%s: cannot write: %s", path,
                            strerror(e));
    }
    close(fd);
    return SN_OK;
}

int sn_outputs_check(const char *const *paths, size_t n, struct sn_error *err)
{
    struct target *t = sn_xcalloc(n ? n : 1, sizeof(*t));
    int rc = classify_all(paths, n, t, err);

    for (size_t i = 0; i < n && !rc; i++)
        if (t[i].kind == T_REPLACE && access(t[i].dir, W_OK | X_OK) != 0)
            rc = sn_error_set(err, SN_EIO, "%s: cannot create: %s", paths[i],
                              strerror(errno));
    for (size_t i = 0; i < n; i++)
        target_release(&t[i]);
    free(t);
    return rc;
}

int sn_write_outputs(const struct sn_output *outs, size_t n,
                     struct sn_error *err)
{
    struct target *t = sn_xcalloc(n ? n : 1, sizeof(*t));
    const char **paths = sn_xcalloc(n ? n : 1, sizeof(*paths));
    int rc;

    for (size_t i = 0; i < n; i++)
        paths[i] = outs[i].path;
    rc = classify_all(paths, n, t, err);
    /* every file first, in temporaries: any failure leaves every target
     * as it was */
    for (size_t i = 0; i < n && !rc; i++) {
        if (t[i].kind != T_REPLACE)
            continue;
        clean_stale(t[i].dir, t[i].path);
        rc = write_tmp(&t[i], paths[i], outs[i].data, outs[i].len, err);
    }
    /* then what cannot be replaced, in place: devices, FIFOs, sockets and
     * standard output */
    for (size_t i = 0; i < n && !rc; i++) {
        if (t[i].kind == T_STDOUT && write_all(1, outs[i].data, outs[i].len))
            rc = sn_error_set(err, SN_EIO, "cannot write output: %s",
                              strerror(errno));
        else if (t[i].kind == T_INPLACE)
            rc = write_inplace(&t[i], paths[i], outs[i].data, outs[i].len, err);
    }
    /* last, the renames, together */
    for (size_t i = 0; i < n && !rc; i++) {
        if (t[i].kind != T_REPLACE)
            continue;
        if (rename(t[i].tmp, t[i].path))
            rc = sn_error_set(err, SN_EIO, "%s: cannot rename into place: %s",
                              paths[i], strerror(errno));
        else {
            free(t[i].tmp);
            t[i].tmp = NULL;
        }
    }
    for (size_t i = 0; i < n; i++)
        target_release(&t[i]);
    free(paths);
    free(t);
    return rc;
}

int sn_write_file_atomic(const char *path, const void *data, size_t len,
                         struct sn_error *err)
{
    struct sn_output o = {path, data, len};

    return sn_write_outputs(&o, 1, err);
}
