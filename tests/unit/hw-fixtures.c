/* hw-fixtures.c: see hw-fixtures.h. */
#include <stdio.h>
#include <stdlib.h>

#include "hw-fixtures.h"

const char *sn_test_fake_nvml(const char *fixture)
{
    static char path[512];
    const char *build = getenv("SN_BUILD");

    snprintf(path, sizeof(path), "%s/lib/fake-nvml.so",
             build ? build : "build/test");
    /* the fake reads the fixture at nvmlInit */
    if (fixture)
        setenv("SN_FAKE_NVML", fixture, 1);
    return path;
}
