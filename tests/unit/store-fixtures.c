/* store-fixtures.c: a results database per test case, in a directory
 * removed with everything in it (store-fixtures.h). */
#include <stdio.h>
#include <stdlib.h>

#include "store-fixtures.h"

static char *tmpdir(void)
{
    char tmpl[] = "/tmp/sn-test-store-XXXXXX";
    char *d = mkdtemp(tmpl);

    return d ? sn_xstrdup(d) : NULL;
}

static void rmdir_all(char *dir)
{
    char cmd[512];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("  cannot remove %s\n", dir);
    free(dir);
}

static char *db_path(const char *dir)
{
    struct sn_buf b;

    sn_buf_init(&b);
    sn_buf_printf(&b, "%s/results.db", dir);
    return sn_buf_detach(&b, NULL);
}

bool fx_store_fresh(char **dir, char **path, struct sn_store **st)
{
    struct sn_error err;

    *path = NULL;
    *dir = tmpdir();
    if (!*dir) {
        printf("  cannot make a directory\n");
        return false;
    }
    *path = db_path(*dir);
    if (st && sn_store_open(*path, st, &err) != SN_OK) {
        printf("  %s\n", err.msg);
        return false;
    }
    return true;
}

void fx_store_release(struct sn_store *st, char *path, char *dir)
{
    sn_store_close(st);
    free(path);
    rmdir_all(dir);
}
