/* file.c: whole-file reads with a size cap, and atomic writes (temporary
 * file, fsync, rename) so a failed run never leaves half a file behind. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sn/util.h"

int sn_read_file(const char *path, size_t max, char **data, size_t *len,
                 struct sn_error *err)
{
    struct sn_buf b;
    char chunk[65536];
    int fd, rc = SN_OK;

    *data = NULL;
    if (len)
        *len = 0;
    fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return sn_error_set(err, errno == ENOENT ? SN_EINPUT : SN_EIO,
                            "%s: cannot open: %s", path, strerror(errno));
    sn_buf_init(&b);
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof(chunk));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = sn_error_set(err, errno == EISDIR ? SN_EINPUT : SN_EIO,
                              "%s: cannot read: %s", path, strerror(errno));
            goto out;
        }
        if (n == 0)
            break;
        if (b.len + (size_t)n > max) {
            rc = sn_error_set(err, SN_EINPUT,
                              "%s: file is larger than the %zu bytes allowed",
                              path, max);
            goto out;
        }
        sn_buf_append(&b, chunk, (size_t)n);
    }
    *data = sn_buf_detach(&b, len);
out:
    if (fd > 0)
        close(fd);
    sn_buf_release(&b);
    return rc;
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

int sn_write_file_atomic(const char *path, const void *data, size_t len,
                         struct sn_error *err)
{
    struct sn_buf tmp;
    int fd = -1, rc = SN_OK;
    struct timespec ts;

    if (strcmp(path, "-") == 0) {
        if (write_all(1, data, len))
            return sn_error_set(err, SN_EIO, "cannot write output: %s",
                                strerror(errno));
        return SN_OK;
    }
    clock_gettime(CLOCK_REALTIME, &ts);
    sn_buf_init(&tmp);
    sn_buf_printf(&tmp, "%s.tmp%ld.%ld", path, (long)getpid(),
                  (long)(ts.tv_nsec & 0xffff));
    fd = open(tmp.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        rc = sn_error_set(err, SN_EIO, "%s: cannot create: %s", path,
                          strerror(errno));
        goto out;
    }
    if (write_all(fd, data, len) || fsync(fd)) {
        rc = sn_error_set(err, SN_EIO, "%s: cannot write: %s", path,
                          strerror(errno));
        goto out;
    }
    if (close(fd)) {
        fd = -1;
        rc = sn_error_set(err, SN_EIO, "%s: cannot write: %s", path,
                          strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp.data, path)) {
        rc = sn_error_set(err, SN_EIO, "%s: cannot rename into place: %s",
                          path, strerror(errno));
        goto out;
    }
out:
    if (fd >= 0)
        close(fd);
    if (rc)
        unlink(tmp.data);
    sn_buf_release(&tmp);
    return rc;
}
