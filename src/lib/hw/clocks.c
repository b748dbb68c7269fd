/* clocks.c: locking a GPU's clocks and setting its power limit through
 * NVML (nvml.c loads it), with a record of each change so that it can be
 * undone: bench --lock-clocks and bench power hold the GPU only for their
 * run. */
#include <stdio.h>
#include <string.h>

#include "sn/util.h"

#include "hw-int.h"

/* A supported-clocks list into out (at most SN_HW_CLOCKS_MAX); NVML
 * answers INSUFFICIENT_SIZE for a longer list, of which the first
 * SN_HW_CLOCKS_MAX are kept. */
static nvmlReturn_t list(nvmlReturn_t r, unsigned got, unsigned *n)
{
    if (r == NVML_ERROR_INSUFFICIENT_SIZE)
        r = NVML_SUCCESS;
    *n = r == NVML_SUCCESS ? (got > SN_HW_CLOCKS_MAX ? SN_HW_CLOCKS_MAX : got)
                           : 0;
    return r;
}

nvmlReturn_t sn__hw_clocks_supported(const struct sn__hw_nvml *n,
                                     nvmlDevice_t dev, unsigned mem_mhz,
                                     unsigned *mem, unsigned *nmem,
                                     unsigned *sm, unsigned *nsm)
{
    unsigned got = SN_HW_CLOCKS_MAX;
    nvmlReturn_t r;

    *nmem = *nsm = 0;
    if (!n->SupportedMem || !n->SupportedGfx)
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    /* the count is read after the call has set it */
    r = n->SupportedMem(dev, &got, mem);
    r = list(r, got, nmem);
    if (r != NVML_SUCCESS || !mem_mhz)
        return r;
    got = SN_HW_CLOCKS_MAX;
    r = n->SupportedGfx(dev, mem_mhz, &got, sm);
    return list(r, got, nsm);
}

static unsigned highest(const unsigned *v, unsigned n)
{
    unsigned best = 0;

    for (unsigned i = 0; i < n; i++)
        if (v[i] > best)
            best = v[i];
    return best;
}

static bool listed(const unsigned *v, unsigned n, unsigned x)
{
    for (unsigned i = 0; i < n; i++)
        if (v[i] == x)
            return true;
    return false;
}

/* "1980, 1965, ... 345 MHz": the first and last few of a list */
static void say_list(char *buf, size_t size, const unsigned *v, unsigned n)
{
    struct sn_buf b;

    sn_buf_init(&b);
    for (unsigned i = 0; i < n; i++) {
        if (n > 8 && i == 5) {
            sn_buf_puts(&b, ", ...");
            i = n - 2;
            continue;
        }
        sn_buf_printf(&b, "%s%u", i ? ", " : "", v[i]);
    }
    snprintf(buf, size, "%s MHz", b.len ? b.data : "none");
    sn_buf_release(&b);
}

nvmlReturn_t sn__hw_clocks_pick(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                                unsigned *sm_mhz, unsigned *mem_mhz, char *why,
                                size_t why_size)
{
    unsigned mem[SN_HW_CLOCKS_MAX], sm[SN_HW_CLOCKS_MAX], nmem, nsm;
    char e[160], l[200];
    nvmlReturn_t r;

    r = sn__hw_clocks_supported(n, dev, 0, mem, &nmem, sm, &nsm);
    if (r == NVML_SUCCESS && nmem == 0)
        r = NVML_ERROR_NOT_SUPPORTED;
    if (r != NVML_SUCCESS) {
        snprintf(why, why_size, "cannot list the supported memory clocks: %s",
                 sn__hw_nvml_error(n, r, e, sizeof(e)));
        return r;
    }
    if (!*mem_mhz)
        *mem_mhz = highest(mem, nmem);
    if (!listed(mem, nmem, *mem_mhz)) {
        say_list(l, sizeof(l), mem, nmem);
        snprintf(why, why_size,
                 "memory clock %u MHz is not supported (supported: %s)",
                 *mem_mhz, l);
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    r = sn__hw_clocks_supported(n, dev, *mem_mhz, mem, &nmem, sm, &nsm);
    if (r != NVML_SUCCESS || nsm == 0) {
        snprintf(why, why_size,
                 "cannot list the SM clocks at memory clock %u MHz: %s",
                 *mem_mhz,
                 sn__hw_nvml_error(n, r ? r : NVML_ERROR_NOT_SUPPORTED, e,
                                   sizeof(e)));
        return r ? r : NVML_ERROR_NOT_SUPPORTED;
    }
    if (!*sm_mhz)
        *sm_mhz = highest(sm, nsm);
    if (!listed(sm, nsm, *sm_mhz)) {
        say_list(l, sizeof(l), sm, nsm);
        snprintf(why, why_size,
                 "SM clock %u MHz is not supported at memory clock %u MHz "
                 "(supported: %s)",
                 *sm_mhz, *mem_mhz, l);
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    return NVML_SUCCESS;
}

nvmlReturn_t sn__hw_clocks_lock(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                                unsigned sm_mhz, unsigned mem_mhz,
                                struct sn__hw_clock_hold *h)
{
    nvmlReturn_t r;

    if (!n->SetGpuLocked || !n->ResetGpuLocked || !n->SetMemLocked ||
        !n->ResetMemLocked)
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    h->dev = dev;
    /* memory first: the SM clocks NVML offers depend on it */
    r = n->SetMemLocked(dev, mem_mhz, mem_mhz);
    if (r != NVML_SUCCESS)
        return r;
    h->mem_locked = true;
    h->mem_mhz = mem_mhz;
    r = n->SetGpuLocked(dev, sm_mhz, sm_mhz);
    if (r != NVML_SUCCESS) {
        n->ResetMemLocked(dev);
        h->mem_locked = false;
        h->mem_mhz = 0;
        return r;
    }
    h->sm_locked = true;
    h->sm_mhz = sm_mhz;
    return NVML_SUCCESS;
}

nvmlReturn_t sn__hw_power_limit_set(const struct sn__hw_nvml *n,
                                    nvmlDevice_t dev, unsigned mw,
                                    struct sn__hw_clock_hold *h)
{
    unsigned lo = 0, hi = 0;
    nvmlReturn_t r;

    if (!n->SetPowerLimit || !n->PowerConstraints ||
        !(n->PowerLimit || n->PowerEnforced))
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    r = n->PowerConstraints(dev, &lo, &hi);
    if (r != NVML_SUCCESS)
        return r;
    if (mw < lo || mw > hi)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (!h->power_set) {
        /* the limit the administrator set, not the enforced one (which
         * other limiters may lower) where the driver tells them apart */
        r = n->PowerLimit ? n->PowerLimit(dev, &h->power_before_mw)
                          : NVML_ERROR_FUNCTION_NOT_FOUND;
        if (r != NVML_SUCCESS && n->PowerEnforced)
            r = n->PowerEnforced(dev, &h->power_before_mw);
        if (r != NVML_SUCCESS)
            return r;
    }
    h->dev = dev;
    r = n->SetPowerLimit(dev, mw);
    if (r != NVML_SUCCESS)
        return r;
    h->power_set = true;
    h->power_mw = mw;
    return NVML_SUCCESS;
}

void sn__hw_clocks_now(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                       unsigned *sm_mhz, unsigned *mem_mhz)
{
    *sm_mhz = *mem_mhz = 0;
    if (!n->Clock)
        return;
    if (n->Clock(dev, NVML_CLOCK_SM, sm_mhz) != NVML_SUCCESS)
        *sm_mhz = 0;
    if (n->Clock(dev, NVML_CLOCK_MEM, mem_mhz) != NVML_SUCCESS)
        *mem_mhz = 0;
}

nvmlReturn_t sn__hw_clocks_restore(const struct sn__hw_nvml *n,
                                   struct sn__hw_clock_hold *h)
{
    nvmlReturn_t r, first = NVML_SUCCESS;

    if (h->sm_locked) {
        r = n->ResetGpuLocked(h->dev);
        first = r;
    }
    if (h->mem_locked) {
        r = n->ResetMemLocked(h->dev);
        if (first == NVML_SUCCESS)
            first = r;
    }
    if (h->power_set) {
        r = n->SetPowerLimit(h->dev, h->power_before_mw);
        if (first == NVML_SUCCESS)
            first = r;
    }
    memset(h, 0, sizeof(*h));
    return first;
}
