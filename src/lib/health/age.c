/* age.c: a duration as the probes tell it to people; their file reads go
 * through the hardware layer (../hw/hw-int.h) under the run's root. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "health-int.h"

void sn__health_fmt_age(double s, char *buf, size_t size)
{
    if (s < 7200)
        snprintf(buf, size, "%.0f min", s / 60);
    else if (s < 2 * 86400)
        snprintf(buf, size, "%.0f h", s / 3600);
    else
        snprintf(buf, size, "%.0f days", s / 86400);
}
