/* fs.c: every sysfs and procfs read of the library goes through here,
 * under the configured root, so that the code that reads a server reads a
 * fixture tree in a test. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sn/util.h"

#include "hw-int.h"

char *sn__hw_path(const char *root, const char *rel, char *buf, size_t size)
{
    int n;

    while (*rel == '/')
        rel++;
    n = snprintf(buf, size, "%s/%s", root ? root : "", rel);
    if (n < 0 || (size_t)n >= size)
        return NULL;
    return buf;
}

char *sn__hw_read_all(const char *root, const char *rel, size_t max,
                      size_t *len)
{
    char path[SN_HW_PATH_MAX];

    if (len)
        *len = 0;
    if (!sn__hw_path(root, rel, path, sizeof(path)))
        return NULL;
    return sn_read_attr(path, max, len);
}

int sn__hw_read(const char *root, const char *rel, char *buf, size_t size)
{
    size_t len;
    char *data = sn__hw_read_all(root, rel, size ? size - 1 : 0, &len);

    if (!data || size == 0) {
        free(data);
        return -1;
    }
    while (len > 0 && isspace((unsigned char)data[len - 1]))
        len--;
    if (memchr(data, '\0', len)) {
        /* a NUL inside (a binary attribute, a planted file): escaped
         * like any other byte, not a place where the value ends */
        struct sn_buf b;
        int rc = -1;
        sn_buf_init(&b);
        sn_buf_put_clean(&b, data, len, SN_CLEAN_LINES);
        if (b.len < size) {
            memcpy(buf, b.data, b.len);
            buf[b.len] = '\0';
            rc = 0;
        }
        sn_buf_release(&b);
        free(data);
        return rc;
    }
    memcpy(buf, data, len);
    buf[len] = '\0';
    free(data);
    /* an attribute is the machine's words: invalid bytes and control
     * characters escaped (lines kept: some attributes list counters) */
    sn_str_clean_in(buf, size, SN_CLEAN_LINES);
    return 0;
}

int sn__hw_read_long(const char *root, const char *rel, long long *out)
{
    char buf[64], *end;
    long long v;

    if (sn__hw_read(root, rel, buf, sizeof(buf)))
        return -1;
    errno = 0;
    v = strtoll(buf, &end, 0);
    if (errno || end == buf)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

int sn__hw_read_double(const char *root, const char *rel, double *out,
                       char *suffix, size_t suffix_size)
{
    char buf[64], *end;
    double v;

    if (sn__hw_read(root, rel, buf, sizeof(buf)))
        return -1;
    v = strtod(buf, &end);
    if (end == buf)
        return -1;
    if (suffix && suffix_size)
        snprintf(suffix, suffix_size, "%s", end);
    *out = v;
    return 0;
}

int sn__hw_proc_stat(const char *root, unsigned pid, char *state, double *start)
{
    char rel[64], buf[1024], *p;
    unsigned long long ticks = 0;
    long hz = sysconf(_SC_CLK_TCK);

    snprintf(rel, sizeof(rel), "proc/%u/stat", pid);
    if (sn__hw_read(root, rel, buf, sizeof(buf)))
        return -1;
    p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!p || sscanf(p + 1, " %c", state) != 1)
        return -1;
    /* starttime is field 22; the space after ')' precedes field 3, each
     * step moves to the space before the next field */
    for (int f = 3; f <= 22 && p; f++)
        p = strchr(p + 1, ' ');
    if (p)
        ticks = strtoull(p + 1, NULL, 10);
    *start = hz > 0 ? (double)ticks / (double)hz : 0;
    return 0;
}

DIR *sn__hw_opendir(const char *root, const char *rel)
{
    char path[SN_HW_PATH_MAX];

    if (!sn__hw_path(root, rel, path, sizeof(path)))
        return NULL;
    return opendir(path);
}

int sn__hw_readlink(const char *root, const char *rel, char *buf, size_t size)
{
    char path[SN_HW_PATH_MAX];
    ssize_t n;

    if (size == 0 || !sn__hw_path(root, rel, path, sizeof(path)))
        return -1;
    n = readlink(path, buf, size - 1);
    if (n < 0 || (size_t)n >= size - 1)
        return -1;
    buf[n] = '\0';
    sn_str_clean_in(buf, size, 0);
    return 0;
}

bool sn__hw_exists(const char *root, const char *rel)
{
    char path[SN_HW_PATH_MAX];
    struct stat st;

    return sn__hw_path(root, rel, path, sizeof(path)) && lstat(path, &st) == 0;
}
