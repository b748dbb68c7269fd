/* fs.c: every sysfs and procfs read of the health probes goes through
 * here, under the configured root, so the code that reads a server reads a
 * fixture tree in a test (hwloc's HWLOC_FSROOT idea). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "health-int.h"

char *sn__health_path(const struct hctx *c, const char *rel, char *buf,
                      size_t size)
{
    int n;

    while (*rel == '/')
        rel++;
    n = snprintf(buf, size, "%s/%s", c->root, rel);
    if (n < 0 || (size_t)n >= size)
        return NULL;
    return buf;
}

char *sn__health_read_all(const struct hctx *c, const char *rel, size_t max,
                          size_t *len)
{
    char path[HEALTH_PATH_MAX];

    if (len)
        *len = 0;
    if (!sn__health_path(c, rel, path, sizeof(path)))
        return NULL;
    /* never blocks: a FIFO or device where an attribute should be is
     * not read (sn_read_attr) */
    return sn_read_attr(path, max, len);
}

int sn__health_read(const struct hctx *c, const char *rel, char *buf,
                    size_t size)
{
    size_t len;
    char *data = sn__health_read_all(c, rel, size ? size - 1 : 0, &len);

    if (!data || size == 0) {
        free(data);
        return -1;
    }
    while (len > 0 && isspace((unsigned char)data[len - 1]))
        len--;
    memcpy(buf, data, len);
    buf[len] = '\0';
    free(data);
    /* an attribute is the machine's words: invalid bytes and control
     * characters escaped (lines kept: some attributes list counters) */
    sn_str_clean_in(buf, size, SN_CLEAN_LINES);
    return 0;
}

int sn__health_read_long(const struct hctx *c, const char *rel,
                         long long *out)
{
    char buf[64], *end;
    long long v;

    if (sn__health_read(c, rel, buf, sizeof(buf)))
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

DIR *sn__health_opendir(const struct hctx *c, const char *rel)
{
    char path[HEALTH_PATH_MAX];

    if (!sn__health_path(c, rel, path, sizeof(path)))
        return NULL;
    return opendir(path);
}

int sn__health_readlink(const struct hctx *c, const char *rel, char *buf,
                        size_t size)
{
    char path[HEALTH_PATH_MAX];
    ssize_t n;

    if (size == 0 || !sn__health_path(c, rel, path, sizeof(path)))
        return -1;
    n = readlink(path, buf, size - 1);
    if (n < 0 || (size_t)n >= size - 1)
        return -1;
    buf[n] = '\0';
    sn_str_clean_in(buf, size, 0);
    return 0;
}

bool sn__health_exists(const struct hctx *c, const char *rel)
{
    char path[HEALTH_PATH_MAX];
    struct stat st;

    return sn__health_path(c, rel, path, sizeof(path)) &&
           lstat(path, &st) == 0;
}

void sn__health_fmt_age(double s, char *buf, size_t size)
{
    if (s < 7200)
        snprintf(buf, size, "%.0f min", s / 60);
    else if (s < 2 * 86400)
        snprintf(buf, size, "%.0f h", s / 3600);
    else
        snprintf(buf, size, "%.0f days", s / 86400);
}
